import Common
import Foundation
import Glibc
import Testing
import Transport

@testable import Server

/// `travel-server --max-connections N`: what it accepts, and the open-file limit it needs.
@Suite struct ServerCommandLineTests {
  @Test func maxConnections_takesAWholeNumberFromOneToAMillion() throws {
    #expect(try ServerCommandLine.maxConnections("10100") == 10_100)
    #expect(try ServerCommandLine.maxConnections("1") == 1)
    for bad in ["0", "-5", "ten", "1000001", "", "4096x"] {
      let error = #expect(throws: CLIError.self) { try ServerCommandLine.maxConnections(bad) }
      #expect(error?.exitStatus == 2)
      #expect(error?.message.contains("--max-connections") == true)
      #expect(error?.message.contains("1 to 1,000,000") == true)
    }
  }

  @Test func trustedProxies_takeIPAddresses_andOnlyTheirXRealIPIsBelieved() throws {
    #expect(try ServerCommandLine.trustedProxies("127.0.0.1, ::1") == ["127.0.0.1", "::1"])
    for bad in ["localhost", "10.0.0.300", "", "127.0.0.1,,::1"] {
      let error = #expect(throws: CLIError.self) { try ServerCommandLine.trustedProxies(bad) }
      #expect(error?.exitStatus == 2)
      #expect(error?.message.contains("--trusted-proxy") == true)
    }
    var request = HTTPRequest(method: "POST", path: "/v1/sessions", remoteAddress: "127.0.0.1")
    request.headers["x-real-ip"] = "203.0.113.7"
    #expect(TravelServer.behindProxies(request, ["127.0.0.1"]).remoteAddress == "203.0.113.7")
    #expect(TravelServer.behindProxies(request, []).remoteAddress == "127.0.0.1")
    #expect(TravelServer.behindProxies(request, ["10.0.0.1"]).remoteAddress == "127.0.0.1")
    request.headers["x-real-ip"] = "evil\r\nheader"
    #expect(TravelServer.behindProxies(request, ["127.0.0.1"]).remoteAddress == "127.0.0.1")
  }

  @Test func allowDescriptors_raisesTheSoftLimit_andRefusesBeyondTheHardOne() throws {
    var before = rlimit()
    #expect(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &before) == 0)
    try ServerCommandLine.allowDescriptors(for: 16)
    guard before.rlim_max != rlim_t.max, before.rlim_max < rlim_t(ServerCommandLine.connectionLimit) else { return }
    let error = #expect(throws: CLIError.self) {
      try ServerCommandLine.allowDescriptors(for: Int(before.rlim_max))
    }
    #expect(error?.code == "open_file_limit")
    #expect(error?.exitStatus == 1)
    #expect(error?.message.contains("ulimit -Hn") == true)
  }
}
