import Common
import CommonTesting
import Foundation
import Testing

@testable import Hotel

@Suite struct HotelCommandsTests {
  func run(_ arguments: [String], service: FakeHotelService = FakeHotelService(), dataDir: URL? = nil) -> (
    Int32, Console
  ) {
    let console = Console.capturing()
    let environment = HotelEnvironment(service: { _ in service }, now: { Date(timeIntervalSince1970: 1_796_040_000) })
    var env: [String: String] = [:]
    if let dataDir { env["TRAVEL_DATA_DIR"] = dataDir.path }
    let status = CommandLineTool(root: HotelCommands.root(environment: environment)).run(
      arguments: arguments, environment: env, console: console)
    return (status, console)
  }

  let stay = ["--check-in", "2026-12-20", "--check-out", "2026-12-23"]

  @Test func help_listsTheCommands() {
    let (status, console) = run(["--help"])
    #expect(status == 0)
    #expect(console.output.hasPrefix("USAGE: hotel"))
    for command in ["search", "show", "book", "map"] { #expect(console.output.contains("  \(command)")) }
    #expect(console.output.contains("Free cancellation until 24 hours before check-in"))
  }

  @Test func unknownCommand_exitsTwo() {
    let (status, console) = run(["nonsense"])
    #expect(status == 2)
    #expect(console.errorOutput.contains("nonsense"))
  }

  @Test func search_json_hasExactlyTheContractKeys() throws {
    let (status, console) = run(["search", "--near", "Paris"] + stay + ["--guests", "2", "--json"])
    #expect(status == 0)
    let document = try JSONSerialization.jsonObject(with: Data(console.output.utf8)) as? [String: Any]
    let offers = try #require(document?["offers"] as? [[String: Any]])
    #expect(offers.count == 2)
    #expect(
      Set(offers[0].keys) == [
        "id", "hotelId", "name", "stars", "latitude", "longitude", "distanceKm", "roomType", "nights",
        "roomsAvailable", "nightlyRate", "total",
      ])
    #expect((offers[0]["total"] as? [String: String]) == ["amount": "330.00", "currency": "EUR"])
    #expect(Set(document?.keys.map { $0 } ?? []) == ["offers"])
  }

  @Test func search_human_listsOffersWithIds() {
    let service = FakeHotelService()
    let (status, console) = run(["search", "--near", "Paris"] + stay + ["--guests", "2"], service: service)
    #expect(status == 0)
    #expect(console.output.contains("3 nights, 2 guests, 1 room"))
    #expect(console.output.contains("Quiet Harbour Hotel — double"))
    #expect(console.output.contains("€100.00/night, total €330.00"))
    #expect(service.recordedCalls == ["search Paris 2026-12-20 2026-12-23 g2 r1"])
  }

  @Test(arguments: [
    (["--check-in", "2026-13-01", "--check-out", "2026-12-23"], "invalid --check-in"),
    (["--check-in", "2026-12-20", "--check-out", "tomorrow"], "invalid --check-out"),
    (["--check-in", "2026-12-20"], "missing --check-out"),
    (["--check-in", "2026-12-20", "--check-out", "2026-12-23", "--guests", "two"], "invalid --guests"),
    (["--check-in", "2026-12-20", "--check-out", "2026-12-23", "--radius-km", "ten"], "invalid --radius-km"),
    (["--check-in", "2026-12-20", "--check-out", "2026-12-23", "--max-price", "1e9"], "invalid --max-price"),
    (
      ["--check-in", "2026-12-20", "--check-out", "2026-12-23", "--amenities", "wifi,jacuzzi"],
      "unknown amenity \"jacuzzi\""
    ),
    (["--check-in", "2026-12-20", "--check-out", "2026-12-23", "--sort", "cheapest"], "invalid --sort"),
    (["--check-in", "2026-12-20", "--check-out", "2026-12-23", "--limit", "0"], "invalid --limit"),
  ])
  func search_badInput_exitsTwo_beforeAnySearch(arguments: [String], message: String) {
    let service = FakeHotelService()
    let (status, console) = run(["search", "--near", "Paris"] + arguments, service: service)
    #expect(status == 2)
    #expect(console.errorOutput.contains(message), "\(console.errorOutput)")
    #expect(service.recordedCalls.isEmpty)
  }

  @Test func serviceInvalidInput_exitsTwo_refusal_exitsOne() {
    let service = FakeHotelService()
    service.failure = .invalid("unknown_place", "unknown place \"Atlantis\": expected a city name")
    let (status, console) = run(["search", "--near", "Atlantis"] + stay + ["--json"], service: service)
    #expect(status == 2)
    #expect(console.output.contains("\"code\" : \"unknown_place\""))
    service.failure = .refused("sold_out", "sold out")
    #expect(run(["search", "--near", "Paris"] + stay, service: service).0 == 1)
  }

  @Test func show_withDates_listsOffersAndTheCancellationDeadline() {
    let (status, console) = run(["show", "h2988507-1"] + stay)
    #expect(status == 0)
    #expect(console.output.contains("Quiet Harbour Hotel"))
    #expect(console.output.contains("Free cancellation until 2026-12-19 15:00 hotel time (Europe/Paris"))
    #expect(console.output.contains("nights: 2026-12-20 €100.00, 2026-12-21 €100.00, 2026-12-22 €100.00"))
    #expect(console.output.contains("Lovely."))
    #expect(run(["show", "h2988507-1", "--check-in", "2026-12-20"]).0 == 2)
  }

  @Test func book_needsASession_andAValidGuestAndOffer() throws {
    let directory = TemporaryDirectory()
    let offer = FakeHotelService.offer().id
    let service = FakeHotelService()
    #expect(run(["book", offer, "--guest", "Ada 2"], service: service, dataDir: directory.url).0 == 2)
    #expect(run(["book", "nonsense", "--guest", "Ada Lovelace"], service: service, dataDir: directory.url).0 == 2)
    let (status, console) = run(["book", offer, "--guest", "Ada Lovelace"], service: service, dataDir: directory.url)
    #expect(status == 1)
    #expect(console.errorOutput.contains("sign in first"))
    try SessionFile(dataDirectory: directory.url).write("tok123")
    let (ok, out) = run(
      ["book", offer, "--guest", "Ada  Lovelace", "--json"], service: service, dataDir: directory.url)
    #expect(ok == 0)
    #expect(out.output.contains("\"id\" : \"res_1\""))
    #expect(service.recordedCalls == ["book \(offer) Ada Lovelace tok123"])
  }

  @Test func map_writesAnSVGWithDotsCentreScaleAndLegend() throws {
    let directory = TemporaryDirectory()
    let path = directory.url.appendingPathComponent("paris.svg").path
    let (status, console) = run(["map", "--near", "Paris", "--svg", path])
    #expect(status == 0, "\(console.errorOutput)")
    let svg = try String(contentsOfFile: path, encoding: .utf8)
    #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
    #expect(svg.components(separatedBy: "<title>").count - 1 == 3)  // two priced hotels + one full
    #expect(svg.contains("stroke-dasharray"))  // the radius
    #expect(svg.contains(" km</text>"))  // the scale bar
    #expect(svg.contains("nightly rate from (EUR)"))
    #expect(svg.contains("no free room"))
    #expect(console.output.contains("3 hotels"))
  }
}
