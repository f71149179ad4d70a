import FuzzAASA
import FuzzJSON
import FuzzSupport
import FuzzULC
import FuzzXCallback
import FuzzXignQR

/// Where a fuzz target's seeds come from: the corpus inputs of one operation, in the fields
/// that hold text the target's parser reads (`ulc.parse` -> `link`). Each string of each field
/// is a seed; with a `separator`, one seed per case instead: the fields' strings joined by it
/// (`aasa.match` -> file, NUL, url), for a target that reads several inputs from one.
public struct SeedSource: Sendable, Hashable {
    public let operation: String
    public let fields: [String]
    public let separator: String?

    public init(_ operation: String, _ fields: [String], joinedBy separator: String? = nil) {
        self.operation = operation
        self.fields = fields
        self.separator = separator
    }

    /// The seeds of one case's input, given each field's strings.
    public func seeds(_ strings: (String) -> [String]) -> [String] {
        guard let separator else { return fields.flatMap(strings) }
        let parts = fields.map { strings($0).joined(separator: separator) }
        return parts.allSatisfy(\.isEmpty) ? [] : [parts.joined(separator: separator)]
    }
}

/// One fuzz target as the tools see it: its checks and entry (``FuzzTarget``), the corpus
/// inputs that seed it, and the modules whose stack frames identify one of its findings.
public struct FuzzTargetEntry: Sendable {
    public let target: FuzzTarget
    public let seeds: [SeedSource]
    /// Module names (as Swift mangles them into symbols) of the code it fuzzes.
    public let modules: [String]
    /// Where its libFuzzer executable's source is, relative to the repository root.
    public let executableSource: String

    public var name: String { target.name }
    /// Its dictionary, relative to the repository root (libFuzzer's `-dict=`).
    public var dictionary: String { "Corpus/fuzz/\(name).dict" }
    /// Its hand-picked and corpus-generated seeds.
    public var seedFolder: String { "Corpus/fuzz/\(name)" }
    /// The inputs of its fixed findings, replayed by `swift test`.
    public var regressionFolder: String { "Corpus/fuzz/regressions/\(name)" }
}

/// Every fuzz target, the one table a new target is added to (besides its module, its
/// executable's line in Package.swift, its seed folder and its dictionary).
///
/// ```swift
/// FuzzTargetTable.entry(named: "ulc")?.target.check(Array("https://a.example/?ulc-success=x".utf8))
/// ```
public enum FuzzTargetTable {
    /// Every operation whose input is a link, in the field that holds it: what the URL-level
    /// targets read.
    static let links: [SeedSource] = [
        SeedSource("ulc.parse", ["link"]), SeedSource("ulc.handle", ["links"]), SeedSource("ulc.build", ["action", "success", "error"]),
        SeedSource("xcallback.parse", ["url"]), SeedSource("xcallback.callback", ["url"]), SeedSource("xignqr.redirect", ["url"]),
    ]

    public static let all: [FuzzTargetEntry] = [
        FuzzTargetEntry(target: .url, seeds: links, modules: ["LinkURL", "FuzzSupport"],
                        executableSource: "Sources/FuzzSupport/Targets/fuzz-url"),
        FuzzTargetEntry(target: .queryDiff, seeds: links, modules: ["LinkURL", "FuzzSupport"],
                        executableSource: "Sources/FuzzSupport/Targets/fuzz-query-diff"),
        FuzzTargetEntry(target: .ulc, seeds: [SeedSource("ulc.parse", ["link"]), SeedSource("ulc.handle", ["links"])],
                        modules: ["ULC", "XCallbackURL", "LinkURL", "FuzzULC"], executableSource: "Sources/FuzzULC/Targets/fuzz-ulc"),
        FuzzTargetEntry(target: .xcallback, seeds: [SeedSource("xcallback.parse", ["url"]), SeedSource("xcallback.callback", ["url"])],
                        modules: ["XCallbackURL", "LinkURL", "FuzzXCallback"],
                        executableSource: "Sources/FuzzXCallback/Targets/fuzz-xcallback"),
        FuzzTargetEntry(target: .xignqr, seeds: [SeedSource("xignqr.redirect", ["url"]), SeedSource("xignqr.pid", ["data"])],
                        modules: ["XignQR", "XCallbackURL", "LinkURL", "FuzzXignQR"],
                        executableSource: "Sources/FuzzXignQR/Targets/fuzz-xignqr"),
        FuzzTargetEntry(target: .pid, seeds: [SeedSource("xignqr.pid", ["data"])], modules: ["XignQR", "FuzzXignQR"],
                        executableSource: "Sources/FuzzXignQR/Targets/fuzz-pid"),
        // A file, then NUL and a URL (AASAInvariants).
        FuzzTargetEntry(target: .aasa, seeds: [SeedSource("aasa.validate", ["file"]), SeedSource("aasa.match", ["file", "url"], joinedBy: "\u{0}")],
                        modules: ["AASA", "FuzzAASA"], executableSource: "Sources/FuzzAASA/Targets/fuzz-aasa"),
        // Every JSON text of the corpus inputs: the files the AASA, assetlinks and MitID checks read.
        FuzzTargetEntry(target: .json, seeds: [SeedSource("aasa.validate", ["file"]), SeedSource("aasa.match", ["file"]),
                                               SeedSource("assetlinks.validate", ["file"]), SeedSource("assetlinks.match", ["file"]),
                                               SeedSource("assetlinks.verify", ["file"]), SeedSource("mitid.return", ["aasa", "assetlinks"])],
                        modules: ["LinkJSON", "FuzzJSON"], executableSource: "Sources/FuzzJSON/Targets/fuzz-json"),
    ]

    public static func entry(named name: String) -> FuzzTargetEntry? {
        all.first { $0.name == name }
    }

    /// Every module whose frames identify a finding, in the order first listed (plus the
    /// JSON reader every tool shares).
    public static var modules: [String] {
        var seen: [String] = []
        for module in all.flatMap(\.modules) + ["LinkJSON"] where !seen.contains(module) { seen.append(module) }
        return seen
    }
}
