/// A rectangle of terminal cells: column `x`, row `y` (both 0-based from the top left), and a
/// size in columns and rows. Layout helpers split it into rows or columns by ``Constraint``s.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
  public var x: Int
  public var y: Int
  public var width: Int
  public var height: Int

  public init(x: Int = 0, y: Int = 0, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = max(0, width)
    self.height = max(0, height)
  }

  public static let zero = Rect(width: 0, height: 0)

  /// One past the last column.
  public var right: Int { x + width }
  /// One past the last row.
  public var bottom: Int { y + height }
  public var isEmpty: Bool { width <= 0 || height <= 0 }
  public var area: Int { width * height }
  public var description: String { "Rect(x: \(x), y: \(y), width: \(width), height: \(height))" }

  public func contains(x column: Int, y row: Int) -> Bool {
    column >= x && column < right && row >= y && row < bottom
  }

  /// The overlap of two rectangles (empty, at `self`'s origin, when they do not overlap).
  public func intersection(_ other: Rect) -> Rect {
    let left = max(x, other.x)
    let top = max(y, other.y)
    let right = min(self.right, other.right)
    let bottom = min(self.bottom, other.bottom)
    guard right > left, bottom > top else { return Rect(x: x, y: y, width: 0, height: 0) }
    return Rect(x: left, y: top, width: right - left, height: bottom - top)
  }

  /// The rectangle shrunk by a margin on every side.
  public func inset(by margin: Int) -> Rect { inset(horizontal: margin, vertical: margin) }

  /// The rectangle shrunk by `horizontal` columns left and right and `vertical` rows top and bottom.
  public func inset(horizontal: Int = 0, vertical: Int = 0) -> Rect {
    Rect(
      x: x + min(horizontal, width / 2), y: y + min(vertical, height / 2), width: width - 2 * horizontal,
      height: height - 2 * vertical)
  }

  /// The rectangle shrunk by separate margins.
  public func inset(top: Int = 0, left: Int = 0, bottom: Int = 0, right: Int = 0) -> Rect {
    Rect(x: x + left, y: y + top, width: width - left - right, height: height - top - bottom)
  }

  /// Row `index` of the rectangle as a one-row rectangle.
  public func row(_ index: Int) -> Rect { Rect(x: x, y: y + index, width: width, height: index < height ? 1 : 0) }

  /// A `width` × `height` rectangle centred in this one (clamped to fit).
  public func centered(width: Int, height: Int) -> Rect {
    let w = min(width, self.width)
    let h = min(height, self.height)
    return Rect(x: x + (self.width - w) / 2, y: y + (self.height - h) / 2, width: w, height: h)
  }

  /// Splits top to bottom into rows sized by `constraints` (see ``Constraint``).
  public func rows(_ constraints: [Constraint]) -> [Rect] {
    Constraint.sizes(constraints, total: height).reduce(into: ([Rect](), y)) { state, size in
      state.0.append(Rect(x: x, y: state.1, width: width, height: size))
      state.1 += size
    }.0
  }

  /// Splits left to right into columns sized by `constraints`, `spacing` columns apart.
  public func columns(_ constraints: [Constraint], spacing: Int = 0) -> [Rect] {
    let gaps = max(0, constraints.count - 1) * spacing
    return Constraint.sizes(constraints, total: width - gaps).reduce(into: ([Rect](), x)) { state, size in
      state.0.append(Rect(x: state.1, y: y, width: size, height: height))
      state.1 += size + spacing
    }.0
  }
}

/// The size of one part of a split.
///
/// Fixed lengths are given first, then percentages of the whole, then what remains is shared by
/// the `fill`s in proportion to their weights. When the fixed parts do not fit, later parts shrink
/// (down to 0) so the split never exceeds the whole.
public enum Constraint: Hashable, Sendable {
  /// Exactly `n` cells (fewer if the whole is smaller).
  case length(Int)
  /// `p` percent of the whole (rounded down).
  case percentage(Int)
  /// A share of what is left, by weight.
  case fill(Int)

  /// A fill of weight 1.
  public static let fill = Constraint.fill(1)

  static func sizes(_ constraints: [Constraint], total: Int) -> [Int] {
    let total = max(0, total)
    var sizes = constraints.map { constraint -> Int in
      switch constraint {
      case .length(let n): max(0, n)
      case .percentage(let p): max(0, total * min(p, 100) / 100)
      case .fill: 0
      }
    }
    // Shrink fixed parts from the end when oversubscribed.
    var excess = sizes.reduce(0, +) - total
    var index = sizes.count - 1
    while excess > 0, index >= 0 {
      let cut = min(excess, sizes[index])
      sizes[index] -= cut
      excess -= cut
      index -= 1
    }
    let remaining = total - sizes.reduce(0, +)
    let weights = constraints.map { if case .fill(let w) = $0 { max(0, w) } else { 0 } }
    let weightSum = weights.reduce(0, +)
    guard remaining > 0, weightSum > 0 else { return sizes }
    var given = 0
    var lastFill = -1
    for (i, weight) in weights.enumerated() where weight > 0 {
      sizes[i] = remaining * weight / weightSum
      given += sizes[i]
      lastFill = i
    }
    if lastFill >= 0 { sizes[lastFill] += remaining - given }
    return sizes
  }
}
