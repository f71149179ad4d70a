import Conformance
import LinkJSON

/// Status of a run in the store.
public enum RunStatus: String, Sendable, Hashable, CaseIterable {
    /// Still going (or killed without a chance to say so; the next open finds out).
    case running
    case completed
    /// Stopped by a signal or killed; its results so far are kept.
    case interrupted
    /// The harness could not finish (an error, not a verdict).
    case failed
}

/// What is known about a run.
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
    /// `ok`, `failed-to-start` or `gave-up`.
    public var status: ImplementationStatus = .ok
    /// Restarts and why, and other events of the run.
    public var notes: [String] = []
    /// The expected-failures file the run used, if any.
    public var expectedFailures: String? = nil
}

/// A requirement as it was when the run started (reports do not depend on today's corpus).
public struct StoredRequirement: Sendable, Hashable {
    public let suite: String
    public let id: String
    public let level: RequirementLevel
    public let title: String
    public let decided: Bool
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
