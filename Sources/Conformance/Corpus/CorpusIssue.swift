import Foundation

/// A problem in a corpus file, located by file, line, column and field.
///
/// Printed as `Corpus/ulc/cases/parse.json:42:7: error: cases[3].operation: unknown operation ...`,
/// a form editors and CI annotations understand.
public struct CorpusIssue: Sendable, Hashable, CustomStringConvertible, Comparable {
    public enum Severity: String, Sendable, Hashable {
        case error, warning
    }

    public let severity: Severity
    /// Path of the file, as given to the loader (relative when the corpus path was relative).
    public let file: String
    public let line: Int
    public let column: Int
    /// The field, as a readable path (`cases[3].input.link`), or empty for the whole file.
    public let field: String
    public let message: String

    public init(_ severity: Severity, file: String, line: Int = 1, column: Int = 1, field: String = "", message: String) {
        self.severity = severity
        self.file = file
        self.line = line
        self.column = column
        self.field = field
        self.message = message
    }

    public var description: String {
        "\(file):\(line):\(column): \(severity.rawValue): " + (field.isEmpty ? "" : "\(field): ") + message
    }

    public static func < (a: CorpusIssue, b: CorpusIssue) -> Bool {
        (a.file, a.line, a.column, a.message) < (b.file, b.line, b.column, b.message)
    }
}

/// Turns a JSON Pointer (`/cases/3/input/link`) into the readable form `cases[3].input.link`.
public func readableField(_ pointer: String) -> String {
    guard !pointer.isEmpty else { return "" }
    var out = ""
    for raw in pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
        let token = raw.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        if let index = Int(token), !token.isEmpty, token.allSatisfy(\.isNumber) {
            out += "[\(index)]"
        } else {
            out += (out.isEmpty ? "" : ".") + token
        }
    }
    return out
}
