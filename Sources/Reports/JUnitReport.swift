import Conformance

/// `junit.xml`, for CI systems: one test suite per implementation and suite, one test case per case.
///
/// `fail` and `unexpectedPass` become a `<failure>`; `errored`, `crashed`, `timedOut` and
/// `protocolError` an `<error>`; `skipped` and `notRun` a `<skipped>`. `nonStrict` (a SHOULD not
/// met), `informational` and `expectedFail` pass, with their outcome as a property and their
/// message in `<system-out>`, so that a SHOULD never turns a CI job red unless the run is `--strict`.
public enum JUnitReport {
    public static func render(_ data: ReportData) -> String {
        var out = [#"<?xml version="1.0" encoding="UTF-8"?>"#]
        let all = data.results.map(\.result)
        out.append(#"<testsuites name="linkconform run \#(data.run.id)" tests="\#(all.count)" failures="\#(count(all, failures))" errors="\#(count(all, errors))" skipped="\#(count(all, [.skipped, .notRun]))" time="\#(seconds(all))">"#)
        for row in data.summary {
            let name = data.implementation(row.implementationID)?.name ?? "?"
            let rs = data.results.filter { $0.implementationID == row.implementationID && $0.result.suite == row.suite }.map(\.result)
            out.append(#"  <testsuite name="\#(escape(name)).\#(escape(row.suite))" tests="\#(rs.count)" failures="\#(count(rs, failures))" errors="\#(count(rs, errors))" skipped="\#(count(rs, [.skipped, .notRun]))" time="\#(seconds(rs))">"#)
            for r in rs {
                let open = #"    <testcase classname="\#(escape(r.suite)).\#(escape(r.requirement))" name="\#(escape(r.caseID))" time="\#(String(format: "%.6f", Double(r.durationNanos) / 1e9))""#
                let message = escape(r.message ?? "")
                switch r.outcome {
                case .pass:
                    out.append(open + "/>")
                case .fail:
                    out.append(open + ">")
                    out.append(#"      <failure type="\#(r.level.rawValue)" message="\#(message)">expected: \#(escape(r.expected.serialized()))&#10;actual: \#(escape(r.actual?.serialized() ?? "(none)"))</failure>"#)
                    out.append("    </testcase>")
                case .errored, .crashed, .timedOut, .protocolError:
                    out.append(open + ">")
                    out.append(#"      <error type="\#(r.outcome.rawValue)" message="\#(message)"/>"#)
                    out.append("    </testcase>")
                case .unexpectedPass:
                    out.append(open + ">")
                    out.append(#"      <failure type="unexpectedPass" message="\#(message)"/>"#)
                    out.append("    </testcase>")
                case .skipped, .notRun:
                    out.append(open + ">")
                    out.append(#"      <skipped message="\#(message)"/>"#)
                    out.append("    </testcase>")
                case .nonStrict, .informational, .expectedFail:
                    out.append(open + ">")
                    out.append(#"      <properties><property name="outcome" value="\#(r.outcome.rawValue)"/><property name="level" value="\#(r.level.rawValue)"/></properties>"#)
                    if !message.isEmpty { out.append("      <system-out>\(r.outcome.rawValue): \(message)</system-out>") }
                    out.append("    </testcase>")
                }
            }
            out.append("  </testsuite>")
        }
        out.append("</testsuites>")
        return out.joined(separator: "\n") + "\n"
    }

    static let failures: Set<Outcome> = [.fail, .unexpectedPass]
    static let errors: Set<Outcome> = [.errored, .crashed, .timedOut, .protocolError]

    static func count(_ rs: [CaseResult], _ outcomes: Set<Outcome>) -> Int {
        rs.filter { outcomes.contains($0.outcome) }.count
    }

    static func seconds(_ rs: [CaseResult]) -> String {
        String(format: "%.6f", Double(rs.reduce(Int64(0)) { $0 + $1.durationNanos }) / 1e9)
    }

    /// XML attribute and text escaping; characters XML 1.0 cannot carry become U+FFFD.
    static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for scalar in s.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += "&#10;"
            case "\t", "\r": out.unicodeScalars.append(scalar)
            default:
                let v = scalar.value
                let allowed = v >= 0x20 && !(0xD800...0xDFFF).contains(v) && v != 0xFFFE && v != 0xFFFF
                out.unicodeScalars.append(allowed ? scalar : "\u{FFFD}")
            }
        }
        return out
    }
}
