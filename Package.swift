// swift-tools-version: 6.2
//
// The travel app: one package, one direction of dependencies.
//
//   Apps (thin mains)  →  features  →  CommonUI  →  Common  →  Reactive
//   Apps               →  Backend   →  Common
//
// See README.md for the target map and Scripts/check-architecture for the rules it enforces.

import PackageDescription

/// One settings list for every target: Swift 6 language mode (strict concurrency) and
/// `MemberImportVisibility`, so a member is visible only in a file that imports its module.
let settings: [SwiftSetting] = [
  .swiftLanguageMode(.v6),
  .enableUpcomingFeature("MemberImportVisibility"),
]

/// A library target under `Sources/<name>` and its test target `Tests/<name>Tests`. View snapshots
/// (`Tests/<name>Tests/__Snapshots__`, see CommonTesting's `assertSnapshot`) and a target's
/// `README.md` are data, not sources. Both are declared, not looked up on disk: SwiftPM caches a
/// manifest's result by its text, so a lookup would go stale when a snapshot folder appears.
func library(
  _ name: String, _ dependencies: [Target.Dependency], testDependencies: [Target.Dependency] = [],
  snapshots: Bool = false, readme: Bool = false
) -> [Target] {
  [
    .target(name: name, dependencies: dependencies, exclude: readme ? ["README.md"] : [], swiftSettings: settings),
    .testTarget(
      name: "\(name)Tests", dependencies: [.target(name: name)] + testDependencies,
      exclude: snapshots ? ["__Snapshots__"] : [], swiftSettings: settings),
  ]
}

/// An executable target under `Apps/<name>` that composes targets; shipped as the product `product`.
struct App {
  var name: String
  var product: String
  var dependencies: [Target.Dependency]
  var target: Target {
    .executableTarget(name: name, dependencies: dependencies, path: "Apps/\(name)", swiftSettings: settings)
  }
}

// MARK: - C libraries from Debian, wrapped as system libraries

var targets: [Target] = [
  // SQLite 3 (the store). Debian: libsqlite3-dev.
  .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
  // libpq 15, PostgreSQL's client library (the store on a PostgreSQL server). Debian: libpq-dev.
  .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
  // OpenSSL libcrypto (scrypt, AES-256-GCM, RAND_bytes, CRYPTO_memcmp, ECDSA, PEM). Debian: libssl-dev.
  .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
  // libwebsockets 4.1: HTTP/1.1 + WebSocket server and WebSocket client. Debian: libwebsockets-dev.
  .systemLibrary(name: "CLibWebSockets", pkgConfig: "libwebsockets", providers: [.apt(["libwebsockets-dev"])]),
  // libzint 2.11: PDF417, Aztec, QR and Data Matrix encoding. Debian: libzint-dev (no pkg-config file).
  .systemLibrary(name: "CZint", providers: [.apt(["libzint-dev"])]),
  // PNG and JPEG as grey pixels, over libpng 1.6 and libjpeg-turbo. Debian: libpng-dev, libjpeg-dev.
  .target(name: "CImageIO", linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("jpeg")]),
  // zxing-cpp 1.4 (C++ only) behind one C function that reads barcodes. Debian: libzxing-dev.
  .target(name: "CZXingReader", linkerSettings: [.linkedLibrary("ZXing")]),
]

// MARK: - Core

// Combine-compatible publishers, subscribers, subjects, operators and schedulers.
targets += library("Reactive", [], testDependencies: ["CommonTesting"], readme: true)
// Models, extensions, assets from Shared/, service protocols, the command-line toolkit.
targets += library("Common", ["Reactive"], testDependencies: ["CommonTesting", "Reactive"])
// Terminal view layer: cell buffer, ANSI backend, widgets and the shared views.
targets += library(
  "CommonUI", ["Common", "Reactive"], testDependencies: ["CommonTesting", "Common", "Reactive"], snapshots: true)
// The embedded "remote systems": storage, accounts, payments, inventory, search engines.
targets += library(
  "Backend", ["Common", "Reactive", "CSQLite", "CLibPQ", "COpenSSL"],
  testDependencies: ["BackendTesting", "CommonTesting", "Common", "Reactive"]
)
// The store's test support shared by BackendTests and ServerTests: a PostgreSQL schema per test
// (PostgresTestSchema, on Scripts/with-postgres's cluster) and the two drivers to test over.
targets.append(.target(name: "BackendTesting", dependencies: ["Backend"], swiftSettings: settings))
// HTTP/1.1 + WebSocket server and WebSocket client over libwebsockets (one service thread);
// OpenSSL's PEM readers check the TLS files before libwebsockets is given them.
targets += library("Transport", ["CLibWebSockets", "COpenSSL", "Reactive"], testDependencies: ["Reactive"])
// Combine's URLSession.dataTaskPublisher(for:) over FoundationNetworking (Reactive itself imports nothing).
targets += library("ReactiveNetworking", ["Reactive"], testDependencies: ["Reactive", "Transport"])
// The backend on the network: HTTP routes (/v1), the live channel (/v1/stream), over Backend.
targets += library(
  "Server", ["Backend", "Common", "Reactive", "Transport"],
  testDependencies: ["Backend", "BackendTesting", "CommonTesting", "Common", "Reactive", "Transport"])
// Common's service protocols over HTTP and WebSocket: the clients of Server (never imports Backend or Server).
targets += library(
  "Remote", ["Common", "Reactive", "ReactiveNetworking", "Transport"],
  testDependencies: ["Backend", "Common", "CommonTesting", "Reactive", "Server"])
// Barcodes: libzint (encoding, PNG, SVG) and zxing-cpp (reading PNG and JPEG) behind Common's
// BarcodeRendering and BarcodeScanning; wired into the features by the apps.
targets += library(
  "Barcodes", ["Common", "CZint", "CImageIO", "CZXingReader"],
  testDependencies: ["CommonTesting", "Common", "CommonUI"])
// Fixtures, service doubles, a publisher recorder and view snapshots; used by tests only.
targets += library("CommonTesting", ["Common", "CommonUI", "Reactive"], testDependencies: ["Common", "Reactive"])

// MARK: - Features (each imports Common, CommonUI and Reactive only)

for feature in ["Booking", "Hotel", "CarRental", "Account", "Agency"] {
  targets += library(
    feature, ["Common", "CommonUI", "Reactive"],
    testDependencies: ["CommonTesting", "Common", "CommonUI", "Reactive"], snapshots: true
  )
}

// MARK: - Apps (composition roots)

let apps = [
  App(
    name: "TravelApp", product: "travel",
    dependencies: ["Booking", "Hotel", "CarRental", "Account", "Backend", "Barcodes", "Common", "CommonUI", "Remote"]),
  App(
    name: "BookingApp", product: "booking",
    dependencies: ["Booking", "Backend", "Barcodes", "Common", "CommonUI", "Remote"]),
  App(name: "HotelApp", product: "hotel", dependencies: ["Hotel", "Backend", "Common", "CommonUI", "Remote"]),
  App(
    name: "CarRentalApp", product: "car-rental", dependencies: ["CarRental", "Backend", "Common", "CommonUI", "Remote"]),
  App(
    name: "AccountApp", product: "account",
    dependencies: ["Account", "Backend", "Barcodes", "Common", "CommonUI", "Remote"]),
  App(name: "AgencyApp", product: "travel-agent", dependencies: ["Agency", "Backend", "Common", "CommonUI", "Remote"]),
  App(name: "ServerApp", product: "travel-server", dependencies: ["Server", "Common"]),
]
targets += apps.map(\.target)

// MARK: - Benchmarks (run by Scripts/bench)

targets.append(
  .executableTarget(
    name: "TravelBenchmarks",
    dependencies: [
      "Backend", "Barcodes", "Booking", "Common", "CommonTesting", "CommonUI", "Reactive", "Server", "Transport",
    ],
    path: "Scripts/Benchmarks",
    swiftSettings: settings))

// MARK: - End-to-end tests (run the built executables)

targets.append(.testTarget(name: "EndToEndTests", dependencies: ["CommonTesting", "Common"], swiftSettings: settings))

let package = Package(
  name: "Travel",
  platforms: [.macOS(.v15)],
  products: apps.map { .executable(name: $0.product, targets: [$0.name]) },
  targets: targets,
  cxxLanguageStandard: .cxx17
)
