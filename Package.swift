// swift-tools-version: 6.1
// Swift 6 language mode (the default for tools version 6.x).
import PackageDescription

let package = Package(
    name: "LinkConform",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .executable(name: "linkconform", targets: ["linkconform"]),
        .executable(name: "linkconform-bench", targets: ["linkconform-bench"]),
        .library(name: "LinkRules", targets: ["LinkRules"]),
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
        // `check --domain` fetches association files over real HTTPS (docs/live-checks.md).
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // AsyncHTTPClient's own dependencies, named for the types a fetch classifies its errors by.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.100.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.30.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.26.0"),
        .package(url: "https://github.com/apple/swift-nio-http2.git", from: "1.46.0"),
    ],
    targets: [
        // Bottom layer: pure, no I/O, no Foundation in the parsing paths.
        .target(name: "LinkJSON"),
        .target(name: "LinkURL"),
        // The rule vocabulary every protocol module and the Conformance layer share: levels,
        // violation codes tied to requirements, the violation shape. No dependencies.
        .target(name: "LinkRules"),
        // Seeded random numbers for property tests, benchmark inputs and fuzz replays.
        .target(name: "SeededRandom"),
        // Protocol modules (reference implementations).
        .target(name: "XCallbackURL", dependencies: ["LinkRules", "LinkURL"]),
        // XignSys links: source-url is read the way callbacks are, and a fragment the same way
        // (CallbackInspection, ParameterOccurrences, FragmentReading from XCallbackURL).
        .target(name: "XignQR", dependencies: ["LinkRules", "LinkURL", "XCallbackURL"]),
        // ULC is x-callback-url on top of universal links: it reads callbacks the same way
        // (CallbackInspection, ParameterOccurrences, CallbackValue, FragmentReading from XCallbackURL).
        .target(name: "ULC", dependencies: ["LinkRules", "LinkURL", "XCallbackURL"]),
        .target(name: "AASA", dependencies: ["LinkRules", "LinkJSON"]),
        // Android Digital Asset Links: statement lists, verification, Android 15 dynamic
        // components matched with the AASA pattern engine.
        .target(name: "AssetLinks", dependencies: ["LinkRules", "LinkJSON", "LinkURL", "AASA"]),
        // MitID app switch: idp_params of an OIDC authorize URL (read like callbacks, with
        // XCallbackURL's ParameterOccurrences), and the return leg judged with AASA and AssetLinks.
        .target(name: "MitIDAppSwitch", dependencies: ["LinkRules", "LinkJSON", "LinkURL", "XCallbackURL", "AASA", "AssetLinks"]),
        // The invariants the fuzz targets check, one small module per protocol so that each fuzz
        // binary holds only what it fuzzes; replayed by `swift test` as well.
        // Each keeps its libFuzzer executables in Targets/ (below).
        .target(name: "FuzzSupport", dependencies: ["LinkURL"], exclude: ["Targets"]),
        .target(name: "FuzzULC", dependencies: ["FuzzSupport", "ULC", "LinkURL"], exclude: ["Targets"]),
        .target(name: "FuzzXCallback", dependencies: ["FuzzSupport", "XCallbackURL", "LinkURL"], exclude: ["Targets"]),
        .target(name: "FuzzXignQR", dependencies: ["FuzzSupport", "XignQR"], exclude: ["Targets"]),
        .target(name: "FuzzAASA", dependencies: ["FuzzSupport", "AASA", "LinkRules"], exclude: ["Targets"]),
        .target(name: "FuzzJSON", dependencies: ["FuzzSupport", "LinkJSON"], exclude: ["Targets"]),
        // The one table of fuzz targets (name, entry, seed operations, dictionary), read by
        // `linkconform fuzz targets|seeds`, crash attribution, the replay tests and the scripts.
        .target(name: "FuzzTargets", dependencies: ["FuzzSupport", "FuzzULC", "FuzzXCallback", "FuzzXignQR", "FuzzAASA", "FuzzJSON"]),
        // Live checks of a domain (docs/live-checks.md): the platforms' judgement of how each
        // association file is served, pure (DomainCheck), and the HTTPS fetch that records the
        // facts it judges (DomainFetch, AsyncHTTPClient).
        .target(name: "DomainCheck", dependencies: ["Conformance", "LinkJSON"]),
        .target(name: "DomainFetch", dependencies: [
            "Conformance", "DomainCheck",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
            .product(name: "NIOHTTP2", package: "swift-nio-http2"),
        ]),
        // Corpus, requirements, operations, runner, outcomes.
        .target(name: "Conformance", dependencies: ["LinkJSON", "LinkRules", "LinkURL", "ULC", "XCallbackURL", "XignQR", "AASA", "AssetLinks", "MitIDAppSwitch",
                                                   .product(name: "Crypto", package: "swift-crypto")]),
        // Adapter I/O: processes speaking the adapter protocol, supervised (restarts, timeouts,
        // give-up), and the server side behind `linkconform adapter`.
        // Child processes started clean (posix_spawn: empty signal mask, default dispositions,
        // no stray descriptors), for adapters, prepare steps, git and the tests.
        .target(name: "ChildProcess"),
        .target(name: "AdapterHarness", dependencies: ["Conformance", "LinkJSON", "LinkURL", "ChildProcess"]),
        .target(name: "ResultsStore", dependencies: [
            "Conformance", "LinkJSON",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "GRDBSQLite", package: "GRDB.swift"),
        ]),
        .target(name: "Reports", dependencies: ["ResultsStore", "Conformance", "LinkJSON"]),
        // One run from start to final status (prepare, start, distinct names, results streamed
        // into the store, not-run results): what `linkconform run` and the benchmark share.
        .target(name: "RunSession", dependencies: ["Conformance", "ResultsStore", "LinkJSON", "ChildProcess"]),
        // Differential fuzzing of any implementation against the reference: mutators that know
        // links and JSON, signatures, ddmin through the implementation, findings in the store.
        .target(name: "DifferentialFuzzing", dependencies: ["Conformance", "LinkJSON", "LinkRules", "LinkURL", "ResultsStore", "SeededRandom"]),
        .target(name: "LinkConformCLI", dependencies: [
            "Conformance", "AdapterHarness", "ChildProcess", "ResultsStore", "RunSession", "Reports", "FuzzTargets", "LinkJSON", "LinkURL", "ULC", "AASA",
            "AssetLinks", "DomainCheck", "DomainFetch", "DifferentialFuzzing",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(name: "linkconform", dependencies: ["LinkConformCLI"]),
        // Bundled adapter: ULC the way a typical iOS app reads links (URLComponents), for comparison.
        .executableTarget(name: "foundation-adapter", path: "Adapters/foundation/Sources"),
        // libFuzzer targets (scripts/fuzz.sh builds them with -sanitize=fuzzer,address and -DFUZZING;
        // a plain build makes replayers of the same entry functions).
        .executableTarget(name: "fuzz-url", dependencies: ["FuzzSupport"], path: "Sources/FuzzSupport/Targets/fuzz-url"),
        .executableTarget(name: "fuzz-query-diff", dependencies: ["FuzzSupport"], path: "Sources/FuzzSupport/Targets/fuzz-query-diff"),
        .executableTarget(name: "fuzz-ulc", dependencies: ["FuzzSupport", "FuzzULC"], path: "Sources/FuzzULC/Targets/fuzz-ulc"),
        .executableTarget(name: "fuzz-xcallback", dependencies: ["FuzzSupport", "FuzzXCallback"],
                          path: "Sources/FuzzXCallback/Targets/fuzz-xcallback"),
        .executableTarget(name: "fuzz-xignqr", dependencies: ["FuzzSupport", "FuzzXignQR"], path: "Sources/FuzzXignQR/Targets/fuzz-xignqr"),
        .executableTarget(name: "fuzz-pid", dependencies: ["FuzzSupport", "FuzzXignQR"], path: "Sources/FuzzXignQR/Targets/fuzz-pid"),
        .executableTarget(name: "fuzz-aasa", dependencies: ["FuzzSupport", "FuzzAASA"], path: "Sources/FuzzAASA/Targets/fuzz-aasa"),
        .executableTarget(name: "fuzz-json", dependencies: ["FuzzSupport", "FuzzJSON"], path: "Sources/FuzzJSON/Targets/fuzz-json"),
        // Benchmarks: the harness's own (suite, protocol) and one executable per suite, beside it.
        .target(name: "BenchSupport"),
        .executableTarget(name: "linkconform-bench", dependencies: ["BenchSupport", "Conformance", "AdapterHarness", "LinkJSON", "ResultsStore", "RunSession",
                                                                 "ChildProcess", "SeededRandom", "DifferentialFuzzing"]),
        .executableTarget(name: "linkconform-bench-ulc", dependencies: ["BenchSupport", "ULC", "LinkURL", "SeededRandom"]),
        .executableTarget(name: "linkconform-bench-xcallback", dependencies: ["BenchSupport", "XCallbackURL", "LinkURL", "SeededRandom"]),
        .executableTarget(name: "linkconform-bench-xignqr", dependencies: ["BenchSupport", "XignQR", "SeededRandom"]),
        .executableTarget(name: "linkconform-bench-aasa", dependencies: ["BenchSupport", "AASA", "SeededRandom"]),

        // Scratch folders for tests that write files, removed when the test process exits.
        .target(name: "TestScratch", path: "Tests/TestScratch"),
        .testTarget(name: "LinkJSONTests", dependencies: ["LinkJSON", "SeededRandom"]),
        .testTarget(name: "LinkURLTests", dependencies: ["LinkURL", "SeededRandom"]),
        .testTarget(name: "ULCTests", dependencies: ["ULC", "LinkURL", "SeededRandom", "ChildProcess"]),
        .testTarget(name: "XCallbackURLTests", dependencies: ["XCallbackURL", "LinkURL", "SeededRandom"]),
        .testTarget(name: "AASATests", dependencies: ["AASA", "LinkJSON", "SeededRandom"]),
        .testTarget(name: "AssetLinksTests", dependencies: ["AssetLinks", "AASA", "LinkJSON"]),
        .testTarget(name: "MitIDAppSwitchTests", dependencies: ["MitIDAppSwitch"]),
        .testTarget(name: "XignQRTests", dependencies: ["XignQR", "LinkRules", "SeededRandom"]),
        .testTarget(name: "FuzzReplayTests", dependencies: ["FuzzSupport", "FuzzTargets"]),
        .testTarget(name: "DomainCheckTests", dependencies: ["DomainCheck", "Conformance"]),
        .testTarget(name: "DomainFetchTests", dependencies: ["DomainFetch", "DomainCheck", "ChildProcess", "LinkJSON", "linkconform"], exclude: ["Fixtures"]),
        .testTarget(name: "ConformanceTests", dependencies: ["Conformance", "AASA", "AssetLinks", "LinkJSON", "ULC"]),
        .testTarget(name: "ChildProcessTests", dependencies: ["ChildProcess"]),
        .testTarget(name: "AdapterHarnessTests", dependencies: ["AdapterHarness", "Conformance", "LinkJSON"], exclude: ["Fixtures"]),
        .testTarget(name: "ResultsStoreTests", dependencies: ["TestScratch", "ResultsStore", "Conformance", "LinkJSON", "ChildProcess",
                                                           .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "RunSessionTests", dependencies: ["RunSession", "ResultsStore", "Conformance", "LinkJSON"]),
        .testTarget(name: "DifferentialFuzzingTests", dependencies: ["TestScratch", "DifferentialFuzzing", "Conformance", "ResultsStore", "LinkJSON", "SeededRandom"]),
        .testTarget(name: "ReportsTests", dependencies: ["TestScratch", "Reports", "ResultsStore", "Conformance", "LinkJSON"]),
        .testTarget(name: "LinkConformCLITests", dependencies: ["TestScratch", "LinkConformCLI", "ChildProcess", "FuzzTargets", "linkconform", "foundation-adapter",
                                                            .product(name: "GRDB", package: "GRDB.swift")],
                    exclude: ["Fixtures"]),
    ]
)
