import ULC

/// The ULC operations as a Swift protocol: what a Swift implementation conforms to in order to
/// be run in process against the ULC suite.
///
/// ```swift
/// struct MyULC: ULCSubject { ... }
/// let implementation = SwiftImplementation(info: ..., handlers: ULCSuite.handlers(for: MyULC()))
/// ```
public protocol ULCSubject: Sendable {
    /// Reads a link as a ULC (`ulc.parse`).
    func parse(link: String) -> ULCParseAnswer
    /// Builds the link an initiating system sends (`ulc.build`).
    func build(action: String, success: String, error: String) -> ULCBuildAnswer
    /// Runs the receiver through a scenario in virtual time (`ulc.handle`).
    func handle(_ scenario: ULCScenario) async -> ULCScenarioReport
}

/// The answer to `ulc.parse`.
public struct ULCParseAnswer: Sendable, Hashable {
    public var kind: ULCLink.Kind
    public var action: String?
    /// Callbacks decoded once.
    public var success: String?
    public var error: String?
    /// Callbacks as written in the link.
    public var rawSuccess: String?
    public var rawError: String?
    /// The violations found, or nil when the implementation does not report violations.
    public var violations: [ULCViolation]?

    public init(kind: ULCLink.Kind, action: String? = nil, success: String? = nil, error: String? = nil,
                rawSuccess: String? = nil, rawError: String? = nil, violations: [ULCViolation]? = nil) {
        self.kind = kind
        self.action = action
        self.success = success
        self.error = error
        self.rawSuccess = rawSuccess
        self.rawError = rawError
        self.violations = violations
    }
}

/// The answer to `ulc.build`.
public enum ULCBuildAnswer: Sendable, Hashable {
    case link(String)
    /// The input breaks a rule; the violation keys, when the implementation names them.
    case refused([String])
}

/// LinkConform's reference: the `ULC` module.
public struct ReferenceULC: ULCSubject {
    public init() {}

    public func parse(link: String) -> ULCParseAnswer {
        let parsed = ULC.parse(link)
        return ULCParseAnswer(kind: parsed.kind, action: parsed.action,
                              success: parsed.success?.decoded, error: parsed.error?.decoded,
                              rawSuccess: parsed.success?.raw, rawError: parsed.error?.raw,
                              violations: parsed.violations)
    }

    public func build(action: String, success: String, error: String) -> ULCBuildAnswer {
        do {
            return .link(try ULC.build(action: action, success: success, error: error))
        } catch {
            return .refused(error.violations.map(\.key))
        }
    }

    public func handle(_ scenario: ULCScenario) async -> ULCScenarioReport {
        await ULCSimulation.run(scenario)
    }
}
