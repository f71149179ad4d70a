/// One problem found in a JSON document (an association file): its code (tied to a requirement
/// and level), where it is (a JSON Pointer, RFC 6901, and the 1-based line and column of that
/// value in the text; `""` and 1:1 for the whole document) and a message for people. Each
/// document module names its own specialisation (`AASADiagnostic`, `AssetLinksDiagnostic`).
///
/// ```swift
/// let d = AASA.validate(Array(#"{"applinks": []}"#.utf8))[0]
/// d.code       // .applinksNotObject
/// d.pointer    // "/applinks"
/// d.line       // 1
/// d.column     // 14
/// ```
public struct DocumentDiagnostic<Code: RuleCode>: Sendable, Hashable, CustomStringConvertible {
    public let code: Code
    public let pointer: String
    public let line: Int
    public let column: Int
    public let message: String

    public init(_ code: Code, pointer: String, line: Int, column: Int, message: String) {
        self.code = code
        self.pointer = pointer
        self.line = line
        self.column = column
        self.message = message
    }

    public var requirement: String { code.requirement }
    public var level: RuleLevel { code.level }

    /// `line:column REQ-n LEVEL code at pointer: message`.
    public var description: String {
        "\(line):\(column) \(requirement) \(level.rawValue) \(code.rawValue) at \(pointer.isEmpty ? "(file)" : pointer): \(message)"
    }
}
