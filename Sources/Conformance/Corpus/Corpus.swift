import Foundation
import LinkJSON

/// The cases and requirements of one suite (a class: shared, never copied field by field).
public final class SuiteCorpus: Sendable {
    public let definition: SuiteDefinition
    public let registry: RequirementRegistry
    public let cases: [ConformanceCase]

    public var name: String { definition.name }

    init(definition: SuiteDefinition, registry: RequirementRegistry, cases: [ConformanceCase]) {
        self.definition = definition
        self.registry = registry
        self.cases = cases
    }
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

    /// The same corpus with its cases repeated (ids suffixed `#2`, `#3`, ...) until there are
    /// `count` of them: for benchmarks.
    public func repeated(to count: Int) -> Corpus {
        let original = suites.flatMap { suite in suite.cases.map { (suite, $0) } }
        guard !original.isEmpty else { return self }
        var bySuite: [String: [ConformanceCase]] = [:]
        for i in 0..<count {
            let (suite, c) = original[i % original.count]
            let round = i / original.count
            bySuite[suite.name, default: []].append(round == 0 ? c : c.renamed(c.id + "#\(round + 1)"))
        }
        let repeatedSuites = suites.map { SuiteCorpus(definition: $0.definition, registry: $0.registry, cases: bySuite[$0.name] ?? []) }
        return Corpus(root: root, suites: repeatedSuites, issues: issues, fingerprint: fingerprint)
    }

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
