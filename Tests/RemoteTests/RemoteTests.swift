import Common
import Foundation
import Testing

@testable import Remote

struct RemotePlaceholderTests {
  @Test func unreachableNamesTheServer() {
    let error = APIClient.unreachable(URL(string: "http://127.0.0.1:9")!, URLError(.cannotConnectToHost))
    #expect(error.code == "server_unreachable")
    #expect(error.message == "cannot reach the server at http://127.0.0.1:9: connection refused")
  }
}
