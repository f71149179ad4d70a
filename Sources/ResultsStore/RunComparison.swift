import Conformance
import GRDB

/// What changed between two runs, per implementation: the answer to "did tonight get worse?".
///
/// Implementations are matched by name across the runs (versions change from night to night),
/// cases by id. A case is **bad** when its outcome is one that makes a run exit 1 (`fail`,
/// `errored`, `crashed`, `timedOut`, `protocolError`; `nonStrict` too with `strict`) or when the
/// case did not reach the implementation or was declined (`notRun`, `skipped`): a case that
/// passed last night and was not run tonight got worse. `expectedFail` is not bad (expected
/// failures still apply, so a case newly listed in the file is not a regression), nor is
/// `unexpectedPass` (it passes). Then, for a case in both runs:
/// - **regression**: good before, bad after; or `unexpectedPass` before and `expectedFail` after
///   (a fixed bug came back, and its stale line in the expected-failures file hid it);
/// - **fix**: bad before, good after; or `expectedFail` before and `unexpectedPass` after;
/// - **changed**: another change of outcome (`fail` to `crashed`, `pass` to `nonStrict` without
///   `strict`, ...), or any change of a case judged under another requirement or level than
///   before (the corpus changed, not the implementation), listed but never gating;
///
/// and a case in one run only is **new** or **removed**; but a case of the earlier run that the
/// later run did not complete before reaching (it is in the later run's corpus, and the later
/// run is incomplete: interrupted, failed, still running) has **no result**, which is neither.
/// Only regressions gate a nightly; a later run that is incomplete cannot pass one
/// (``afterIncomplete``).
public struct RunComparison: Sendable {
    public let before: Int64
    public let after: Int64
    public let strict: Bool
    /// Every implementation in either run, in the order of the later run, then the earlier.
    public let implementations: [ImplementationComparison]
    /// What each run lacks, when it did not complete (nil: it did).
    public var beforeIncomplete: IncompleteRun? = nil
    public var afterIncomplete: IncompleteRun? = nil

    /// The same comparison, for the named implementations only.
    public func only(_ names: Set<String>) -> RunComparison {
        RunComparison(before: before, after: after, strict: strict, implementations: implementations.filter { names.contains($0.name) },
                      beforeIncomplete: beforeIncomplete, afterIncomplete: afterIncomplete)
    }

    /// The same comparison, for the named implementations only and, for each, the cases of the
    /// suites given for it.
    public func only(suites: [String: Set<String>]) -> RunComparison {
        let kept = implementations.compactMap { i -> ImplementationComparison? in
            guard let wanted = suites[i.name] else { return nil }
            var c = i
            let inSuites = { (changes: [CaseChange]) in changes.filter { wanted.contains($0.suite) } }
            c.regressions = inSuites(c.regressions)
            c.fixes = inSuites(c.fixes)
            c.changed = inSuites(c.changed)
            c.new = inSuites(c.new)
            c.removed = inSuites(c.removed)
            c.noResult = inSuites(c.noResult)
            return c
        }
        return RunComparison(before: before, after: after, strict: strict, implementations: kept,
                             beforeIncomplete: beforeIncomplete, afterIncomplete: afterIncomplete)
    }

    public var regressionCount: Int { implementations.reduce(0) { $0 + $1.regressions.count } }
    public var fixCount: Int { implementations.reduce(0) { $0 + $1.fixes.count } }

    /// The outcomes that count as bad (see the type's description).
    public static func badOutcomes(strict: Bool) -> Set<Outcome> {
        var bad: Set<Outcome> = [.fail, .errored, .crashed, .timedOut, .protocolError, .notRun, .skipped]
        if strict { bad.insert(.nonStrict) }
        return bad
    }

    /// Sorts one changed case into its kind.
    public static func kind(before: Outcome?, after: Outcome?, strict: Bool) -> CaseChange.Kind {
        guard let before else { return .new }
        guard let after else { return .removed }
        // A listed case that passed (its expected-failures line was stale) and fails again: the
        // bug came back with nobody touching the list. The reverse is the fix.
        if before == .unexpectedPass && after == .expectedFail { return .regression }
        if before == .expectedFail && after == .unexpectedPass { return .fix }
        let bad = badOutcomes(strict: strict)
        switch (bad.contains(before), bad.contains(after)) {
        case (false, true): return .regression
        case (true, false): return .fix
        default: return .changed
        }
    }
}

/// A run compared suite by suite with each implementation's previous results
/// (``ResultsStore/comparedWithPreviousResults(_:names:strict:)``).
public struct PreviousResultsComparison: Sendable {
    /// One comparison per earlier run, each holding only the implementations and suites whose
    /// previous results are in that run, oldest first.
    public var comparisons: [RunComparison] = []
    /// Per implementation name, the suites it has no earlier results in (every case there is new).
    public var firstResults: [String: [String]] = [:]

    /// Whether the implementation has earlier results in none of its suites.
    public func isFirst(_ name: String) -> Bool {
        !comparisons.contains { $0.implementations.contains { $0.name == name } }
    }

    /// The implementation's changes across the comparisons, oldest baseline first.
    public func changes(of name: String) -> [ImplementationComparison] {
        comparisons.flatMap { $0.implementations.filter { $0.name == name } }
    }
}

/// One implementation's changes between two runs.
public struct ImplementationComparison: Sendable {
    public let name: String
    /// Its version in each run (nil: not in that run).
    public let versionBefore: String?
    public let versionAfter: String?
    public var regressions: [CaseChange] = []
    public var fixes: [CaseChange] = []
    public var changed: [CaseChange] = []
    public var new: [CaseChange] = []
    public var removed: [CaseChange] = []
    /// Cases of the earlier run that the later, incomplete run has no result for.
    public var noResult: [CaseChange] = []

    public var isNewImplementation: Bool { versionBefore == nil }
    public var isRemovedImplementation: Bool { versionAfter == nil }
}

/// One case whose outcome differs between two runs.
public struct CaseChange: Sendable, Hashable {
    public enum Kind: String, Sendable, CaseIterable {
        case regression, fix, changed, new, removed, noResult
    }

    public let kind: Kind
    public let suite: String
    public let caseID: String
    public let requirementID: String
    public let level: RequirementLevel
    public let before: Outcome?
    public let after: Outcome?
    /// The later run's message for the case (its earlier one for a removed case).
    public let message: String?
}

extension ResultsStore {
    /// Compares two runs (`before` earlier, `after` later; any two runs of this store). Two
    /// queries over the case index, whatever the number of results; only changed cases are
    /// read into memory.
    public func compare(_ before: Int64, _ after: Int64, strict: Bool = false) throws -> RunComparison {
        let beforeIncomplete = try incompleteRun(before), afterIncomplete = try incompleteRun(after)
        // The later run's corpus, when that run is incomplete: its cases that have no result there
        // were not reached, not removed.
        let unreachedCorpus: String? = afterIncomplete == nil ? nil : try run(after)?.corpusFingerprint
        return try reading { db in
            let versions = { (run: Int64) throws -> [(String, String)] in
                try db.exactRows("""
                    SELECT i.name, i.version FROM implementation i JOIN runImplementation ri ON ri.implementationId = i.id
                    WHERE ri.runId = ? ORDER BY ri.rowid
                    """, [.integer(run)]) { ($0.text("name"), $0.text("version")) }
            }
            let earlier = try versions(before), later = try versions(after)
            var byName: [String: ImplementationComparison] = [:]
            var order: [String] = []
            for (name, version) in later where byName[name] == nil {
                order.append(name)
                byName[name] = ImplementationComparison(name: name, versionBefore: earlier.first { $0.0 == name }?.1, versionAfter: version)
            }
            for (name, version) in earlier where byName[name] == nil {
                order.append(name)
                byName[name] = ImplementationComparison(name: name, versionBefore: version, versionAfter: nil)
            }
            // Each direction: the cases of one run with the same case of the same implementation
            // (by name) in the other, where the outcome differs or the other has none.
            func changes(from run: Int64, against other: Int64, laterSide: Bool) throws {
                try db.exactEach("""
                    SELECT i.name, c.suite, c.caseId, c.requirementId, c.level, c.outcome, c.message, o.outcome AS otherOutcome,
                           o.requirementId AS otherRequirement, o.level AS otherLevel,
                           o.outcome IS NULL AND EXISTS (SELECT 1 FROM corpusCase k WHERE k.corpusFingerprint = ?4
                                                         AND k.suite = c.suite AND k.caseId = c.caseId) AS unreached
                    FROM caseResult c
                    JOIN implementation i ON i.id = c.implementationId
                    LEFT JOIN runImplementation ro ON ro.runId = ?2
                         AND ro.implementationId IN (SELECT id FROM implementation WHERE name = i.name)
                    LEFT JOIN caseResult o ON o.runId = ?2 AND o.implementationId = ro.implementationId AND o.caseId = c.caseId
                    WHERE c.runId = ?1 AND (o.outcome IS NULL OR (?3 AND o.outcome <> c.outcome))
                    ORDER BY c.id
                    """, [.integer(run), .integer(other), .bool(laterSide), .text(laterSide ? nil : unreachedCorpus)]) { row in
                    let name = row.text("name")
                    let this = row.optionalText("outcome").flatMap(Outcome.init(rawValue:))
                    let that = row.optionalText("otherOutcome").flatMap(Outcome.init(rawValue:))
                    let (b, a) = laterSide ? (that, this) : (this, that)
                    var kind = row.bool("unreached") ? .noResult : RunComparison.kind(before: b, after: a, strict: strict)
                    var message = row.optionalText("message")
                    // A case judged under another requirement or level than before (the corpus
                    // changed, not the implementation) is neither a regression nor a fix.
                    if let otherRequirement = row.optionalText("otherRequirement"), let otherLevel = row.optionalText("otherLevel"),
                       otherRequirement != row.text("requirementId") || otherLevel != row.text("level") {
                        kind = .changed
                        let (was, now) = ("\(otherRequirement) \(otherLevel)", "\(row.text("requirementId")) \(row.text("level"))")
                        let moved = laterSide ? "\(was) -> \(now)" : "\(now) -> \(was)"
                        message = "judged under another requirement or level (\(moved))" + (message.map { "; " + $0 } ?? "")
                    }
                    let change = CaseChange(kind: kind, suite: row.text("suite"), caseID: row.text("caseId"),
                                            requirementID: row.text("requirementId"),
                                            level: row.value("level", or: RequirementLevel.info), before: b, after: a,
                                            message: message)
                    switch kind {
                    case .regression: byName[name]?.regressions.append(change)
                    case .fix: byName[name]?.fixes.append(change)
                    case .changed: byName[name]?.changed.append(change)
                    case .new: byName[name]?.new.append(change)
                    case .removed: byName[name]?.removed.append(change)
                    case .noResult: byName[name]?.noResult.append(change)
                    }
                }
            }
            // Changed and new cases from the later run; removed ones from the earlier.
            try changes(from: after, against: before, laterSide: true)
            try changes(from: before, against: after, laterSide: false)
            return RunComparison(before: before, after: after, strict: strict, implementations: order.compactMap { byName[$0] },
                                 beforeIncomplete: beforeIncomplete, afterIncomplete: afterIncomplete)
        }
    }

    /// The newest completed run before `run`, whoever ran in it.
    public func previousCompletedRun(before run: Int64) throws -> Int64? {
        try reading { db in
            try db.exactRows("SELECT MAX(id) AS id FROM run WHERE id < ? AND status = ?", [.integer(run), .raw(RunStatus.completed)]) {
                $0.int64("id")
            }.first.flatMap { $0 == 0 ? nil : $0 }
        }
    }

    /// Whether the implementation called `name` is in `run` and started there.
    public func started(_ name: String, in run: Int64) throws -> Bool {
        try reading { db in
            try !db.exactRows("""
                SELECT 1 AS yes FROM runImplementation ri JOIN implementation i ON i.id = ri.implementationId
                WHERE ri.runId = ? AND i.name = ? AND ri.status <> ? LIMIT 1
                """, [.integer(run), .text(name), .raw(ImplementationStatus.failedToStart)]) { $0.int("yes") }.isEmpty
        }
    }

    /// The suites in which the implementation called `name` has results in `run`.
    public func suites(of name: String, in run: Int64) throws -> [String] {
        try reading { db in
            try db.exactRows("""
                SELECT DISTINCT c.suite FROM caseResult c JOIN runImplementation ri ON ri.runId = c.runId AND ri.implementationId = c.implementationId
                JOIN implementation i ON i.id = ri.implementationId WHERE ri.runId = ? AND i.name = ? ORDER BY c.suite
                """, [.integer(run), .text(name)]) { $0.text("suite") }
        }
    }

    /// Each suite of each implementation of `run` (by name) compared with that implementation's
    /// previous results in the suite (``baselineRun(for:suite:before:)``): what `run --baseline
    /// previous` gates on and what the reports list as changed since the previous results. An
    /// implementation that did not start in `run` is left out (its reports say so, and `run`
    /// exited 2 for it).
    public func comparedWithPreviousResults(_ run: Int64, names: [String], strict: Bool) throws -> PreviousResultsComparison {
        var byBaseline: [Int64: [String: Set<String>]] = [:]
        var result = PreviousResultsComparison()
        for name in names where try started(name, in: run) {
            var unseen: [String] = []
            for suite in try suites(of: name, in: run) {
                if let base = try baselineRun(for: name, suite: suite, before: run) {
                    byBaseline[base, default: [:]][name, default: []].insert(suite)
                } else {
                    unseen.append(suite)
                }
            }
            if !unseen.isEmpty { result.firstResults[name] = unseen }
        }
        result.comparisons = try byBaseline.sorted { $0.key < $1.key }.map { base, suites in
            try compare(base, run, strict: strict).only(suites: suites)
        }
        return result
    }

    /// The newest completed run before `run` in which the implementation called `name` has
    /// results in `suite`: the baseline of that suite (a run of other suites, `run --suite`, is
    /// not one, nor a night the implementation failed to start, against which every case would
    /// look fixed).
    public func baselineRun(for name: String, suite: String, before run: Int64) throws -> Int64? {
        try reading { db in try RunHistoryLookup.previousResult(db, name: name, suite: suite, before: run)?.run }
    }
}
