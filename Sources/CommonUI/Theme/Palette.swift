import Common
import Foundation

/// Light or dark: which theme of the palette is shown (the user's appearance preference).
public enum Appearance: String, CaseIterable, Codable, Hashable, Sendable {
  case light, dark
}

/// The colours of one appearance, read from `Shared/ui/palette.json` (one object per appearance,
/// every role a `#rrggbb` string).
///
/// Roles: `background`/`foreground` (the page), `muted` (secondary text), `accent` (titles,
/// focused fields, keys in the footer), `border`, `selectionBackground`/`selectionForeground`
/// (the selected row), `headerBackground`/`headerForeground` (header and footer bars), `error`,
/// `success`, `warning`, `priceLow`/`priceMid`/`priceHigh` (calendar shading, backgrounds:
/// cheapest third to dearest third), `marker`/`cluster` (map), `mapLand`/`mapWater` (map ground,
/// backgrounds), `mapCoast`, `mapBorder`, `mapLabel` (shores, country borders, place names).
public struct Palette: Hashable, Sendable {
  public var background, foreground, muted, accent, border: Color
  public var selectionBackground, selectionForeground, headerBackground, headerForeground: Color
  public var error, success, warning, priceLow, priceMid, priceHigh, marker, cluster: Color
  public var mapLand, mapWater, mapCoast, mapBorder, mapLabel: Color

  /// The role names, in the order of the JSON file.
  static let roles = [
    "background", "foreground", "muted", "accent", "border", "selectionBackground", "selectionForeground",
    "headerBackground", "headerForeground", "error", "success", "warning", "priceLow", "priceMid", "priceHigh",
    "marker", "cluster", "mapLand", "mapWater", "mapCoast", "mapBorder", "mapLabel",
  ]

  /// Builds a palette from a role → colour table; every role of ``Palette`` must be present.
  /// - Throws: `SharedResources.Failure.malformed` naming the missing or invalid role.
  init(roles table: [String: String], path: String, appearance: Appearance) throws {
    func color(_ role: String) throws -> Color {
      guard let hex = table[role] else {
        throw SharedResources.Failure.malformed(
          path: path, reason: "\(appearance.rawValue).\(role) is missing (expected a #rrggbb colour)")
      }
      guard let color = Color(hex: hex) else {
        throw SharedResources.Failure.malformed(
          path: path, reason: "\(appearance.rawValue).\(role) is \"\(hex)\", expected a #rrggbb colour")
      }
      return color
    }
    background = try color("background")
    foreground = try color("foreground")
    muted = try color("muted")
    accent = try color("accent")
    border = try color("border")
    selectionBackground = try color("selectionBackground")
    selectionForeground = try color("selectionForeground")
    headerBackground = try color("headerBackground")
    headerForeground = try color("headerForeground")
    error = try color("error")
    success = try color("success")
    warning = try color("warning")
    priceLow = try color("priceLow")
    priceMid = try color("priceMid")
    priceHigh = try color("priceHigh")
    marker = try color("marker")
    cluster = try color("cluster")
    mapLand = try color("mapLand")
    mapWater = try color("mapWater")
    mapCoast = try color("mapCoast")
    mapBorder = try color("mapBorder")
    mapLabel = try color("mapLabel")
  }

  /// The path of the palette inside `Shared/`.
  public static let resourcePath = "ui/palette.json"

  /// Both appearances from palette JSON (`{"light": {role: "#rrggbb", …}, "dark": {…}}`).
  /// - Throws: `SharedResources.Failure.malformed` naming what is wrong.
  public static func decode(_ data: Data, path: String = resourcePath) throws -> [Appearance: Palette] {
    guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
      throw SharedResources.Failure.malformed(path: path, reason: "not a JSON object")
    }
    var result: [Appearance: Palette] = [:]
    for appearance in Appearance.allCases {
      guard let table = object[appearance.rawValue] as? [String: String] else {
        throw SharedResources.Failure.malformed(
          path: path, reason: "\"\(appearance.rawValue)\" is missing or not an object of role → #rrggbb")
      }
      result[appearance] = try Palette(roles: table, path: path, appearance: appearance)
    }
    return result
  }

  /// Both appearances, read once from `Shared/ui/palette.json`.
  /// - Throws: `SharedResources.Failure` when the file is missing or malformed.
  public static func shared() throws -> [Appearance: Palette] { try loaded.get() }

  private static let loaded: Result<[Appearance: Palette], SharedResources.Failure> = {
    do {
      return .success(try decode(SharedResources.data(resourcePath)))
    } catch let failure as SharedResources.Failure {
      return .failure(failure)
    } catch {
      return .failure(.unreadable(path: resourcePath))
    }
  }()
}
