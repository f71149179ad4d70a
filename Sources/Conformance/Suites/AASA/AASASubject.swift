import AASA

/// The aasa operations as a Swift protocol, for Swift implementations run in process.
public protocol AASASubject: Sendable {
    /// Every problem of a file (`aasa.validate`).
    func validate(file: [UInt8]) -> [AASADiagnostic]
    /// What a URL does for an app under a file served for a domain (`aasa.match`).
    func match(file: [UInt8], domain: String, appID: String, url: String) -> AASAMatchResult
    /// The associated-domains entry that applies to a host, if any (`aasa.entitlement`).
    func entitlement(entries: [String], host: String) -> String?
    /// Why `match` gave `result`, in a few stable words (``AASA/reason(for:_:domain:appID:url:memo:)``),
    /// reported beside the answer and never judged; nil (the default) says nothing.
    func matchReason(_ result: AASAMatchResult, file: [UInt8], domain: String, appID: String, url: String) -> String?
}

extension AASASubject {
    public func matchReason(_ result: AASAMatchResult, file: [UInt8], domain: String, appID: String, url: String) -> String? { nil }
}

/// LinkConform's reference: the `AASA` module, keeping compiled rules in `cache` (the same
/// answers; see ``AASACompileCache``): files that share rules, or a file matched against many
/// URLs, compile each rule once.
public struct ReferenceAASA: AASASubject {
    let cache: AASACompileCache?

    /// `cache`: nil compiles every file anew.
    public init(cache: AASACompileCache? = .shared) {
        self.cache = cache
    }

    public func validate(file: [UInt8]) -> [AASADiagnostic] {
        AASA.validate(file, memo: cache)
    }

    public func match(file: [UInt8], domain: String, appID: String, url: String) -> AASAMatchResult {
        AASA.match(file, domain: domain, appID: appID, url: url, memo: cache)
    }

    public func entitlement(entries: [String], host: String) -> String? {
        AASAEntitlements.entry(for: host, in: entries)
    }

    public func matchReason(_ result: AASAMatchResult, file: [UInt8], domain: String, appID: String, url: String) -> String? {
        AASA.reason(for: result, file, domain: domain, appID: appID, url: url, memo: cache)
    }
}
