import Common
import Foundation
import Testing

@testable import Remote

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

struct RemotePlaceholderTests {
  @Test func unreachableNamesTheServer() {
    let error = APIClient.unreachable(URL(string: "http://127.0.0.1:9")!, URLError(.cannotConnectToHost))
    #expect(error.code == "server_unreachable")
    #expect(error.message == "cannot reach the server at http://127.0.0.1:9: connection refused")
  }
}

struct APIClientSessionTests {
  @Test func clientsOfOneProcessShareOneSession_soConnectionsAreReused() {
    let one = APIClient(server: URL(string: "http://127.0.0.1:8080")!)
    let two = APIClient(server: URL(string: "http://127.0.0.1:9090")!, token: { "t" })
    let quick = APIClient(server: URL(string: "http://127.0.0.1:8080")!, timeout: 2)
    #expect(one.session === two.session)
    #expect(quick.session !== one.session)
    #expect(quick.session.configuration.timeoutIntervalForRequest == 2)
  }
}
