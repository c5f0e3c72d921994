import Common
import Foundation
import Reactive

/// Map data for the interactive app: the markers (single hotels or clusters) of the viewport.
///
/// Input: ``viewportChanged(_:)`` as the user pans and zooms. Outputs: ``markers`` and
/// ``errorMessage`` (the service's message when a viewport's markers cannot be had; the markers
/// are then emptied, and the message cleared by the next answer). Viewport changes are debounced
/// (``debounce``); an answer for an older viewport is dropped.
public final class HotelMapViewModel {
  public static let debounce: DispatchQueue.SchedulerTimeType.Stride = .milliseconds(100)

  @Published public private(set) var markers: [HotelMapMarker] = []
  @Published public private(set) var errorMessage: String?
  private let viewports = PassthroughSubject<GeoRect, Never>()
  private var subscriptions = Set<AnyCancellable>()

  /// `maxMarkers`: about how many markers the map shows at once before clustering.
  public init(client: HotelClient, scheduler: AnySchedulerOf<DispatchQueue>, maxMarkers: Int = 200) {
    viewports
      .debounce(for: Self.debounce, scheduler: scheduler)
      .removeDuplicates()
      .map { viewport -> AnyPublisher<Result<[HotelMapMarker], ServiceError>, Never> in
        client.mapMarkers(viewport, maxMarkers).map { Result.success($0) }.catch { Just(Result.failure($0)) }
          .eraseToAnyPublisher()
      }
      .switchToLatest()
      .receive(on: scheduler)
      .sink { [weak self] result in self?.receive(result) }
      .store(in: &subscriptions)
  }

  public func viewportChanged(_ viewport: GeoRect) { viewports.send(viewport) }

  private func receive(_ result: Result<[HotelMapMarker], ServiceError>) {
    switch result {
    case .success(let markers):
      errorMessage = nil
      self.markers = markers
    case .failure(let error):
      errorMessage = error.message
      markers = []
    }
  }
}
