import Common
import Foundation

/// An SVG picture of a hotel search area: each hotel a dot coloured by price (five bands, green
/// cheapest to red dearest; grey when it has no free room), the centre (a cross) and the search
/// radius (a dashed circle), a scale bar in kilometres, a legend and the data attribution.
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

  public init(title: String, center: HotelSearchCenter, radiusKm: Double, dots: [Dot], money: MoneyFormat = .english) {
    self.money = money
    self.title = title
    self.center = center
    self.radiusKm = radiusKm
    self.dots = dots
  }

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
    out.append("<text x=\"20\" y=\"28\" font-size=\"18\" fill=\"#222\">\(Self.escape(title))</text>")
    let (cx, cy) = project(center.latitude, center.longitude)
    out.append(
      "<circle cx=\"\(f(cx))\" cy=\"\(f(cy))\" r=\"\(f(radiusKm * pxPerKm))\" fill=\"#e8eef7\" stroke=\"#3b6fb6\" stroke-width=\"2\" stroke-dasharray=\"8 6\"/>"
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
    out.append(
      "<text x=\"\(f(side - 20))\" y=\"\(f(side - 10))\" font-size=\"10\" text-anchor=\"end\" fill=\"#555\">\(dots.count) hotels · City data: GeoNames (CC BY 4.0)</text>"
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
