import Common
import CommonUI
import Foundation
import Reactive

/// The results of a search as a table.
///
/// Keys: ↑ ↓ PgUp PgDn select; `s` next sort order (price, distance, stars, rating); `f` next
/// minimum of stars (any, 3, 4, 5); Enter opens the hotel's details; `m` the map of the results.
@MainActor
final class HotelResultsScreen: Screen {
  let title = L("Results")
  let model: HotelResultsViewModel
  let request: HotelSearchRequest
  private let environment: HotelScreenEnvironment
  private let intents = PassthroughSubject<Navigation, Never>()
  var selection = SelectionState()
  private var visibleRows = 10

  init(model: HotelResultsViewModel, request: HotelSearchRequest, environment: HotelScreenEnvironment) {
    self.model = model
    self.request = request
    self.environment = environment
  }

  var changes: AnyPublisher<Void, Never> {
    anyChange([model.$offers.void, model.$isLoading.void, model.$errorMessage.void, model.$emptySearch.void])
  }
  var navigation: AnyPublisher<Navigation, Never> { intents.eraseToAnyPublisher() }
  var isAnimating: Bool { model.isLoading }
  var keyHints: [KeyHint] {
    [
      KeyHint("↑↓", "move"), KeyHint("Enter", "details"), KeyHint("s", "sort"), KeyHint("f", "stars"),
      KeyHint("m", "map"),
    ]
  }

  func render(in area: Rect, into buffer: inout Buffer) {
    let theme = buffer.theme
    let stars = model.filter.minStars.map { L("\($0)★ and up") } ?? L("any stars")
    Label(
      Line([
        Span("\(request.place)", style: theme.accent),
        Span(
          "  \(request.checkIn) → \(request.checkOut) · \(request.guests) guest\(request.guests == 1 ? "" : "s") · "
            + "\(request.rooms) room\(request.rooms == 1 ? "" : "s")"),
      ])
    ).render(in: area.row(0), into: &buffer)
    // When the place has more offers than one answer holds, say so (a sort or filter asks again).
    let count =
      model.matched > model.received && !model.isLoading
      ? L("\(model.offers.count) offers (the best \(model.received) of \(model.matched))")
      : L("\(model.offers.count) offers")
    Label(L("\(count) · sorted by \(model.sort.rawValue) · \(stars)"), style: theme.muted)
      .render(in: area.row(1), into: &buffer)
    let body = area.inset(top: 3)
    if model.isLoading {
      Spinner(L("Searching hotels…")).render(in: body.row(0), into: &buffer)
      return
    }
    if let message = model.errorMessage {
      Label(message, style: theme.error).render(in: body.row(0), into: &buffer)
      return
    }
    if model.offers.isEmpty {
      Paragraph(model.emptyMessage ?? L("No hotel matches: press f to change the stars filter."), style: theme.muted)
        .render(in: Rect(x: body.x, y: body.y, width: body.width, height: min(3, body.height)), into: &buffer)
      return
    }
    visibleRows = Table.visibleRows(in: body)
    selection.count = model.offers.count
    selection.scroll(visibleRows: visibleRows)
    let money = environment.money
    let rows = model.offers.map { offer in
      [
        offer.name, offer.roomType.rawValue, String(repeating: "★", count: offer.stars),
        String(format: "%.1f", locale: Localization.current.locale, offer.guestRating),
        String(format: "%.1f", locale: Localization.current.locale, offer.distanceKm),
        money.string(offer.nightlyRate), money.string(offer.total),
      ]
    }
    Table(
      columns: [
        .init(L("Hotel"), .fill), .init(L("Room"), .length(7)), .init(L("Stars"), .length(5)),
        .init(L("Rating"), .length(6), alignment: .trailing), .init("km", .length(5), alignment: .trailing),
        .init(L("Night"), .length(PriceColumn.width(rows, column: 5, atLeast: 10)), alignment: .trailing),
        .init(L("Total"), .length(PriceColumn.width(rows, column: 6, atLeast: 11)), alignment: .trailing),
      ], rows: rows, state: selection
    ).render(in: body, into: &buffer)
  }

  func handle(_ key: Key) -> KeyResult {
    switch key {
    case .character("s"):
      let all = HotelSortOrder.allCases
      model.sortChanged(all[(all.firstIndex(of: model.sort)! + 1) % all.count])
      selection.select(0)
      return .handled
    case .character("f"):
      let steps: [Int?] = [nil, 3, 4, 5]
      let index = steps.firstIndex(of: model.filter.minStars) ?? 0
      var filter = model.filter
      filter.minStars = steps[(index + 1) % steps.count]
      model.filterChanged(filter)
      selection.select(0)
      return .handled
    case .character("m"):
      let map = HotelMapViewModel(offers: model.$offers.eraseToAnyPublisher())
      intents.send(.push(HotelMapScreen(model: map, fitting: model.offers, title: L("Map · \(request.place)"))))
      return .handled
    case .enter:
      guard let index = selection.selected, model.offers.indices.contains(index) else { return .handled }
      intents.send(.push(HotelDetailsScreen(offer: model.offers[index], results: model, environment: environment)))
      return .handled
    default:
      selection.count = model.offers.count
      return selection.handle(key, visibleRows: visibleRows) ? .handled : .ignored
    }
  }
}

/// The search's results on a map over the world (coasts, lakes, borders, place names): single
/// hotels as dots, clusters with their counts, from ``HotelMapViewModel`` for the region on
/// screen; at the world zoom one cluster shows where the results are.
///
/// It opens on the closest zoom that shows every result (fitted to the map's size when first
/// drawn). Keys: arrows pan, `+` `-` zoom, `0` the whole world (``MapViewport``).
@MainActor
final class HotelMapScreen: Screen {
  let title: String
  let model: HotelMapViewModel
  var viewport: MapViewport
  private var fitting: [HotelOffer]?
  private var asked: (GeoRect, Int, Int)?

  init(model: HotelMapViewModel, viewport: MapViewport, title: String = L("Map")) {
    self.model = model
    self.viewport = viewport
    self.title = title
  }

  /// A map that opens showing every one of `offers`.
  init(model: HotelMapViewModel, fitting offers: [HotelOffer], title: String = L("Map")) {
    self.model = model
    viewport = MapViewport()
    fitting = offers
    self.title = title
  }

  var changes: AnyPublisher<Void, Never> { anyChange([model.$markers.void, model.$message.void]) }
  var keyHints: [KeyHint] { MapView.keyHints }

  func render(in area: Rect, into buffer: inout Buffer) {
    let canvas = MapView.canvasArea(in: area)
    if let offers = fitting {
      fitting = nil
      let fit = HotelMapViewModel.viewport(fitting: offers, columns: canvas.width, rows: canvas.height)
      viewport = MapViewport(latitude: fit.latitude, longitude: fit.longitude, zoom: fit.zoom)
    }
    let region = viewport.region(width: canvas.width, height: canvas.height)
    let rect = GeoRect(
      south: region.minLatitude, west: region.minLongitude, north: region.maxLatitude, east: region.maxLongitude)
    if asked.map({ $0.0 != rect || $0.1 != canvas.width || $0.2 != canvas.height }) ?? true {
      asked = (rect, canvas.width, canvas.height)
      model.viewportChanged(rect, columns: canvas.width, rows: canvas.height)
    }
    HotelMapView(markers: model.markers, viewport: viewport, title: title).render(in: area, into: &buffer)
    // Why the map is empty, on the canvas's first row.
    if let message = model.message, canvas.height > 0 {
      Label(message, style: buffer.theme.muted).render(in: canvas.row(0), into: &buffer)
    }
  }

  func handle(_ key: Key) -> KeyResult { viewport.handle(key) ? .handled : .ignored }
}

/// CommonUI's map view over hotel map markers (a cluster's count, a hotel's dot), on the shared
/// basemap with the reference data's places named (a blank field if the map data cannot be read).
struct HotelMapView: Widget {
  var markers: [HotelMapMarker]
  var viewport: MapViewport
  var title: String?

  func render(in area: Rect, into buffer: inout Buffer) {
    MapView(
      markers: markers.map { MapMarker(latitude: $0.latitude, longitude: $0.longitude, count: $0.count) },
      viewport: viewport, title: title, basemap: try? Basemap.shared(), places: try? MapPlaces.shared()
    ).render(in: area, into: &buffer)
  }
}

/// One hotel: the offer, then its description, reviews and rooms as they load (a spinner until
/// then; loaded once per search by ``HotelResultsViewModel``).
///
/// Keys: ↑ ↓ select a room, Enter books it.
@MainActor
final class HotelDetailsScreen: Screen {
  let offer: HotelOffer
  let results: HotelResultsViewModel
  private let environment: HotelScreenEnvironment
  private let intents = PassthroughSubject<Navigation, Never>()
  var selection = SelectionState()

  init(offer: HotelOffer, results: HotelResultsViewModel, environment: HotelScreenEnvironment) {
    self.offer = offer
    self.results = results
    self.environment = environment
    results.rowShown(offer.hotelId)
  }

  var title: String { offer.name }
  var changes: AnyPublisher<Void, Never> { results.$rows.void }
  var navigation: AnyPublisher<Navigation, Never> { intents.eraseToAnyPublisher() }
  var isAnimating: Bool { state == .loading || state == nil }
  var keyHints: [KeyHint] { [KeyHint("↑↓", "room"), KeyHint("Enter", "book")] }
  private var state: HotelRowState? { results.rows[offer.hotelId] }

  func render(in area: Rect, into buffer: inout Buffer) {
    let theme = buffer.theme
    Label(
      Line([
        Span(offer.name, style: theme.accent), Span("  " + String(repeating: "★", count: offer.stars)),
        Span(
          String(
            format: "  %.1f/10 · %.1f km", locale: Localization.current.locale, offer.guestRating, offer.distanceKm),
          style: theme.muted),
      ])
    ).render(in: area.row(0), into: &buffer)
    Label("Amenities: " + Amenity.displayList(offer.amenities), style: theme.muted)
      .render(in: area.row(1), into: &buffer)
    let body = area.inset(top: 3)
    switch state {
    case .loading, nil:
      Spinner(L("Loading description, reviews and rooms…")).render(in: body.row(0), into: &buffer)
    case .failed(let message):
      Label(message, style: theme.error).render(in: body.row(0), into: &buffer)
    case .loaded(let loaded):
      Label(loaded.details.description).render(in: body.row(0), into: &buffer)
      var y = 2
      Label(L("Reviews"), style: theme.accent).render(in: body.row(y - 1), into: &buffer)
      for review in loaded.details.reviews.prefix(3) {
        Label("\(review.score)/10  \(review.author) (\(review.date)): \(review.text)").render(
          in: body.row(y), into: &buffer)
        y += 1
      }
      if loaded.details.reviews.isEmpty {
        Label(L("No reviews yet."), style: theme.muted).render(in: body.row(y), into: &buffer)
        y += 1
      }
      Label(L("Rooms"), style: theme.accent).render(in: body.row(y + 1), into: &buffer)
      let money = environment.money
      selection.count = loaded.rooms.count
      let rows = loaded.rooms.map {
        [$0.roomType.rawValue, "\($0.roomsAvailable)", money.string($0.nightlyRate), money.string($0.total)]
      }
      Table(
        columns: [
          .init(L("Room"), .fill), .init(L("Left"), .length(5), alignment: .trailing),
          .init(L("Night"), .length(PriceColumn.width(rows, column: 2, atLeast: 10)), alignment: .trailing),
          .init(L("Total"), .length(PriceColumn.width(rows, column: 3, atLeast: 11)), alignment: .trailing),
        ], rows: rows, state: selection
      ).render(in: body.inset(top: y + 2), into: &buffer)
    }
  }

  func handle(_ key: Key) -> KeyResult {
    guard case .loaded(let loaded) = state else { return .ignored }
    selection.count = loaded.rooms.count
    if key == .enter, let index = selection.selected, loaded.rooms.indices.contains(index) {
      let model = HotelBookingViewModel(
        offer: loaded.rooms[index], client: environment.client, scheduler: environment.scheduler)
      let checkout = CheckoutSection(session: environment.session)
      intents.send(
        .push(
          HotelBookingScreen(offer: loaded.rooms[index], model: model, checkout: checkout, money: environment.money)))
      return .handled
    }
    return selection.handle(key, visibleRows: 5) ? .handled : .ignored
  }
}

/// Booking one offer: the price breakdown (the shared price calculator), the cancellation rule,
/// the guest's name, who pays and with which card (the shared ``CheckoutSection``) and the Book
/// button; then the confirmation.
///
/// Keys: type the guest's name; Tab / ↑ ↓ move between the name and the card; on the card ← →
/// choose another, `s` signs in; Enter books (when the name is valid; otherwise the name's
/// problem shows under it). Not signed in, Enter opens the sign-in sheet first and comes back here.
/// Esc leaves the name field (then `q` quits; Enter comes back), a second Esc goes back.
@MainActor
final class HotelBookingScreen: Screen {
  enum Focus { case name, payment }

  let offer: HotelOffer
  let model: HotelBookingViewModel
  let checkout: CheckoutSection
  var name = TextFieldState(maxLength: 80)
  var focus = Focus.name
  /// Esc left the name field: keys go to the shell until Enter.
  var leftField = false
  private var subscriptions = Set<AnyCancellable>()
  /// The booking failure under Book, in the app's words (CommonUI's `CheckoutSection`: gone once
  /// its cause is, e.g. after signing in or choosing another card).
  var failureText: String? { checkout.bookingFailure }

  /// How amounts are written (the traveller's language).
  let money: MoneyFormat

  init(
    offer: HotelOffer, model: HotelBookingViewModel, checkout: CheckoutSection,
    money: MoneyFormat = MoneyFormat(Localization.current)
  ) {
    self.money = money
    self.offer = offer
    self.model = model
    self.checkout = checkout
    checkout.host = self
    // A failed booking (a session that ended, a card removed meanwhile): read the account again.
    model.$errorMessage.compactMap { $0 }.sink { [weak checkout] _ in checkout?.model.refresh() }
      .store(in: &subscriptions)
    // A failure in the app's words (CommonUI's CheckoutMessages), naming the card it charged.
    // Kept by the section until its cause is gone (a sign-in, another card).
    model.$failure.sink { [weak checkout] failure in checkout?.bookingFailed(failure) }.store(in: &subscriptions)
  }

  var title: String { L("Book") }
  var changes: AnyPublisher<Void, Never> {
    anyChange([
      model.$isBookEnabled.void, model.$isBooking.void, model.$reservation.void, model.$errorMessage.void,
      model.$newOfferId.void, model.$validationMessage.void, checkout.changes,
    ])
  }
  var navigation: AnyPublisher<Navigation, Never> { checkout.navigation }
  var isEditingText: Bool { model.reservation == nil && focus == .name && !leftField }
  var isAnimating: Bool { model.isBooking }
  var keyHints: [KeyHint] {
    guard model.reservation == nil else { return [] }
    let move = KeyHint("Tab", focus == .name ? "card" : "name")
    return (focus == .payment ? checkout.keyHints : []) + [move, KeyHint("Enter", "book")]
  }

  func render(in area: Rect, into buffer: inout Buffer) {
    let theme = buffer.theme
    Label(
      Line([
        Span(offer.name, style: theme.accent),
        Span("  \(offer.roomType.rawValue) · \(offer.checkIn) → \(offer.checkOut) · \(offer.guests) guests"),
      ])
    ).render(in: area.row(0), into: &buffer)
    let breakdown = model.breakdown
    let lines = breakdown.nights.map { ($0.label, $0.amount) } + [(L("Taxes and fees"), breakdown.taxes)]
    let calculator = PriceCalculatorView(lines: lines, total: breakdown.total, money: money)
    let width = min(area.width, 60)
    calculator.render(in: Rect(x: area.x, y: area.y + 2, width: width, height: calculator.height), into: &buffer)
    var y = 3 + calculator.height
    // The policy wraps onto a second row rather than being cut (its end says what is charged).
    let policy = Paragraph(
      model.reservation?.details["cancellationPolicy"]?.stringValue ?? model.cancellationPolicy, style: theme.muted)
    let policyRows = min(2, policy.height(forWidth: area.width))
    policy.render(
      in: Rect(x: area.x, y: area.y + y, width: area.width, height: max(0, min(policyRows, area.height - y))),
      into: &buffer)
    y += policyRows + 1
    if let reservation = model.reservation {
      Label(L("Booked: \(reservation.summary)"), style: theme.success).render(in: area.row(y), into: &buffer)
      Label(L("Confirmation \(reservation.locator ?? reservation.id) · \(money.string(reservation.total))"))
        .render(in: area.row(y + 1), into: &buffer)
      if let card = checkout.model.selectedCard {
        Label(L("Charged to \(card.displayName)"), style: theme.muted).render(in: area.row(y + 2), into: &buffer)
      }
      return
    }
    TextField(L("Guest name"), state: name).labelWidth(12).placeholder(L("Given Family"))
      .focused(focus == .name).render(in: Rect(x: area.x, y: area.y + y, width: width, height: 1), into: &buffer)
    checkout.render(
      in: Rect(
        x: area.x, y: area.y + y + 1, width: width, height: min(CheckoutView.height, max(0, area.height - y - 1))),
      focused: focus == .payment, labelWidth: 12, into: &buffer)
    y += 1 + CheckoutView.height
    if model.isBooking {
      Spinner(L("Booking…")).render(in: area.row(y), into: &buffer)
    } else {
      Button(L("Book"), focused: model.isBookEnabled).render(in: area.row(y), into: &buffer)
    }
    if let message = model.validationMessage ?? (model.failure == nil ? model.errorMessage : failureText) {
      Paragraph(message, style: theme.error).render(
        in: Rect(x: area.x, y: area.y + y + 2, width: area.width, height: max(0, min(3, area.height - y - 2))),
        into: &buffer)
    }
  }

  func handle(_ key: Key) -> KeyResult {
    guard model.reservation == nil else { return .ignored }
    switch key {
    case .tab, .backTab, .up, .down:
      focus = focus == .name ? .payment : .name
      leftField = false
      return .handled
    case .escape where focus == .name && !leftField:
      leftField = true
      return .handled
    case .enter where leftField:
      leftField = false
      return .handled
    default:
      if leftField { return .ignored }
    }
    if focus == .payment, checkout.handle(key) == .handled { return .handled }
    if key == .enter {
      book()
      return .handled
    }
    guard focus == .name else { return .ignored }
    let before = name.text
    guard name.handle(key) else { return .ignored }
    if name.text != before { model.guestNameChanged(name.text) }
    return .handled
  }

  /// Books with the chosen card, once signed in with a card (else the checkout says what is missing).
  private func book() {
    guard model.isBookEnabled else {
      // Says what is wrong with the guest's name (the model's validation message) and goes there.
      model.bookTapped()
      focus = .name
      return
    }
    guard checkout.isReadyToBook() else { return }
    model.cardSelected(checkout.selectedCardId)
    model.bookTapped()
  }
}

/// The width of a price column: its widest formatted price (`NOK 12,470.00`), at least `minimum`
/// columns; a price is never cut, the name column gives way.
enum PriceColumn {
  static func width(_ rows: [[String]], column: Int, atLeast minimum: Int) -> Int {
    rows.reduce(minimum) { max($0, DisplayWidth.of($1[column])) }
  }
}
