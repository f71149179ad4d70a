/// One way an input breaks a rule: a code tied to a requirement, the parameter concerned when
/// there is one, the byte offset where it shows and a message for people. Each protocol module
/// names its own specialisation (`XCallbackViolation`, `ULCViolation`, `XignViolation`).
///
/// The message is written when it is read, not when the violation is found: a parse reports
/// every violation, and most readers of a hostile input (a fuzz target, an app that only asks
/// whether a link is usable) read codes and offsets, never the text. Written eagerly, the
/// messages were a fifth of the ULC fuzz target's time. What a message says is fixed when the
/// violation is made (the text is built from values captured then, never from state that
/// changes later), so reading it twice gives the same text.
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
    private let writeMessage: @Sendable () -> String

    /// What was found, for people (written on each read).
    public var message: String { writeMessage() }

    public init(_ code: Code, parameter: Parameter? = nil, offset: Int? = nil, message: @autoclosure @escaping @Sendable () -> String) {
        self.code = code
        self.parameter = parameter
        self.offset = offset
        self.writeMessage = message
    }

    public var requirement: String { code.requirement }
    public var level: RuleLevel { code.level }

    /// `parameter:code`, or `code` for input-level violations: the form corpus cases list.
    public var key: String {
        parameter.map { "\($0):\(code.rawValue)" } ?? code.rawValue
    }

    public var description: String { "\(requirement) \(level.rawValue) \(key): \(message)" }

    /// Equal when code, parameter, offset and message are (the messages are written to compare).
    public static func == (a: Self, b: Self) -> Bool {
        a.code == b.code && a.parameter == b.parameter && a.offset == b.offset && a.message == b.message
    }

    /// Code, parameter and offset (equal violations have equal messages too, so leaving the
    /// message out keeps equal values hashing alike, without writing it).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(parameter)
        hasher.combine(offset)
    }
}
