import AASA

/// The aasa operations as a Swift protocol, for Swift implementations run in process.
public protocol AASASubject: Sendable {
    /// Every problem of a file (`aasa.validate`).
    func validate(file: [UInt8]) -> [AASADiagnostic]
    /// What a URL does for an app under a file served for a domain (`aasa.match`).
    func match(file: [UInt8], domain: String, appID: String, url: String) -> AASAMatchResult
    /// The associated-domains entry that applies to a host, if any (`aasa.entitlement`).
    func entitlement(entries: [String], host: String) -> String?
}

/// LinkConform's reference: the `AASA` module.
public struct ReferenceAASA: AASASubject {
    public init() {}

    public func validate(file: [UInt8]) -> [AASADiagnostic] {
        AASA.validate(file)
    }

    public func match(file: [UInt8], domain: String, appID: String, url: String) -> AASAMatchResult {
        AASA.match(file, domain: domain, appID: appID, url: url)
    }

    public func entitlement(entries: [String], host: String) -> String? {
        AASAEntitlements.entry(for: host, in: entries)
    }
}
