import ArgumentParser
import Conformance
import Foundation
import ResultsStore

struct FindingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "findings",
        abstract: "List what the fuzzers found, record a finding, or mark one fixed.",
        discussion: """
            scripts/fuzz.sh records each crash, leak, timeout, out-of-memory or broken invariant of a \
            fuzz target here, minimised and with a stable signature; a signature seen again counts up. \
            `linkconform findings` lists them (target, kind, first and last seen, count, reproducer). \
            Once fixed, `linkconform findings fix ID` keeps the reproducer as a regression input under \
            Corpus/fuzz/regressions/TARGET/, which `swift test` replays from then on. \
            Exit 1 when open findings are listed.
            """,
        subcommands: [List.self, Record.self, Fix.self],
        defaultSubcommand: List.self
    )

    struct StoreOption: ParsableArguments {
        @Option(help: ArgumentHelp("The results database (SQLite).", valueName: "path"))
        var db = "Reports/results.sqlite"

        func open() throws -> ResultsStore {
            try OutputOptions.openStore(db)
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the findings, open ones first.")

        @OptionGroup var store: StoreOption

        @Option(help: ArgumentHelp("Only this fuzz target.", valueName: "target"))
        var target: String?

        @Flag(help: "Print JSON instead of a table.")
        var json = false

        func run() throws {
            let findings = try store.open().findings(target: target)
            if json {
                let items: [[String: Any]] = findings.map {
                    ["id": $0.id, "target": $0.target, "implementation": $0.implementation, "kind": $0.kind.rawValue,
                     "signature": $0.signature, "message": $0.message, "firstSeen": $0.firstSeen, "lastSeen": $0.lastSeen,
                     "count": $0.count, "status": $0.status.rawValue, "reproducer": $0.reproducerPath, "inputBytes": $0.input.count]
                }
                let data = try JSONSerialization.data(withJSONObject: items, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
                Console.line(String(decoding: data, as: UTF8.self))
            } else if findings.isEmpty {
                Console.line("no findings" + (target.map { " for \($0)" } ?? ""))
            } else {
                for f in findings {
                    Console.line("#\(f.id) \(f.status.rawValue) \(f.target) \(f.kind.rawValue) x\(f.count)  first \(f.firstSeen)  last \(f.lastSeen)")
                    Console.line("    \(f.signature)")
                    Console.line("    \(f.message)")
                    Console.line("    reproducer: \(f.reproducerPath) (\(f.input.count) bytes)")
                }
            }
            if findings.contains(where: { $0.status == .open }) { throw Exit.failures }
        }
    }

    struct Record: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Record a finding from a fuzz target's report (used by scripts/fuzz.sh).",
            discussion: "Reads the report to tell the kind and compute the signature; keeps the reproducer's bytes.")

        @OptionGroup var store: StoreOption

        @Option(help: ArgumentHelp("The fuzz target.", valueName: "target"))
        var target: String

        @Option(help: ArgumentHelp("The report the target printed when it ran the reproducer.", valueName: "file"))
        var log: String

        @Option(help: ArgumentHelp("The (minimised) input that reproduces it.", valueName: "file"))
        var input: String

        @Option(help: ArgumentHelp("The implementation fuzzed (default: reference).", valueName: "name"))
        var implementation = "reference"

        func run() throws {
            guard let logData = FileManager.default.contents(atPath: log) else {
                Console.error("cannot read the report \(log)")
                throw Exit.harness
            }
            guard let inputData = FileManager.default.contents(atPath: input) else {
                Console.error("cannot read the reproducer \(input)")
                throw Exit.harness
            }
            let report = CrashReport.parse(String(decoding: logData, as: UTF8.self))
            let finding = try store.open().recordFinding(target: target, implementation: implementation, kind: report.kind,
                                                         signature: report.signature, message: report.message,
                                                         input: Array(inputData), reproducerPath: input)
            Console.line("finding #\(finding.id) (\(finding.kind.rawValue), seen \(finding.count) time\(finding.count == 1 ? "" : "s")): \(finding.signature)")
        }
    }

    struct Fix: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Mark a finding fixed and keep its reproducer as a regression input.",
            discussion: "Writes Corpus/fuzz/regressions/TARGET/<signature hash> (replayed by swift test) and marks the finding fixed.")

        @OptionGroup var store: StoreOption

        @Argument(help: "The finding's id (see `linkconform findings`).")
        var id: Int64

        @Option(help: ArgumentHelp("The corpus folder.", valueName: "dir"))
        var corpus = "Corpus"

        func run() throws {
            let store = try store.open()
            guard let finding = try store.finding(id: id) else {
                Console.error("no finding #\(id); `linkconform findings` lists them")
                throw Exit.usage
            }
            let folder = "\(corpus)/fuzz/regressions/\(finding.target)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let name = "finding-" + String(SHA256.hex(Array(finding.signature.utf8)).prefix(12))
            let path = folder + "/" + name
            try Data(finding.input).write(to: URL(fileURLWithPath: path))
            try store.markFindingFixed(id: id)
            Console.line("finding #\(id) marked fixed; its reproducer is now the regression input \(path) (commit it)")
        }
    }
}
