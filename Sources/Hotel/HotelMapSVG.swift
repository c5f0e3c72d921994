import Common
import Foundation

/// An SVG picture of a hotel search area: each hotel a dot coloured by price (five bands, green
/// cheapest to red dearest; grey when it has no free room), the centre (a cross) and the search
/// radius (a dashed circle), a scale bar in kilometres, a legend and the data attribution — over
/// the ground when a basemap level is given (water, land with its lakes, shores, dashed country
/// borders; clipped to the picture) and with the biggest cities and the busiest airports in view
/// named where a name fits without overlapping another.
///
/// Projection: local equirectangular around the centre (x = Δlon × cos(lat₀), y = Δlat), true to
/// scale within a few hundred kilometres.
public struct HotelMapSVG: Sendable {
  /// One hotel dot.
  public struct Dot: Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double
    /// Cheapest average nightly rate, or nil when nothing is free.
    public var price: Money?
    public var name: String

    public init(latitude: Double, longitude: Double, price: Money?, name: String) {
      self.latitude = latitude
      self.longitude = longitude
      self.price = price
      self.name = name
    }
  }

  public var title: String
  public var center: HotelSearchCenter
  public var radiusKm: Double
  public var dots: [Dot]
  /// Side of the square picture, in pixels.
  public var size: Int = 800
  /// How the prices in the labels and the legend are written (the traveller's language).
  public var money: MoneyFormat
  /// The ground (the finest ``Basemap`` level); nil draws a blank field.
  public var ground: BasemapLevel?
  /// Places to name; nil names none.
  public var places: MapPlaces?

  public init(
    title: String, center: HotelSearchCenter, radiusKm: Double, dots: [Dot], ground: BasemapLevel? = nil,
    places: MapPlaces? = nil, money: MoneyFormat = MoneyFormat(Localization.current)
  ) {
    self.money = money
    self.title = title
    self.center = center
    self.radiusKm = radiusKm
    self.dots = dots
    self.ground = ground
    self.places = places
  }

  static let waterColor = "#cfe2ef"
  static let landColor = "#f3f0e4"
  static let coastColor = "#5f86a2"
  static let borderColor = "#9c7f93"

  /// The colours of the five price bands, cheapest first, and of "no room".
  static let bandColors = ["#1a9850", "#91cf60", "#fee08b", "#fc8d59", "#d73027"]
  static let soldOutColor = "#9e9e9e"

  /// The price bands: five quantile ranges of the prices (lower bounds), in one currency.
  static func bands(_ prices: [Decimal]) -> [Decimal] {
    let sorted = prices.sorted()
    guard !sorted.isEmpty else { return [] }
    return (0..<5).map { sorted[min(sorted.count - 1, $0 * sorted.count / 5)] }
  }

  static func band(of price: Decimal, in bands: [Decimal]) -> Int {
    var result = 0
    for (index, low) in bands.enumerated() where price >= low { result = index }
    return result
  }

  /// The SVG document (UTF-8 text).
  public func render() -> String {
    let side = Double(size)
    let plot = side - 120  // room for the legend at the bottom
    let pxPerKm = (plot / 2 - 20) / (radiusKm * 1.08)
    let cosLat = cos(center.latitude * .pi / 180)
    func project(_ lat: Double, _ lon: Double) -> (Double, Double) {
      var dLon = lon - center.longitude
      if dLon > 180 { dLon -= 360 }
      if dLon < -180 { dLon += 360 }
      let x = side / 2 + dLon * 111.195 * cosLat * pxPerKm
      let y = 40 + plot / 2 - (lat - center.latitude) * 111.195 * pxPerKm
      return (x, y)
    }
    func f(_ v: Double) -> String { String(format: "%.1f", v) }
    let currency = dots.compactMap(\.price?.currencyCode).first
    let prices = dots.compactMap { $0.price?.currencyCode == currency ? $0.price?.amount : nil }
    let bands = Self.bands(prices)
    var out: [String] = []
    out.append(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(size)\" height=\"\(size)\" viewBox=\"0 0 \(size) \(size)\" font-family=\"sans-serif\">"
    )
    out.append("<rect width=\"100%\" height=\"100%\" fill=\"#f7f7f2\"/>")
    let frame = SVGFrame(minX: 0, minY: 40, maxX: side, maxY: 40 + plot)
    if let ground {
      out += Self.ground(ground, frame: frame, center: center, pxPerKm: pxPerKm, cosLat: cosLat)
    }
    out.append("<text x=\"20\" y=\"28\" font-size=\"18\" fill=\"#222\">\(Self.escape(title))</text>")
    let (cx, cy) = project(center.latitude, center.longitude)
    out.append(
      "<circle cx=\"\(f(cx))\" cy=\"\(f(cy))\" r=\"\(f(radiusKm * pxPerKm))\" fill=\"#3b6fb6\" fill-opacity=\"0.07\" stroke=\"#3b6fb6\" stroke-width=\"2\" stroke-dasharray=\"8 6\"/>"
    )
    for dot in dots {
      let (x, y) = project(dot.latitude, dot.longitude)
      let color: String
      var label = dot.name
      if let price = dot.price, price.currencyCode == currency {
        color = Self.bandColors[Self.band(of: price.amount, in: bands)]
        label += ", \(money.string(price, per: "night"))"
      } else {
        color = Self.soldOutColor
        label += ", no free room"
      }
      out.append(
        "<circle cx=\"\(f(x))\" cy=\"\(f(y))\" r=\"4\" fill=\"\(color)\" stroke=\"#333\" stroke-width=\"0.5\"><title>\(Self.escape(label))</title></circle>"
      )
    }
    // Place names over the dots (a light halo keeps them readable).
    if let places {
      out += Self.labels(places, frame: frame, avoid: (cx, cy), project: project)
    }
    // The centre: a cross.
    out.append(
      "<path d=\"M\(f(cx - 10)) \(f(cy))H\(f(cx + 10))M\(f(cx)) \(f(cy - 10))V\(f(cy + 10))\" stroke=\"#000\" stroke-width=\"3\"/>"
    )
    out.append(
      "<text x=\"\(f(cx + 12))\" y=\"\(f(cy - 12))\" font-size=\"13\" fill=\"#000\">\(Self.escape(center.name)) (radius \(Self.number(radiusKm)) km)</text>"
    )
    // Scale bar: a round length near a quarter of the width.
    let target = (side / 4) / pxPerKm
    let magnitude = pow(10, floor(log10(target)))
    let length = [1.0, 2, 5, 10].map { $0 * magnitude }.last { $0 <= target } ?? magnitude
    let barY = 40 + plot + 20
    out.append(
      "<path d=\"M20 \(f(barY))h\(f(length * pxPerKm))M20 \(f(barY - 6))v12M\(f(20 + length * pxPerKm)) \(f(barY - 6))v12\" stroke=\"#000\" stroke-width=\"2\"/>"
    )
    out.append("<text x=\"20\" y=\"\(f(barY + 20))\" font-size=\"13\">\(Self.number(length)) km</text>")
    // Legend.
    var legendX = side / 2 - 60
    let legendY = barY - 8
    if let currency, !bands.isEmpty {
      out.append(
        "<text x=\"\(f(legendX))\" y=\"\(f(legendY - 10))\" font-size=\"12\">nightly rate from (\(currency))</text>")
      for (index, low) in bands.enumerated() {
        out.append(
          "<circle cx=\"\(f(legendX + 6))\" cy=\"\(f(legendY + 6))\" r=\"6\" fill=\"\(Self.bandColors[index])\" stroke=\"#333\" stroke-width=\"0.5\"/>"
        )
        out.append(
          "<text x=\"\(f(legendX + 16))\" y=\"\(f(legendY + 11))\" font-size=\"12\">\(Self.escape(money.string(Money(amount: low, currency: currency))))</text>"
        )
        legendX += 72
      }
    }
    out.append(
      "<circle cx=\"\(f(legendX + 6))\" cy=\"\(f(legendY + 6))\" r=\"6\" fill=\"\(Self.soldOutColor)\" stroke=\"#333\" stroke-width=\"0.5\"/>"
    )
    out.append("<text x=\"\(f(legendX + 16))\" y=\"\(f(legendY + 11))\" font-size=\"12\">full</text>")
    let attribution = ground == nil ? "" : " · " + Self.escape(Basemap.attribution)
    out.append(
      "<text x=\"\(f(side - 20))\" y=\"\(f(side - 10))\" font-size=\"10\" text-anchor=\"end\" fill=\"#555\">\(dots.count) hotels · City data: GeoNames (CC BY 4.0)\(attribution)</text>"
    )
    out.append("</svg>")
    return out.joined(separator: "\n") + "\n"
  }

  static func number(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
  }

  static func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }
}

/// The rectangle of the picture the ground is drawn in, pixels.
struct SVGFrame {
  var minX: Double
  var minY: Double
  var maxX: Double
  var maxY: Double
}

extension HotelMapSVG {
  /// Water, land (even–odd over the level's rings, so lakes stay water) clipped to `frame`,
  /// shores and dashed borders, as SVG elements. Projection as ``render()``'s: local
  /// equirectangular around the centre, `kx` = px per degree of longitude, `ky` of latitude.
  static func ground(
    _ level: BasemapLevel, frame: SVGFrame, center: HotelSearchCenter, pxPerKm: Double, cosLat: Double
  ) -> [String] {
    let unit = level.degreesPerUnit
    let kx = 111.195 * cosLat * pxPerKm
    let ky = 111.195 * pxPerKm
    let midX = (frame.minX + frame.maxX) / 2
    let midY = 40 + (frame.maxY - frame.minY) / 2
    // The view in degrees, with a margin, for culling.
    let halfLon = (frame.maxX - frame.minX) / 2 / kx * 1.1
    let halfLat = (frame.maxY - frame.minY) / 2 / ky * 1.1
    /// The copy of the world (−360°, 0, +360°) nearest the centre for a shape spanning `minX…maxX`.
    func shift(_ minX: Int32, _ maxX: Int32) -> Double {
      let middle = (Double(minX) + Double(maxX)) / 2 * unit
      var best = 0.0
      for candidate in [-360.0, 360]
      where abs(middle + candidate - center.longitude) < abs(middle + best - center.longitude) {
        best = candidate
      }
      return best
    }
    func visible(_ minX: Int32, _ maxX: Int32, _ minY: Int32, _ maxY: Int32, _ shift: Double) -> Bool {
      Double(maxX) * unit + shift >= center.longitude - halfLon
        && Double(minX) * unit + shift <= center.longitude + halfLon
        && Double(maxY) * unit >= center.latitude - halfLat && Double(minY) * unit <= center.latitude + halfLat
    }
    func project(_ x: Int32, _ y: Int32, _ shift: Double) -> (Double, Double) {
      (midX + (Double(x) * unit + shift - center.longitude) * kx, midY - (Double(y) * unit - center.latitude) * ky)
    }
    func f(_ v: Double) -> String { String(format: "%.1f", v) }
    var out = [
      "<rect x=\"\(f(frame.minX))\" y=\"\(f(frame.minY))\" width=\"\(f(frame.maxX - frame.minX))\" "
        + "height=\"\(f(frame.maxY - frame.minY))\" fill=\"\(waterColor)\"/>"
    ]
    // Land: every ring that meets the view, clipped to it, in one even–odd path.
    var land = ""
    for ring in 0..<level.ringStarts.count - 1 {
      let start = Int(level.ringStarts[ring])
      let end = Int(level.ringStarts[ring + 1])
      var minX = Int32.max
      var maxX = Int32.min
      var minY = Int32.max
      var maxY = Int32.min
      for i in start..<end {
        minX = min(minX, level.xs[i])
        maxX = max(maxX, level.xs[i])
        minY = min(minY, level.ys[i])
        maxY = max(maxY, level.ys[i])
      }
      let offset = shift(minX, maxX)
      guard visible(minX, maxX, minY, maxY, offset) else { continue }
      var points: [(Double, Double)] = []
      for i in start..<end - 1 {
        let point = project(level.xs[i], level.ys[i], offset)
        if let last = points.last, abs(last.0 - point.0) < 0.6, abs(last.1 - point.1) < 0.6 { continue }
        points.append(point)
      }
      let clipped = clip(points, to: frame)
      guard clipped.count >= 3 else { continue }
      land += "M" + clipped.map { "\(f($0.0)) \(f($0.1))" }.joined(separator: "L") + "Z"
    }
    if !land.isEmpty {
      out.append("<path d=\"\(land)\" fill=\"\(landColor)\" fill-rule=\"evenodd\"/>")
    }
    // Shores and borders: the runs that meet the view, segment by segment clipped to it.
    let layers: [([PolylineRun], [Int32], [Int32], String)] = [
      (level.coastRuns, level.xs, level.ys, "stroke=\"\(coastColor)\" stroke-width=\"1\""),
      (
        level.borderRuns, level.borderXs, level.borderYs,
        "stroke=\"\(borderColor)\" stroke-width=\"1.2\" stroke-dasharray=\"5 3\""
      ),
    ]
    for (runs, xs, ys, style) in layers {
      var path = ""
      for run in runs {
        let offset = shift(run.minX, run.maxX)
        guard visible(run.minX, run.maxX, run.minY, run.maxY, offset) else { continue }
        var pen: (Double, Double)?
        var previous = project(xs[Int(run.first)], ys[Int(run.first)], offset)
        for i in Int(run.first) + 1...Int(run.last) {
          let point = project(xs[i], ys[i], offset)
          if i < Int(run.last), abs(point.0 - previous.0) < 0.6, abs(point.1 - previous.1) < 0.6 { continue }
          if let (a, b) = clipSegment(previous, point, to: frame) {
            if let last = pen, abs(last.0 - a.0) < 0.01, abs(last.1 - a.1) < 0.01 {
              path += "L\(f(b.0)) \(f(b.1))"
            } else {
              path += "M\(f(a.0)) \(f(a.1))L\(f(b.0)) \(f(b.1))"
            }
            pen = b
          } else {
            pen = nil
          }
          previous = point
        }
      }
      if !path.isEmpty { out.append("<path d=\"\(path)\" fill=\"none\" \(style)/>") }
    }
    return out
  }

  /// Names of the places in `frame`: the biggest cities first (up to 24), then the busiest
  /// airports (small italic codes, up to 12 more), each where it overlaps no other name and not
  /// the centre's label (right of `avoid`).
  static func labels(
    _ places: MapPlaces, frame: SVGFrame, avoid: (Double, Double), project: (Double, Double) -> (Double, Double)
  ) -> [String] {
    var boxes: [(Double, Double, Double, Double)] = [(avoid.0, avoid.1 - 30, avoid.0 + 280, avoid.1)]
    var out: [String] = []
    func f(_ v: Double) -> String { String(format: "%.1f", v) }
    func place(_ place: MapPlace, fontSize: Double, limit: Int) {
      guard out.count < limit else { return }
      let (x, y) = project(place.latitude, place.longitude)
      let width = Double(place.label.count) * fontSize * 0.6
      let box = (x - width / 2 - 3, y - fontSize - 2, x + width / 2 + 3, y + 3)
      guard box.0 >= frame.minX, box.2 <= frame.maxX, box.1 >= frame.minY, box.3 <= frame.maxY,
        !boxes.contains(where: { $0.0 < box.2 && box.0 < $0.2 && $0.1 < box.3 && box.1 < $0.3 })
      else { return }
      boxes.append(box)
      let italic = place.kind == .airport ? " font-style=\"italic\"" : ""
      out.append(
        "<text x=\"\(f(x))\" y=\"\(f(y))\" font-size=\"\(f(fontSize))\" text-anchor=\"middle\"\(italic) fill=\"#333\" "
          + "stroke=\"#fff\" stroke-opacity=\"0.85\" stroke-width=\"3\" paint-order=\"stroke\">\(escape(place.label))</text>"
      )
    }
    for city in places.cities { place(city, fontSize: 13, limit: 24) }
    for airport in places.airports { place(airport, fontSize: 11, limit: 36) }
    return out
  }

  /// Sutherland–Hodgman: the polygon `points` cut to the rectangle (a concave polygon may gain
  /// edges along the border, which enclose nothing).
  static func clip(_ points: [(Double, Double)], to frame: SVGFrame) -> [(Double, Double)] {
    var polygon = points
    let sides: [((Double, Double)) -> Double] = [
      { $0.0 - frame.minX }, { frame.maxX - $0.0 }, { $0.1 - frame.minY }, { frame.maxY - $0.1 },
    ]
    for inside in sides {
      guard let last = polygon.last else { return [] }
      var output: [(Double, Double)] = []
      output.reserveCapacity(polygon.count)
      var previous = last
      var previousIn = inside(previous) >= 0
      for point in polygon {
        let pointIn = inside(point) >= 0
        if pointIn != previousIn {
          let a = inside(previous)
          let b = inside(point)
          let t = a / (a - b)
          output.append((previous.0 + (point.0 - previous.0) * t, previous.1 + (point.1 - previous.1) * t))
        }
        if pointIn { output.append(point) }
        previous = point
        previousIn = pointIn
      }
      polygon = output
    }
    return polygon
  }

  /// Liang–Barsky: the part of the segment inside the rectangle, or nil.
  static func clipSegment(_ a: (Double, Double), _ b: (Double, Double), to frame: SVGFrame) -> (
    (Double, Double), (Double, Double)
  )? {
    var t0 = 0.0
    var t1 = 1.0
    let dx = b.0 - a.0
    let dy = b.1 - a.1
    for (p, q) in [(-dx, a.0 - frame.minX), (dx, frame.maxX - a.0), (-dy, a.1 - frame.minY), (dy, frame.maxY - a.1)] {
      if p == 0 {
        if q < 0 { return nil }
      } else {
        let r = q / p
        if p < 0 {
          if r > t1 { return nil }
          t0 = max(t0, r)
        } else {
          if r < t0 { return nil }
          t1 = min(t1, r)
        }
      }
    }
    return ((a.0 + t0 * dx, a.1 + t0 * dy), (a.0 + t1 * dx, a.1 + t1 * dy))
  }
}
