import Common
import CommonUI
import Foundation
import Reactive

extension HotelScreens {
  /// The Hotels tab of an interactive app, over the same service the commands use.
  ///
  /// - Parameters:
  ///   - title: the tab's title.
  ///   - environment: the commands' environment (its service is opened now, for `context`).
  ///   - context: the invocation's context: data directory (the service, the session for booking).
  ///   - session: the app's one session (over the same data directory in an app): the booking
  ///     screen signs in through it when nobody is and lists its cards to choose the one charged;
  ///     the header shows its greeting.
  /// - Throws: what opening the service throws (reported like a command's error, exit 1).
  ///
  /// Place suggestions come from the reference data (cities and airports); "today" is read from
  /// the invocation's clock (`--clock-start`, ``TravelToday``); a booking uses the session of the data directory (the same one as
  /// `account login`), read when booking.
  public static func feature(
    title: String = L("Hotels"), environment: HotelEnvironment, context: CLIContext, session: AccountSession
  ) throws -> InteractiveFeature {
    let service = try environment.service(context)
    let client = HotelClient.live(
      service: service,
      suggest: { text in
        (try? ReferenceData.shared().suggestions(for: text, limit: 8, kinds: [.cities, .airports])) ?? []
      },
      token: session.account.token)
    let today = TravelToday(clock: context.clock)
    let root = root(
      client: client, session: session, scheduler: DispatchQueue.main.eraseToAnyScheduler(),
      backgroundScheduler: DispatchQueue.global(qos: .userInitiated).eraseToAnyScheduler(), today: today,
      money: MoneyFormat(context.travellerLanguage()))
    return InteractiveFeature(tab: AppTab(title, root: root), session: session)
  }
}
