import Common
import Foundation
import Reactive

/// The seat-map screen of a flight reservation: every leg's map, who sits where, a seat taken
/// for the passenger chosen.
///
/// Inputs: ``viewAppeared()``, ``seatChosen(_:passenger:leg:)``, ``seatEveryoneTapped()``.
/// Outputs: ``seatMaps`` (nil until loaded), ``errorMessage``, ``notice`` (what the last change
/// did), ``isBusy``.
public final class SeatMapViewModel {
  private let client: AccountClient
  private let token: String
  public let reservationID: String
  private var requests = Set<AnyCancellable>()

  @Published public private(set) var seatMaps: SeatMapResponse?
  @Published public private(set) var errorMessage: String?
  @Published public private(set) var notice: String?
  @Published public private(set) var isBusy = false

  public init(client: AccountClient, token: String, reservationID: String) {
    self.client = client
    self.token = token
    self.reservationID = reservationID
  }

  public func viewAppeared() {
    let (token, id) = (token, reservationID)
    run {
      try Self.service($0).seatMaps(SeatMapRequest(reservationID: id), token: token)
    } then: { [weak self] maps in
      self?.seatMaps = maps
    }
  }

  /// Takes `seat` on leg `leg` for passenger `passenger` (a name as booked), then reloads the maps.
  public func seatChosen(_ seat: SeatNumber, passenger: String, leg: Int) {
    let (token, id) = (token, reservationID)
    run { environment in
      let service = try Self.service(environment)
      _ = try service.assignSeats(
        SeatAssignmentRequest(reservationID: id, choices: [SeatChoice(passenger: passenger, leg: leg, seat: seat)]),
        token: token)
      return try service.seatMaps(SeatMapRequest(reservationID: id), token: token)
    } then: { [weak self] maps in
      self?.seatMaps = maps
      self?.notice = L("\(passenger): seat \(seat)")
    }
  }

  /// Seats every passenger still without a seat, side by side when possible.
  public func seatEveryoneTapped() {
    let (token, id) = (token, reservationID)
    run { environment in
      let service = try Self.service(environment)
      _ = try service.assignSeats(SeatAssignmentRequest(reservationID: id, assignRest: true), token: token)
      return try service.seatMaps(SeatMapRequest(reservationID: id), token: token)
    } then: { [weak self] maps in
      self?.seatMaps = maps
      self?.notice = L("Everyone has a seat.")
    }
  }

  static func service(_ environment: AccountEnvironment) throws -> any CheckInService {
    guard let service = environment.checkIn else {
      throw ServiceError(.unavailable, code: "check_in_unavailable", message: L("check-in is not available here"))
    }
    return service
  }

  private func run<T>(_ work: @escaping @Sendable (AccountEnvironment) throws -> T, then show: @escaping (T) -> Void) {
    errorMessage = nil
    notice = nil
    isBusy = true
    client.perform(work)
      .sink(
        receiveCompletion: { [weak self] completion in
          self?.isBusy = false
          if case .failure(let error) = completion { self?.errorMessage = error.message }
        },
        receiveValue: show
      )
      .store(in: &requests)
  }
}

/// The boarding passes of a reservation, each with its barcode.
///
/// Inputs: ``viewAppeared()``, ``nextPass()``, ``previousPass()``, ``nextSymbology()``.
/// Outputs: ``passes``, ``index`` (the pass shown), ``symbology``, ``symbol`` (the shown pass's
/// code, nil while loading or when it cannot be drawn), ``errorMessage``.
public final class BoardingPassesViewModel {
  /// A pass as the screen shows it.
  public struct Shown: Hashable, Sendable {
    public var issued: IssuedBoardingPass
    public var pass: BoardingPass
    public var dates: [LocalDate?]
  }

  private let client: AccountClient
  private let token: String
  public let reservationID: String
  private var requests = Set<AnyCancellable>()

  @Published public private(set) var passes: [Shown] = []
  @Published public private(set) var index = 0
  @Published public private(set) var symbology: BarcodeSymbology = .aztec
  @Published public private(set) var symbol: BarcodeSymbol?
  @Published public private(set) var errorMessage: String?

  public init(client: AccountClient, token: String, reservationID: String, passes: [IssuedBoardingPass] = []) {
    self.client = client
    self.token = token
    self.reservationID = reservationID
    if !passes.isEmpty { show(passes) }
  }

  public func viewAppeared() {
    guard passes.isEmpty else { return }
    let (token, id) = (token, reservationID)
    client.perform { environment in
      try SeatMapViewModel.service(environment).boardingPasses(BoardingPassesRequest(reservationID: id), token: token)
    }
    .sink(
      receiveCompletion: { [weak self] completion in
        if case .failure(let error) = completion { self?.errorMessage = error.message }
      },
      receiveValue: { [weak self] response in
        guard let self else { return }
        if response.boardingPasses.isEmpty {
          self.errorMessage = L("No boarding pass yet: check in first (k on the trip).")
        }
        self.show(response.boardingPasses)
      }
    )
    .store(in: &requests)
  }

  public func nextPass() { move(by: 1) }
  public func previousPass() { move(by: -1) }

  /// Aztec → QR → PDF417 → Aztec.
  public func nextSymbology() {
    let order = BarcodeSymbology.drawable
    symbology = order[((order.firstIndex(of: symbology) ?? 0) + 1) % order.count]
    drawSymbol()
  }

  private func show(_ issued: [IssuedBoardingPass]) {
    passes = issued.compactMap { issued in
      guard let pass = try? BCBPParser.parse(issued.bcbp).pass else { return nil }
      let reference = LocalDate(issued.issuedAt, in: TimeZone(identifier: "UTC")!)
      return Shown(issued: issued, pass: pass, dates: pass.flightDates(reference: reference))
    }
    index = 0
    drawSymbol()
  }

  private func move(by offset: Int) {
    guard !passes.isEmpty else { return }
    index = (index + offset + passes.count) % passes.count
    drawSymbol()
  }

  private func drawSymbol() {
    guard passes.indices.contains(index) else {
      symbol = nil
      return
    }
    let text = passes[index].issued.bcbp
    let symbology = symbology
    symbol = nil
    client.perform { environment -> BarcodeSymbol in
      guard let barcodes = environment.barcodes else {
        throw ServiceError(.unavailable, code: "barcodes_unavailable", message: L("barcodes are not available here"))
      }
      return try barcodes.symbol(for: text, symbology: symbology, maximumWidth: 150)
    }
    .sink(
      receiveCompletion: { [weak self] completion in
        if case .failure(let error) = completion { self?.errorMessage = error.message }
      },
      receiveValue: { [weak self] symbol in self?.symbol = symbol }
    )
    .store(in: &requests)
  }
}
