import Common
import Foundation

/// Straightening photos before reading them: zxing-cpp 1.4 finds QR codes at any angle, but its
/// Aztec and PDF417 detectors give up beyond a few degrees of rotation. A 2D code's module edges
/// all run along two perpendicular directions, so the strongest direction of the image's gradients
/// (modulo 90°) is the code's rotation; turning the image back by it lets those detectors work.
enum ImageGeometry {
  /// The rotation of the strongest edges in `image`, in degrees, −45 ..< 45 (0 when the image
  /// has no clear edge direction): a histogram of gradient directions modulo 90°, weighted by
  /// gradient strength, over a copy at most 512 pixels wide.
  static func dominantAngle(_ image: GreyImage) -> Double? {
    let step = max(1, max(image.width, image.height) / 640)
    let binsPerDegree = 4
    let count = 90 * binsPerDegree
    var histogram = [Double](repeating: 0, count: count)
    var edges: [(x: Double, y: Double, weight: Double)] = []
    image.pixels.withUnsafeBufferPointer { pixels in
      let width = image.width
      func at(_ x: Int, _ y: Int) -> Double { Double(pixels[y * width + x]) }
      var y = step
      while y < image.height - step {
        var x = step
        while x < width - step {
          // Sobel: differences across the pixel, smoothed along the edge.
          let gx =
            at(x + step, y - step) + 2 * at(x + step, y) + at(x + step, y + step) - at(x - step, y - step) - 2
            * at(x - step, y) - at(x - step, y + step)
          let gy =
            at(x - step, y + step) + 2 * at(x, y + step) + at(x + step, y + step) - at(x - step, y - step) - 2
            * at(x, y - step) - at(x + step, y - step)
          let strength = gx * gx + gy * gy
          if strength > 40_000 {
            var degrees = atan2(gy, gx) * 180 / .pi
            degrees = degrees.truncatingRemainder(dividingBy: 90)
            if degrees < 0 { degrees += 90 }
            histogram[min(count - 1, Int(degrees * Double(binsPerDegree)))] += strength.squareRoot()
            edges.append((Double(x), Double(y), strength.squareRoot()))
          }
          x += step
        }
        y += step
      }
    }
    let total = histogram.reduce(0, +)
    guard total > 0 else { return nil }
    // Smooth over ±2 bins (circularly), take the peak, refine it with a parabola through its
    // neighbours.
    var smooth = [Double](repeating: 0, count: count)
    for bin in 0..<count {
      for offset in -2...2 { smooth[bin] += histogram[(bin + offset + count) % count] }
    }
    guard let best = smooth.indices.max(by: { smooth[$0] < smooth[$1] }) else { return nil }
    // A peak that stands out: at least twice the average of a five-bin window.
    guard smooth[best] > 2 * 5 * total / Double(count) else { return nil }
    let left = smooth[(best - 1 + count) % count]
    let right = smooth[(best + 1) % count]
    let curvature = left - 2 * smooth[best] + right
    let shift = curvature < 0 ? 0.5 * (left - right) / curvature : 0
    let angle = (Double(best) + 0.5 + shift) / Double(binsPerDegree)
    return refined(angle >= 45 ? angle - 90 : angle, edges: edges)
  }

  /// The angle within ±2° of `estimate` (0.1° steps) at which the edge points line up best: the
  /// projections of their positions on the two axes of that angle are the most concentrated
  /// (largest sum of squared bin weights, 1-pixel bins) — the code's module edges fall into the
  /// same bins only when the axes follow them.
  static func refined(_ estimate: Double, edges: [(x: Double, y: Double, weight: Double)]) -> Double {
    guard edges.count > 100 else { return estimate }
    let sample =
      edges.count > 60_000 ? stride(from: 0, to: edges.count, by: edges.count / 60_000 + 1).map { edges[$0] } : edges
    let extent = sample.reduce(0.0) { max($0, abs($1.x) + abs($1.y)) }
    let size = Int(extent) * 2 + 4
    var best = estimate
    var bestScore = -1.0
    var bins = [Double](repeating: 0, count: size * 2)
    for tenth in -20...20 {
      let angle = estimate + Double(tenth) / 10
      let radians = angle * .pi / 180
      let c = cos(radians)
      let s = sin(radians)
      for index in bins.indices { bins[index] = 0 }
      for point in sample {
        let along = Int((point.x * c + point.y * s).rounded()) + size / 2
        let across = Int((-point.x * s + point.y * c).rounded()) + size / 2
        bins[along] += point.weight
        bins[size + across] += point.weight
      }
      let score = bins.reduce(0) { $0 + $1 * $1 }
      if score > bestScore {
        bestScore = score
        best = angle
      }
    }
    return best
  }

  /// `image` turned by `degrees` (counter-clockwise as seen, y pointing down) about its centre,
  /// on a canvas large enough to hold all of it, the new corners filled with `fill`; bilinear.
  static func rotated(_ image: GreyImage, degrees: Double, fill: UInt8 = 255) -> GreyImage {
    let radians = degrees * .pi / 180
    let cosine = cos(radians)
    let sine = sin(radians)
    let width = Int((abs(Double(image.width) * cosine) + abs(Double(image.height) * sine)).rounded(.up))
    let height = Int((abs(Double(image.width) * sine) + abs(Double(image.height) * cosine)).rounded(.up))
    let centreX = Double(image.width) / 2
    let centreY = Double(image.height) / 2
    let outCentreX = Double(width) / 2
    let outCentreY = Double(height) / 2
    var out = [UInt8](repeating: fill, count: width * height)
    image.pixels.withUnsafeBufferPointer { source in
      out.withUnsafeMutableBufferPointer { target in
        let sourceWidth = image.width
        let maxX = Double(image.width - 1)
        let maxY = Double(image.height - 1)
        for y in 0..<height {
          let dy = Double(y) - outCentreY
          for x in 0..<width {
            let dx = Double(x) - outCentreX
            // Inverse mapping: where this output pixel comes from.
            let u = cosine * dx - sine * dy + centreX
            let v = sine * dx + cosine * dy + centreY
            guard u >= 0, v >= 0, u < maxX, v < maxY else { continue }
            let x0 = Int(u)
            let y0 = Int(v)
            let fx = u - Double(x0)
            let fy = v - Double(y0)
            let index = y0 * sourceWidth + x0
            let top = Double(source[index]) * (1 - fx) + Double(source[index + 1]) * fx
            let bottom = Double(source[index + sourceWidth]) * (1 - fx) + Double(source[index + sourceWidth + 1]) * fx
            target[y * width + x] = UInt8(max(0, min(255, top * (1 - fy) + bottom * fy + 0.5)))
          }
        }
      }
    }
    return GreyImage(width: width, height: height, pixels: out)
  }
}
