import Conformance
import Foundation
import GRDB

/// What pruning a store kept and removed (``ResultsStore/prune(keepNewest:dryRun:vacuum:)``).
public struct PruneSummary: Sendable, Hashable {
    /// The runs kept, newest first.
    public var kept: [Int64] = []
    /// Of those, the runs older than the newest N kept because they hold the latest completed
    /// results of an implementation in a suite: what `run --baseline previous` and `compare`
    /// would compare the next run with.
    public var keptAsBaselines: [Int64] = []
    /// The runs removed (or that would be, in a dry run), oldest first.
    public var removed: [Int64] = []
    public var resultsRemoved = 0
    /// Large outputs no result names any more, and corpus cases and requirements of corpora no
    /// run used.
    public var outputsRemoved = 0
    public var corpusRowsRemoved = 0
    /// The file's size (with its write-ahead log) before and after, in bytes; after is nil in a
    /// dry run.
    public var bytesBefore: Int64 = 0
    public var bytesAfter: Int64?
}

extension ResultsStore {
    /// Removes every run but the newest `n` with its results, implementations' statuses and
    /// requirements, then what no run needs any more (large outputs, the cases and requirement
    /// texts of corpora no remaining run used, implementations in no run), then compacts the
    /// file (`VACUUM`, unless `vacuum` is false).
    ///
    /// Kept whatever their age: a run still running, and for each implementation (by name) and
    /// suite the two newest completed runs in which it started and ran that suite, so that the
    /// next `run --baseline previous`, and `compare` of the newest run, are compared with what
    /// they would have been compared with before.
    /// Each run is removed in a transaction of its own, so a run writing meanwhile waits for
    /// one run's worth of deletes at a time, not for the whole prune. Differential and libFuzzer
    /// findings are not touched.
    public func prune(keepNewest n: Int, dryRun: Bool = false, vacuum: Bool = true) throws -> PruneSummary {
        var summary = PruneSummary()
        summary.bytesBefore = fileBytes()
        let (newestFirst, baselines) = try reading { db -> ([(id: Int64, status: RunStatus)], Set<Int64>) in
            let runs = try db.exactRows("SELECT id, status FROM run ORDER BY id DESC", []) {
                (id: $0.int64("id"), status: $0.value("status", or: RunStatus.failed))
            }
            return (runs, try Self.baselineRuns(db))
        }
        let newest = Set(newestFirst.prefix(max(0, n)).map(\.id))
        for run in newestFirst {
            if newest.contains(run.id) || run.status == .running {
                summary.kept.append(run.id)
            } else if baselines.contains(run.id) {
                summary.kept.append(run.id)
                summary.keptAsBaselines.append(run.id)
            } else {
                summary.removed.append(run.id)
            }
        }
        summary.removed.reverse()
        if dryRun {
            summary.resultsRemoved = try reading { db in
                try summary.removed.reduce(0) { total, run in
                    total + (try db.exactRows("SELECT COUNT(*) AS n FROM caseResult WHERE runId = ?", [.integer(run)]) { $0.int("n") }.first ?? 0)
                }
            }
            return summary
        }
        for run in summary.removed {
            summary.resultsRemoved += try writing { db in
                try db.exactExecute("DELETE FROM caseResult WHERE runId = ?", [.integer(run)])
                let results = db.changesCount
                for table in ["runImplementation", "runRequirement"] {
                    try db.exactExecute("DELETE FROM \(table) WHERE runId = ?", [.integer(run)])
                }
                try db.exactExecute("DELETE FROM run WHERE id = ?", [.integer(run)])
                return results
            }
        }
        try writing { db in
            try db.exactExecute("DELETE FROM outputText WHERE sha256 NOT IN (SELECT actualRef FROM caseResult WHERE actualRef IS NOT NULL)", [])
            summary.outputsRemoved = db.changesCount
            for table in ["corpusCase", "corpusRequirement"] {
                try db.exactExecute("DELETE FROM \(table) WHERE corpusFingerprint NOT IN (SELECT corpusFingerprint FROM run)", [])
                summary.corpusRowsRemoved += db.changesCount
            }
            try db.exactExecute("DELETE FROM implementation WHERE id NOT IN (SELECT implementationId FROM runImplementation)", [])
        }
        if vacuum {
            do {
                try pool.writeWithoutTransaction { db in
                    try db.execute(sql: "VACUUM")
                    try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
                }
            } catch let error as DatabaseError {
                throw Self.failure(path: path, "compact", error)
            }
        }
        summary.bytesAfter = fileBytes()
        return summary
    }

    /// For each implementation name and suite, the two newest completed runs in which the
    /// implementation started and which ran the suite (its options' `suites`; every case of a
    /// completed run has a result for each implementation that started): the newest is the
    /// next run's baseline, the one before it the newest's own, which `compare` and the
    /// reports of the newest run read. A run whose options name no suites (written by hand or
    /// by another tool) counts as running every suite.
    static func baselineRuns(_ db: Database) throws -> Set<Int64> {
        var newest: [String: (last: Int64, before: Int64?)] = [:]
        try db.exactEach("""
            SELECT r.id, r.options, i.name FROM run r JOIN runImplementation ri ON ri.runId = r.id
            JOIN implementation i ON i.id = ri.implementationId
            WHERE r.status = ? AND ri.status <> ? ORDER BY r.id
            """, [.raw(RunStatus.completed), .raw(ImplementationStatus.failedToStart)]) { row in
            let suites = RunRecord.strings("suites", in: row.text("options"))
            for suite in suites.isEmpty ? ["*"] : suites {
                let key = row.text("name") + "\u{0}" + suite, run = row.int64("id")
                newest[key] = (run, newest[key]?.last)
            }
        }
        return Set(newest.values.flatMap { [$0.last] + ($0.before.map { [$0] } ?? []) })
    }

    /// The database file's size with its write-ahead log, in bytes.
    func fileBytes() -> Int64 {
        [path, path + "-wal"].reduce(0) { total, file in
            total + ((try? FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.int64Value ?? 0)
        }
    }
}
