import Conformance
import GRDB
import LinkJSON

/// Status of a run in the store.
public enum RunStatus: String, Sendable, Hashable, CaseIterable, Codable {
    /// Still going (or killed without a chance to say so; the next open finds out).
    case running
    case completed
    /// Stopped by a signal or killed; its results so far are kept.
    case interrupted
    /// The harness could not finish (an error, not a verdict).
    case failed
}

/// What is known about a run (a row of the `run` table).
public struct RunRecord: Sendable, Hashable {
    public let id: Int64
    public let startedAt: String
    public let finishedAt: String?
    public let status: RunStatus
    public let corpusFingerprint: String
    public let gitCommit: String?
    public let toolVersion: String
    /// The options the run was started with (JSON text).
    public let options: String
    public let host: String
    public let pid: Int

    /// Whether the run was made with `--strict` (its options' `strict`): a `nonStrict` result,
    /// a SHOULD not met, then fails it. Reports of the run judge it the same way.
    public var strict: Bool {
        (try? JSONParser.parse(options))?["strict"]?.boolValue ?? false
    }

    /// The suites the run loaded (its options' `suites`; empty when they do not say).
    public var suites: [String] { Self.strings("suites", in: options) }

    /// The strings of the list `key` of a run's options (JSON text), in order; a member that is
    /// not a string is "" (so that places in the list keep their meaning); empty when the
    /// options have no such list.
    static func strings(_ key: String, in options: String) -> [String] {
        ((try? JSONParser.parse(options))?[key]?.arrayValue ?? []).map { $0.stringValue ?? "" }
    }
}

extension RunRecord {
    /// A `run` row. A status this version does not know (written by a newer one) reads as
    /// `failed`: not a run to trust.
    init(_ row: ExactRow) {
        self.init(id: row.int64("id"), startedAt: row.text("startedAt"), finishedAt: row.optionalText("finishedAt"),
                  status: row.value("status", or: RunStatus.failed), corpusFingerprint: row.text("corpusFingerprint"),
                  gitCommit: row.optionalText("gitCommit"), toolVersion: row.text("toolVersion"), options: row.text("options"),
                  host: row.text("host"), pid: row.int("pid"))
    }
}

/// Facts about a run given when it starts.
public struct RunStart: Sendable {
    public var corpusFingerprint: String
    public var gitCommit: String?
    public var toolVersion: String
    public var options: JSONValue

    public init(corpusFingerprint: String, gitCommit: String?, toolVersion: String, options: JSONValue) {
        self.corpusFingerprint = corpusFingerprint
        self.gitCommit = gitCommit
        self.toolVersion = toolVersion
        self.options = options
    }
}

/// An implementation as stored for a run: id, info, and how it fared.
public struct StoredImplementation: Sendable, Hashable {
    public let id: Int64
    public let info: ImplementationInfo
    /// How it ended its part of the run.
    public var status: ImplementationStatus = .ok
    /// Restarts and why, and other events of the run.
    public var notes: [String] = []
    /// The expected-failures file the run used, if any.
    public var expectedFailures: String? = nil
}

extension StoredImplementation {
    /// An `implementation` row joined with its `runImplementation` row. A status this version
    /// does not know (written by a newer one) reads as `ok`; notes are a JSON array of strings.
    init(_ row: ExactRow) {
        let notes = (try? JSONParser.parse(row.text("notes")))?.arrayValue?.compactMap(\.stringValue) ?? []
        self.init(id: row.int64("id"),
                  info: ImplementationInfo(name: row.text("name"), version: row.text("version"), language: row.text("language"),
                                           homepage: row.text("homepage")),
                  status: row.value("status", or: .ok), notes: notes, expectedFailures: row.optionalText("expectedFailures"))
    }
}

/// A requirement as it was when the run started (reports do not depend on today's corpus).
public struct StoredRequirement: Sendable, Hashable {
    public let suite: String
    public let id: String
    public let level: RequirementLevel
    public let title: String
    public let decided: Bool
}

extension StoredRequirement {
    /// A `runRequirement` row. A level this version does not know (written by a newer one)
    /// reads as INFO: recorded, not judged.
    init(_ row: ExactRow) {
        self.init(suite: row.text("suite"), id: row.text("requirementId"), level: row.value("level", or: .info),
                  title: row.text("title"), decided: row.bool("decided"))
    }
}

/// A case result as stored.
public struct StoredResult: Sendable, Hashable {
    public let implementationID: Int64
    public let result: CaseResult
    /// What the corpus said about the case (title, place, input), when it was asked for
    /// (``ResultsStore/ResultFilter/withCases``) and the store has it.
    public var corpusCase: StoredCase? = nil
}

/// Outcome counts for one implementation and suite in one run.
public struct SummaryRow: Sendable, Hashable {
    public let implementationID: Int64
    public let suite: String
    public let counts: [Outcome: Int]
    /// Passes that a null implementation would also have earned.
    public let nullAlsoPass: Int
    /// Summed wall time of the cases, in nanoseconds.
    public let nanos: Int64

    public var total: Int { counts.values.reduce(0, +) }
    public func count(_ outcome: Outcome) -> Int { counts[outcome] ?? 0 }
    /// Results with one of `outcomes`.
    public func count(_ outcomes: Set<Outcome>) -> Int { outcomes.reduce(0) { $0 + count($1) } }
}
