import Conformance

/// A live check's conclusions: each fetched file judged for its platform, and one verdict per
/// platform over the serving and the contents.
///
/// ```swift
/// let report = DomainJudge.judge(question, records: [.aasa: r1, .aasaLegacy: r2, .assetLinks: r3])
/// report.platforms.map(\.verdict.valid)   // [true, false]: iOS reads it, Android does not
/// report.reachable                        // false only when no fetch reached a server
/// ```
public struct DomainReport: Sendable {
    public let question: LiveQuestion
    /// Every file fetched, in ``WellKnownFile`` order.
    public let files: [ServingJudgement]
    /// iOS, then Android.
    public let platforms: [PlatformVerdict]

    /// Some fetch reached a server (a TLS handshake began, or a response came); false when every
    /// one failed to resolve or connect.
    public var reachable: Bool {
        files.contains { !($0.record.failure?.kind.isUnreachable ?? false) }
    }

    /// Every platform reads its file and finds no MUST rule broken.
    public var valid: Bool { platforms.allSatisfy(\.verdict.valid) }
}

/// One platform's verdict: which file it reads (if any), what about the serving counts for it,
/// and what its reader makes of the contents.
public struct PlatformVerdict: Sendable {
    public let platform: Platform
    /// The file the platform reads, or nil when it reads none.
    public let source: WellKnownFile?
    /// The serving findings that count for this platform's verdict.
    public let findings: [ServingFinding]
    /// What the platform's reader makes of the body (the `aasa` suite, or the statement list reader).
    public let contents: CheckExplanation?
    public let verdict: CheckVerdict

    init(platform: Platform, source: WellKnownFile?, findings: [ServingFinding], contents: CheckExplanation?) {
        self.platform = platform
        self.source = source
        self.findings = findings
        self.contents = contents
        // No file read is a refusal even when nothing more specific was found.
        let levels = findings.map(\.level) + (contents?.violations.map(\.level) ?? []) + (source == nil ? [.must] : [])
        verdict = CheckVerdict(recognized: true, levels: levels, wording: Self.wording(platform))
    }

    static func wording(_ platform: Platform) -> CheckVerdict.Wording {
        let file = platform == .ios ? "the apple-app-site-association file" : "the statement list"
        return CheckVerdict.Wording(
            valid: "\(platform.name) reads \(file); nothing to fix",
            withWarnings: "\(platform.name) reads \(file), with warnings",
            invalid: "\(platform.name) does not read \(file) as served, or refuses what it says",
            unrecognized: "\(platform.name): nothing to read")
    }
}

/// The platforms' side of a live check, pure: hand it the fetch records, get the report.
public enum DomainJudge {
    public static func judge(_ question: LiveQuestion, records: [WellKnownFile: FetchRecord]) -> DomainReport {
        let files = WellKnownFile.allCases.compactMap { file in records[file].map { ServingRules.judge($0, as: file) } }
        func judged(_ file: WellKnownFile) -> ServingJudgement? { files.first { $0.file == file } }
        return DomainReport(question: question, files: files,
                            platforms: [ios(question, judged(.aasa), judged(.aasaLegacy)), android(question, judged(.assetLinks))])
    }

    /// iOS reads `/.well-known/`; when that is not served right but the root path is, the root
    /// file is read with a SHOULD-level finding (decided: the digest says older systems accepted
    /// the root path and production sites still rely on it, so it is a warning, not a refusal).
    static func ios(_ question: LiveQuestion, _ current: ServingJudgement?, _ legacy: ServingJudgement?) -> PlatformVerdict {
        var source = current
        var findings = current?.findings ?? []
        if let current, let legacy, !current.accepted, legacy.accepted {
            source = legacy
            let why = current.findings.first { $0.level == .must }.map { "\($0.code.rawValue): \($0.message)" } ?? ""
            findings = [ServingFinding(.legacyPathOnly, for: .ios, level: .should,
                                       "only the root path \(WellKnownFile.aasaLegacy.path) serves the file; \(WellKnownFile.aasa.path) fails (\(why))")]
                + legacy.findings
        }
        guard let source, let body = source.body else {
            return PlatformVerdict(platform: .ios, source: nil, findings: findings, contents: nil)
        }
        var parameters = ["domain": question.domain]
        parameters["app-id"] = question.appID
        let document = CheckDocument(path: "https://\(question.domain)\(source.file.path)", bytes: body,
                                     parameters: parameters, urls: question.urls, claimed: true)
        let contents = AASASuite.definition.explain(.document(document))
        return PlatformVerdict(platform: .ios, source: source.file, findings: findings, contents: contents)
    }

    static func android(_ question: LiveQuestion, _ judged: ServingJudgement?) -> PlatformVerdict {
        guard let judged else { return PlatformVerdict(platform: .android, source: nil, findings: [], contents: nil) }
        guard let body = judged.body else {
            return PlatformVerdict(platform: .android, source: nil, findings: judged.findings, contents: nil)
        }
        return PlatformVerdict(platform: .android, source: .assetLinks, findings: judged.findings,
                               contents: StatementListReading.current.explain(body, question: question))
    }
}
