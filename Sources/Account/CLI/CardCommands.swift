import Common
import Foundation

/// `cards list | add | remove ID | default ID`.
enum CardCommands {
  static func group(_ factory: @escaping AccountEnvironment.Factory) -> Command {
    Command(
      name: "cards",
      summary: L("Your payment cards: list, add, remove, set the default."),
      examples: ["list", "add", "default card_…"],
      subcommands: [list(factory), add(factory), remove(factory), setDefault(factory)],
      action: list(factory).action)
  }

  static func list(_ factory: @escaping AccountEnvironment.Factory) -> Command {
    Command(
      name: "list",
      summary: L("List your cards: brand, last four digits, expiry, the default marked."),
      action: { invocation in
        let run = try AccountRun(invocation, factory)
        let token = try run.token()
        let cards = try run.environment.cards.cards(token: token)
        let strings = run.strings(token: token)
        struct Document: Encodable { var cards: [CardSummary] }
        try run.context.emit(json: Document(cards: cards.map(CardSummary.init))) {
          guard !cards.isEmpty else {
            return strings.format(.cardsEmpty, ["command": L("\(run.accountCommand) cards add")])
          }
          return cards.map { line(CardSummary($0), strings: strings) }.joined(separator: "\n")
        }
      })
  }

  /// `card_…  Visa •••• 4242  expires 12/30  default`.
  static func line(_ card: CardSummary, strings: Strings) -> String {
    var text = "\(card.id)  \(card.display)  \(strings.format(.cardsExpires, ["expiry": card.expiry]))"
    if card.isDefault { text += "  \(strings[.cardsDefault])" }
    return text
  }

  static func add(_ factory: @escaping AccountEnvironment.Factory) -> Command {
    Command(
      name: "add",
      summary: L("Add a card: number, expiry MM/YY and CVC are read from the terminal or stdin."),
      discussion: """
        On a terminal the number and the CVC are read without echo. Otherwise three lines are read from \
        stdin: the number, the expiry (MM/YY or MM/YYYY) and the CVC (card.txt: 4242 4242 4242 4242, 12/30, \
        123, one a line). The CVC is checked and never stored. Your first card becomes the default.
        """,
      examples: ["", "< card.txt"],
      action: { invocation in
        let run = try AccountRun(invocation, factory)
        let token = try run.token()
        let strings = run.strings(token: token)
        let console = run.console
        let today = run.environment.now()
        let calendar = run.environment.calendar
        // Each field is checked as soon as it is read, so a typo is reported before the next prompt.
        let numberText = try readField(
          SecretInput.read(prompt: strings[.cardsNumberPrompt], console: console), "number")
        let (number, brand) = try PaymentCardValidation.validateNumber(numberText)
        let expiryText = try readField(readVisible(prompt: strings[.cardsExpiryPrompt], console: console), "expiry")
        let expiry = try CardExpiry(parsing: expiryText)
        try expiry.checkNotExpired(today: today, calendar: calendar)
        let cvc = try readField(SecretInput.read(prompt: strings[.cardsCvcPrompt], console: console), "CVC")
        try PaymentCardValidation.validateCVC(cvc, brand: brand)
        let checked = PaymentCardValidation.ValidatedCard(
          number: number, brand: brand, expiry: expiry, cvc: cvc.trimmingCharacters(in: .whitespaces))
        let card = try run.environment.cards.addCard(checked.newPaymentCard, token: token)
        struct Document: Encodable { var card: CardSummary }
        let summary = CardSummary(card)
        try run.context.emit(json: Document(card: summary)) {
          strings.format(.cardsAdded, ["card": line(summary, strings: strings)])
        }
      })
  }

  private static func readField(_ value: String?, _ name: String) throws -> String {
    guard let value, !value.trimmingCharacters(in: .whitespaces).isEmpty else {
      throw CLIError.usage(
        L(
          "card \(name) is missing: type it at the prompt, or give number, expiry (MM/YY) and CVC as three lines on stdin"
        ),
        code: "card_details_missing")
    }
    return value
  }

  /// A line that is not secret (the expiry): echoed on a terminal, after a prompt on stderr.
  private static func readVisible(prompt: String, console: Console) -> String? {
    if SecretInput.readsFromTerminal(console: console) { FileHandle.standardError.write(Data(prompt.utf8)) }
    return console.readLine()
  }

  static func remove(_ factory: @escaping AccountEnvironment.Factory) -> Command {
    Command(
      name: "remove",
      summary: L("Remove a card; if it was the default, another card becomes the default."),
      arguments: [ArgumentSpec("ID", help: L("The card's id, from 'cards list'."))],
      action: { invocation in
        let id = try invocation.argument(0, name: "ID")
        let run = try AccountRun(invocation, factory)
        let token = try run.token()
        try run.environment.cards.removeCard(id: id, token: token)
        let strings = run.strings(token: token)
        struct Document: Encodable { var removed: String }
        try run.context.emit(json: Document(removed: id)) { strings.format(.cardsRemoved, ["id": id]) }
      })
  }

  static func setDefault(_ factory: @escaping AccountEnvironment.Factory) -> Command {
    Command(
      name: "default",
      summary: L("Make a card the default, charged when a booking names no card."),
      arguments: [ArgumentSpec("ID", help: L("The card's id, from 'cards list'."))],
      action: { invocation in
        let id = try invocation.argument(0, name: "ID")
        let run = try AccountRun(invocation, factory)
        let token = try run.token()
        let card = try run.environment.cards.setDefaultCard(id: id, token: token)
        let strings = run.strings(token: token)
        struct Document: Encodable { var card: CardSummary }
        let summary = CardSummary(card)
        try run.context.emit(json: Document(card: summary)) {
          strings.format(.cardsDefaultSet, ["card": summary.display])
        }
      })
  }
}
