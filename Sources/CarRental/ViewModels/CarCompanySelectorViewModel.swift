import Common
import Foundation
import Reactive

/// The company selector: the companies with a desk at the chosen place, and which one (if any)
/// the search is limited to.
///
/// Inputs: ``placeChanged(_:)``, ``companyTapped(_:)``, ``allCompaniesTapped()``.
/// Outputs: ``companies``, ``selectedCompanyID``, ``errorMessage``.
public final class CarCompanySelectorViewModel {
  /// One company as the selector lists it.
  public struct Option: Hashable, Sendable {
    public var id: String
    public var name: String
    /// `2 desks · 24h · one-way within the country, fee 95.00 USD`.
    public var detail: String
  }

  @Published public private(set) var companies: [Option] = []
  /// nil = every company.
  @Published public private(set) var selectedCompanyID: String?
  @Published public private(set) var errorMessage: String?

  private let places = PassthroughSubject<String, Never>()
  private var cancellables = Set<AnyCancellable>()

  public init(environment: CarRentalViewEnvironment) {
    let service = environment.service
    places
      .removeDuplicates()
      .map { place in environment.call { try service.companies(at: place) } }
      .switchToLatest()
      .sink { [weak self] result in
        guard let self else { return }
        switch result {
        case .success(let list):
          errorMessage = nil
          companies = list.map { entry in
            let desks = entry.desks.count
            let hours = entry.desks.first?.hours.summary ?? ""
            return Option(
              id: entry.company.id, name: entry.company.name,
              detail:
                "\(desks) desk\(desks == 1 ? "" : "s") · \(hours) · \(entry.company.oneWay.summary(money: environment.money))"
            )
          }
          if let selected = selectedCompanyID, !companies.contains(where: { $0.id == selected }) {
            selectedCompanyID = nil
          }
        case .failure(let error):
          companies = []
          selectedCompanyID = nil
          errorMessage = ScreenText.message(for: error, fields: CarSearchViewModel.fieldNames)
        }
      }
      .store(in: &cancellables)
  }

  /// The pick-up place changed (a code or city the search form settled on).
  public func placeChanged(_ place: String) { places.send(place) }

  /// A company was tapped: the search is limited to it (tapping it again clears the choice).
  public func companyTapped(_ id: String) {
    selectedCompanyID = selectedCompanyID == id ? nil : id
  }

  /// "All companies" was tapped.
  public func allCompaniesTapped() { selectedCompanyID = nil }
}
