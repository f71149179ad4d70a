import AdapterHarness
import ArgumentParser
import Conformance
import Foundation
import RunSession

/// Which implementations a run covers, and how adapters are treated.
struct ImplementationOptions: ParsableArguments {
    @Option(name: .customLong("implementation"),
            help: ArgumentHelp("A built-in implementation by name (repeatable): \(SwiftImplementation.builtIn.keys.sorted().joined(separator: ", ")). Default, when no adapter is given: reference.", valueName: "name"))
    var builtIns: [String] = []

    @Option(name: .customLong("adapter"),
            help: ArgumentHelp("An adapter command (repeatable), split into arguments like a shell would, but run without one: 'python3 my_adapter.py --verbose'.", valueName: "command"))
    var adapterCommands: [String] = []

    @Option(name: .customLong("adapter-manifest"),
            help: ArgumentHelp("An adapter manifest (repeatable): name, command, working directory, environment, expected-failures file. See Adapters/*/adapter.json.", valueName: "file"))
    var manifestPaths: [String] = []

    @OptionGroup var adapter: AdapterOptions

    func validate() throws {
        for name in builtIns where SwiftImplementation.builtIn[name] == nil {
            throw ValidationError("unknown implementation '\(name)'; built-in: \(SwiftImplementation.builtIn.keys.sorted().joined(separator: ", "))")
        }
        try Self.validate(commands: adapterCommands)
    }

    /// Each `--adapter` command names a program and has balanced quotes.
    static func validate(commands: [String]) throws {
        for command in commands {
            do {
                if try CommandLineWords.split(command).isEmpty { throw ValidationError("--adapter needs a command") }
            } catch let error as CommandLineWords.Unbalanced {
                throw ValidationError("--adapter: \(error.description)")
            }
        }
    }

    /// The implementations to run, in order: built-ins, then manifests, then commands. Problems
    /// with manifests and expected-failures files are returned as messages.
    func plans() -> Result<[ImplementationPlan], ManifestError> {
        Self.plans(builtIns: builtIns, manifestPaths: manifestPaths, adapterCommands: adapterCommands, adapter: adapter)
    }

    /// The same for any lists of built-ins, manifests and commands (none at all: the reference).
    static func plans(builtIns: [String], manifestPaths: [String], adapterCommands: [String],
                      adapter: AdapterOptions) -> Result<[ImplementationPlan], ManifestError> {
        var plans: [ImplementationPlan] = []
        var problems: [String] = []
        let names = builtIns.isEmpty && adapterCommands.isEmpty && manifestPaths.isEmpty ? ["reference"] : builtIns
        for name in names { plans.append(ImplementationPlan(implementation: SwiftImplementation.builtIn[name]!)) }
        for path in manifestPaths {
            switch AdapterManifest.load(path) {
            case .failure(let error): problems += error.messages
            case .success(let manifest):
                var expected: ExpectedFailures?
                if let file = manifest.expectedFailuresPath {
                    do {
                        expected = try ExpectedFailures.load(file)
                        problems += expected!.problems
                    } catch {
                        problems.append("\(path): expectedFailures: cannot read \(file): " + (ShownText.fileProblem(file) ?? "not UTF-8 text"))
                    }
                }
                plans.append(ImplementationPlan(implementation: AdapterImplementation(adapter.overridden(manifest.configuration)), expectedFailures: expected,
                                  prepare: manifest.prepare, workingDirectory: manifest.configuration.workingDirectory))
            }
        }
        for command in adapterCommands {
            let words = (try? CommandLineWords.split(command)) ?? []
            plans.append(ImplementationPlan(implementation: AdapterImplementation(adapter.overridden(AdapterConfiguration(arguments: words)))))
        }
        return problems.isEmpty ? .success(plans) : .failure(ManifestError(problems))
    }
}

/// The one adapter `fuzz` compares with the reference: `--adapter` or `--adapter-manifest`,
/// once, and no built-in implementation.
struct FuzzAdapterOptions: ParsableArguments {
    /// Not taken: kept out of the help, and refused with the reason rather than as unknown.
    @Option(name: .customLong("implementation"), help: .hidden)
    var builtIns: [String] = []

    @Option(name: .customLong("adapter"),
            help: ArgumentHelp("The adapter command to fuzz, split into arguments like a shell would, but run without one: 'python3 my_adapter.py --verbose'. Give it or --adapter-manifest, once.", valueName: "command"))
    var adapterCommands: [String] = []

    @Option(name: .customLong("adapter-manifest"),
            help: ArgumentHelp("The manifest of the adapter to fuzz: name, command, working directory, environment. See Adapters/*/adapter.json. Give it or --adapter, once.", valueName: "file"))
    var manifestPaths: [String] = []

    @OptionGroup var adapter: AdapterOptions

    func validate() throws {
        if !builtIns.isEmpty {
            throw ValidationError("fuzz compares an adapter with the built-in reference; --implementation is not taken")
        }
        if adapterCommands.count + manifestPaths.count != 1 {
            throw ValidationError("fuzz takes exactly one --adapter or --adapter-manifest")
        }
        try ImplementationOptions.validate(commands: adapterCommands)
    }

    /// The adapter's plan, or the problems with its manifest.
    func plan() -> Result<ImplementationPlan, ManifestError> {
        ImplementationOptions.plans(builtIns: [], manifestPaths: manifestPaths, adapterCommands: adapterCommands, adapter: adapter).map { $0[0] }
    }
}

/// How adapters are run, for `run` and `fuzz` alike (a manifest may set its own; these override it).
struct AdapterOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Seconds to wait for one answer from an adapter (default 5; a manifest may set its own).", valueName: "seconds"))
    var timeout: Double?

    @Option(help: ArgumentHelp("Seconds to wait for an adapter's answer to the start handshake (default 20; a manifest may set its own).", valueName: "seconds"))
    var startTimeout: Double?

    @Option(help: ArgumentHelp("Requests an adapter may have outstanding at once (default 32).", valueName: "n"))
    var window: Int?

    @Option(help: ArgumentHelp("Restarts after which an adapter is given up and its remaining cases are not run (default 10; `fuzz`, which crashes adapters on purpose: 1000000). A crash found by running the suspects one by one costs two.", valueName: "n"))
    var maxRestarts: Int?

    @Option(help: ArgumentHelp("Longest line accepted from an adapter, in bytes (default 1048576).", valueName: "bytes"))
    var maxLineBytes: Int?

    func validate() throws {
        if let timeout, !(timeout > 0) { throw ValidationError("--timeout must be more than 0 seconds") }
        if let startTimeout, !(startTimeout > 0) { throw ValidationError("--start-timeout must be more than 0 seconds") }
        if let window, window < 1 { throw ValidationError("--window must be at least 1") }
    }

    /// The configuration with the options given on the command line applied.
    func overridden(_ base: AdapterConfiguration) -> AdapterConfiguration {
        var c = base
        if let timeout { c.timeout = .milliseconds(Int(timeout * 1000)) }
        if let startTimeout { c.startTimeout = .milliseconds(Int(startTimeout * 1000)) }
        if let window { c.window = window }
        if let maxRestarts { c.maxRestarts = maxRestarts }
        if let maxLineBytes { c.maxLineBytes = maxLineBytes }
        return c
    }
}
