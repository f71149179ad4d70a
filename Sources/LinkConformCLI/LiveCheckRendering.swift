import Conformance
import DomainCheck
import LinkJSON
import Reports

/// `linkconform check --domain`'s three outputs from one ``DomainReport``: the text, the JSON
/// and the exit code. Everything a server sent (status text aside, headers, Location, error
/// details) is shown through ``Escaping/terminalLines(_:)``, so a hostile server cannot write
/// escape sequences to the reader's terminal; the JSON keeps the text as received.
///
/// ```swift
/// let rendering = LiveCheckRendering(report: DomainJudge.judge(question, records: records), titles: [:])
/// rendering.exitCode   // 0 both platforms read their files, 1 not, 2 the domain cannot be reached
/// ```
struct LiveCheckRendering {
    let report: DomainReport
    let titles: [String: String]

    var exitCode: Int32 {
        guard report.reachable else { return 2 }
        return report.valid ? 0 : 1
    }

    var verdictLine: String {
        guard report.reachable else { return "cannot reach \(report.question.domain): no file could be fetched" }
        return report.platforms.map { "\($0.platform.name) \($0.verdict.valid ? "yes" : "no")" }.joined(separator: ", ")
            + (report.valid ? ": both platforms read their files" : ": see each platform above")
    }

    // MARK: text

    func human() -> String {
        var lines = ["live check of \(report.question.domain)"]
        if let appID = report.question.appID { lines.append("  iOS app      \(appID)") }
        if let package = report.question.package { lines.append("  Android app  \(package) \(report.question.fingerprint ?? "")") }
        for judged in report.files { lines += fileLines(judged) }
        for platform in report.platforms { lines += platformLines(platform) }
        lines.append("verdict: \(verdictLine)")
        return Escaping.terminalLines(lines)
    }

    func fileLines(_ judged: ServingJudgement) -> [String] {
        let record = judged.record
        var lines = ["", "\(judged.file.path)\(judged.file == .aasaLegacy ? " (legacy root path)" : "")"]
        lines.append("  url              \(record.url)")
        if let status = record.status {
            lines.append("  response         \(status) \(record.httpVersion ?? ""), head after \(Self.ms(record.timeToHead)), \(record.bytesRead) bytes"
                         + (record.stoppedAtLimit ? " (stopped: over the \(judged.file.sizeLimit)-byte limit)" : "")
                         + " in \(Self.ms(record.elapsed))")
            for name in ["content-type", "content-encoding", "content-length", "location"] {
                // A server's value is cut for the terminal (a 60 KB Location was printed whole);
                // --json keeps it.
                for value in record.values(of: name) {
                    lines.append("  \(name.padding(toLength: 16, withPad: " ", startingAt: 0)) \(Escaping.clipped(value, to: Self.valueLimit))")
                }
            }
        } else {
            lines.append("  response         none, after \(Self.ms(record.elapsed))")
        }
        lines.append("  \(judged.file.platform.name.padding(toLength: 16, withPad: " ", startingAt: 0)) " + (judged.accepted ? "would read it" : "would not read it")
                     + (judged.file == .aasaLegacy ? " (asked only when the /.well-known/ path fails)" : ""))
        lines += judged.findings.map { "    \($0.level.rawValue) \($0.code.rawValue): \($0.message)" }
        return lines
    }

    func platformLines(_ p: PlatformVerdict) -> [String] {
        var lines = ["", "\(p.platform.name): \(p.verdict.sentence)"]
        lines.append("  reads            " + (p.source.map { $0.path } ?? "nothing"))
        for f in p.findings {
            lines.append("    \(f.level.rawValue) \(f.code.rawValue): \(f.message)")
            lines.append("      source: \(f.source)")
        }
        if let contents = p.contents {
            lines += CheckRendering.explanationLines(contents, titles: titles).map { "  " + $0 }
        }
        return lines
    }

    /// How much of one header value the text shows.
    static let valueLimit = 600

    static func ms(_ duration: Duration?) -> String {
        duration.map { "\(milliseconds($0)) ms" } ?? "-"
    }

    // MARK: JSON

    func json() -> JSONValue {
        var root = JSONObject()
        root["domain"] = .string(report.question.domain)
        root["appID"] = .string(report.question.appID)
        root["package"] = .string(report.question.package)
        root["fingerprint"] = .string(report.question.fingerprint)
        root["urls"] = .array(report.question.urls.map(JSONValue.string))
        root["reachable"] = .bool(report.reachable)
        root["valid"] = .bool(report.valid)
        root["verdict"] = .string(verdictLine)
        root["files"] = .array(report.files.map(Self.fileJSON))
        root["platforms"] = .array(report.platforms.map { p in
            var o = JSONObject()
            o["platform"] = .string(p.platform.rawValue)
            o["reads"] = .string(p.source?.path)
            o["valid"] = .bool(p.verdict.valid)
            o["verdict"] = .string(p.verdict.sentence)
            o["findings"] = .array(p.findings.map(Self.findingJSON))
            o["contents"] = p.contents.map { $0.json(titles: titles) } ?? .null
            return .object(o)
        })
        return .object(root)
    }

    static func fileJSON(_ judged: ServingJudgement) -> JSONValue {
        let r = judged.record
        var o = JSONObject()
        o["file"] = .string(judged.file.rawValue)
        o["path"] = .string(judged.file.path)
        o["platform"] = .string(judged.file.platform.rawValue)
        o["url"] = .string(r.url)
        o["status"] = r.status.map { .int($0) } ?? .null
        o["httpVersion"] = .string(r.httpVersion)
        o["headers"] = .array(r.headers.map { ["name": .string($0.name), "value": .string($0.value)] })
        o["bytesRead"] = .int(r.bytesRead)
        o["sizeLimit"] = .int(judged.file.sizeLimit)
        o["stoppedAtLimit"] = .bool(r.stoppedAtLimit)
        o["failure"] = r.failure.map(failureJSON) ?? .null
        o["bodyFailure"] = r.bodyFailure.map(failureJSON) ?? .null
        o["timeToHeadMs"] = r.timeToHead.map { .int(milliseconds($0)) } ?? .null
        o["elapsedMs"] = .int(milliseconds(r.elapsed))
        o["accepted"] = .bool(judged.accepted)
        o["findings"] = .array(judged.findings.map(findingJSON))
        return .object(o)
    }

    static func failureJSON(_ f: FetchFailure) -> JSONValue {
        ["kind": .string(f.kind.rawValue), "detail": .string(f.detail)]
    }

    static func findingJSON(_ f: ServingFinding) -> JSONValue {
        ["code": .string(f.code.rawValue), "level": .string(f.level.rawValue), "message": .string(f.message), "source": .string(f.source)]
    }

    static func milliseconds(_ d: Duration) -> Int {
        Int(d.components.seconds * 1000 + d.components.attoseconds / 1_000_000_000_000_000)
    }
}
