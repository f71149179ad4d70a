// swift-tools-version: 6.1
// Swift 6 language mode (the default for tools version 6.x).
import PackageDescription

let package = Package(
    name: "LinkConform",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .executable(name: "linkconform", targets: ["linkconform"]),
        .executable(name: "linkconform-bench", targets: ["linkconform-bench"]),
        .library(name: "LinkURL", targets: ["LinkURL"]),
        .library(name: "ULC", targets: ["ULC"]),
        .library(name: "XCallbackURL", targets: ["XCallbackURL"]),
        .library(name: "XignQR", targets: ["XignQR"]),
        .library(name: "Conformance", targets: ["Conformance"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    ],
    targets: [
        // Bottom layer: pure, no I/O, no Foundation in the parsing paths.
        .target(name: "LinkJSON"),
        .target(name: "LinkURL"),
        // Seeded random numbers for property tests, benchmark inputs and fuzz replays.
        .target(name: "SeededRandom"),
        // Protocol modules (reference implementations).
        .target(name: "XCallbackURL", dependencies: ["LinkURL"]),
        // XignSys links: source-url is read the way callbacks are.
        .target(name: "XignQR", dependencies: ["LinkURL", "XCallbackURL"]),
        // ULC is x-callback-url on top of universal links: it reads callbacks the same way.
        .target(name: "ULC", dependencies: ["LinkURL", "XCallbackURL"]),
        // The invariants the fuzz targets check, one small module per protocol so that each fuzz
        // binary holds only what it fuzzes; replayed by `swift test` as well.
        .target(name: "FuzzSupport", dependencies: ["LinkURL"]),
        .target(name: "FuzzULC", dependencies: ["FuzzSupport", "ULC", "LinkURL"]),
        .target(name: "FuzzXCallback", dependencies: ["FuzzSupport", "XCallbackURL", "LinkURL"]),
        .target(name: "FuzzXignQR", dependencies: ["FuzzSupport", "XignQR"]),
        // Corpus, requirements, operations, runner, outcomes.
        .target(name: "Conformance", dependencies: ["LinkJSON", "LinkURL", "ULC", "XCallbackURL", "XignQR",
                                                   .product(name: "Crypto", package: "swift-crypto")]),
        .target(name: "ResultsStore", dependencies: [
            "Conformance", "LinkJSON",
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        .target(name: "Reports", dependencies: ["ResultsStore", "Conformance", "LinkJSON"]),
        .target(name: "LinkConformCLI", dependencies: [
            "Conformance", "ResultsStore", "Reports", "LinkJSON", "LinkURL", "ULC",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(name: "linkconform", dependencies: ["LinkConformCLI"]),
        // Bundled adapter: ULC the way a typical iOS app reads links (URLComponents), for comparison.
        .executableTarget(name: "foundation-adapter", path: "Adapters/foundation/Sources"),
        // libFuzzer targets (scripts/fuzz.sh builds them with -sanitize=fuzzer,address and -DFUZZING;
        // a plain build makes replayers of the same entry functions).
        .executableTarget(name: "fuzz-url", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "fuzz-query-diff", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "fuzz-ulc", dependencies: ["FuzzSupport", "FuzzULC"]),
        .executableTarget(name: "fuzz-xcallback", dependencies: ["FuzzSupport", "FuzzXCallback"]),
        .executableTarget(name: "fuzz-xignqr", dependencies: ["FuzzSupport", "FuzzXignQR"]),
        .executableTarget(name: "fuzz-pid", dependencies: ["FuzzSupport", "FuzzXignQR"]),
        .executableTarget(name: "linkconform-bench", dependencies: ["LinkURL", "ULC", "XCallbackURL", "XignQR", "Conformance", "LinkJSON", "SeededRandom", "ResultsStore"]),

        .testTarget(name: "LinkJSONTests", dependencies: ["LinkJSON", "SeededRandom"]),
        .testTarget(name: "LinkURLTests", dependencies: ["LinkURL", "SeededRandom"]),
        .testTarget(name: "ULCTests", dependencies: ["ULC", "LinkURL", "SeededRandom"]),
        .testTarget(name: "XCallbackURLTests", dependencies: ["XCallbackURL", "LinkURL", "SeededRandom"]),
        .testTarget(name: "XignQRTests", dependencies: ["XignQR", "SeededRandom"]),
        .testTarget(name: "FuzzReplayTests", dependencies: ["FuzzSupport", "FuzzULC", "FuzzXCallback", "FuzzXignQR"]),
        .testTarget(name: "ConformanceTests", dependencies: ["Conformance", "LinkJSON", "ULC"], exclude: ["Fixtures"]),
        .testTarget(name: "ResultsStoreTests", dependencies: ["ResultsStore", "Conformance", "LinkJSON"]),
        .testTarget(name: "ReportsTests", dependencies: ["Reports", "ResultsStore", "Conformance", "LinkJSON"]),
        .testTarget(name: "LinkConformCLITests", dependencies: ["LinkConformCLI", "linkconform", "foundation-adapter"],
                    exclude: ["Fixtures"]),
    ]
)
