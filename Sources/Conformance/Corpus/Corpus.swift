import Foundation
import LinkJSON

/// The cases and requirements of one suite.
public struct SuiteCorpus: Sendable {
    public let definition: SuiteDefinition
    public let registry: RequirementRegistry
    public let cases: [ConformanceCase]

    public var name: String { definition.name }
}

/// The loaded corpus: every selected suite, the problems found while loading, and a
/// fingerprint of the files read (SHA-256), recorded with each run.
///
/// ```swift
/// let corpus = Corpus.load(from: "Corpus")
/// if corpus.errors.isEmpty { ... corpus.suites[0].cases ... }
/// ```
public struct Corpus: Sendable {
    public let root: String
    public let suites: [SuiteCorpus]
    /// Errors and warnings, sorted by file and line.
    public let issues: [CorpusIssue]
    /// SHA-256 over the paths and contents of every file read.
    public let fingerprint: String

    public var errors: [CorpusIssue] { issues.filter { $0.severity == .error } }
    public var warnings: [CorpusIssue] { issues.filter { $0.severity == .warning } }

    public var caseCount: Int { suites.reduce(0) { $0 + $1.cases.count } }

    /// Loads and checks the corpus under `root`. `suites` selects suites by name (nil: every
    /// registered suite). Loading never stops at the first problem: all are reported.
    public static func load(from root: String, suites selected: [String]? = nil) -> Corpus {
        var loader = CorpusLoader(root: root)
        let names = selected ?? SuiteRegistry.all.map(\.name)
        var loaded: [SuiteCorpus] = []
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory) || !isDirectory.boolValue {
            loader.issue(.error, file: root, message: "no corpus folder here; run from the repository root or pass --corpus PATH")
        } else {
            if selected == nil { loader.checkFolders() }
            for name in names {
                guard let definition = SuiteRegistry.suite(named: name) else {
                    loader.issue(.error, file: root, message: "no suite named '\(name)' is registered")
                    continue
                }
                if let suite = loader.loadSuite(definition) { loaded.append(suite) }
            }
        }
        return Corpus(root: root, suites: loaded, issues: loader.issues.sorted(), fingerprint: loader.fingerprint())
    }
}
