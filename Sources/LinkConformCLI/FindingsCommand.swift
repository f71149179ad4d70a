import ArgumentParser
import Conformance
import DifferentialFuzzing
import Foundation
import FuzzTargets
import LinkJSON
import Reports
import ResultsStore

struct FindingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "findings",
        abstract: "List what the fuzzers found, record a finding, mark one fixed, or promote a differential finding to a corpus case.",
        discussion: """
            scripts/fuzz.sh records each crash, leak, timeout, out-of-memory or broken invariant of a \
            fuzz target here, minimised and with a stable signature; a signature seen again counts up. \
            `linkconform findings` lists them (target, kind, first and last seen, count, reproducer). \
            Once fixed, `linkconform findings fix ID` keeps the reproducer as a regression input under \
            Corpus/fuzz/regressions/TARGET/, which `swift test` replays from then on. \
            `linkconform fuzz` stores where an adapter disagrees with the reference as differential \
            findings (ids D1, D2, ...), listed after the libFuzzer ones; `linkconform findings promote \
            DID` makes one a corpus case. Exit 1 when open findings are listed; 2 when the store does not \
            exist (listing, fix and promote make none), cannot be read or written, or a file cannot be written.
            """,
        subcommands: [List.self, Record.self, Fix.self, Promote.self],
        defaultSubcommand: List.self
    )

    struct StoreOption: ParsableArguments {
        @Option(help: ArgumentHelp("The results database (SQLite).", valueName: "path"))
        var db = "Reports/results.sqlite"

        /// The store, made when it does not exist (recording a finding).
        func open() throws -> ResultsStore {
            try ResultsStore(path: db)
        }

        /// The store, which must exist: listing, fixing or promoting what a store that is not
        /// there holds says so (exit 2) and makes no file.
        /// `readOnly` for the listing, which only reads (a store it cannot write is still read).
        func openExisting(readOnly: Bool = false) throws -> ResultsStore {
            try StoreOpening.open(db, readOnly: readOnly, makesOne: "`linkconform fuzz` or scripts/fuzz.sh")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the findings, open ones first.")

        @OptionGroup var store: StoreOption

        @Option(help: ArgumentHelp("Only this fuzz target (libFuzzer findings only).", valueName: "target"))
        var target: String?

        @Option(help: ArgumentHelp("Only the differential findings of this implementation.", valueName: "name"))
        var implementation: String?

        @Flag(help: "Print JSON instead of a table.")
        var json = false

        func run() throws {
            let opened = try store.openExisting(readOnly: true)
            let findings = implementation == nil ? try opened.findings(target: target) : []
            let differential = target == nil ? try opened.differentialFindings(implementation: implementation) : []
            if json {
                let items: [[String: Any]] = findings.map {
                    ["id": $0.id, "target": $0.target, "implementation": $0.implementation, "kind": $0.kind.rawValue,
                     "signature": $0.signature, "message": $0.message, "firstSeen": $0.firstSeen, "lastSeen": $0.lastSeen,
                     "count": $0.count, "status": $0.status.rawValue, "reproducer": $0.reproducerPath, "inputBytes": $0.input.count]
                }
                let differentialItems: [[String: Any]] = differential.map {
                    ["id": "D\($0.id)", "implementation": $0.implementation, "version": $0.implementationVersion, "operation": $0.operation,
                     "kind": $0.kind, "signature": $0.signature, "fields": $0.fields, "referenceCodes": $0.referenceCodes, "message": $0.message,
                     "minimisedInput": $0.minimisedInput, "referenceOutput": $0.referenceOutput, "answer": $0.implementationAnswer,
                     "firstSeen": $0.firstSeen, "lastSeen": $0.lastSeen, "count": $0.count, "status": $0.status.rawValue,
                     "promotedCase": $0.promotedCase ?? NSNull()]
                }
                let data = try JSONSerialization.data(withJSONObject: items + differentialItems, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
                Console.line(JSONSerializer.escapingHidden(String(decoding: data, as: UTF8.self)))
            } else if findings.isEmpty && differential.isEmpty {
                Console.line("no findings" + ((target ?? implementation).map { " for \(Escaping.terminal($0))" } ?? ""))
                // A name that matches nothing may be misspelt: say which names have findings.
                let known = implementation != nil ? Set(try opened.differentialFindings().map(\.implementation))
                    : target != nil ? Set(try opened.findings().map(\.target)) : []
                if !known.isEmpty {
                    Console.error("findings are stored for: " + known.sorted().map { Escaping.terminal($0) }.joined(separator: ", "))
                }
            } else {
                for f in findings {
                    // The target, signature and message come from a report (a crash log): escaped.
                    let t = { (text: String) in Escaping.terminal(text) }
                    Console.line("#\(f.id) \(f.status.rawValue) \(t(f.target)) \(f.kind.rawValue) x\(f.count)  first \(f.firstSeen)  last \(f.lastSeen)")
                    Console.line("    \(t(f.signature))")
                    Console.line("    \(t(f.message))")
                    Console.line("    reproducer: \(t(f.reproducerPath)) (\(f.input.count) bytes)")
                }
                for f in differential {
                    let t = { (text: String) in Escaping.terminal(text) }
                    Console.line("D\(f.id) \(f.status.rawValue) \(t(f.implementation)) \(f.operation) \(f.kind) x\(f.count)  first \(f.firstSeen)  last \(f.lastSeen)")
                    Console.line("    \(t(f.signature))")
                    Console.line("    \(t(FuzzRunCommand.clip(f.message)))")
                    // An input no candidate made smaller (or never minimised) is not called minimised.
                    let label = f.minimisedInput == f.input ? "input (not made smaller)" : "minimised"
                    Console.line("    \(label): \(t(FuzzRunCommand.clip(f.minimisedInput)))")
                    if let promoted = f.promotedCase { Console.line("    promoted to \(promoted)") }
                }
            }
            if findings.contains(where: { $0.status == .open }) || differential.contains(where: { $0.status == .open }) { throw Exit.failures }
        }
    }

    struct Record: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Record a finding from a fuzz target's report (used by scripts/fuzz.sh).",
            discussion: "Reads the report to tell the kind and compute the signature; keeps the reproducer's bytes.")

        @OptionGroup var store: StoreOption

        @Option(help: ArgumentHelp("The fuzz target (one of `linkconform fuzz targets`).", valueName: "target"))
        var target: String

        func validate() throws {
            // The name becomes a folder under Corpus/fuzz/regressions when the finding is fixed.
            guard Findings.isKnownTarget(target) else {
                throw ValidationError("unknown fuzz target '\(Escaping.terminal(target))' (known: \(FuzzTargetTable.all.map(\.name).joined(separator: ", ")))")
            }
        }

        @Option(help: ArgumentHelp("The report the target printed when it ran the reproducer.", valueName: "file"))
        var log: String

        @Option(help: ArgumentHelp("The (minimised) input that reproduces it.", valueName: "file"))
        var input: String

        @Option(help: ArgumentHelp("The implementation fuzzed.", valueName: "name"))
        var implementation = "reference"

        func run() throws {
            guard let logData = FileManager.default.contents(atPath: log) else {
                Console.error("cannot read the report \(Escaping.terminal(log))")
                throw Exit.harness
            }
            guard let inputData = FileManager.default.contents(atPath: input) else {
                Console.error("cannot read the reproducer \(Escaping.terminal(input))")
                throw Exit.harness
            }
            let report = CrashReport.parse(String(decoding: logData, as: UTF8.self))
            let finding = try store.open().recordFinding(target: target, implementation: implementation, kind: report.kind,
                                                         signature: report.signature, message: report.message,
                                                         input: Array(inputData), reproducerPath: input)
            Console.line("finding #\(finding.id) (\(finding.kind.rawValue), seen \(finding.count) time\(finding.count == 1 ? "" : "s")): \(Escaping.terminal(finding.signature))")
        }
    }

    struct Fix: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Mark a finding fixed and keep its reproducer as a regression input.",
            discussion: """
                Writes Corpus/fuzz/regressions/TARGET/finding-<hash> (the first 12 hex digits of the \
                SHA-256 of the finding's signature; replayed by swift test) and marks the finding fixed.

                Exit codes: 0 done; 2 the store cannot be read or written, the file cannot be \
                written, or the finding names no known fuzz target; 64 no finding has that id, or \
                usage.
                """)

        @OptionGroup var store: StoreOption

        @Argument(help: "The finding's id (see `linkconform findings`).")
        var id: Int64

        @Option(help: ArgumentHelp("The corpus folder.", valueName: "dir"))
        var corpus = "Corpus"

        func run() throws {
            let store = try store.openExisting()
            guard let finding = try store.finding(id: id) else {
                Console.error("no finding #\(id); `linkconform findings` lists them")
                throw Exit.usage
            }
            // A store written before targets were checked may hold any name: only a known
            // target's folder is written (a name like ../../x would leave the corpus).
            guard Findings.isKnownTarget(finding.target) else {
                Console.error("finding #\(id) names the fuzz target '\(Escaping.terminal(finding.target))', which is not one of `linkconform fuzz targets`: no regression input written")
                throw Exit.harness
            }
            let folder = "\(corpus)/fuzz/regressions/\(finding.target)"
            try OutputError.makeFolder(folder)
            let name = "finding-" + String(SHA256.hex(Array(finding.signature.utf8)).prefix(12))
            let path = folder + "/" + name
            try OutputError.guarding(path, exactly: true) { try Data(finding.input).write(to: URL(fileURLWithPath: path)) }
            try store.markFindingFixed(id: id)
            Console.line("finding #\(id) marked fixed; its reproducer is now the regression input \(path) (commit it)")
        }
    }

    struct Promote: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a differential finding a corpus case.",
            discussion: """
                Writes a case of the finding's minimised input into the cases file that already holds \
                the most cases of its operation and requirement: the expectation is what the reference \
                answers to that input today, the requirement that of the reference's strictest violation \
                (the others under `also`). When it finds nothing wrong, nothing names the requirement \
                the input shows, and the finding is refused until you name it with --requirement \
                (the refusal lists the operation's requirements); the polarity is then that of every \
                case of the operation and requirement, or --violating or --conforming when they do not \
                agree. The provenance is `regression`, naming the finding. The corpus is linted again, \
                and the file left as it was if the case is not clean. The implementation that disagreed \
                fails the new case, and others may too: run each implementation you test against it, \
                then list it in their expected-failures files or fix them.

                Exit codes: 0 promoted; 2 no case can be made or written (the corpus has it \
                already: a finding promoted twice; the reference does not answer the input; it \
                finds nothing wrong with it and no --requirement was given, or one that cannot be \
                used; it would not be lint-clean), or the store does not exist or cannot be read or \
                written; 64 no differential finding has that id (or the id is not D<number>), or usage.
                """)

        @OptionGroup var store: StoreOption

        @Argument(help: "The differential finding's id: D12 or 12 (see `linkconform findings`).")
        var id: String

        @Option(help: ArgumentHelp("The corpus folder.", valueName: "dir"))
        var corpus = "Corpus"

        @Option(help: ArgumentHelp("The requirement the case judges, for a finding the reference finds nothing wrong with (the reference's violations name it otherwise).", valueName: "id"))
        var requirement: String?

        @Flag(help: "With --requirement: the input breaks it (a violating case).")
        var violating = false

        @Flag(help: "With --requirement: the input meets it (a conforming case).")
        var conforming = false

        func validate() throws {
            if violating && conforming { throw ValidationError("give --violating or --conforming, not both") }
            if (violating || conforming) && requirement == nil { throw ValidationError("--violating and --conforming go with --requirement") }
        }

        func run() async throws {
            guard let number = Int64(id.hasPrefix("D") || id.hasPrefix("d") ? String(id.dropFirst()) : id) else {
                Console.error("'\(id)' is not a finding id; differential findings are D1, D2, ... (`linkconform findings`)")
                throw Exit.usage
            }
            let store = try store.openExisting()
            guard let finding = try store.differentialFinding(id: number) else {
                Console.error("no differential finding D\(number); `linkconform findings` lists them")
                throw Exit.usage
            }
            let loaded = Corpus.load(from: corpus)
            do {
                let polarity: ConformanceCase.Polarity? = violating ? .violating : conforming ? .conforming : nil
                let promotion = try await Promotion.prepare(finding, corpus: loaded, requirement: requirement, polarity: polarity)
                try promotion.write(corpusRoot: corpus)
                try store.markDifferentialFindingPromoted(id: number, caseID: promotion.caseID)
                Console.line("D\(number) promoted to \(promotion.caseID) in \(promotion.file): read it, then commit it")
                Console.line("\(Escaping.terminal(finding.implementation)) fails it: add `\(promotion.caseID)  # <why>` to its expected-failures file, or fix it")
                Console.line("other implementations may fail it too: run each one you test against the case (`linkconform run`) before committing")
            } catch let failure as Promotion.Failure {
                Console.error(failure.description)
                throw Exit.harness
            }
        }
    }
}

/// What the findings commands share.
enum Findings {
    /// Whether `name` is one of the fuzz targets' names (`linkconform fuzz targets`).
    static func isKnownTarget(_ name: String) -> Bool { FuzzTargetTable.all.contains { $0.name == name } }
}
