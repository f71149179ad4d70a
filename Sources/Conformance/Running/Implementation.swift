import LinkJSON

/// Who an implementation is: what reports show in their columns.
public struct ImplementationInfo: Sendable, Hashable {
    public var name: String
    public var version: String
    public var language: String
    public var homepage: String

    public init(name: String, version: String, language: String, homepage: String) {
        self.name = name
        self.version = version
        self.language = language
        self.homepage = homepage
    }
}

/// One operation to run for one case.
public struct Request: Sendable {
    public let caseID: String
    public let operation: String
    public let input: JSONValue

    public init(caseID: String, operation: String, input: JSONValue) {
        self.caseID = caseID
        self.operation = operation
        self.input = input
    }
}

/// What an implementation answered.
public enum Answer: Sendable, Hashable {
    case output(JSONValue)
    case skipped(reason: String)
    case errored(message: String)
}

/// Anything the runner can run cases against: an in-process Swift implementation or (later)
/// an adapter process speaking the adapter protocol.
public protocol Implementation: Sendable {
    var info: ImplementationInfo { get }
    /// Whether the implementation answers this operation at all.
    func supports(_ operation: String) -> Bool
    func run(_ request: Request) async -> Answer
}

/// An implementation made of Swift closures, one per operation, run in this process.
///
/// ```swift
/// let mine = SwiftImplementation(info: ImplementationInfo(name: "MyULC", version: "1.0",
///                                language: "Swift", homepage: "https://example.com"),
///                                handlers: ULCSuite.handlers(for: MyULC()))
/// ```
public struct SwiftImplementation: Implementation {
    public let info: ImplementationInfo
    let handlers: [String: SuiteDefinition.Handler]

    public init(info: ImplementationInfo, handlers: [String: SuiteDefinition.Handler]) {
        self.info = info
        self.handlers = handlers
    }

    public func supports(_ operation: String) -> Bool { handlers[operation] != nil }

    public func run(_ request: Request) async -> Answer {
        guard let handler = handlers[request.operation] else {
            return .skipped(reason: "operation \(request.operation) is not implemented")
        }
        do {
            return .output(try await handler(request.input))
        } catch {
            return .errored(message: "\(error)")
        }
    }

    /// LinkConform's own reference implementation of every registered suite.
    public static let reference = SwiftImplementation(
        info: ImplementationInfo(name: "reference", version: LinkConformVersion.current, language: "Swift",
                                 homepage: "https://github.com/linkconform/linkconform"),
        handlers: SuiteRegistry.all.reduce(into: [:]) { all, suite in all.merge(suite.reference) { a, _ in a } })
}

/// The version of LinkConform (tool, reference implementation and report format).
public enum LinkConformVersion {
    public static let current = "0.1.0"
}
