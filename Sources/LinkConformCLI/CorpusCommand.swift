import ArgumentParser
import Conformance
import Reports

struct CorpusOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The corpus folder.", valueName: "dir"))
    var corpus = "Corpus"

    @Option(name: .customLong("suite"), help: ArgumentHelp("Only this suite (repeatable). Default: every registered suite.", valueName: "name"))
    var suites: [String] = []

    func validate() throws {
        for name in suites where SuiteRegistry.suite(named: name) == nil {
            throw ValidationError("unknown suite '\(name)'; known suites: \(SuiteRegistry.all.map(\.name).joined(separator: ", "))")
        }
    }

    /// Loads the corpus; prints its errors and throws exit code 2 when there are any.
    func loadOrExit(printWarnings: Bool = true) throws -> Corpus {
        let corpus = Corpus.load(from: corpus, suites: suites.isEmpty ? nil : suites)
        if printWarnings { for w in corpus.warnings { Console.error(w.description) } }
        if !corpus.errors.isEmpty {
            for e in corpus.errors { Console.error(e.description) }
            Console.error("the corpus has \(corpus.errors.count) error\(corpus.errors.count == 1 ? "" : "s"); fix \(corpus.errors.count == 1 ? "it" : "them") (linkconform corpus lint) and run again")
            throw Exit.harness
        }
        return corpus
    }
}

struct CorpusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "corpus",
        abstract: "Check the corpus, count what is in it, or print its fingerprint.",
        subcommands: [Lint.self, Stats.self, Fingerprint.self]
    )

    struct Lint: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check every corpus file: schema, ids, requirements, coverage.",
            discussion: """
                Checks that each file is valid JSON of the documented shape (docs/corpus-format.md), \
                that case ids are unique, that every case names a known operation and requirement, \
                that each MUST and SHOULD requirement has a conforming and a violating case, and that \
                the registry agrees with the requirement ids the code reports. Problems are printed as \
                FILE:LINE:COLUMN: error: FIELD: message. Exit 2 when there is any error.
                """)

        @OptionGroup var options: CorpusOptions

        func run() throws {
            let corpus = Corpus.load(from: options.corpus, suites: options.suites.isEmpty ? nil : options.suites)
            // A file name or a value quoted in a message may hold control characters.
            for issue in corpus.issues { Console.line(Escaping.terminal(issue.description)) }
            let requirements = corpus.suites.reduce(0) { $0 + $1.registry.requirements.count }
            Console.line("\(corpus.suites.count) suite\(corpus.suites.count == 1 ? "" : "s"), \(requirements) requirements, \(corpus.caseCount) cases: \(corpus.errors.count) errors, \(corpus.warnings.count) warnings")
            if !corpus.errors.isEmpty { throw Exit.harness }
        }
    }

    struct Fingerprint: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the corpus fingerprint a run of these suites records (and a conformance statement carries).",
            discussion: """
                The SHA-256 over the loaded suites' files, as `run` stores it with each run: it \
                depends on the suites chosen (`--suite`), so compare a statement's `corpus.fingerprint` \
                with this command given the statement's suites, in a checkout of the statement's \
                `linkconform.gitCommit`. Equal fingerprints mean the run read that commit's corpus; a \
                different one means the corpus was changed or other suites were run.
                """)

        @OptionGroup var options: CorpusOptions

        func run() throws {
            Console.line(try options.loadOrExit(printWarnings: false).fingerprint)
        }
    }

    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Count requirements and cases per suite, operation, level, polarity and provenance.")

        @OptionGroup var options: CorpusOptions

        @Flag(help: "Print JSON.")
        var json = false

        func run() throws {
            let corpus = try options.loadOrExit(printWarnings: false)
            let stats = CorpusStats(corpus)
            if json {
                Console.line(stats.json.serialized(pretty: true))
                return
            }
            for s in stats.suites {
                Console.line("\(s.name): \(s.requirements) requirements, \(s.cases) cases")
                Console.line("  requirements by level:  " + format(s.requirementsByLevel) + "  (decided \(s.decided))")
                Console.line("  judged requirements with a conforming and a violating case: \(s.fullyCovered) of \(s.judged)")
                if !s.untestable.isEmpty { Console.line("  untestable: " + s.untestable.joined(separator: ", ")) }
                Console.line("  cases by operation:     " + format(s.casesByOperation))
                Console.line("  cases by level:         " + format(s.casesByLevel))
                Console.line("  cases by polarity:      " + format(s.casesByPolarity))
                Console.line("  cases by provenance:    " + format(s.casesByProvenance))
            }
        }

        func format(_ pairs: [(String, Int)]) -> String {
            pairs.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
        }
    }
}
