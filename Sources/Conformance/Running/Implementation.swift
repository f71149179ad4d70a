import Foundation
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
    /// The input's JSON text, when the caller already has it (adapters send it as it is).
    public let encodedInput: [UInt8]?
    /// Asked before the request is sent to an adapter again, alone, after a crash or a timeout
    /// it shared with other requests: true when the caller no longer needs the answer (a
    /// fuzzer that has set the operation aside). The request then ends at once as
    /// `notRun(reason: Request.withdrawnReason)`, and the adapter is not restarted for it.
    public var withdrawn: (@Sendable () -> Bool)?

    /// Why a withdrawn request was not run.
    public static let withdrawnReason = "withdrawn by the caller before it was sent again alone"

    public init(caseID: String, operation: String, input: JSONValue, encodedInput: [UInt8]? = nil,
                withdrawn: (@Sendable () -> Bool)? = nil) {
        self.caseID = caseID
        self.operation = operation
        self.input = input
        self.encodedInput = encodedInput
        self.withdrawn = withdrawn
    }
}

/// What an implementation answered, or what became of the request.
public enum Answer: Sendable, Hashable {
    case output(JSONValue)
    /// The implementation chose not to run the case.
    case skipped(reason: String)
    /// The implementation reported an error instead of an output.
    case errored(message: String, detail: JSONValue? = nil)
    /// The implementation's process died while the case was running.
    case crashed(message: String)
    /// No answer within the per-request timeout.
    case timedOut(message: String)
    /// The answer broke the adapter protocol.
    case protocolError(message: String)
    /// The case never reached the implementation (it was given up, or never started).
    case notRun(reason: String)
}

/// Why an implementation could not be started at all.
public struct ImplementationError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// How an implementation ended its part of a run (what reports show beside its name).
public enum ImplementationStatus: String, Sendable, Hashable, CaseIterable {
    /// It ran every case it was given.
    case ok
    /// It never answered the handshake (or its prepare step failed): its cases are `notRun`.
    case failedToStart = "failed-to-start"
    /// It was given up after too many restarts: the cases after that are `notRun`.
    case gaveUp = "gave-up"
}

/// Anything the runner can run cases against: an in-process Swift implementation or an adapter
/// process speaking the adapter protocol (``AdapterImplementation``).
public protocol Implementation: Sendable {
    /// A name to show before the implementation has said who it is (adapters: the manifest's name
    /// or the command).
    var displayName: String { get }
    /// Starts the implementation (an adapter: launch it and shake hands) and says who it is.
    func start() async throws(ImplementationError) -> ImplementationInfo
    /// Whether the implementation answers this operation at all (asked after ``start()``).
    func supports(_ operation: String) -> Bool
    func run(_ request: Request) async -> Answer
    /// Runs `request` and hands its answer to `completion`, on whatever thread has it, never
    /// before this returns. What a pipelining runner calls: an adapter answers on the thread
    /// that read the answer, without a task and a suspension per request. `completion` must be
    /// short and must not block (it may send the next request). The default runs ``run(_:)`` in
    /// a task.
    func run(_ request: Request, then completion: @escaping @Sendable (Answer) -> Void)
    /// How many requests may be outstanding at once (1: one after another).
    var window: Int { get }
    /// How many cases may run at the same time in this process (in-process implementations are
    /// thread-safe: `Sendable`); 1 for adapters, whose concurrency is their ``window``.
    var parallelism: Int { get }
    /// What happened to the implementation as a whole (restarts, giving up), for the reports.
    var notes: [String] { get }
    /// How it ended (asked after the run): `ok`, or `gaveUp` for an adapter that kept dying.
    var status: ImplementationStatus { get }
    /// Later verdicts on cases already answered (an adapter that answered a case twice).
    func takeAmendments() -> [Amendment]
    /// Stops for good: what is outstanding, and anything asked after, is answered `notRun`
    /// without waiting for it (an adapter's requests do not wait for their timeouts).
    func stop() async
}

extension Implementation {
    public func run(_ request: Request, then completion: @escaping @Sendable (Answer) -> Void) {
        Task { completion(await run(request)) }
    }
    public func takeAmendments() -> [Amendment] { [] }
    public var parallelism: Int { 1 }
    public var status: ImplementationStatus { .ok }
}

/// A later verdict on a case already answered.
public struct Amendment: Sendable {
    public let caseID: String
    public let answer: Answer

    public init(caseID: String, answer: Answer) {
        self.caseID = caseID
        self.answer = answer
    }
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
    /// The handlers by operation name. A handful: a linear search beats hashing the name for
    /// every case.
    let handlers: [(operation: String, handler: SuiteDefinition.Handler)]

    public init(info: ImplementationInfo, handlers: [String: SuiteDefinition.Handler]) {
        self.info = info
        self.handlers = handlers.sorted { $0.key < $1.key }.map { (operation: $0.key, handler: $0.value) }
    }

    func handler(for operation: String) -> SuiteDefinition.Handler? {
        for entry in handlers where entry.operation == operation { return entry.handler }
        return nil
    }

    public var displayName: String { info.name }
    public var window: Int { 1 }
    public var parallelism: Int { ProcessInfo.processInfo.activeProcessorCount }
    public var notes: [String] { [] }
    public func start() async throws(ImplementationError) -> ImplementationInfo { info }
    public func stop() async {}

    public func supports(_ operation: String) -> Bool { handler(for: operation) != nil }

    public func run(_ request: Request) async -> Answer {
        guard let handler = handler(for: request.operation) else {
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

    /// The built-in implementations, by the name `--implementation` takes.
    public static let builtIn: [String: SwiftImplementation] = ["reference": reference]
}

/// The version of LinkConform (tool, reference implementation and report format).
public enum LinkConformVersion {
    public static let current = "0.1.0"
}
