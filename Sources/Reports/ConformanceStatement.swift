import Conformance
import Foundation
import LinkJSON
import ResultsStore

/// A conformance statement: what one stored run says about one implementation, for a vendor
/// that certifies itself and a reviewer who wants to see that the statement was not edited.
/// docs/statement.md describes the format.
///
/// The statement is built from store queries (the implementation, its outcome counts and its
/// failed MUST cases) and, for the expected-failures lines, from the expected-failures file the
/// run recorded, read when the statement is made. It holds no time of its own, so the same run
/// and file always give the same statement and the same digest.
///
/// The digest is the SHA-256 of the **canonical JSON**: the statement object without its
/// `sha256` member, written by LinkJSON's serializer with members sorted by key (UTF-8 code
/// units) at every level and no whitespace (``canonicalText(of:)``).
///
/// ```swift
/// let statement = try ConformanceStatement.make(data, implementation: "python-urllib")
/// statement.sha256                      // 64 hex digits over statement.canonicalText
/// ConformanceStatement.verify(Array(statement.jsonText.utf8))   // .verified(...)
/// ```
public struct ConformanceStatement: Sendable {
    /// The value of the `format` member.
    public static let format = "linkconform-statement/1"

    /// How one level's cases and requirements of one suite went.
    public struct LevelResult: Sendable, Hashable {
        /// Cases judged at this level.
        public var cases = 0
        /// `pass`, and `unexpectedPass` (a listed case that passes: it meets the requirement).
        public var passed = 0
        /// `fail` or `nonStrict` (the requirement not met), and `expectedFail` (a listed failure
        /// is still a failure).
        public var failed = 0
        /// Anything else: skipped, not run, errored, crashed, timed out, a protocol error.
        public var other = 0
        /// Requirements of this level the implementation's cases judge.
        public var requirements = 0
        /// Of those, the ones whose every case passed.
        public var requirementsMet = 0
        /// The ones with a failed case.
        public var requirementsNotMet = 0

        /// The ones neither met nor failed: no case failed, and some did not pass (skipped, not
        /// run, an error): the run cannot say whether the implementation meets them.
        public var requirementsUnverified: Int { requirements - requirementsMet - requirementsNotMet }
    }

    /// One suite's results.
    public struct SuiteResult: Sendable, Hashable {
        public let suite: String
        public var cases = 0
        public var must = LevelResult()
        public var should = LevelResult()
        /// Every outcome's count, all levels together.
        public var outcomes: [Outcome: Int] = [:]
        /// The suite's operations the implementation answered (some case neither skipped nor
        /// not run), those whose every case was skipped (it does not do them, or did not declare
        /// them), and the rest, whose cases never reached it (`notRun`: given up, not started):
        /// a reader tells "not claimed" from "could not be verified" by them.
        public var operationsAnswered: [String] = []
        public var operationsSkipped: [String] = []
        public var operationsNotRun: [String] = []
    }

    /// A MUST case that failed (`fail`, or `expectedFail` when the expected-failures file lists it).
    public struct FailedCase: Sendable, Hashable {
        public let suite: String
        public let requirement: String
        public let caseID: String
        public let outcome: Outcome
        public let message: String?
    }

    /// A line of the expected-failures file that matched a case of the run.
    public struct ExpectedFailureLine: Sendable, Hashable {
        /// Its line number in the file (from 1).
        public let line: Int
        /// The line as written (without its line break).
        public let text: String
        public let caseID: String
        /// `expectedFail`, or `unexpectedPass` when the listed case passed.
        public let outcome: Outcome
    }

    /// The expected-failures file the run used, and which of its lines matched.
    public struct ExpectedFailuresUsed: Sendable, Hashable {
        /// The path as the run recorded it.
        public let path: String
        /// The SHA-256 of the file as read for the statement; nil when it could not be read.
        public let fileSHA256: String?
        /// The lines that matched a case of the run, in file order.
        public let lines: [ExpectedFailureLine]
        /// Cases the run counted as listed (`expectedFail`, `unexpectedPass`) that the file, as
        /// read now, does not list: the file changed since the run, or could not be read.
        public let notListed: [String]
    }

    /// Why no statement could be made.
    public enum Failure: Error, Sendable, CustomStringConvertible {
        case unknownImplementation(String, run: Int64, available: [String])

        public var description: String {
            switch self {
            case .unknownImplementation(let name, let run, let available):
                // Names are an adapter's own text: each shown on one line, hidden characters escaped.
                "run \(run) has no implementation named '\(Escaping.terminal(name))'" + (available.isEmpty
                    ? "; it has no implementations at all"
                    : "; its implementations: " + available.map { "'\(Escaping.terminal($0))'" }.joined(separator: ", "))
            }
        }
    }

    public let implementation: StoredImplementation
    public let run: RunRecord
    public let suites: [SuiteResult]
    public let failedMust: [FailedCase]
    /// Nil when the run used no expected-failures file for this implementation.
    public let expectedFailures: ExpectedFailuresUsed?

    /// The statement of the implementation named `name` in the run of `data`. Its
    /// expected-failures file is read at the path the run recorded (relative paths from the
    /// current directory, as `run` was started).
    public static func make(_ data: ReportData, implementation name: String) throws -> ConformanceStatement {
        guard let impl = data.implementations.first(where: { $0.info.name == name }) else {
            throw Failure.unknownImplementation(name, run: data.run.id, available: data.implementations.map(\.info.name))
        }
        let tallies = try data.store.outcomeTallies(run: data.run.id, implementation: impl.id)
        var failed: [FailedCase] = []
        var listed: [(caseID: String, outcome: Outcome)] = []
        try data.store.forEachResult(run: data.run.id, ResultsStore.ResultFilter(implementation: impl.id,
                                                                                 outcomes: [.fail, .expectedFail, .unexpectedPass])) { stored in
            let r = stored.result
            if r.outcome != .unexpectedPass && r.level == .must {
                failed.append(FailedCase(suite: r.suite, requirement: r.requirement, caseID: r.caseID, outcome: r.outcome, message: r.message))
            }
            if r.outcome != .fail { listed.append((r.caseID, r.outcome)) }
        }
        var suites = suiteResults(tallies)
        for tally in try data.store.operationTallies(run: data.run.id, implementation: impl.id) {
            guard let i = suites.firstIndex(where: { $0.suite == tally.suite }) else { continue }
            if tally.skipped == tally.cases {
                suites[i].operationsSkipped.append(tally.operation)
            } else if tally.skipped + tally.notRun == tally.cases {
                suites[i].operationsNotRun.append(tally.operation)
            } else {
                suites[i].operationsAnswered.append(tally.operation)
            }
        }
        return ConformanceStatement(implementation: impl, run: data.run, suites: suites, failedMust: failed,
                                    expectedFailures: impl.expectedFailures.map { usedLines(path: $0, listed: listed) })
    }

    /// Counts per suite and level from the grouped tallies, suites in the order they were stored.
    static func suiteResults(_ tallies: [ResultsStore.OutcomeTally]) -> [SuiteResult] {
        var order: [String] = []
        var suites: [String: SuiteResult] = [:]
        // Per suite, level and requirement: its cases, how many passed, how many failed.
        var perRequirement: [String: [RequirementLevel: [String: (cases: Int, passed: Int, failed: Int)]]] = [:]
        for t in tallies {
            if suites[t.suite] == nil {
                order.append(t.suite)
                suites[t.suite] = SuiteResult(suite: t.suite)
            }
            suites[t.suite]!.cases += t.count
            suites[t.suite]!.outcomes[t.outcome, default: 0] += t.count
            guard t.level == .must || t.level == .should else { continue }
            let passed = [.pass, .unexpectedPass].contains(t.outcome)
            let failed = [.fail, .nonStrict, .expectedFail].contains(t.outcome)
            func count(_ level: inout LevelResult) {
                level.cases += t.count
                if passed { level.passed += t.count } else if failed { level.failed += t.count } else { level.other += t.count }
            }
            if t.level == .must { count(&suites[t.suite]!.must) } else { count(&suites[t.suite]!.should) }
            perRequirement[t.suite, default: [:]][t.level, default: [:]][t.requirement, default: (0, 0, 0)].cases += t.count
            if passed { perRequirement[t.suite]![t.level]![t.requirement]!.passed += t.count }
            if failed { perRequirement[t.suite]![t.level]![t.requirement]!.failed += t.count }
        }
        return order.map { suite in
            var result = suites[suite]!
            for (level, requirements) in perRequirement[suite] ?? [:] {
                func count(_ result: inout LevelResult) {
                    result.requirements = requirements.count
                    result.requirementsMet = requirements.values.filter { $0.passed == $0.cases }.count
                    result.requirementsNotMet = requirements.values.filter { $0.failed > 0 }.count
                }
                if level == .must { count(&result.must) } else { count(&result.should) }
            }
            return result
        }
    }

    /// The lines of the file at `path` that list the `listed` cases; the cases it does not list
    /// (or all of them, when it cannot be read) in ``ExpectedFailuresUsed/notListed``.
    static func usedLines(path: String, listed: [(caseID: String, outcome: Outcome)]) -> ExpectedFailuresUsed {
        guard let bytes = FileManager.default.contents(atPath: path), let text = String(bytes: bytes, encoding: .utf8) else {
            return ExpectedFailuresUsed(path: path, fileSHA256: nil, lines: [], notListed: listed.map(\.caseID))
        }
        let file = ExpectedFailures(path: path, text: text)
        let rawLines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var lines: [ExpectedFailureLine] = []
        var notListed: [String] = []
        for (caseID, outcome) in listed {
            guard let entry = file.entries[caseID] else {
                notListed.append(caseID)
                continue
            }
            var raw = String(rawLines[entry.line - 1])
            if raw.hasSuffix("\r") { raw.removeLast() }
            lines.append(ExpectedFailureLine(line: entry.line, text: raw, caseID: caseID, outcome: outcome))
        }
        return ExpectedFailuresUsed(path: path, fileSHA256: SHA256.hex(bytes), lines: lines.sorted { $0.line < $1.line },
                                    notListed: notListed)
    }

    // MARK: JSON and digest

    /// The statement as JSON, without its digest: what the digest is computed over.
    public var body: JSONValue {
        let info = implementation.info
        var root = JSONObject()
        root["format"] = .string(Self.format)
        root["implementation"] = ["name": .string(info.name), "version": .string(info.version), "language": .string(info.language),
                                  "homepage": .string(info.homepage), "status": .string(implementation.status.rawValue)]
        root["linkconform"] = ["version": .string(run.toolVersion), "gitCommit": .string(run.gitCommit)]
        root["corpus"] = ["fingerprint": .string(run.corpusFingerprint)]
        root["run"] = ["id": .int(Int(run.id)), "status": .string(run.status.rawValue), "startedAt": .string(run.startedAt),
                       "finishedAt": .string(run.finishedAt)]
        root["suites"] = .array(suites.map { suite in
            var outcomes = JSONObject()
            for outcome in Outcome.allCases where suite.outcomes[outcome, default: 0] > 0 {
                outcomes[outcome.rawValue] = .int(suite.outcomes[outcome]!)
            }
            return ["suite": .string(suite.suite), "cases": .int(suite.cases), "must": Self.json(suite.must),
                    "should": Self.json(suite.should), "outcomes": .object(outcomes),
                    "operationsAnswered": .array(suite.operationsAnswered.map(JSONValue.string)),
                    "operationsSkipped": .array(suite.operationsSkipped.map(JSONValue.string)),
                    "operationsNotRun": .array(suite.operationsNotRun.map(JSONValue.string))]
        })
        root["failedMust"] = .array(failedMust.map { f in
            ["suite": .string(f.suite), "requirement": .string(f.requirement), "case": .string(f.caseID),
             "outcome": .string(f.outcome.rawValue), "message": .string(f.message)]
        })
        root["expectedFailures"] = expectedFailures.map { used in
            ["path": .string(used.path), "sha256": .string(used.fileSHA256),
             "lines": .array(used.lines.map { l in
                 ["line": .int(l.line), "text": .string(l.text), "case": .string(l.caseID), "outcome": .string(l.outcome.rawValue)]
             }),
             "notListed": .array(used.notListed.map(JSONValue.string))]
        } ?? .null
        return .object(root)
    }

    static func json(_ level: LevelResult) -> JSONValue {
        ["cases": .int(level.cases), "passed": .int(level.passed), "failed": .int(level.failed), "other": .int(level.other),
         "requirements": .int(level.requirements), "requirementsMet": .int(level.requirementsMet),
         "requirementsNotMet": .int(level.requirementsNotMet), "requirementsUnverified": .int(level.requirementsUnverified)]
    }

    /// The canonical JSON text of a statement body: LinkJSON's serializer, members sorted by
    /// key at every level, no whitespace between tokens.
    public static func canonicalText(of body: JSONValue) -> String {
        body.serialized(pretty: false, sortKeys: true)
    }

    public var canonicalText: String { Self.canonicalText(of: body) }

    /// The SHA-256 of ``canonicalText``, 64 lower-case hexadecimal digits.
    public var sha256: String { SHA256.hex(utf8: canonicalText) }

    /// The file `statement-<name>.json`: the body with `sha256` added last, indented two spaces
    /// a level, ending in a line feed.
    public var jsonText: String {
        guard case .object(var root) = body else { return "" }
        root["sha256"] = .string(sha256)
        return JSONValue.object(root).serialized(pretty: true) + "\n"
    }

    // MARK: verifying

    /// What checking a statement file found.
    public enum Verification: Sendable, Hashable {
        /// The digest matches the content.
        case verified(sha256: String)
        /// The content hashes to something else than the digest the file carries.
        case mismatch(recorded: String, computed: String)
        /// The file is not a statement (not JSON, not an object, no digest, another format).
        case invalid(String)
    }

    /// Recomputes the digest of a statement file's content and compares it with the one it
    /// carries. Key order and whitespace of the file do not matter; any change of a value does.
    public static func verify(_ bytes: [UInt8]) -> Verification {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            return .invalid("not valid JSON: \(error)")
        }
        guard case .object(var root) = value else { return .invalid("not a JSON object") }
        guard let recorded = root["sha256"]?.stringValue else { return .invalid("no \"sha256\" string member") }
        guard let format = root["format"]?.stringValue, format == Self.format else {
            return .invalid("\"format\" is not \"\(Self.format)\"")
        }
        root["sha256"] = nil
        let computed = SHA256.hex(utf8: canonicalText(of: .object(root)))
        return computed == recorded ? .verified(sha256: computed) : .mismatch(recorded: recorded, computed: computed)
    }

    // MARK: files

    /// The file name's stem for an implementation: `statement-` and the name with every
    /// character but ASCII letters, digits, `.`, `_` and `-` turned into `-` (runs of them into
    /// one), without leading or trailing `-` and `.`, at most 64 characters; `implementation`
    /// when nothing is left. ("python-urllib" -> "statement-python-urllib",
    /// "reference #2" -> "statement-reference-2".)
    public static func fileStem(for name: String) -> String {
        let safe = FileNames.dashed(name.unicodeScalars) { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "._-".unicodeScalars.contains(scalar))
        }
        let trimmed = String(safe.trimmingCharacters(in: CharacterSet(charactersIn: "-.")).prefix(64))
            .trimmingCharacters(in: CharacterSet(charactersIn: "-."))
        return "statement-" + (trimmed.isEmpty ? "implementation" : trimmed)
    }

    /// Writes `<stem>.json` and `<stem>.html` into `directory`; returns their paths.
    public func write(to directory: String) throws -> [String] {
        let stem = Self.fileStem(for: implementation.info.name)
        let json = jsonText, html = StatementHTML.render(self)
        return try [(stem + ".json", json), (stem + ".html", html)].map { name, text in
            try ReportWriter.replace(name, in: directory) { out in
                try out.write(text)
                try out.flush()
            }
        }
    }
}
