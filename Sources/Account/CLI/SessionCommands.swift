import Common
import Foundation

/// `signup`, `login`, `logout`, `whoami`.
enum SessionCommands {
  static func commands(_ factory: @escaping AccountEnvironment.Factory) -> [Command] {
    [signUp(factory), logIn(factory), logOut(factory), whoAmI(factory)]
  }

  static func signUp(_ factory: @escaping AccountEnvironment.Factory) -> Command {
    Command(
      name: "signup",
      summary: L("Create an account (the password is read without echo, or from stdin)."),
      discussion: """
        The password (at least 10 characters) is asked twice without echo on a terminal, and read once \
        (one line) from stdin otherwise (CLI.md). It is never an option.
        """,
      options: [
        .option("email", "EMAIL", help: L("Your email address; it is how you sign in."), required: true),
        .option("first-name", "NAME", help: L("Your first name."), required: true),
        .option("last-name", "NAME", help: L("Your last name."), required: true),
      ],
      examples: ["--email ada@example.com --first-name Ada --last-name Lovelace < password.txt"],
      action: { invocation in
        let email = try SignUpRules.email(try invocation.required("email"))
        let names = try validatedNames(invocation)
        let run = try AccountRun(invocation, factory)
        let strings = Strings(Localization.current)
        let password = try readNewPassword(run, strings: strings)
        let profile = try run.environment.accounts.signUp(
          email: email, password: password, firstName: names.firstName, lastName: names.lastName)
        try run.context.emit(json: ProfileDocument(profile: profile)) {
          strings.format(
            .accountCreated,
            ["email": profile.email, "command": L("\(run.accountCommand) login --email \(profile.email)")])
        }
      })
  }

  /// First and last name of `signup`, trimmed, with the profile editor's messages when blank.
  private static func validatedNames(_ invocation: Invocation) throws -> UserProfile {
    let draft = UserProfile(
      firstName: invocation.value("first-name") ?? "", lastName: invocation.value("last-name") ?? "", email: "")
    do throws(UserProfileError) {
      return try ProfileRules.validated(draft)
    } catch {
      throw error.cliError
    }
  }

  /// The new password: asked twice without echo on a terminal (they must match), read once (one
  /// line) from stdin otherwise, as the CLI contract (`CLI.md`, `signup`) says.
  /// - Throws: ``CLIError`` `password_missing` (exit 2) when it is not given, what
  ///   `SignUpRules.checkPassword` throws (too short, blank), ``CLIError`` `password_mismatch` (exit 2)
  ///   when the two typed on a terminal differ. Nothing is created then.
  private static func readNewPassword(_ run: AccountRun, strings: Strings) throws -> String {
    guard let password = try SecretInput.read(prompt: strings[.signUpPasswordPrompt], console: run.console) else {
      throw passwordMissing
    }
    try SignUpRules.checkPassword(password)
    if SecretInput.readsFromTerminal(console: run.console) {
      let again = try SecretInput.read(prompt: strings[.signUpPasswordRepeatPrompt], console: run.console)
      guard again == password else {
        throw CLIError.usage(L("the two passwords differ: type the same password twice"), code: "password_mismatch")
      }
    }
    return password
  }

  private static let passwordMissing = CLIError.usage(
    L("password is missing: type it at the prompt, or give it as one line on stdin (never as an option)"),
    code: "password_missing")

  static func logIn(_ factory: @escaping AccountEnvironment.Factory) -> Command {
    Command(
      name: "login",
      summary: L("Sign in (the password is read without echo, or one line from stdin)."),
      options: [.option("email", "EMAIL", help: L("The email of your account."), required: true)],
      examples: ["--email ada@example.com"],
      action: { invocation in
        let email = try SignUpRules.email(try invocation.required("email"))
        let run = try AccountRun(invocation, factory)
        guard
          let password = try SecretInput.read(
            prompt: Strings(Localization.current)[.signInPasswordPrompt], console: run.console),
          !password.isEmpty
        else { throw passwordMissing }
        let session = try run.environment.accounts.signIn(email: email, password: password)
        try run.session.write(session.token)
        // The session belongs to the server it was opened on: remember it with the session.
        let remembered = ServerFile(dataDirectory: run.context.dataDirectory)
        if let server = run.context.server { try remembered.write(server) } else { remembered.delete() }
        let profile = try? run.environment.accounts.profile(token: session.token)
        let strings = run.strings(token: session.token)
        try run.context.emit(
          json: SignedInDocument(
            session: SessionSummary(email: email, expiresAt: InstantText.iso(session.expiresAt)), profile: profile)
        ) {
          var lines = [strings.format(.accountSignedInAs, ["email": email])]
          if let profile { lines.append(strings.welcome(firstName: profile.firstName, lastName: profile.lastName)) }
          return lines.joined(separator: "\n")
        }
      })
  }

  static func logOut(_ factory: @escaping AccountEnvironment.Factory) -> Command {
    Command(
      name: "logout",
      summary: L("Sign out: the session ends and its file is deleted."),
      action: { invocation in
        let run = try AccountRun(invocation, factory)
        let token = try run.session.read()
        if let token { try run.environment.accounts.signOut(token: token) }
        try run.session.delete()
        ServerFile(dataDirectory: run.context.dataDirectory).delete()
        struct Document: Encodable { var signedOut: Bool }
        try run.context.emit(json: Document(signedOut: token != nil)) {
          Strings(Localization.current)[token == nil ? .accountNotSignedIn : .accountSignedOut]
        }
      })
  }

  static func whoAmI(_ factory: @escaping AccountEnvironment.Factory) -> Command {
    Command(
      name: "whoami",
      summary: L("Show who is signed in (exit 1 when nobody is)."),
      action: { invocation in
        let run = try AccountRun(invocation, factory)
        let token = try run.token()
        let session = try run.environment.accounts.session(token: token)
        let profile = try run.environment.accounts.profile(token: token)
        let strings = run.strings(token: token)
        try run.context.emit(
          json: SignedInDocument(
            session: SessionSummary(email: profile.email, expiresAt: InstantText.iso(session.expiresAt)),
            profile: profile)
        ) {
          strings.format(
            .accountSignedInUntil,
            [
              "name": "\(profile.firstName) \(profile.lastName)", "email": profile.email,
              "date": InstantText.human(session.expiresAt),
            ])
        }
      })
  }
}
