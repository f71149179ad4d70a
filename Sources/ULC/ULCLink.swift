import LinkURL
import XCallbackURL

/// A link read as a Universal Link Callback: what it asks for, and everything wrong with it.
///
/// ```swift
/// let link = ULC.parse("https://cisco.webex.com/logout?ulc-success=https%3A%2F%2Fsampledomain.com%2Fsuccess&ulc-error=https%3A%2F%2Fsampledomain.com%2Ferror")
/// link.kind                 // .ulc
/// link.action               // "https://cisco.webex.com/logout"
/// link.success?.decoded     // "https://sampledomain.com/success"
/// ```
public struct ULCLink: Sendable {
    public enum Kind: String, Sendable, Hashable {
        /// No `ulc-success` query parameter: the link is not a ULC (it may be any other link).
        case notULC
        /// A ULC with no fatal violation (warnings may remain).
        case ulc
        /// A ULC with at least one fatal violation.
        case invalid
    }

    public let kind: Kind
    /// The link as split by ``LinkURL``.
    public let url: LinkURL
    /// The logout action: the link without the callback parameters (its own query kept) and
    /// without a fragment. Nil when the link is not a ULC.
    public let action: String?
    /// The success callback, when present exactly once.
    public let success: ULCCallback?
    /// The error callback, when present exactly once.
    public let error: ULCCallback?
    /// Every violation found, in the order of the checks.
    public let violations: [ULCViolation]

    /// The violation keys (`parameter:code`), as corpus cases list them.
    /// (A closure rather than `\.key`: the key path, into a generic type of another module, was
    /// projected at run time, `swift_getAtKeyPath`, for each violation.)
    public var violationKeys: [String] { violations.map { $0.key } }

    /// The callback for a parameter.
    public func callback(_ parameter: ULCParameter) -> ULCCallback? {
        parameter == .success ? success : error
    }

    /// Whether a callback may be opened: present, free of fatal violations of its own, and not
    /// the value a fragment cut short (the query item that ends where the fragment begins).
    public func isUsable(_ parameter: ULCParameter) -> Bool {
        guard let callback = callback(parameter) else { return false }
        if violations.contains(where: { $0.parameter == parameter && $0.code.isFatal }) { return false }
        if url.fragment != nil, callback.range.upperBound == url.query?.upperBound { return false }
        return true
    }
}

/// One callback parameter's value: raw as in the link, and decoded exactly once (the type
/// x-callback-url callbacks use, named by ULC's parameters).
public typealias ULCCallback = CallbackValue<ULCParameter>
