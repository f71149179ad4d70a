import Conformance
import Foundation
import ResultsStore

/// `junit.xml`, for CI systems: one test suite per implementation and suite, one test case per case.
///
/// `fail` and `unexpectedPass` become a `<failure>`; `errored`, `crashed`, `timedOut` and
/// `protocolError` an `<error>`; `skipped` and `notRun` a `<skipped>`. `nonStrict` (a SHOULD not
/// met) is a `<failure type="SHOULD">` when the run was made with `--strict` (``RunRecord/strict``,
/// as stored), so that the file fails exactly what the run's exit code failed; otherwise it passes,
/// like `informational` and `expectedFail`, with its outcome as a property and its message in
/// `<system-out>`, so that a SHOULD does not turn a CI job red.
///
/// The counts and times of each `<testsuite>` come from the store's aggregates; its test cases
/// are read from the store one at a time and written as they come. Every text goes through
/// ``Escaping/xml(_:)``, so the file is well-formed XML 1.0 whatever an implementation said.
///
/// A run that is incomplete (interrupted, failed, still running) has no result, and so no test
/// case, for the cases it did not reach; a last `<testsuite name="linkconform.run">` holds one
/// test case in `<error type="incomplete">` that says how many, with the run's status and that
/// count as properties, so that a CI reading only this file does not take it for a clean run.
/// An implementation that never started (its cases are `notRun`, shown as skipped) gets a test
/// case of its own in that suite, in `<error type="failed-to-start">` with the reason the store
/// kept (``NotStartedReport``): `run` exited 2 for it, and this file says why.
public enum JUnitReport {
    /// The report as a string (tests, small runs); ``write(_:to:)`` streams it.
    public static func render(_ data: ReportData) throws -> String {
        try ReportOutput.string { try write(data, to: $0) }
    }

    public static func write(_ data: ReportData, to out: ReportOutput) throws {
        let notStarted = data.notStarted
        let harness = (data.incomplete == nil ? 0 : 1) + notStarted.count
        let strict = data.run.strict, failing = failures(strict: strict)
        try out.line(#"<?xml version="1.0" encoding="UTF-8"?>"#)
        try out.line(#"<testsuites name="linkconform run \#(data.run.id)" tests="\#(data.resultCount + harness)" failures="\#(data.count(failing))" errors="\#(data.count(errors) + harness)" skipped="\#(data.count(skips))" time="\#(seconds(data.caseNanos))">"#)
        for row in data.summary {
            let name = data.implementation(row.implementationID)?.name ?? "?"
            try out.line(#"  <testsuite name="\#(Escaping.xml(name)).\#(Escaping.xml(row.suite))" tests="\#(row.total)" failures="\#(row.count(failing))" errors="\#(row.count(errors))" skipped="\#(row.count(skips))" time="\#(seconds(row.nanos))">"#)
            try data.forEachResult(implementation: row.implementationID, suite: row.suite, withCases: true) {
                try testCase($0, data, strict: strict, to: out)
            }
            try out.line("  </testsuite>")
        }
        guard harness > 0 else { return try out.line("</testsuites>") }
        try out.line(#"  <testsuite name="linkconform.run" tests="\#(harness)" failures="0" errors="\#(harness)" skipped="0" time="0.000000">"#)
        let missing = data.incomplete.map { #"<property name="casesWithoutResult" value="\#($0.casesWithoutResult.map(String.init) ?? "unknown")"/>"# } ?? ""
        try out.line(#"    <properties><property name="status" value="\#(data.run.status.rawValue)"/>\#(missing)</properties>"#)
        if let incomplete = data.incomplete {
            try harnessError("run \(data.run.id) complete", type: "incomplete", IncompleteRunReport.sentence(incomplete), to: out)
        }
        for implementation in notStarted {
            try harnessError("\(implementation.info.name) started", type: implementation.status.rawValue,
                             NotStartedReport.sentence(implementation, data), to: out)
        }
        try out.line("  </testsuite>")
        try out.line("</testsuites>")
    }

    /// A test case of the `linkconform.run` suite: something the harness could not do.
    static func harnessError(_ name: String, type: String, _ message: String, to out: ReportOutput) throws {
        try out.line(#"    <testcase classname="linkconform.run" name="\#(Escaping.xml(name))" time="0.000000">"#)
        try out.line(#"      <error type="\#(type)" message="\#(Escaping.xml(message))"/>"#)
        try out.line("    </testcase>")
    }

    /// A failure's text after expected and actual: what the requirement says and the case's
    /// input (cut to 2,000 characters), when the store has them.
    static func context(_ stored: StoredResult, _ data: ReportData) -> String {
        var text = ""
        if let requirement = data.requirementText(stored.result) { text += "&#10;requirement: " + Escaping.xml(ReportData.plain(requirement)) }
        if let c = stored.corpusCase { text += "&#10;input (\(Escaping.xml(c.file)):\(c.line)): " + Escaping.xml(Escaping.clipped(c.input, to: 2_000)) }
        return text
    }

    static func testCase(_ stored: StoredResult, _ data: ReportData, strict: Bool, to out: ReportOutput) throws {
        let r = stored.result
        let open = #"    <testcase classname="\#(Escaping.xml(r.suite)).\#(Escaping.xml(r.requirement))" name="\#(Escaping.xml(r.caseID))" time="\#(seconds(r.durationNanos))""#
        let message = Escaping.xml(r.message ?? "")
        if r.outcome == .pass {
            try out.line(open + "/>")
            return
        }
        try out.line(open + ">")
        switch r.outcome {
        case .pass:
            break
        case .fail,
             .nonStrict where strict:
            try out.line(#"      <failure type="\#(r.level.rawValue)" message="\#(message)">expected: \#(Escaping.xml(r.expected.serialized()))&#10;actual: \#(Escaping.xml(r.actual?.serialized() ?? "(none)"))\#(context(stored, data))</failure>"#)
        case .errored, .crashed, .timedOut, .protocolError:
            try out.line(#"      <error type="\#(r.outcome.rawValue)" message="\#(message)"/>"#)
        case .unexpectedPass:
            try out.line(#"      <failure type="unexpectedPass" message="\#(message)"/>"#)
        case .skipped, .notRun:
            try out.line(#"      <skipped message="\#(message)"/>"#)
        case .nonStrict, .informational, .expectedFail:
            try out.line(#"      <properties><property name="outcome" value="\#(r.outcome.rawValue)"/><property name="level" value="\#(r.level.rawValue)"/></properties>"#)
            if !message.isEmpty { try out.line("      <system-out>\(r.outcome.rawValue): \(message)</system-out>") }
        }
        try out.line("    </testcase>")
    }

    /// The outcomes written as a `<failure>`: with `strict`, `nonStrict` too.
    static func failures(strict: Bool) -> Set<Outcome> {
        strict ? [.fail, .unexpectedPass, .nonStrict] : [.fail, .unexpectedPass]
    }

    static let errors: Set<Outcome> = [.errored, .crashed, .timedOut, .protocolError]
    static let skips: Set<Outcome> = [.skipped, .notRun]

    static func seconds(_ nanos: Int64) -> String {
        String(format: "%.6f", Double(nanos) / 1e9)
    }
}
