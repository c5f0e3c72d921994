import Common
import Foundation
import Reactive

/// The search's results on a map: one point per hotel of the offers (a hotel with several room
/// offers once), grouped into a cluster with its count where several fall in the same cell of a
/// grid about ``clusterColumns`` map columns wide at the viewport's scale. So a city view shows
/// each hotel of the results and the world view shows where the results are (one cluster at the
/// searched city), never the other hotels of the world.
///
/// Inputs: the offers as the results list shows them (sorted, filtered: `offers`) and
/// ``viewportChanged(_:columns:rows:)`` as the user pans and zooms. Outputs: ``markers`` and
/// ``message`` (why the map is empty, or nil). The grid is anchored at 180° W, 90° S, so panning
/// does not regroup the hotels; it changes with the zoom only.
public final class HotelMapViewModel {
  /// Width of a cluster cell, in map columns (two braille dots each).
  public static let clusterColumns = 3

  @Published public private(set) var markers: [HotelMapMarker] = []
  @Published public private(set) var message: String?
  /// Hotels in the results (all of them, on or off the view).
  @Published public private(set) var hotelCount = 0
  private let viewports = CurrentValueSubject<ClusterGrid?, Never>(nil)
  private var subscriptions = Set<AnyCancellable>()

  /// The cell size of a viewport: degrees of longitude and latitude per cluster cell.
  struct ClusterGrid: Hashable {
    var longitude: Double
    var latitude: Double
  }

  public init(offers: AnyPublisher<[HotelOffer], Never>) {
    offers.combineLatest(viewports.removeDuplicates())
      .sink { [weak self] offers, grid in self?.update(offers, grid) }
      .store(in: &subscriptions)
  }

  /// The map now shows `viewport`, `columns` × `rows` cells.
  public func viewportChanged(_ viewport: GeoRect, columns: Int, rows: Int) {
    var width = viewport.east - viewport.west
    if width <= 0 { width += 360 }
    let height = max(1e-9, viewport.north - viewport.south)
    let cells = Double(max(1, columns)) / Double(Self.clusterColumns)
    // Two columns ≈ one row's height in degrees (a cell is two dots wide, four tall).
    let rowCells = Double(max(1, rows)) / Double(Self.clusterColumns) * 2
    viewports.send(ClusterGrid(longitude: min(360, width) / cells, latitude: height / rowCells))
  }

  private func update(_ offers: [HotelOffer], _ grid: ClusterGrid?) {
    var hotels: [(latitude: Double, longitude: Double, id: String, stars: Int)] = []
    var seen = Set<String>()
    for offer in offers where seen.insert(offer.hotelId).inserted {
      hotels.append((offer.latitude, offer.longitude, offer.hotelId, offer.stars))
    }
    hotelCount = hotels.count
    message = hotels.isEmpty ? L("No hotel to show: the search found none (or the filters hide them all).") : nil
    guard let grid else {
      markers = []
      return
    }
    var cells: [Int: [Int]] = [:]
    var order: [Int] = []
    let columns = max(1, Int((360 / grid.longitude).rounded(.up)))
    for (index, hotel) in hotels.enumerated() {
      let x = min(columns - 1, max(0, Int((hotel.longitude + 180) / grid.longitude)))
      let y = max(0, Int((hotel.latitude + 90) / grid.latitude))
      let key = y * columns + x
      if cells[key] == nil { order.append(key) }
      cells[key, default: []].append(index)
    }
    markers = order.map { key in
      let members = cells[key]!
      if members.count == 1 {
        let hotel = hotels[members[0]]
        return HotelMapMarker(
          latitude: hotel.latitude, longitude: hotel.longitude, count: 1, hotelId: hotel.id, stars: hotel.stars)
      }
      let n = Double(members.count)
      return HotelMapMarker(
        latitude: members.reduce(0) { $0 + hotels[$1].latitude } / n,
        longitude: members.reduce(0) { $0 + hotels[$1].longitude } / n, count: members.count)
    }
  }

  /// A viewport that shows every offer, `columns` × `rows` cells: centred on their box, at the
  /// closest zoom that fits it (at most 14; the whole world when there are none).
  public static func viewport(fitting offers: [HotelOffer], columns: Int, rows: Int) -> (
    latitude: Double, longitude: Double, zoom: Int
  ) {
    guard let first = offers.first else { return (20, 0, 0) }
    var south = first.latitude
    var north = first.latitude
    var west = first.longitude
    var east = first.longitude
    for offer in offers {
      south = min(south, offer.latitude)
      north = max(north, offer.latitude)
      west = min(west, offer.longitude)
      east = max(east, offer.longitude)
    }
    let latitude = (south + north) / 2
    let longitude = (west + east) / 2
    let cosLat = max(0.05, cos(latitude * .pi / 180))
    // Zoom z shows 360 / 2^z degrees of longitude across 2 × columns dots and, in latitude,
    // that × cos(lat) × (4 × rows) / (2 × columns).
    var zoom = 14
    while zoom > 0 {
      let lonSpan = 360 / Double(1 << zoom)
      let latSpan = lonSpan * cosLat * Double(4 * rows) / Double(2 * max(1, columns))
      if (east - west) * 1.2 <= lonSpan && (north - south) * 1.2 <= latSpan { break }
      zoom -= 1
    }
    return (latitude, longitude, zoom)
  }
}
