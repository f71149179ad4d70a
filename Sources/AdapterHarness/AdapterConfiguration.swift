import Conformance
/// How to launch and treat one adapter.
public struct AdapterConfiguration: Sendable, Hashable {
    /// A name for reports until the adapter says its own (the manifest's name, or the program).
    public var name: String
    /// Whether ``name`` was given (a manifest's) rather than made from the command: a given name
    /// other than the one the adapter answers `start` with is noted, since everything is stored
    /// under the latter.
    public var nameIsGiven: Bool
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
        self.name = name ?? Self.defaultName(arguments)
        nameIsGiven = name != nil
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

    /// Programs that run a script named after them: the script names the adapter.
    static let interpreters: Set<String> = ["python", "python3", "node", "ruby", "perl", "php", "bash", "sh", "deno", "bun",
                                            "java", "dotnet", "swift", "env", "uv", "npx"]

    /// A name for an adapter known only by its command: the program's file name, or for an
    /// interpreter (`python3 my_adapter.py`) the script's, so that two adapters in one run are
    /// told apart by what they are.
    ///
    /// ```swift
    /// AdapterConfiguration.defaultName(["python3", "-u", "adapters/my_adapter.py"])   // "my_adapter.py"
    /// AdapterConfiguration.defaultName([".build/release/foundation-adapter"])           // "foundation-adapter"
    /// ```
    static func defaultName(_ arguments: [String]) -> String {
        func file(_ path: String) -> String { path.split(separator: "/").last.map(String.init) ?? path }
        guard let program = arguments.first, !program.isEmpty else { return "adapter" }
        var name = file(program)
        let bare = name.split(separator: ".").first.map(String.init) ?? name
        if Self.interpreters.contains(bare) || Self.interpreters.contains(String(bare.prefix { !$0.isNumber && $0 != "." })),
           let script = arguments.dropFirst().first(where: { !$0.hasPrefix("-") && !$0.isEmpty }) {
            name = file(script)
        }
        return name
    }
}
