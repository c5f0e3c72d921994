import Common

/// A boarding pass on screen: the passenger, the record locator and ticket, one line per leg
/// (flight, airports, date, compartment, seat, boarding sequence), then the barcode — at the
/// largest size that fits (``BarcodeView``), or a line saying how much room it needs.
public struct BoardingPassView: Widget {
  public var pass: BoardingPass
  public var symbol: BarcodeSymbol?
  /// Each leg's date, when known (else the day of the year is shown).
  public var dates: [LocalDate?]
  /// A line under the title (`Aztec · passenger 1 of 2`).
  public var caption: String?

  public init(pass: BoardingPass, symbol: BarcodeSymbol?, dates: [LocalDate?] = [], caption: String? = nil) {
    self.pass = pass
    self.symbol = symbol
    self.dates = dates
    self.caption = caption
  }

  /// The text lines above the barcode.
  public var textLines: [String] {
    var lines = [L("BOARDING PASS  \(pass.passengerDisplayName)  (\(pass.passengerName))")]
    var booking = L("PNR \(pass.legs.first?.pnr ?? "")")
    if let ticket = pass.legs.first?.ticketNumber { booking += L("  Ticket \(ticket)") }
    if let caption { booking += "  ·  \(caption)" }
    lines.append(booking)
    for (index, leg) in pass.legs.enumerated() {
      let date = dates.indices.contains(index) ? dates[index]?.description : nil
      lines.append(
        "\(leg.flightDisplay)  \(leg.from) → \(leg.to)  \(date ?? "day \(leg.dayOfYear)")  \(leg.compartment)  "
          + L("Seat \(leg.seat.isEmpty ? "—" : leg.seatDisplay)  Seq \(leg.sequenceDisplay)"))
    }
    return lines
  }

  public func render(in area: Rect, into buffer: inout Buffer) {
    guard !area.isEmpty else { return }
    let lines = textLines
    for (index, line) in lines.enumerated() where index < area.height {
      buffer.write(
        line, x: area.x, y: area.y + index, maxWidth: area.width,
        style: index == 0 ? buffer.theme.accent : buffer.theme.base)
    }
    guard let symbol else { return }
    let rest = area.inset(top: lines.count + 1)
    guard !rest.isEmpty else { return }
    guard let scale = BarcodeView.largestScale(for: symbol, width: rest.width, height: rest.height) else {
      let size = BarcodeView.size(of: symbol)
      buffer.write(
        L(
          "The \(symbol.symbology) code needs \(size.width)×\(size.height) cells and there are \(rest.width)×\(rest.height): use a larger window or another symbology."
        ),
        x: rest.x, y: rest.y, maxWidth: rest.width, style: buffer.theme.warning)
      return
    }
    let size = BarcodeView.size(of: symbol, scale: scale)
    BarcodeView(symbol, scale: scale).render(
      in: Rect(x: rest.x, y: rest.y, width: rest.width, height: size.height), into: &buffer)
  }
}
