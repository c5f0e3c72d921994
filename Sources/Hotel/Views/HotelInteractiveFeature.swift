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
  /// - Throws: what opening the service throws (reported like a command's error, exit 1).
  ///
  /// Place suggestions come from the reference data (cities and airports); "today" is the
  /// device's local date; a booking uses the signed-in session (`travel account sign-in`).
  public static func feature(title: String = "Hotels", environment: HotelEnvironment, context: CLIContext) throws
    -> InteractiveFeature
  {
    let service = try environment.service(context)
    let dataDirectory = context.dataDirectory
    let client = HotelClient.live(
      service: service,
      suggest: { text in
        (try? ReferenceData.shared().suggestions(for: text, limit: 8, kinds: [.cities, .airports])) ?? []
      },
      token: { try SessionFile(dataDirectory: dataDirectory).read() })
    let today = LocalDate(environment.now(), in: .current)
    let root = root(client: client, scheduler: DispatchQueue.main.eraseToAnyScheduler(), today: today)
    return InteractiveFeature(tab: AppTab(title, root: root))
  }
}
