import Common
import Foundation

/// The lines and the total of a price: each line's label on the left and amount on the right
/// (written by `money`, the one money rule: ``MoneyFormat``; negative amounts for discounts), a
/// rule, then the total in bold.
/// Labels are cut with `…` before amounts ever are. It draws what it is given: the arithmetic
/// (and its rounding) belongs to the view model, which passes the total it computed.
///
/// ```swift
/// PriceCalculatorView(lines: [("Fare", fare), ("Taxes", taxes), ("Promo SPRING", -discount)], total: total)
/// ```
public struct PriceCalculatorView: Widget {
  public var lines: [(label: String, amount: Money)]
  public var total: Money
  public var totalLabel: String
  public var money: MoneyFormat

  public init(
    lines: [(label: String, amount: Money)], total: Money, totalLabel: String = L("Total"),
    money: MoneyFormat = .english
  ) {
    self.lines = lines
    self.total = total
    self.totalLabel = totalLabel
    self.money = money
  }

  /// Rows needed: one per line, the rule and the total.
  public var height: Int { lines.count + 2 }

  public func render(in area: Rect, into buffer: inout Buffer) {
    guard !area.isEmpty else { return }
    let theme = buffer.theme
    let amounts = lines.map { money.string($0.amount) }
    let totalText = money.string(total)
    let amountWidth = min(area.width, (amounts + [totalText]).map { DisplayWidth.of($0) }.max() ?? 0)
    let columns = area.columns([.fill, .length(amountWidth)], spacing: 1)
    var y = area.y
    for (line, amount) in zip(lines, amounts) where y < area.bottom - 2 || (y < area.bottom && lines.count < 2) {
      let style = line.amount.amount < 0 ? theme.success : theme.base
      Label(line.label, style: theme.base).render(
        in: Rect(x: columns[0].x, y: y, width: columns[0].width, height: 1), into: &buffer)
      Label(amount, style: style).alignment(.trailing)
        .render(in: Rect(x: columns[1].x, y: y, width: columns[1].width, height: 1), into: &buffer)
      y += 1
    }
    guard y < area.bottom else { return }
    buffer.fill(Rect(x: area.x, y: y, width: area.width, height: 1), symbol: "─", style: theme.border)
    y += 1
    guard y < area.bottom else { return }
    let bold = theme.base.adding(.bold)
    Label(totalLabel, style: bold).render(
      in: Rect(x: columns[0].x, y: y, width: columns[0].width, height: 1), into: &buffer)
    Label(totalText, style: theme.accent).alignment(.trailing)
      .render(in: Rect(x: columns[1].x, y: y, width: columns[1].width, height: 1), into: &buffer)
  }
}
