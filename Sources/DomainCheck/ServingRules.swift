import Conformance

/// How a platform judges the way one file is served, from the facts of its fetch: https was used
/// by construction (only `https://` URLs are fetched), so what is left is the certificate, the
/// status, the redirect, the content type and encoding, the size and whether the body arrived
/// whole. Pure: tests hand it records made by hand.
///
/// ```swift
/// let record = FetchRecord(url: url, status: 301, headers: [("Location", "https://www.example.com/x")])
/// let judged = ServingRules.judge(record, as: .aasa)
/// judged.accepted                  // false
/// judged.findings.first?.code      // .redirect
/// ```
public enum ServingRules {
    /// The findings for `file` as its platform reads it, and the body when the platform would
    /// read it (no MUST finding).
    public static func judge(_ record: FetchRecord, as file: WellKnownFile) -> ServingJudgement {
        ServingJudgement(file: file, record: record, findings: findings(record, as: file))
    }

    static func findings(_ record: FetchRecord, as file: WellKnownFile) -> [ServingFinding] {
        if let failure = record.failure { return [finding(for: failure, before: true, file)] }
        guard let status = record.status else {
            return [ServingFinding(.protocolError, for: file.platform, level: .must, "no response")]
        }
        switch status {
        case 200: break
        case 301, 302, 303, 307, 308:
            let location = record.values(of: "location").first
            // The message quotes the start of a long Location only (the record keeps it whole).
            let target = location.map { "to \(ShownText.clipped($0, to: 600))" + ($0.lowercased().hasPrefix("http:") ? " (plain http)" : "") }
                ?? "without a Location"
            return [ServingFinding(.redirect, for: file.platform, level: .must, "status \(status), a redirect \(target); the platforms do not follow it")]
        case 403, 404:
            return [ServingFinding(.denied, for: file.platform, level: .must, "status \(status): the site denies the file")]
        default:
            return [ServingFinding(.status, for: file.platform, level: .must, "status \(status); only 200 serves the file")]
        }
        var found: [ServingFinding] = []
        if let failure = record.bodyFailure { found.append(finding(for: failure, before: false, file)) }
        if record.stoppedAtLimit {
            found.append(ServingFinding(.tooLarge, for: file.platform, level: .must, tooLargeMessage(file)))
        }
        found += contentType(record, as: file)
        found += contentEncoding(record, as: file)
        return found
    }

    /// The fetch asks for gzip or deflate and decodes one layer of either (the first coding the
    /// server names, as NIOHTTPCompression does): only then is the body the file, and the coding a
    /// note. Any other coding (`br`, which was not asked for; `gzip, gzip`, of which one layer was
    /// decoded) leaves bytes that are not the file and cannot be judged as it: a refusal (decided).
    /// `identity` alone changes nothing.
    static func contentEncoding(_ record: FetchRecord, as file: WellKnownFile) -> [ServingFinding] {
        let fields = record.values(of: "content-encoding")
        let codings = fields.flatMap { $0.split(separator: ",") }.map { $0.trimmingASCIISpaces.lowercased() }.filter { !$0.isEmpty }
        guard !codings.allSatisfy({ $0 == "identity" }) else { return [] }
        let shown = "Content-Encoding: \(fields.joined(separator: ", "))"
        if codings == ["gzip"] || codings == ["deflate"] {
            let outcome = record.bodyFailure?.kind == .undecodable
                ? "it did not decode (body-cut)" : "decoded as the platform's HTTP stack does, \(record.bytesRead) bytes after decoding"
            return [ServingFinding(.contentEncoding, for: file.platform, level: .info, "\(shown); \(outcome)")]
        }
        return [ServingFinding(.contentEncoding, for: file.platform, level: .must,
                               "\(shown); not decoded (LinkConform asks for gzip or deflate and decodes one layer of either), "
                               + "so the body is not the file and is not judged; serve the file as Accept-Encoding asks")]
    }

    static func tooLargeMessage(_ file: WellKnownFile) -> String {
        let limit = file.sizeLimit / 1024
        return file.platform == .ios
            ? "the file is over \(limit) KB (uncompressed); iOS does not read it (reading stopped there)"
            : "the file is over \(limit) KB, LinkConform's reading cap for a statement list (reading stopped there)"
    }

    /// iOS: `application/json` is documented, anything else a note (the digest: github.com and
    /// www.apple.com send `application/octet-stream`). Android: anything else empties the list.
    /// The media type is compared ASCII case-insensitively, parameters (`; charset=utf-8`) ignored.
    static func contentType(_ record: FetchRecord, as file: WellKnownFile) -> [ServingFinding] {
        let level: RequirementLevel = file.platform == .ios ? .info : .must
        guard let value = record.values(of: "content-type").first else {
            return [ServingFinding(.contentType, for: file.platform, level: level, "no Content-Type; application/json expected")]
        }
        let media = value.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first
            .map { $0.trimmingASCIISpaces.lowercased() } ?? ""
        guard media != "application/json" else { return [] }
        let consequence = file.platform == .ios ? "iOS reads it all the same" : "Android reads no statements from it"
        return [ServingFinding(.contentType, for: file.platform, level: level, "Content-Type: \(value), not application/json; \(consequence)")]
    }

    static func finding(for failure: FetchFailure, before head: Bool, _ file: WellKnownFile) -> ServingFinding {
        switch failure.kind {
        case .unresolvable, .refused, .connectTimeout:
            return ServingFinding(.unreachable, for: file.platform, level: .must, "cannot connect (\(failure.kind.rawValue)): \(failure.detail)")
        case .untrustedCertificate:
            return ServingFinding(.untrustedCertificate, for: file.platform, level: .must, "the certificate chain is not trusted: \(failure.detail)")
        case .wrongHostCertificate:
            return ServingFinding(.wrongHostCertificate, for: file.platform, level: .must, "the certificate is not valid for this host: \(failure.detail)")
        case .tlsFailed:
            return ServingFinding(.tlsFailed, for: file.platform, level: .must, "the TLS handshake failed: \(failure.detail)")
        case .headersTooLarge:
            return ServingFinding(.headersTooLarge, for: file.platform, level: .must, "the response head is too large: \(failure.detail)")
        case .readTimeout:
            return ServingFinding(.readTimeout, for: file.platform, level: .must, (head ? "no response head" : "the body stalled") + " within the read timeout: \(failure.detail)")
        case .deadline:
            return ServingFinding(.deadline, for: file.platform, level: .must, (head ? "no response head" : "the body did not end") + " within the total deadline: \(failure.detail)")
        case .protocolError, .undecodable, .other:
            return head ? ServingFinding(.protocolError, for: file.platform, level: .must, "not a valid HTTP response: \(failure.detail)")
                        : ServingFinding(.bodyCut, for: file.platform, level: .must, "the body did not arrive whole: \(failure.detail)")
        }
    }
}

/// One file's fetch judged for its platform.
public struct ServingJudgement: Sendable, Hashable {
    public let file: WellKnownFile
    public let record: FetchRecord
    public let findings: [ServingFinding]

    /// The platform reads the file: no MUST finding.
    public var accepted: Bool { !findings.contains { $0.level == .must } }
    /// The body the platform reads, when it reads one.
    public var body: [UInt8]? { accepted ? record.body : nil }
}

extension Substring {
    var trimmingASCIISpaces: Substring {
        var s = self
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" { s.removeLast() }
        return s
    }
}
