import ArgumentParser
import ChildProcess
import Conformance
import Foundation
import Reports
import ResultsStore

/// `linkconform`: the conformance suite and harness for app-link callback protocols.
public struct LinkConformCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "linkconform",
        abstract: "Conformance suite for app-link callback protocols (suites: \(SuiteRegistry.all.map(\.name).joined(separator: ", "))).",
        discussion: """
            Typical use, from the repository root:
              linkconform run                       run every suite against the reference, store and report
              linkconform run --adapter-manifest M  run them against your implementation behind an adapter
              linkconform fuzz --adapter-manifest M differential fuzzing of that adapter against the reference
              linkconform check '<link>'            explain one link: what it is and what is wrong with it
              linkconform corpus lint               check the corpus files
              linkconform report --run 3            regenerate the reports of run 3
              linkconform compare                   what changed since the previous run (exit 1 on a regression)
              linkconform findings                  what the fuzzers found (scripts/fuzz.sh TARGET runs one)

            Exit codes: 0 as expected; 1 unexpected failures (a MUST not met, an error); \
            2 the harness could not do its job (bad corpus, a store that cannot be read or written, \
            a folder or file that cannot be written); 64 usage error; 130 `run` or `fuzz` \
            interrupted (Ctrl-C; what ran or was found is stored).
            """,
        version: LinkConformVersion.current,
        subcommands: [RunCommand.self, ReportCommand.self, CompareCommand.self, CheckCommand.self, CorpusCommand.self, AdapterCommand.self,
                      FuzzCommand.self, FindingsCommand.self, AASACommand.self, PruneCommand.self]
    )

    public init() {}

    /// Output cut short (`linkconform run | head -2`) must not end a run before it has stored
    /// its results: a write to the closed pipe fails and is dropped (``Console``).
    ///
    /// Parsed and run here rather than by the library's `main`, for two differences. A usage
    /// error's message quotes what was typed (`--suite`, `--format`, a run number), and it
    /// reaches stderr escaped (``Escaping/terminal(_:multiline:)``), as every other message does.
    /// And a store that cannot be read or written (`StoreError`) or a file or folder that cannot
    /// be written (`OutputError`) ends any command the same way, wherever it happens: one line
    /// naming the file and the problem (SQLite's message, never its statement), and exit 2.
    public static func main() async {
        StandardStreams.ignoreBrokenPipes()
        let code: ExitCode
        do {
            var command = try parseAsRoot()
            if var command = command as? AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
            code = .success
        } catch let error as StoreError {
            Console.error(error.description)
            code = Exit.harness
        } catch let error as OutputError {
            Console.error(error.description)
            code = Exit.harness
        } catch {
            code = exitCode(for: error)
            let message = fullMessage(for: error)
            if !message.isEmpty {
                if code == .success {
                    _ = StandardStreams.write(message + "\n", to: 1)   // --help, --version
                } else {
                    _ = StandardStreams.write(Escaping.terminal(message, multiline: true) + "\n", to: 2)
                }
            }
        }
        Foundation.exit(code.rawValue)
    }
}

/// Exit codes shared by every command.
enum Exit {
    static let ok = ExitCode(0)
    static let failures = ExitCode(1)
    static let harness = ExitCode(2)
    static let usage = ExitCode(64)
    static let interrupted = ExitCode(130)
}
