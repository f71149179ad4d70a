import ArgumentParser
import Conformance
import Foundation
import LinkJSON
import Reports
import ResultsStore

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the suites against the implementations, store the results, print and write reports.",
        discussion: """
            Runs every case of the selected suites (default: all) against the built-in reference \
            implementation, shows progress on stderr, stores the run in the results database, \
            prints a summary per suite and writes summary.md, results.json and junit.xml.

            The summary counts outcomes: pass; fail (a MUST not met); nonStrict (a SHOULD not met); \
            informational (the source is silent: recorded, not judged); skipped; errored. It also says \
            how many passes an implementation that does nothing would have earned.

            Exit codes: 0 no failure; 1 a fail or an error (with --strict, a nonStrict too); 2 the \
            harness could not run (corpus errors, unwritable database); 64 usage; 130 interrupted.
            """)

    @OptionGroup var corpusOptions: CorpusOptions

    @Option(help: ArgumentHelp("The results database (SQLite).", valueName: "path"))
    var db = "Reports/results.sqlite"

    @Option(help: ArgumentHelp("Folder for summary.md, results.json and junit.xml.", valueName: "dir"))
    var reports = "Reports"

    @Flag(help: "Do not write report files (the run is still stored).")
    var noReports = false

    @Flag(help: "Count nonStrict (a SHOULD not met) as a failure for the exit code.")
    var strict = false

    @Flag(help: "No progress indicator.")
    var noProgress = false

    func run() async throws {
        // First, so that an interrupt during loading still ends as a recorded interrupted run.
        let stop = StopSignal()
        stop.install()
        let store: ResultsStore
        do {
            store = try ResultsStore(path: db)
        } catch {
            Console.error(error.description)
            throw Exit.harness
        }
        let corpus = try corpusOptions.loadOrExit()

        let options: JSONValue = [
            "suites": .array(corpus.suites.map { .string($0.name) }),
            "corpus": .string(corpusOptions.corpus),
            "strict": .bool(strict),
        ]
        let runID: Int64
        do {
            runID = try store.beginRun(RunStart(corpusFingerprint: corpus.fingerprint, gitCommit: GitInfo.commit(),
                                                toolVersion: LinkConformVersion.current, options: options))
            try store.recordRequirements(run: runID, corpus: corpus)
        } catch {
            Console.error("cannot record the run in \(db): \(error)")
            throw Exit.harness
        }

        let implementations: [any Implementation] = [SwiftImplementation.reference]
        let runner = Runner(corpus: corpus)
        var status = RunStatus.completed
        do {
            for implementation in implementations {
                let implementationID = try store.register(implementation.info, run: runID)
                let progress = Progress(label: implementation.info.name, enabled: !noProgress)
                try await runner.run(implementation, progress: progress.update, shouldStop: { stop.isSet }) { batch in
                    try store.insert(batch, run: runID, implementation: implementationID)
                }
                if stop.isSet { status = .interrupted; break }
            }
        } catch {
            Console.error("the run failed: \(error)")
            try? store.finishRun(runID, status: .failed)
            throw Exit.harness
        }
        try store.finishRun(runID, status: status)

        guard let data = try ReportData.load(from: store, run: runID) else { throw Exit.harness }
        Console.out(TerminalSummary.render(data))
        if !noReports {
            do {
                let paths = try ReportWriter.write(data, to: reports)
                Console.line("stored as run \(runID) in \(db); reports: " + paths.joined(separator: ", "))
            } catch {
                Console.error("cannot write reports to \(reports): \(error.localizedDescription)")
                throw Exit.harness
            }
        } else {
            Console.line("stored as run \(runID) in \(db)")
        }
        if status == .interrupted { throw Exit.interrupted }
        if data.hasFailures(strict: strict) { throw Exit.failures }
    }
}

/// The commit of the working tree the tool runs in, if it is a git checkout.
enum GitInfo {
    static func commit() -> String? {
        guard let head = git(["rev-parse", "HEAD"]), !head.isEmpty else { return nil }
        let dirty = !(git(["status", "--porcelain", "--untracked-files=no"]) ?? "").isEmpty
        return head + (dirty ? "+dirty" : "")
    }

    static func git(_ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
