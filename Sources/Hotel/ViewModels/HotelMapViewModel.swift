import Common
import Foundation
import Reactive

/// Map data for the interactive app: the markers (single hotels or clusters) of the viewport.
///
/// Input: ``viewportChanged(_:)`` as the user pans and zooms. Output: ``markers``. Viewport changes
/// are debounced (``debounce``); an answer for an older viewport is dropped.
public final class HotelMapViewModel {
  public static let debounce: DispatchQueue.SchedulerTimeType.Stride = .milliseconds(100)

  @Published public private(set) var markers: [HotelMapMarker] = []
  private let viewports = PassthroughSubject<GeoRect, Never>()

  /// `maxMarkers`: about how many markers the map shows at once before clustering.
  public init(client: HotelClient, scheduler: AnySchedulerOf<DispatchQueue>, maxMarkers: Int = 200) {
    viewports
      .debounce(for: Self.debounce, scheduler: scheduler)
      .removeDuplicates()
      .map { client.mapMarkers($0, maxMarkers).replaceError(with: []) }
      .switchToLatest()
      .receive(on: scheduler)
      .assign(to: &$markers)
  }

  public func viewportChanged(_ viewport: GeoRect) { viewports.send(viewport) }
}
