import AdapterHarness
import ArgumentParser
import Conformance
import DifferentialFuzzing
import Foundation
import Reports
import ResultsStore
import RunSession

/// `linkconform fuzz --adapter CMD`: differential fuzzing of one adapter against the reference.
struct FuzzRunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Differential fuzzing: mutate the corpus inputs, send them to an adapter, keep where it disagrees with the reference.",
        discussion: """
            The default subcommand: `linkconform fuzz --adapter CMD` is `linkconform fuzz run --adapter CMD`.

            Makes inputs by mutating each operation's corpus inputs with mutations that know links \
            (components, query items, single, double and broken percent-encodings, repeated and \
            reordered parameters, nested callbacks, case, Unicode, oversized parts) and JSON files \
            (members dropped, repeated, renamed, retyped; AASA patterns), sends them to the adapter \
            --window at a time with the robustness of `run` (timeouts, crashes, restarts), and \
            judges each answer against the reference's with the operation's own comparison. \
            Disagreements are grouped by signature (operation, the field that differs first or the \
            name of the error an adapter reported, the reference's leading violation code); the \
            first input of a signature the store does not know is minimised through the adapter \
            (delta debugging over its parts and characters, within --minimise-trials candidates \
            and --minimise-bytes of their text) and stored (`linkconform findings` lists them, \
            `linkconform findings promote ID` makes one a corpus case). Crashes, timeouts and \
            protocol errors are findings too. Minimising shares the adapter with the inputs: the \
            progress line says while it runs, and the summary what it sent.

            First, the corpus's own inputs of the fuzzed operations are asked of the adapter and \
            judged the same way (the corpus pass, not counted in --seconds): each signature is then \
            marked with the first corpus case that shows it, an error with a case on which the \
            adapter raises the same one, or as not in the corpus: those are the ones to read \
            first. A signature that names no rule and no reason (`xcallback.parse parameters []`, \
            a crash) may hold several causes, so a case with the same signature is named as \
            such, not as showing it. --no-corpus-pass skips it.

            An operation that crashed or timed out --set-aside-after times (50) gets no more \
            inputs in the run, in the corpus pass as in the fuzzing: its crashes are one \
            signature, each costs a restart or a whole timeout, and an implementation that \
            crashes on half of one operation's inputs would otherwise spend the run restarting. \
            The summary names what was set aside.

            The adapter is restarted as often as it dies (up to a million times) unless \
            --max-restarts says otherwise: fuzzing crashes adapters on purpose. Input i of a run depends only on --seed, i and the \
            corpus (its inputs are the seeds): the same seed replays the same inputs from the same corpus, \
            and other ones once a case is added (a promoted finding, say) or changed.

            Exit codes: 0 no new signature; 1 new signatures stored; 2 the harness could not do its \
            job (the adapter did not start, was given up, the store cannot be read or written, or the report \
            cannot be written); 64 usage; \
            130 interrupted (everything found so far is stored and reported).
            """)

    @OptionGroup var corpusOptions: CorpusOptions

    @OptionGroup var adapterOptions: FuzzAdapterOptions

    @Option(name: .customLong("operation"), help: ArgumentHelp("Only this operation (repeatable). Default: every operation the adapter answers.", valueName: "op"))
    var operations: [String] = []

    @Option(help: ArgumentHelp("How long to fuzz, in seconds.", valueName: "seconds"))
    var seconds: Double = 60

    @Option(help: ArgumentHelp("Stop after the inputs numbered 0 to n-1 (default: no limit). A number is skipped, and not counted among the inputs sent, when eight mutations of a corpus input gave no new input the operation accepts, or when its operation was set aside: the run may send a few fewer than n. The corpus pass is not counted.", valueName: "n"))
    var maxInputs: Int?

    @Option(help: ArgumentHelp("The seed of the inputs (default: one picked at random and printed).", valueName: "n"))
    var seed: UInt64?

    @Option(help: ArgumentHelp("Candidates tried to minimise one finding.", valueName: "n"))
    var minimiseTrials = 2_000

    @Option(help: ArgumentHelp("Bytes of text (UTF-8) the candidates of one finding may carry in all (1048576 is 1 MiB): a large input gets fewer candidates, since each costs the adapter in proportion to its size.", valueName: "n"))
    var minimiseBytes = 1 << 20

    @Flag(help: "Do not run the corpus inputs first (signatures are then not marked as shown by the corpus or not).")
    var noCorpusPass = false

    @Option(help: ArgumentHelp("Crashes and timeouts of one operation after which it gets no more inputs in this run (0: never). Each costs a restart or a whole timeout, and they are one signature per operation.", valueName: "n"))
    var setAsideAfter = 50

    @OptionGroup var output: OutputOptions

    func validate() throws {
        for name in operations where SuiteRegistry.operation(named: name) == nil {
            let known = SuiteRegistry.all.flatMap(\.operations).map(\.name).joined(separator: ", ")
            throw ValidationError("unknown operation '\(name)'; known operations: \(known)")
        }
        if !(seconds > 0) { throw ValidationError("--seconds must be more than 0") }
        if let maxInputs, maxInputs < 1 { throw ValidationError("--max-inputs must be at least 1") }
        if minimiseTrials < 0 { throw ValidationError("--minimise-trials must be 0 or more") }
        if minimiseBytes < 0 { throw ValidationError("--minimise-bytes must be 0 or more") }
        if setAsideAfter < 0 { throw ValidationError("--set-aside-after must be 0 (never) or more") }
    }

    func run() async throws {
        let stop = StopSignal(unit: "input")
        stop.install()
        let corpus = try corpusOptions.loadOrExit()
        var adapterOptions = adapterOptions
        if adapterOptions.adapter.maxRestarts == nil { adapterOptions.adapter.maxRestarts = Self.defaultMaxRestarts }
        let plan: ImplementationPlan
        switch adapterOptions.plan() {
        case .success(let found): plan = found
        case .failure(let error):
            for message in error.messages { Console.error(message) }
            throw Exit.harness
        }
        let store = try output.openStore()
        let (db, reports) = (output.db, output.reports)
        if let command = plan.prepare {
            Console.error("preparing: \(command.joined(separator: " "))")
            if let failure = Preparation.run(command, in: plan.workingDirectory) {
                Console.error("\(plan.implementation.displayName) was not prepared: \(failure)")
                throw Exit.harness
            }
        }
        let implementation = plan.implementation
        let info: ImplementationInfo
        do {
            info = try await implementation.start()
        } catch {
            Console.error("\(implementation.displayName) did not start: \(error.message)")
            throw Exit.harness
        }
        let wanted = operations.isEmpty ? SuiteRegistry.all.flatMap(\.operations).map(\.name) : operations
        let supported = wanted.filter { implementation.supports($0) }
        let seed = seed ?? UInt64.random(in: 1...UInt64(UInt32.max))
        var options = DifferentialFuzzer.Options(seed: seed, seconds: seconds, maxInputs: maxInputs, window: implementation.window)
        options.minimiseTrials = minimiseTrials
        options.minimiseBytes = minimiseBytes
        options.corpusPass = !noCorpusPass
        options.setAsideAfter = setAsideAfter == 0 ? nil : setAsideAfter
        let fuzzer = DifferentialFuzzer(corpus: corpus, operations: supported, implementation: implementation, info: info,
                                        store: store, options: options)
        let name = Escaping.terminal(info.name)
        guard !fuzzer.operations.isEmpty else {
            Console.error("\(name) answers none of the operations asked (\(wanted.joined(separator: ", "))) that have corpus inputs")
            await implementation.stop()
            throw Exit.harness
        }
        // The adapter's name and version on one line each: Console.error keeps line breaks
        // (for stderr tails), and these come from the adapter's handshake.
        Console.error("fuzzing \(name) \(Escaping.terminal(info.version)) against the reference: \(fuzzer.operations.joined(separator: ", ")); "
                      + "seed \(seed), \(seconds.formattedCompactly) s, window \(implementation.window)")
        let progress = Progress(label: "fuzz \(name)", enabled: !output.noProgress)
        let summary: DifferentialFuzzer.Summary
        do {
            summary = try await fuzzer.run(shouldStop: { stop.isSet }) { stats in
                progress.update(status: Self.status(stats), final: false)
            }
        } catch {
            await implementation.stop()
            Console.error("fuzzing stopped: cannot store findings in \(db): \(error)")
            throw Exit.harness
        }
        progress.update(status: Self.status(summary.stats), final: true)
        let notes = implementation.notes
        await implementation.stop()

        let ending = summary.interrupted ? "interrupted" : summary.harnessFailure.map { "the adapter was given up: " + $0 }
            ?? (summary.setAside.count == fuzzer.operations.count ? "every operation was set aside after its crashes and timeouts" : nil)
        printSummary(summary, name: name, ending: ending, notes: notes)
        if !output.noReports {
            let run = FuzzFindingsReport.Run(
                implementation: info.name, version: info.version, seed: seed, operations: fuzzer.operations, seconds: summary.stats.seconds,
                inputs: summary.stats.inputs, disagreements: summary.stats.disagreements,
                signatures: Set(summary.found.map(\.disagreement.signature)),
                newSignatures: Set(summary.found.filter(\.isNew).map(\.disagreement.signature)), ending: ending,
                corpusCases: summary.corpusSignatures.map { _ in summary.stats.corpusCasesDone },
                corpusSignatureCount: summary.corpusSignatures?.count ?? 0, corpusMarks: Self.corpusMarks(summary),
                setAside: summary.setAside.map { Self.setAsideLine($0, after: setAsideAfter) })
            let path = (reports as NSString).appendingPathComponent(FuzzFindingsReport.fileName(implementation: info.name))
            let text = FuzzFindingsReport.markdown(run, findings: try store.differentialFindings(implementation: info.name))
            try OutputError.makeFolder(reports)
            try OutputError.guarding(path, exactly: true) { try Data(text.utf8).write(to: URL(fileURLWithPath: path)) }
            Console.line("findings stored in \(db); report: \(path)")
        }
        if summary.interrupted { throw Exit.interrupted }
        if summary.harnessFailure != nil { throw Exit.harness }
        if summary.stats.newSignatures > 0 { throw Exit.failures }
    }

    /// Restarts before an adapter is given up, unless --max-restarts says otherwise: fuzzing
    /// crashes adapters on purpose (the foundation adapter traps on every invalid scheme it is
    /// asked to build with, 1,000 times in 36 s), and a run should end by its time, not by that.
    static let defaultMaxRestarts = 1_000_000

    static func status(_ stats: DifferentialFuzzer.Stats) -> String {
        if !stats.fuzzing && stats.corpusCases > 0 { return "corpus pass: \(stats.corpusCasesDone) of \(stats.corpusCases) cases" }
        let line = "\(stats.inputs) inputs (\(Int(stats.rate))/s), \(stats.disagreements) disagreements, \(stats.signatures) signatures (\(stats.newSignatures) new)"
        guard stats.minimising + stats.waitingToMinimise > 0 else { return line }
        return line + ", minimising \(stats.minimising)" + (stats.waitingToMinimise > 0 ? " (\(stats.waitingToMinimise) waiting)" : "")
    }

    func printSummary(_ summary: DifferentialFuzzer.Summary, name: String, ending: String?, notes: [String]) {
        let stats = summary.stats
        Console.line("\(name): \(stats.inputs) inputs in \(String(format: "%.1f", stats.seconds)) s (\(Int(stats.rate))/s), "
                     + "\(stats.disagreements) disagreements, \(stats.signatures) signatures, \(stats.newSignatures) new")
        let new = summary.found.filter(\.isNew), minimised = new.filter { $0.minimiseTrials > 0 }
        if !new.isEmpty {
            let trials = minimised.reduce(0) { $0 + $1.minimiseTrials }, bytes = minimised.reduce(0) { $0 + $1.minimiseBytes }
            let text = bytes >= 1_000_000 ? String(format: "%.1f MB", Double(bytes) / 1e6) : "\((bytes + 999) / 1000) KB"
            var line = "minimising: \(minimised.count) of \(new.count) new signatures, \(trials) candidates sent, \(text) of text"
            if minimised.count < new.count {
                line += "; \(new.count - minimised.count) kept as found (a timeout, a budget of 0, or the run ended before their turn)"
            }
            Console.line(line)
        }
        let marks = Self.corpusMarks(summary)
        if let shown = summary.corpusSignatures {
            Console.line(FuzzFindingsReport.corpusPassSummary(cases: stats.corpusCasesDone, signatureCount: shown.count,
                                                              signatures: summary.found.map(\.disagreement.signature), marks: marks))
        }
        for found in summary.found {
            let id = found.findingID.map { "D\($0)" } ?? "known"
            let what = found.isNew ? "new" : "seen before"
            var corpus = ""
            if summary.corpusSignatures != nil {
                switch marks[found.disagreement.signature] {
                case .shown(let id)?: corpus = ", corpus: " + Escaping.terminal(id)
                case .sharesSignature(let id)?:
                    corpus = ", same signature as corpus case " + Escaping.terminal(id) + " (it names no rule: the cause may differ)"
                case .sameError(let error, let id)?: corpus = ", same \(Escaping.terminal(error)) as corpus case " + Escaping.terminal(id)
                case nil: corpus = ", not in the corpus"
                }
            }
            Console.line("  \(id) \(what)\(corpus) x\(found.count): \(Escaping.terminal(found.disagreement.signature))")
            if found.isNew {
                // Only what was minimised is called so: a timeout, a budget of 0 or a run that ended
                // first leaves the input as it was found.
                let label = found.minimiseTrials > 0 ? "minimised" : "input (kept as found)"
                Console.line("      \(label): \(Escaping.terminal(Self.clip(found.minimisedInput.serialized())))")
            }
        }
        for operation in summary.setAside { Console.line(Self.setAsideLine(operation, after: setAsideAfter)) }
        if let ending { Console.line("ended early: \(Escaping.terminal(ending))") }
        if !notes.isEmpty { Console.line("adapter notes: \(notes.count) (restarts and their reasons); the last: \(Escaping.terminal(notes.last!))") }
    }

    /// What the summary and the report say of an operation set aside.
    static func setAsideLine(_ operation: (operation: String, inputs: Int, corpusPass: Bool), after limit: Int) -> String {
        if operation.corpusPass {
            return "\(operation.operation) set aside in the corpus pass after \(limit) crashes and timeouts (\(operation.inputs) of its corpus cases asked): "
                + "no inputs were fuzzed for it (a run of its suite shows its answers case by case); --set-aside-after 0 asks every case and fuzzes it"
        }
        return "\(operation.operation) set aside after \(limit) crashes and timeouts (\(operation.inputs) of its inputs sent): "
            + "no more inputs for it in this run; --set-aside-after 0 keeps fuzzing it"
    }

    /// Each signature of the run that the corpus shows (or only gives, when the signature names no
    /// cause), or whose error a corpus case raises.
    static func corpusMarks(_ summary: DifferentialFuzzer.Summary) -> [String: FuzzFindingsReport.CorpusMark] {
        var marks: [String: FuzzFindingsReport.CorpusMark] = [:]
        for found in summary.found {
            if let id = found.corpusCase {
                marks[found.disagreement.signature] = found.disagreement.signatureNamesACause ? .shown(by: id) : .sharesSignature(by: id)
            } else if let id = found.corpusCaseWithSameError, let error = found.disagreement.errorName {
                marks[found.disagreement.signature] = .sameError(error, by: id)
            }
        }
        return marks
    }

    /// Long text cut for a terminal line.
    static func clip(_ text: String, characters limit: Int = 300) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 3)) + "..."
    }
}
