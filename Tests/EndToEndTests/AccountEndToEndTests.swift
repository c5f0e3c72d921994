import CommonTesting
import Foundation
import Testing

/// The Account feature end to end: the built `account` and `travel` executables on a fresh data
/// directory, with secrets on stdin as a script would give them; each test runs embedded and
/// against the suite's `travel-server` (``BackendMode``, ``SharedServer``: each test signs up users
/// of its own).
@Suite(.sharedServer) struct AccountEndToEndTests {
  static let password = "correct horse battery"
  /// What `signup` reads when piped: the password, then the same again (one per line).
  static let passwordTwice = password + "\n" + password + "\n"
  static let cardNumber = "4242424242424242"

  /// Runs one command line of `prefix` (`["account"]` or `["travel", "account"]`) on `directory`.
  struct User {
    let prefix: [String]
    let directory: TemporaryDirectory
    let backend: TestBackend

    @discardableResult
    func run(_ arguments: [String], stdin: String = "") throws -> ProductRunner.Result {
      let product = prefix[0]
      return try backend.run(
        product, Array(prefix.dropFirst()) + arguments + ["--data-dir", directory.path], stdin: stdin)
    }
  }

  static let prefixes: [[String]] = [["account"], ["travel", "account"]]

  @Test(arguments: prefixes, BackendMode.allCases)
  func newUser_signsUpSignsInEditsProfileSetsPreferencesAddsACard(prefix: [String], mode: BackendMode) throws {
    let backend = try TestBackend(mode)
    let ada = backend.email("ada")
    defer { backend.expectNoServerErrors() }
    let user = User(prefix: prefix, directory: TemporaryDirectory(prefix: "account-e2e"), backend: backend)
    let command = prefix.joined(separator: " ")

    let signup = try user.run(
      ["signup", "--email", ada, "--first-name", "Ada", "--last-name", "Lovelace"],
      stdin: Self.passwordTwice)
    #expect(signup.status == 0, "\(signup.stderr)")
    #expect(signup.stdout.contains("Account created for \(ada); sign in with: \(command) login --email"))

    let login = try user.run(["login", "--email", ada], stdin: Self.password + "\n")
    #expect(login.status == 0, "\(login.stderr)")
    #expect(login.stdout.contains("Welcome, Ada Lovelace"))

    let whoami = try user.run(["whoami", "--json"])
    #expect(whoami.status == 0)
    #expect(whoami.stdout.contains("\"email\" : \"\(ada)\""))

    let blank = try user.run(["profile", "--first-name", "  "])
    #expect(blank.status == 2)
    #expect(blank.stderr == "error: First Name is missing\n")
    let renamed = try user.run(["profile", "--first-name", " Augusta Ada ", "--last-name", "King"])
    #expect(renamed.status == 0)
    #expect(renamed.stdout.hasPrefix("Welcome, Augusta Ada King\n"))

    let preferences = try user.run([
      "preferences", "--currency", "EUR", "--language", "de", "--appearance", "dark", "--home-airport", "FRA",
    ])
    #expect(preferences.status == 0, "\(preferences.stderr)")
    #expect(preferences.stdout.contains("Währung: EUR"))
    #expect(preferences.stdout.contains("Heimatflughafen: FRA"))

    let add = try user.run(["cards", "add", "--json"], stdin: "4242 4242 4242 4242\n12/30\n123\n")
    #expect(add.status == 0, "\(add.stderr)")
    #expect(add.stdout.contains("\"isDefault\" : true"))
    let cards = try user.run(["cards", "list"])
    #expect(cards.stdout.contains("Visa •••• 4242"))

    let trips = try user.run(["trips", "list", "--json"])
    #expect(trips.status == 0)
    #expect(trips.stdout.contains("\"reservations\" : ["))
    #expect(try user.run(["trips", "list"]).stdout == "Noch keine Reisen\n")

    let logout = try user.run(["logout"])
    #expect(logout.status == 0)
    let after = try user.run(["cards", "list"])
    #expect(after.status == 1)
    #expect(after.stderr == "error: sign in first: account login --email …\n")
  }

  @Test(arguments: BackendMode.allCases)
  func travelTrips_isTheSameAsAccountTrips(mode: BackendMode) throws {
    let backend = try TestBackend(mode)
    let ada = backend.email("ada")
    defer { backend.expectNoServerErrors() }
    let directory = TemporaryDirectory(prefix: "account-e2e")
    let user = User(prefix: ["account"], directory: directory, backend: backend)
    try user.run(
      ["signup", "--email", ada, "--first-name", "Ada", "--last-name", "L"], stdin: Self.passwordTwice)
    try user.run(["login", "--email", ada], stdin: Self.password)
    let trips = try backend.run("travel", ["trips", "list", "--data-dir", directory.path])
    #expect(trips.status == 0, "\(trips.stderr)")
    #expect(trips.stdout == "No trips yet\n")
  }

  @Test(arguments: BackendMode.allCases)
  func secrets_appearNowhereInTheDataDirectory(mode: BackendMode) throws {
    let backend = try TestBackend(mode)
    let ada = backend.email("ada")
    defer { backend.expectNoServerErrors() }
    let directory = TemporaryDirectory(prefix: "account-e2e")
    let user = User(prefix: ["account"], directory: directory, backend: backend)
    try user.run(
      ["signup", "--email", ada, "--first-name", "Ada", "--last-name", "L"], stdin: Self.passwordTwice)
    try user.run(["login", "--email", ada], stdin: Self.password)
    let add = try user.run(["cards", "add"], stdin: "\(Self.cardNumber)\n12/30\n123\n")
    #expect(add.status == 0, "\(add.stderr)")
    #expect(!add.stdout.contains(Self.cardNumber))

    let files = try #require(FileManager.default.subpathsOfDirectory(atPath: directory.path) as [String]?)
    #expect(files.contains("session"))
    // The client's directory, and in server mode the server's (the store is there).
    var searched = 0
    for root in Set([directory.url, backend.storeDirectory(client: directory)]) {
      for file in try FileManager.default.subpathsOfDirectory(atPath: root.path) {
        let path = root.appendingPathComponent(file).path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
          continue
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        searched += 1
        for secret in [Self.password, Self.cardNumber, "4242 4242 4242 4242"] {
          for encoding in [Data(secret.utf8), Data(secret.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })] {
            #expect(data.range(of: encoding) == nil, "\(file) holds a secret in plain text")
          }
        }
      }
    }
    #expect(searched >= 2)  // at least the store and the session file
    // Nor does the server's access log (server mode).
    for secret in [Self.password, Self.cardNumber] {
      #expect(backend.server?.output.contains(secret) != true)
    }
  }

  @Test(arguments: BackendMode.allCases)
  func twoUsers_eachSeeOnlyTheirOwnCards(mode: BackendMode) throws {
    let backend = try TestBackend(mode)
    let (ada, bob) = (backend.email("ada"), backend.email("bob"))
    defer { backend.expectNoServerErrors() }
    let directory = TemporaryDirectory(prefix: "account-e2e")
    // Ada and Bob share one store and take turns signing in.
    let user = User(prefix: ["account"], directory: directory, backend: backend)
    for (email, number) in [(ada, "4242424242424242"), (bob, "5555555555554444")] {
      try user.run(["signup", "--email", email, "--first-name", "X", "--last-name", "Y"], stdin: Self.passwordTwice)
      try user.run(["login", "--email", email], stdin: Self.password)
      let add = try user.run(["cards", "add"], stdin: "\(number)\n12/30\n123\n")
      #expect(add.status == 0, "\(add.stderr)")
    }
    // Bob is signed in now.
    let bobs = try user.run(["cards", "list", "--json"])
    #expect(bobs.stdout.contains("\"last4\" : \"4444\""))
    #expect(!bobs.stdout.contains("\"last4\" : \"4242\""))
    try user.run(["login", "--email", ada], stdin: Self.password)
    let adas = try user.run(["cards", "list", "--json"])
    #expect(adas.stdout.contains("\"last4\" : \"4242\""))
    #expect(!adas.stdout.contains("\"last4\" : \"4444\""))
    // Ada cannot remove or pick Bob's card: it is "not found" for her.
    try user.run(["login", "--email", bob], stdin: Self.password)
    let bobCardID = try #require(Self.firstCardID(try user.run(["cards", "list", "--json"]).stdout))
    try user.run(["login", "--email", ada], stdin: Self.password)
    #expect(try user.run(["cards", "remove", bobCardID]).status == 1)
    #expect(try user.run(["cards", "default", bobCardID]).status == 1)
    #expect(try user.run(["trips", "show", "res_doesnotexist"]).status == 1)
  }

  @Test(arguments: BackendMode.allCases)
  func twoUsers_eachSeeAndCancelOnlyTheirOwnReservations(mode: BackendMode) throws {
    let backend = try TestBackend(mode)
    let (ada, bob) = (backend.email("ada"), backend.email("bob"))
    defer { backend.expectNoServerErrors() }
    let directory = TemporaryDirectory(prefix: "account-e2e")
    let user = User(prefix: ["travel", "account"], directory: directory, backend: backend)
    func travel(_ arguments: [String], stdin: String = "") throws -> ProductRunner.Result {
      try backend.run("travel", arguments + ["--data-dir", directory.path], stdin: stdin)
    }
    for email in [ada, bob] {
      try user.run(["signup", "--email", email, "--first-name", "X", "--last-name", "Y"], stdin: Self.passwordTwice)
    }
    try user.run(["login", "--email", ada], stdin: Self.password)
    try user.run(["cards", "add"], stdin: "\(Self.cardNumber)\n12/30\n123\n")
    // Ada rents a car a month from now (any bookable reservation will do).
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "yyyy-MM-dd"
    let pickup = formatter.string(from: Date().addingTimeInterval(30 * 86_400))
    let dropoff = formatter.string(from: Date().addingTimeInterval(33 * 86_400))
    let search = try travel([
      "cars", "search", "--pickup", "LAX", "--from", "\(pickup)T10:00", "--to", "\(dropoff)T10:00", "--limit", "1",
      "--json",
    ])
    #expect(search.status == 0, "\(search.stderr)")
    let offers = try JSONSerialization.jsonObject(with: Data(search.stdout.utf8)) as? [String: Any]
    let offerID = try #require((offers?["offers"] as? [[String: Any]])?.first?["id"] as? String)
    let booking = try travel(["cars", "book", offerID, "--driver", "Ada Lovelace", "--json"])
    #expect(booking.status == 0, "\(booking.stderr)")
    let reservation = try JSONSerialization.jsonObject(with: Data(booking.stdout.utf8)) as? [String: [String: Any]]
    let id = try #require(reservation?["reservation"]?["id"] as? String)

    let adas = try travel(["trips", "list"])
    #expect(adas.stdout.hasPrefix(id))
    let ics = directory.url.appendingPathComponent("car.ics")
    #expect(try travel(["trips", "export", id, "--ics", ics.path]).status == 0)
    let calendar = try String(contentsOf: ics, encoding: .utf8)
    #expect(calendar.contains("UID:\(id)@travel.app\r\n"))
    #expect(
      calendar.contains("DTSTART;TZID=America/Los_Angeles:\(pickup.replacingOccurrences(of: "-", with: ""))T100000"))

    try user.run(["login", "--email", bob], stdin: Self.password)
    #expect(try travel(["trips", "list"]).stdout == "No trips yet\n")
    let show = try travel(["trips", "show", id])
    #expect(show.status == 1)
    let cancel = try travel(["trips", "cancel", id])
    #expect(cancel.status == 1)
    #expect(try travel(["trips", "export", id, "--ics", ics.path]).status == 1)

    try user.run(["login", "--email", ada], stdin: Self.password)
    let still = try travel(["trips", "show", id, "--json"])
    #expect(still.stdout.contains("\"status\" : \"confirmed\""))
    let cancelled = try travel(["trips", "cancel", id, "--yes"])
    #expect(cancelled.status == 0, "\(cancelled.stderr)")
    #expect(cancelled.stdout.contains("Cancelled \(id); refunded"), "\(cancelled.stdout)")
  }

  static func firstCardID(_ json: String) -> String? {
    guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
      let cards = object["cards"] as? [[String: Any]]
    else { return nil }
    return cards.first?["id"] as? String
  }

  @Test(arguments: BackendMode.allCases)
  func badInput_givesTheContractExitCodeAndChangesNothing(mode: BackendMode) throws {
    let backend = try TestBackend(mode)
    let ada = backend.email("ada")
    defer { backend.expectNoServerErrors() }
    let directory = TemporaryDirectory(prefix: "account-e2e")
    let user = User(prefix: ["account"], directory: directory, backend: backend)
    func expect(_ arguments: [String], stdin: String = "", status: Int32, _ message: String) throws {
      let result = try user.run(arguments, stdin: stdin)
      #expect(result.status == status, "\(arguments): \(result.stderr)")
      #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
    }
    let signup = ["signup", "--first-name", "Ada", "--last-name", "L", "--email"]
    try expect(signup + ["ada.example.com"], stdin: Self.passwordTwice, status: 2, "invalid email \"ada.example.com\"")
    try expect(signup + [ada], stdin: "short\n", status: 2, "password is too short")
    try expect(["login", "--email", ada], stdin: Self.password, status: 1, "email or password is wrong")
    try user.run(signup + [ada], stdin: Self.passwordTwice)
    try expect(
      ["login", "--email", ada], stdin: "wrong password", status: 1, "email or password is wrong")

    // An unknown session token.
    try Data("0000000000000000000000000000000000000000000000000000000000000000\n".utf8).write(
      to: directory.url.appendingPathComponent("session"))
    try expect(["whoami"], status: 1, "sign in")

    try user.run(["login", "--email", ada], stdin: Self.password)
    try expect(
      ["cards", "add"], stdin: "4242424242424241\n12/30\n123\n", status: 2,
      "card number is not valid (its last digit does not match the others)")
    try expect(["cards", "add"], stdin: "4242424242424242\n09/24\n123\n", status: 2, "card expired 09/24")
    try expect(["cards", "add"], stdin: "4242424242424242\n12/30\n12\n", status: 2, "CVC must be 3 digits for Visa")
    #expect(try user.run(["cards", "list"]).stdout.contains("No payment cards yet"))
    try expect(["preferences", "--currency", "XYZ"], status: 2, "unknown currency \"XYZ\"")
    try expect(["preferences", "--language", "tlh"], status: 2, "unknown language \"tlh\"")
    try expect(["preferences", "--home-airport", "XQX"], status: 2, "XQX")
    let preferences = try user.run(["preferences", "--json"])
    #expect(preferences.stdout.contains("\"currency\" : \"USD\""))
    #expect(preferences.stdout.contains("\"homeAirport\" : null"))
  }

  @Test func corruptedStore_isAClearErrorAndTheFileIsLeftUntouched() throws {
    let directory = TemporaryDirectory(prefix: "account-e2e")
    let store = directory.url.appendingPathComponent("travel.sqlite3")
    let garbage = Data("this is not a database, it is a shopping list: eggs, milk\n".utf8)
    try garbage.write(to: store)
    let result = try ProductRunner().run(
      "account", ["login", "--email", "ada@example.com", "--data-dir", directory.path], stdin: Self.password)
    #expect(result.status == 1)
    #expect(!result.stderr.isEmpty)
    #expect(!result.stderr.contains("Fatal error"))
    #expect(try Data(contentsOf: store) == garbage)
  }
}
