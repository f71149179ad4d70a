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
public struct RunRecord: Sendable, Hashable, Decodable, FetchableRecord, TableRecord {
    public static let databaseTableName = "run"

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

extension StoredImplementation: FetchableRecord {
    /// An `implementation` row joined with its `runImplementation` row. A status this version
    /// does not know (written by a newer one) reads as `ok`; notes are a JSON array of strings.
    public init(row: Row) {
        let notes = (try? JSONParser.parse(row["notes"] as String))?.arrayValue?.compactMap(\.stringValue) ?? []
        self.init(id: row["id"],
                  info: ImplementationInfo(name: row["name"], version: row["version"], language: row["language"], homepage: row["homepage"]),
                  status: ImplementationStatus(rawValue: row["status"]) ?? .ok, notes: notes, expectedFailures: row["expectedFailures"])
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

extension StoredRequirement: FetchableRecord {
    /// A `runRequirement` row. A level this version does not know (written by a newer one)
    /// reads as INFO: recorded, not judged.
    public init(row: Row) {
        self.init(suite: row["suite"], id: row["requirementId"],
                  level: RequirementLevel(rawValue: row["level"]) ?? .info, title: row["title"], decided: row["decided"])
    }
}

/// A row of the `runRequirement` table, as written when a run starts.
struct RequirementRow: PersistableRecord {
    static let databaseTableName = "runRequirement"
    let runId: Int64
    let suite: String
    let requirementId: String
    let level: RequirementLevel
    let title: String
    let decided: Bool

    func encode(to container: inout PersistenceContainer) {
        container["runId"] = runId
        container["suite"] = suite
        container["requirementId"] = requirementId
        container["level"] = level
        container["title"] = title
        container["decided"] = decided
    }
}

/// A row of the `run` table, as written when a run starts (the id is SQLite's).
struct NewRunRow: Encodable, PersistableRecord {
    static let databaseTableName = "run"
    let startedAt: String
    let status: RunStatus
    let corpusFingerprint: String
    let gitCommit: String?
    let toolVersion: String
    let options: String
    let host: String
    let pid: Int
}

/// A row of the `implementation` table: who an implementation is, stored once for every run.
struct ImplementationRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "implementation"
    var id: Int64?
    let name: String
    let version: String
    let language: String
    let homepage: String

    init(_ info: ImplementationInfo) {
        (id, name, version, language, homepage) = (nil, info.name, info.version, info.language, info.homepage)
    }
}

/// A case result as stored.
public struct StoredResult: Sendable, Hashable {
    public let implementationID: Int64
    public let result: CaseResult
}

/// Outcome counts for one implementation and suite in one run.
public struct SummaryRow: Sendable, Hashable {
    public let implementationID: Int64
    public let suite: String
    public let counts: [Outcome: Int]
    /// Passes that a null implementation would also have earned.
    public let nullAlsoPass: Int

    public var total: Int { counts.values.reduce(0, +) }
    public func count(_ outcome: Outcome) -> Int { counts[outcome] ?? 0 }
}
