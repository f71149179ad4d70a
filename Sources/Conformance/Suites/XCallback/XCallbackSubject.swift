import XCallbackURL

/// The x-callback-url operations as a Swift protocol: what a Swift implementation conforms to in
/// order to be run in process against the x-callback-url suite.
///
/// ```swift
/// struct MyReader: XCallbackSubject { ... }
/// let implementation = SwiftImplementation(info: ..., handlers: XCallbackSuite.handlers(for: MyReader()))
/// ```
public protocol XCallbackSubject: Sendable {
    /// Reads a URL as an x-callback-url (`xcallback.parse`).
    func parse(url: String) -> XCallbackParseAnswer
    /// Builds an action URL (`xcallback.build`).
    func build(_ request: XCallbackRequest) -> XCallbackBuildAnswer
    /// The URL the target app opens when the action ends (`xcallback.callback`).
    func callback(url: String, outcome: XCallbackOutcome, allowedSchemes: [String]?) -> XCallbackResponse
}

/// The answer to `xcallback.parse`.
public struct XCallbackParseAnswer: Sendable, Hashable {
    public var kind: XCallbackLink.Kind
    public var scheme: String?
    public var action: String?
    public var source: String?
    /// Callbacks decoded once.
    public var success: String?
    public var error: String?
    public var cancel: String?
    /// Action parameters, decoded, in order (nil when not an x-callback-url).
    public var parameters: [XCallbackItem]?
    /// The action and values as written in the URL, by field name (`action`, `source`, ...).
    public var raw: [String: String]
    /// The violations found, or nil when the implementation does not report violations.
    public var violations: [XCallbackViolation]?

    public init(kind: XCallbackLink.Kind, scheme: String? = nil, action: String? = nil, source: String? = nil,
                success: String? = nil, error: String? = nil, cancel: String? = nil, parameters: [XCallbackItem]? = nil,
                raw: [String: String] = [:], violations: [XCallbackViolation]? = nil) {
        self.kind = kind
        self.scheme = scheme
        self.action = action
        self.source = source
        self.success = success
        self.error = error
        self.cancel = cancel
        self.parameters = parameters
        self.raw = raw
        self.violations = violations
    }
}

/// The answer to `xcallback.build`.
public enum XCallbackBuildAnswer: Sendable, Hashable {
    case url(String)
    /// The input breaks a rule; the violation keys, when the implementation names them.
    case refused([String])
}

/// LinkConform's reference: the `XCallbackURL` module.
public struct ReferenceXCallback: XCallbackSubject {
    public init() {}

    public func parse(url: String) -> XCallbackParseAnswer {
        let link = XCallback.parse(url)
        guard link.kind != .notXCallback else { return XCallbackParseAnswer(kind: .notXCallback, violations: link.violations) }
        guard !link.url.isOverLimit else { return XCallbackParseAnswer(kind: link.kind, violations: link.violations) }
        var raw: [String: String] = [:]
        raw["action"] = link.rawAction
        raw["source"] = link.rawSource
        raw["success"] = link.success?.raw
        raw["error"] = link.error?.raw
        raw["cancel"] = link.cancel?.raw
        return XCallbackParseAnswer(kind: link.kind, scheme: link.scheme, action: link.action, source: link.source,
                                    success: link.success?.decoded, error: link.error?.decoded, cancel: link.cancel?.decoded,
                                    parameters: link.parameters, raw: raw, violations: link.violations)
    }

    public func build(_ request: XCallbackRequest) -> XCallbackBuildAnswer {
        do {
            return .url(try XCallback.build(request))
        } catch {
            return .refused(error.violations.map(\.key))
        }
    }

    public func callback(url: String, outcome: XCallbackOutcome, allowedSchemes: [String]?) -> XCallbackResponse {
        XCallback.response(to: XCallback.parse(url), outcome: outcome, policy: XCallbackPolicy(allowedSchemes: allowedSchemes))
    }
}
