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
      var y = step
      while y < image.height - step {
        var x = step
        let up = (y - step) * width
        let row = y * width
        let down = (y + step) * width
        while x < width - step {
          // Sobel: differences across the pixel, smoothed along the edge.
          let left = x - step
          let right = x + step
          let a = Double(pixels[up + left])
          let b = Double(pixels[up + x])
          let c = Double(pixels[up + right])
          let d = Double(pixels[row + left])
          let f = Double(pixels[row + right])
          let g = Double(pixels[down + left])
          let h = Double(pixels[down + x])
          let i = Double(pixels[down + right])
          let gx = (c + 2 * f + i) - (a + 2 * d + g)
          let gy = (g + 2 * h + i) - (a + 2 * b + c)
          let strength = gx * gx + gy * gy
          if strength > 40_000 {
            var degrees = atan2(gy, gx) * 180 / .pi
            degrees = degrees.truncatingRemainder(dividingBy: 90)
            if degrees < 0 { degrees += 90 }
            let magnitude = strength.squareRoot()
            histogram[min(count - 1, Int(degrees * Double(binsPerDegree)))] += magnitude
            edges.append((Double(x), Double(y), magnitude))
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

  /// The angle within ±2° of `estimate` (half degrees, then tenths) at which the edge points line up best: the
  /// projections of their positions on the two axes of that angle are the most concentrated
  /// (largest sum of squared bin weights, 1-pixel bins) — the code's module edges fall into the
  /// same bins only when the axes follow them.
  static func refined(_ estimate: Double, edges: [(x: Double, y: Double, weight: Double)]) -> Double {
    guard edges.count > 100 else { return estimate }
    let sample =
      edges.count > 30_000 ? stride(from: 0, to: edges.count, by: edges.count / 30_000 + 1).map { edges[$0] } : edges
    let extent = sample.reduce(0.0) { max($0, abs($1.x) + abs($1.y)) }
    let size = Int(extent) * 2 + 4
    var bins = [Double](repeating: 0, count: size * 2)
    func score(_ angle: Double) -> Double {
      let radians = angle * .pi / 180
      let c = cos(radians)
      let s = sin(radians)
      return bins.withUnsafeMutableBufferPointer { bins in
        for index in bins.indices { bins[index] = 0 }
        let half = size / 2
        for point in sample {
          bins[Int((point.x * c + point.y * s).rounded()) + half] += point.weight
          bins[size + Int((-point.x * s + point.y * c).rounded()) + half] += point.weight
        }
        var total = 0.0
        for value in bins { total += value * value }
        return total
      }
    }
    // Coarse (half degrees within ±2°), then fine (tenths within ±0.5° of the best).
    var best = estimate
    var bestScore = -1.0
    for step in -4...4 {
      let angle = estimate + Double(step) / 2
      let value = score(angle)
      if value > bestScore { (best, bestScore) = (angle, value) }
    }
    let coarse = best
    for step in -5...5 where step != 0 {
      let angle = coarse + Double(step) / 10
      let value = score(angle)
      if value > bestScore { (best, bestScore) = (angle, value) }
    }
    return best
  }

  /// The rectangle holding the image's edges (strong gradients, sampled on a grid at most 512
  /// points wide; the 1st to 99th percentile of their positions on each axis), grown by an eighth
  /// of its size and 16 pixels on each side and kept within the image; nil when the image has too
  /// few edges to tell.
  static func contentBounds(_ image: GreyImage) -> (x: Int, y: Int, width: Int, height: Int)? {
    let step = max(1, max(image.width, image.height) / 512)
    var xs: [Int] = []
    var ys: [Int] = []
    image.pixels.withUnsafeBufferPointer { pixels in
      let width = image.width
      var y = step
      while y < image.height - step {
        var x = step
        let row = y * width
        while x < width - step {
          let gx = Int(pixels[row + x + step]) - Int(pixels[row + x - step])
          let gy = Int(pixels[row + step * width + x]) - Int(pixels[row - step * width + x])
          if abs(gx) + abs(gy) > 80 {
            xs.append(x)
            ys.append(y)
          }
          x += step
        }
        y += step
      }
    }
    guard xs.count >= 50 else { return nil }
    xs.sort()
    ys.sort()
    let low = xs.count / 100
    let high = xs.count - 1 - xs.count / 100
    let (left, right, top, bottom) = (xs[low], xs[high], ys[low], ys[high])
    let marginX = (right - left) / 8 + 16
    let marginY = (bottom - top) / 8 + 16
    let x = max(0, left - marginX)
    let y = max(0, top - marginY)
    let width = min(image.width, right + marginX) - x
    let height = min(image.height, bottom + marginY) - y
    return width > 0 && height > 0 ? (x, y, width, height) : nil
  }

  /// The part `box` of `image`.
  static func cropped(_ image: GreyImage, _ box: (x: Int, y: Int, width: Int, height: Int)) -> GreyImage {
    var pixels = [UInt8]()
    pixels.reserveCapacity(box.width * box.height)
    for row in box.y..<(box.y + box.height) {
      let start = row * image.width + box.x
      pixels += image.pixels[start..<(start + box.width)]
    }
    return GreyImage(width: box.width, height: box.height, pixels: pixels)
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
