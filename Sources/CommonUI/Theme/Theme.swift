/// The styles views draw with, by role. Built from a ``Palette`` (colour) or ``monochrome``
/// (no colour at all: `NO_COLOR`, `--no-color`, or output that is not a terminal; emphasis is then
/// carried by bold, underline and reverse video only).
///
/// Views read the theme from `buffer.theme`, so switching appearance is just drawing the next
/// frame with another theme (``InteractiveApp/setTheme(_:)``).
public struct Theme: Hashable, Sendable {
  /// The page: every cell starts in this style.
  public var base: Style
  /// Secondary text (hints, placeholders, captions).
  public var muted: Style
  /// Titles, focused widgets, keys.
  public var accent: Style
  /// Box borders.
  public var border: Style
  /// The selected row of a list or table, the current tab, a focused button.
  public var selection: Style
  /// Header and footer bars.
  public var bar: Style
  public var error: Style
  public var success: Style
  public var warning: Style
  /// Calendar shading, cheapest third first (background styles).
  public var priceShades: [Style]
  /// Map markers and clusters.
  public var marker: Style
  public var cluster: Style
  /// The map's ground: land and water cells (colour themes fill them with these backgrounds;
  /// the monochrome theme marks land cells with a faint dot in `mapLand`'s style and leaves
  /// water blank), shores, country borders and place names.
  public var mapLand: Style
  public var mapWater: Style
  public var mapCoast: Style
  public var mapBorder: Style
  public var mapLabel: Style
  /// Whether this theme uses colour at all.
  public var usesColor: Bool

  /// No colour: attributes only. Used for `NO_COLOR` and by the text snapshots.
  public static let monochrome = Theme(
    base: .plain, muted: .dim, accent: .bold, border: .plain, selection: .reverse, bar: .reverse,
    error: .bold, success: .bold, warning: .bold,
    priceShades: [Style(attributes: .bold), .plain, .dim], marker: .plain, cluster: .bold, mapLand: .dim,
    mapWater: .plain, mapCoast: .plain, mapBorder: .dim, mapLabel: .plain, usesColor: false)

  public init(
    base: Style, muted: Style, accent: Style, border: Style, selection: Style, bar: Style, error: Style,
    success: Style, warning: Style, priceShades: [Style], marker: Style, cluster: Style, mapLand: Style,
    mapWater: Style, mapCoast: Style, mapBorder: Style, mapLabel: Style, usesColor: Bool
  ) {
    self.base = base
    self.muted = muted
    self.accent = accent
    self.border = border
    self.selection = selection
    self.bar = bar
    self.error = error
    self.success = success
    self.warning = warning
    self.priceShades = priceShades
    self.marker = marker
    self.cluster = cluster
    self.mapLand = mapLand
    self.mapWater = mapWater
    self.mapCoast = mapCoast
    self.mapBorder = mapBorder
    self.mapLabel = mapLabel
    self.usesColor = usesColor
  }

  /// The theme of a palette.
  public init(palette p: Palette) {
    let base = Style(foreground: p.foreground, background: p.background)
    self.init(
      base: base, muted: base.foreground(p.muted), accent: base.foreground(p.accent).adding(.bold),
      border: base.foreground(p.border),
      selection: Style(foreground: p.selectionForeground, background: p.selectionBackground, attributes: .bold),
      bar: Style(foreground: p.headerForeground, background: p.headerBackground),
      error: base.foreground(p.error).adding(.bold), success: base.foreground(p.success),
      warning: base.foreground(p.warning),
      priceShades: [p.priceLow, p.priceMid, p.priceHigh].map { base.background($0) },
      marker: base.foreground(p.marker), cluster: base.foreground(p.cluster).adding(.bold),
      mapLand: base.background(p.mapLand), mapWater: base.background(p.mapWater), mapCoast: base.foreground(p.mapCoast),
      mapBorder: base.foreground(p.mapBorder), mapLabel: base.foreground(p.mapLabel), usesColor: true)
  }

  /// The theme for an appearance from `Shared/ui/palette.json`, or ``monochrome`` when colour is
  /// off (`useColor` false: `CLIContext.useColor`, which covers `NO_COLOR`, `--no-color` and
  /// non-terminal output).
  /// - Throws: `SharedResources.Failure` when colour is on and the palette cannot be read.
  public static func named(_ appearance: Appearance, useColor: Bool) throws -> Theme {
    guard useColor else { return .monochrome }
    guard let palette = try Palette.shared()[appearance] else { return .monochrome }
    return Theme(palette: palette)
  }
}
