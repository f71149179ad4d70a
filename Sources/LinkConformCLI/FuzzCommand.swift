import ArgumentParser
import Conformance
import Foundation
import FuzzTargets
import LinkJSON

struct FuzzCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fuzz",
        abstract: "Differential fuzzing of an adapter against the reference; list the libFuzzer targets, seed them from the corpus.",
        discussion: """
            `linkconform fuzz --adapter CMD` (the default subcommand, `run`) fuzzes an implementation \
            through its adapter against the reference (docs/fuzzing.md). \
            The libFuzzer targets themselves are run by scripts/fuzz.sh TARGET [SECONDS] (libFuzzer); their \
            findings are listed by `linkconform findings`. `linkconform fuzz targets` prints the table \
            of targets the scripts read.
            """,
        subcommands: [FuzzRunCommand.self, Targets.self, Seeds.self],
        defaultSubcommand: FuzzRunCommand.self
    )

    struct Seeds: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write every corpus input of each fuzz target's parser as a seed file.",
            discussion: """
                Writes Corpus/fuzz/TARGET/case-<hash> for every input of every case whose operation the \
                target's parser reads (the ULC links for ulc, every link for url, ...), named by the \
                SHA-256 of their bytes so that running it again changes nothing. Inputs over --max-bytes \
                are left out (they only slow the fuzzer down; the corpus keeps them), and so is a new \
                input whose check takes over --max-check-ms here: the AASA compile-budget cases take \
                about half a second in a release build and 8 to 17 s under AddressSanitizer, past \
                libFuzzer's 10 s timeout, which ended the aasa target's run while it read its seeds. \
                Hand-picked seeds (other names) are left alone.
                """)

        @OptionGroup var options: CorpusOptions

        @Option(help: ArgumentHelp("Where the seed folders are.", valueName: "dir"))
        var out = "Corpus/fuzz"

        @Option(help: ArgumentHelp("Longest input written as a seed, in bytes.", valueName: "bytes"))
        var maxBytes = 4_096

        @Option(help: ArgumentHelp("Slowest check of a new seed, in milliseconds (measured in this build).", valueName: "ms"))
        var maxCheckMs = 250

        func run() throws {
            let corpus = try options.loadOrExit(printWarnings: false)
            let cases = corpus.suites.flatMap(\.cases)
            for entry in FuzzTargetTable.all.sorted(by: { $0.name < $1.name }) {
                let target = entry.name
                var seeds: Set<[UInt8]> = []
                for c in cases {
                    for source in entry.seeds where source.operation == c.operation {
                        for text in source.seeds({ strings(c.input[$0]) }) where !text.isEmpty && text.utf8.count <= maxBytes {
                            seeds.insert(Array(text.utf8))
                        }
                    }
                }
                let folder = "\(out)/\(target)"
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                let existing = Set((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
                var written = 0, slow = 0
                var names: Set<String> = []
                for seed in seeds {
                    let name = "case-" + String(SHA256.hex(seed).prefix(16))
                    names.insert(name)
                    if existing.contains(name) { continue }
                    let started = ContinuousClock.now
                    _ = entry.target.check(seed)
                    if started.duration(to: .now) > .milliseconds(maxCheckMs) {
                        slow += 1
                        continue
                    }
                    try Data(seed).write(to: URL(fileURLWithPath: folder + "/" + name))
                    written += 1
                }
                let stale = existing.filter { $0.hasPrefix("case-") && !names.contains($0) }
                Console.line("\(target): \(seeds.count - slow) seeds from the corpus (\(written) new)"
                             + (slow == 0 ? "" : ", \(slow) left out as slow (a check over \(maxCheckMs) ms)")
                             + (stale.isEmpty ? "" : ", \(stale.count) no longer in the corpus (left in place)"))
            }
        }

        func strings(_ value: JSONValue?) -> [String] {
            if let s = value?.stringValue { return [s] }
            return value?.arrayValue?.compactMap(\.stringValue) ?? []
        }
    }

    struct Targets: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the fuzz targets: name, dictionary, seed folder, executable source, seeding operations.",
            discussion: """
                One target a line, tab-separated: NAME, DICTIONARY, SEED FOLDER, EXECUTABLE SOURCE, and the \
                operations whose corpus inputs seed it (comma-separated). --names prints only the names: \
                scripts/fuzz.sh and .clusterfuzzlite/build.sh read their list of targets from it.
                """)

        @Flag(help: "Only the names, one a line.")
        var names = false

        func run() {
            for entry in FuzzTargetTable.all {
                if names {
                    Console.line(entry.name)
                } else {
                    let operations = entry.seeds.map(\.operation)
                    Console.line([entry.name, entry.dictionary, entry.seedFolder, entry.executableSource,
                                  operations.joined(separator: ",")].joined(separator: "\t"))
                }
            }
        }
    }
}
