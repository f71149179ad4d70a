import Foundation

/// An implementation's list of known failures (like protobuf's failure lists): one case id per
/// line, then `#` and why. Blank lines and lines starting with `#` are comments.
///
/// ```text
/// # Foundation's queryItems keeps a raw '+' as a plus sign, but ...
/// ulc/parse-callbacks/raw-query-in-both   # reads the unencoded callback as valid
/// ```
///
/// A listed case that fails becomes `expectedFail`; a listed case that passes becomes
/// `unexpectedPass`, whose message says which line to remove.
public struct ExpectedFailures: Sendable {
    public struct Entry: Sendable, Hashable {
        public let caseID: String
        public let reason: String
        public let line: Int
    }

    /// The file, as given (for messages).
    public let path: String
    public let entries: [String: Entry]

    /// Problems in the file itself (duplicate ids, a missing reason), with their line.
    public let problems: [String]

    /// Whether the run counts a `nonStrict` as a failure (`--strict`): an unlisted one then
    /// gets the same "add this line" hint as an unlisted `fail`.
    public var strict = false

    public init(path: String, text: String) {
        self.path = path
        var entries: [String: Entry] = [:]
        var problems: [String] = []
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            let parts = line.split(separator: "#", maxSplits: 1)
            let id = parts[0].trimmingCharacters(in: .whitespaces)
            let reason = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
            if reason.isEmpty { problems.append("\(path):\(i + 1): \(id) has no reason; write '# why it fails' after it") }
            if let first = entries[id] {
                problems.append("\(path):\(i + 1): \(id) is listed twice (first at line \(first.line))")
                continue
            }
            entries[id] = Entry(caseID: id, reason: reason, line: i + 1)
        }
        self.entries = entries
        self.problems = problems
    }

    /// Reads the file at `path`.
    public static func load(_ path: String) throws -> ExpectedFailures {
        ExpectedFailures(path: path, text: try String(contentsOfFile: path, encoding: .utf8))
    }

    /// The outcome once the list is taken into account, and the message to go with it.
    public func apply(to outcome: Outcome, caseID: String, message: String?) -> (Outcome, String?) {
        guard let entry = entries[caseID] else {
            guard outcome.isFailure(strict: strict) else { return (outcome, message) }
            return (outcome, (message.map { $0 + "; " } ?? "") + "not in \(path): add '\(caseID)  # why' if this failure is accepted")
        }
        if outcome.isListableFailure {
            return (.expectedFail, "expected (\(path):\(entry.line): \(entry.reason)): \(outcome.rawValue)" + (message.map { ": \($0)" } ?? ""))
        }
        if outcome == .pass {
            return (.unexpectedPass, "listed as failing at \(path):\(entry.line) but passes now: remove that line")
        }
        return (outcome, message)
    }

    /// Listed ids the corpus does not have (stale lines). A case id starts with its suite's
    /// name: an id of a registered suite the corpus did not load (`run --suite` chose others) is
    /// left alone, since its suite's cases were not read; an id of no registered suite is stale.
    public func unknown(in corpus: Corpus) -> [Entry] {
        let ids = Set(corpus.suites.flatMap { $0.cases.map(\.id) })
        let loaded = Set(corpus.suites.map(\.name))
        return entries.values.filter { entry in
            guard !ids.contains(entry.caseID) else { return false }
            let suite = String(entry.caseID.prefix { $0 != "/" })
            return loaded.contains(suite) || SuiteRegistry.suite(named: suite) == nil
        }.sorted { $0.line < $1.line }
    }
}
