import Common
import CommonTesting
import Foundation
import Testing

@testable import CommonUI

/// The shared views (calendar picker, price calculator, sign-in form, map) at fixed sizes.
@Suite struct SharedViewSnapshotTests {
  let march = LocalDate(year: 2026, month: 3, day: 12)!

  @Test func calendar_navigationAndSingleDate() throws {
    var state = CalendarPickerState(cursor: march, earliest: LocalDate(year: 2026, month: 3, day: 4))
    try assertSnapshot(of: CalendarPicker(state: state), width: 30, height: 10, named: "calendar")
    #expect(state.handle(.right) == .moved)
    #expect(state.handle(.down) == .moved)
    #expect(state.cursor == LocalDate(year: 2026, month: 3, day: 20))
    #expect(state.handle(.pageDown) == .moved)
    #expect(state.cursor == LocalDate(year: 2026, month: 4, day: 20))
    #expect(state.handle(.end) == .moved)
    #expect(state.cursor == LocalDate(year: 2026, month: 4, day: 30))
    #expect(state.handle(.home) == .moved)
    #expect(state.cursor == LocalDate(year: 2026, month: 4, day: 1))
    _ = state.handle(.pageUp)
    _ = state.handle(.up)
    #expect(state.cursor == LocalDate(year: 2026, month: 3, day: 4))  // not before the earliest day
    #expect(state.handle(.enter) == .dateChosen(LocalDate(year: 2026, month: 3, day: 4)!))
    #expect(state.handle(.tab) == nil)
  }

  /// #14: the Cars tab's time picker (it follows the calendar for a pick-up or a drop-off).
  @Test func timePicker_keysDigitsAndChoice() throws {
    var state = TimePickerState(minutes: 10 * 60 + 10)  // rounded to the nearest half hour
    #expect(state.text == "10:00")
    try assertSnapshot(of: TimePicker(state: state), width: 10, height: 9, named: "time-picker")
    #expect(state.handle(.down) == .moved)
    #expect(state.text == "10:30")
    _ = state.handle(.pageUp)
    #expect(state.text == "09:30")
    _ = state.handle(.home)
    _ = state.handle(.up)
    #expect(state.text == "00:00")  // not before midnight
    _ = state.handle(.end)
    _ = state.handle(.pageDown)
    #expect(state.text == "23:30")  // nor after the last step
    for digit in "1030" { _ = state.handle(.character(digit)) }
    #expect(state.text == "10:30")
    _ = state.handle(.character("9"))  // a fifth digit starts a new time
    #expect(state.text == "09:00")
    for digit in "45" { _ = state.handle(.character(digit)) }  // 945: 09:45, between two steps
    #expect(state.text == "10:00")
    _ = state.handle(.up)
    for digit in "99" { _ = state.handle(.character(digit)) }  // no time starts with 99: 9 starts again
    #expect(state.text == "09:00")
    #expect(state.handle(.tab) == nil)
    #expect(state.handle(.enter) == .chosen(9 * 60))
    #expect(TimePickerState.minutes(typed: "975") == nil)
    #expect(TimePickerState.minutes(typed: "94") == 9 * 60 + 40)
    #expect(TimePickerState.minutes(typed: "0930") == 9 * 60 + 30)
  }

  @Test func calendar_monthEndsClampAcrossMonths() {
    var state = CalendarPickerState(cursor: LocalDate(year: 2026, month: 1, day: 31)!)
    _ = state.handle(.pageDown)
    #expect(state.cursor == LocalDate(year: 2026, month: 2, day: 28))
    state.moveCursor(to: LocalDate(year: 2026, month: 12, day: 15)!)
    _ = state.handle(.pageDown)
    #expect(state.cursor == LocalDate(year: 2027, month: 1, day: 15))
  }

  @Test func calendar_rangeAndPriceShading() throws {
    var state = CalendarPickerState(cursor: march, selectsRange: true)
    #expect(state.handle(.enter) == .rangeStarted(march))
    for _ in 0..<3 { _ = state.handle(.right) }
    let end = march.adding(days: 3)
    #expect(state.handle(.enter) == .rangeChosen(DateRange(start: march, end: end)!))
    #expect(state.range == DateRange(start: march, end: end))
    var prices: [LocalDate: Money] = [:]
    for day in 1...31 {
      prices[LocalDate(year: 2026, month: 3, day: day)!] = Money(amount: Decimal(80 + (day * 37) % 90), currency: "EUR")
    }
    let picker = CalendarPicker(state: state, prices: prices)
    try assertSnapshot(of: picker, width: 30, height: 10, named: "calendar-range-prices")
    let frame = picker.rendered(width: 30, height: 10)
    #expect(frame[x: 14, y: 4].style == .reverse)  // 12 March: the range's start
    #expect(frame[x: 6, y: 5].style == .dim)  // 17 March: 169 EUR, the dearest third
    #expect(frame[x: 26, y: 2].style == .plain)  // 1 March: 117 EUR, the middle third
    // A second choice on or before the start starts over.
    #expect(state.handle(.enter) == .rangeStarted(end))
    _ = state.handle(.left)
    #expect(state.handle(.enter) == .rangeStarted(end.adding(days: -1)))
  }

  @Test func priceCalculator() throws {
    let view = PriceCalculatorView(
      lines: [
        ("Fare (2 adults)", Money(amount: 1224, currency: "EUR")),
        ("Taxes and airport charges", Money(amount: Decimal(string: "187.46")!, currency: "EUR")),
        ("Promo SPRING26", Money(amount: -50, currency: "EUR")),
      ], total: Money(amount: Decimal(string: "1361.46")!, currency: "EUR"))
    #expect(view.height == 5)
    try assertSnapshot(of: view, width: 36, height: 5, named: "price-calculator")
    try assertSnapshot(of: view, width: 24, height: 5, named: "price-calculator-narrow")
    let yen = PriceCalculatorView(
      lines: [("3 nights", Money(amount: 45000, currency: "JPY"))], total: Money(amount: 45000, currency: "JPY"),
      money: MoneyFormat(.german))
    try assertSnapshot(of: yen, width: 24, height: 3, named: "price-calculator-jpy")
  }

  @Test func signInForm_keysAndSubmit() throws {
    var state = SignInFormState()
    for character in "ada@example.com" { _ = state.handle(.character(character)) }
    #expect(state.handle(.enter) == .edited)
    #expect(state.focus == .password)
    for character in "s3cret!" { _ = state.handle(.character(character)) }
    #expect(state.isEditingText)
    try assertSnapshot(of: SignInForm(state: state), width: 40, height: 7, named: "sign-in")
    #expect(state.handle(.enter) == .submit(email: "ada@example.com", password: "s3cret!"))
    _ = state.handle(.tab)
    #expect(state.focus == .submit)
    #expect(!state.isEditingText)
    #expect(state.handle(.character("q")) == nil)
    state.message = "Wrong email or password."
    state.isSubmitting = true
    try assertSnapshot(of: SignInForm(state: state), width: 40, height: 7, named: "sign-in-error")
    #expect(state.handle(.enter) == .edited)
    _ = state.handle(.backTab)
    _ = state.handle(.backTab)
    #expect(state.focus == .email)
  }

  @Test func map_markersClustersPanAndZoom() throws {
    let markers = [
      MapMarker(latitude: 48.8566, longitude: 2.3522, count: 1240),  // Paris
      MapMarker(latitude: 51.5074, longitude: -0.1278, count: 2),  // London
      MapMarker(latitude: 40.4168, longitude: -3.7038),  // Madrid
      MapMarker(latitude: 52.52, longitude: 13.405),  // Berlin
      MapMarker(latitude: 41.9028, longitude: 12.4964),  // Rome
      MapMarker(latitude: 35.6762, longitude: 139.6503, count: 56789),  // Tokyo: off screen
    ]
    var viewport = MapViewport(latitude: 47, longitude: 5, zoom: 3)
    let map = MapView(markers: markers, viewport: viewport, title: "Hotels")
    try assertSnapshot(of: map, width: 40, height: 12, named: "map-europe")
    func press(_ key: Key) -> Bool { viewport.handle(key) }
    #expect(press(.character("+")))
    #expect(viewport.zoom == 4)
    #expect(press(.left))
    #expect(viewport.longitude == 5 - 22.5 / 4)
    #expect(!press(.enter))
    let region = viewport.region(width: 38, height: 9)
    #expect(region.contains(latitude: 47, longitude: 0))
    #expect(!region.contains(latitude: 35.6, longitude: 139.6))
    try assertSnapshot(
      of: MapView(markers: markers, viewport: viewport, title: "Hotels"), width: 40, height: 12, named: "map-zoomed")
    #expect(press(.character("0")))
    #expect(viewport == MapViewport())
    #expect(MapView.abbreviated(56789) == "56k")
    #expect(MapView.abbreviated(1240) == "1.2k")
    #expect(MapView.abbreviated(2_345_678) == "2.3M")
  }

  /// Issue #21: the world under the map — land and water told apart (a faint dot in each land
  /// cell in monochrome), shores and lake shores, borders, place names that never overlap.
  @Test func map_withTheBasemap_atEachLevelOfDetail() throws {
    let basemap = try Basemap.shared()
    let places = try MapPlaces.shared()
    let markers = [
      MapMarker(latitude: 48.8566, longitude: 2.3522, count: 1240),  // Paris
      MapMarker(latitude: 35.6762, longitude: 139.6503, count: 56),  // Tokyo
      MapMarker(latitude: 41.0136, longitude: 28.955),  // Istanbul
    ]
    let views: [(String, MapViewport, Int, Int)] = [
      ("map-basemap-world", MapViewport(latitude: 20, longitude: 0, zoom: 0), 80, 24),
      ("map-basemap-europe", MapViewport(latitude: 50, longitude: 10, zoom: 3), 80, 24),
      ("map-basemap-japan", MapViewport(latitude: 36, longitude: 138, zoom: 5), 60, 20),
      ("map-basemap-bosporus", MapViewport(latitude: 41.05, longitude: 29.02, zoom: 11), 60, 20),
      ("map-basemap-tokyo-bay", MapViewport(latitude: 35.55, longitude: 139.85, zoom: 9), 60, 20),
    ]
    for (name, viewport, width, height) in views {
      let map = MapView(markers: markers, viewport: viewport, title: "Map", basemap: basemap, places: places)
      try assertSnapshot(of: map, width: width, height: height, named: name)
    }
    // Land and water differ: a cell of open sea is blank, a cell inland is dotted.
    let world = MapView(
      markers: [], viewport: MapViewport(latitude: 0, longitude: 0, zoom: 2), basemap: basemap, places: nil
    ).rendered(width: 40, height: 14, theme: .monochrome).plainText
    #expect(world.contains("⠄"))
    // Names never overlap each other: each label is whole on its line.
    let europe = MapView(
      markers: [], viewport: MapViewport(latitude: 50, longitude: 10, zoom: 4), basemap: basemap, places: places
    ).rendered(width: 80, height: 24, theme: .monochrome).plainText
    for name in ["Paris", "London", "Berlin"] { #expect(europe.contains(name), "\(name) named") }
  }

  /// Colour themes fill land and water cells with their backgrounds, behind the dots and names.
  @Test func map_withTheBasemap_inColour_fillsLandAndWater() throws {
    let theme = try Theme.named(.dark, useColor: true)
    let map = MapView(
      markers: [MapMarker(latitude: 48.8566, longitude: 2.3522)],
      viewport: MapViewport(latitude: 45, longitude: 0, zoom: 4),
      basemap: try Basemap.shared(), places: try MapPlaces.shared())
    var buffer = Buffer(width: 60, height: 20, theme: theme)
    map.render(in: buffer.area, into: &buffer)
    let canvas = MapView.canvasArea(in: buffer.area)
    var backgrounds = Set<Color>()
    for y in canvas.y..<canvas.bottom {
      for x in canvas.x..<canvas.right {
        if let background = buffer[x: x, y: y].style.background { backgrounds.insert(background) }
      }
    }
    #expect(backgrounds.contains(try #require(theme.mapLand.background)))
    #expect(backgrounds.contains(try #require(theme.mapWater.background)))
  }

  @Test func brailleLine_isClippedToTheCanvas() {
    var canvas = BrailleCanvas(width: 4, height: 2)
    canvas.line(from: (-100, 3.5), to: (100, 3.5))
    for x in 0..<8 { #expect(canvas.isSet(dotX: x, dotY: 3)) }
    canvas.line(from: (-5, -5), to: (-1, 20))
    canvas.line(from: (0.5, 0.5), to: (7.5, 7.5), dotted: true)
    #expect(canvas.isSet(dotX: 0, dotY: 0))
    #expect(!canvas.isSet(dotX: 1, dotY: 1))
    #expect(canvas.isSet(dotX: 2, dotY: 2))
  }
}
