import Common
import CommonUI
import Foundation
import Reactive

extension CarRentalScreens {
  /// The Cars tab of an interactive app, over the same service the commands use: outputs on the
  /// main queue, service calls on a background queue.
  ///
  /// - Parameters:
  ///   - title: the tab's title.
  ///   - environment: the commands' environment (its service is opened now, for `context`).
  ///   - context: the invocation's context (data directory, signed-in user).
  ///   - session: the app's one session (over the same data directory in an app): the booking
  ///     screen signs in through it when nobody is and lists its cards to choose the one charged;
  ///     the header shows its greeting.
  /// - Throws: what opening the service throws (reported like a command's error, exit 1).
  ///
  /// "Today" (the calendar's first day, the form's past check) is read from the invocation's clock
  /// (`--clock-start`), ``TravelToday``.
  public static func feature(
    title: String = L("Cars"), environment: CarRentalEnvironment, context: CLIContext, session: AccountSession
  ) throws -> InteractiveFeature {
    let views = CarRentalViewEnvironment(
      service: try environment.service(context), session: session, mainQueue: DispatchQueue.main.eraseToAnyScheduler(),
      backgroundQueue: DispatchQueue.global(qos: .userInitiated).eraseToAnyScheduler(),
      money: MoneyFormat(context.travellerLanguage()), today: TravelToday(clock: context.clock))
    return InteractiveFeature(tab: AppTab(title, root: root(environment: views)), session: session)
  }
}
