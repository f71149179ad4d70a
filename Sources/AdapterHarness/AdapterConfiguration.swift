import Conformance
/// How to launch and treat one adapter.
public struct AdapterConfiguration: Sendable, Hashable {
    /// A name for reports until the adapter says its own (the manifest's name, or the program).
    public var name: String
    /// The command, split into arguments; the first is looked up in PATH.
    public var arguments: [String]
    public var workingDirectory: String?
    /// Added to the harness's environment.
    public var environment: [String: String]
    /// Longest wait for one answer.
    public var timeout: Duration
    /// Longest wait for the answer to `start`.
    public var startTimeout: Duration
    /// Requests outstanding at once.
    public var window: Int
    /// Restarts (after a crash, a hang or a garbled answer) before the adapter is given up.
    public var maxRestarts: Int
    /// Longest line accepted from the adapter.
    public var maxLineBytes: Int
    /// How much of the adapter's stderr is kept for messages.
    public var stderrTailBytes: Int

    public init(name: String? = nil, arguments: [String], workingDirectory: String? = nil, environment: [String: String] = [:],
                timeout: Duration = .seconds(5), startTimeout: Duration = .seconds(20), window: Int = 32,
                maxRestarts: Int = 10, maxLineBytes: Int = 1 << 20, stderrTailBytes: Int = 2_048) {
        self.name = name ?? arguments.first.map { ($0 as String).split(separator: "/").last.map(String.init) ?? $0 } ?? "adapter"
        self.arguments = arguments
        self.workingDirectory = workingDirectory
        self.environment = environment
        self.timeout = timeout
        self.startTimeout = startTimeout
        self.window = max(1, window)
        self.maxRestarts = max(0, maxRestarts)
        self.maxLineBytes = max(64, maxLineBytes)
        self.stderrTailBytes = stderrTailBytes
    }
}
