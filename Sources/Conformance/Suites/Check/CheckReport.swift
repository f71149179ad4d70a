/// Everything `check` found about one subject: each suite's explanation, in registry order, and
/// the overall verdict. The CLI renders it as text and as JSON and takes its exit code from
/// ``verdict``.
///
/// ```swift
/// let report = Check.explain(.link(Array("https://example.com/?a=1".utf8)))
/// report.explanations.isEmpty   // true: no suite reads it
/// report.verdict.recognized     // false
/// ```
public struct CheckReport: Sendable {
    public let subject: CheckSubject
    /// One per suite that answered (recognised the subject, or has something to say about it).
    public let explanations: [CheckExplanation]
    public let verdict: CheckVerdict
}

/// The one dispatch behind `linkconform check`: hands the subject to every suite and validates
/// what a document is asked. No suite is named here.
public enum Check {
    /// Every suite's explanation of `subject`, and the overall verdict.
    ///
    /// ```swift
    /// Check.explain(.link(bytes)).verdict.valid
    /// Check.explain(.document(document), suites: [testSuite])   // a chosen list of suites
    /// ```
    public static func explain(_ subject: CheckSubject, suites: [SuiteDefinition] = SuiteRegistry.all) -> CheckReport {
        let explanations = suites.compactMap { $0.explain(subject) }
        return CheckReport(subject: subject, explanations: explanations,
                           verdict: CheckVerdict(overall: explanations.map(\.verdict), suites: suites))
    }

    /// The document parameters the suites take, by name (the first suite to declare a name
    /// gives its help).
    public static func documentParameters(suites: [SuiteDefinition] = SuiteRegistry.all) -> [DocumentParameter] {
        var seen = Set<String>()
        return suites.flatMap(\.documentParameters).filter { seen.insert($0.name).inserted }
    }

    /// Checks that some suite reads documents and that every parameter is one a suite declares.
    ///
    /// ```swift
    /// try Check.validate(parameters: ["app": "ABCDE12345.com.example"], suites: suites)
    /// ```
    public static func validate(parameters: [String: String], suites: [SuiteDefinition] = SuiteRegistry.all) throws(CheckUsageError) {
        let readers = suites.filter(\.readsDocuments)
        guard !readers.isEmpty else { throw CheckUsageError(code: .noDocumentSuite, message: "no suite reads documents yet") }
        let known = documentParameters(suites: readers)
        for name in parameters.keys.sorted() where !known.contains(where: { $0.name == name }) {
            let list = known.map(\.name).joined(separator: ", ")
            throw CheckUsageError(code: .unknownParameter,
                                  message: "no suite takes the parameter '\(name)'" + (list.isEmpty ? "" : " (known: \(list))"))
        }
    }

    /// `KEY=VALUE` arguments as a dictionary (the value may hold `=`; a key given twice is refused).
    ///
    /// ```swift
    /// try Check.parameters(["app=ABCDE.com.example", "path=/a=b"])   // ["app": "ABCDE.com.example", "path": "/a=b"]
    /// ```
    public static func parameters(_ arguments: [String]) throws(CheckUsageError) -> [String: String] {
        var result: [String: String] = [:]
        for argument in arguments {
            guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex else {
                throw CheckUsageError(code: .malformedParameter, message: "'\(argument)' is not KEY=VALUE")
            }
            let key = String(argument[..<equals])
            guard result[key] == nil else {
                throw CheckUsageError(code: .malformedParameter, message: "the parameter '\(key)' is given twice")
            }
            result[key] = String(argument[argument.index(after: equals)...])
        }
        return result
    }
}

/// Why a `check` request cannot be answered as asked.
public struct CheckUsageError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
        /// `--document` given, but no suite reads documents.
        case noDocumentSuite = "no-document-suite"
        /// A `--with` key no suite declares.
        case unknownParameter = "unknown-parameter"
        /// A `--with` argument without `=`.
        case malformedParameter = "malformed-parameter"
    }

    public let code: Code
    public let message: String

    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
