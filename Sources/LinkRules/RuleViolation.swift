/// One way an input breaks a rule: a code tied to a requirement, the parameter concerned when
/// there is one, the byte offset where it shows and a message for people. Each protocol module
/// names its own specialisation (`XCallbackViolation`, `ULCViolation`, `XignViolation`).
///
/// ```swift
/// let v = XCallbackViolation(.callbackPlus, parameter: "x-success", offset: 40, message: "a raw '+'")
/// v.key           // "x-success:callback-plus"
/// v.requirement   // "XCB-D2"
/// v.level         // .should
/// ```
public struct RuleViolation<C: RuleCode, P: Hashable & Sendable & CustomStringConvertible>: Sendable, Hashable, CustomStringConvertible {
    public typealias Code = C
    public typealias Parameter = P

    public let code: Code
    /// The parameter concerned, for parameter codes.
    public let parameter: Parameter?
    /// Byte offset in the input where the problem shows, when there is one place.
    public let offset: Int?
    /// What was found, for people.
    public let message: String

    public init(_ code: Code, parameter: Parameter? = nil, offset: Int? = nil, message: String) {
        self.code = code
        self.parameter = parameter
        self.offset = offset
        self.message = message
    }

    public var requirement: String { code.requirement }
    public var level: RuleLevel { code.level }

    /// `parameter:code`, or `code` for input-level violations: the form corpus cases list.
    public var key: String {
        parameter.map { "\($0):\(code.rawValue)" } ?? code.rawValue
    }

    public var description: String { "\(requirement) \(level.rawValue) \(key): \(message)" }
}
