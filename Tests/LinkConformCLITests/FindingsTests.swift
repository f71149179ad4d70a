import Foundation
import FuzzTargets
import ResultsStore
import Testing
@testable import LinkConformCLI

/// Fuzz findings: reading a target's report, recording, listing, keeping the fix.
struct FindingsTests {
    @Test func anInvariantReportIsSignedByTheInvariant() {
        let log = """
            INFO: Seed: 1
            LinkConform invariant broken (url): diagnostic offsets are inside the input
              offset 9 in 8 bytes
            Fatal error: invariant broken: diagnostic offsets are inside the input
            """
        let report = CrashReport.parse(log)
        #expect(report.kind == .invariant)
        #expect(report.signature == "invariant: diagnostic offsets are inside the input")
    }

    @Test func aSanitizerReportIsSignedByItsKindAndOurFrames() {
        let log = """
            ==4242==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000051 at pc 0x55 bp 0x7f sp 0x7f
            READ of size 1 at 0x602000000051 thread T0
                #0 0x55d2c1 in $ss27_allocateUninitializedArrayySayxGBwlF /swift/stdlib.swift:1
                #1 0x55d2c2 in $s7LinkURL7URLScanV3runyySRys5UInt8VGF /work/main/Sources/LinkURL/URLScanner.swift:120:9
                #2 0x55d2c3 in $s7LinkURL0A3URLV7parsing6limitsACSays5UInt8VG_AA9URLLimitsVtcfC /work/main/Sources/LinkURL/LinkURL.swift:44:5
                #3 0x55d2c4 in LLVMFuzzerTestOneInput
            """
        let a = CrashReport.parse(log)
        #expect(a.kind == .crash)
        #expect(a.signature == "asan heap-buffer-overflow at $s7LinkURL7URLScanV3runyySRys5UInt8VGF <- $s7LinkURL0A3URLV7parsing6limitsACSays5UInt8VG_AA9URLLimitsVtcfC")
        // The same crash at other addresses, from another process, signs the same.
        let b = CrashReport.parse(log.replacingOccurrences(of: "0x55d2c", with: "0x7fab1").replacingOccurrences(of: "4242", with: "99"))
        #expect(a.signature == b.signature)
    }

    /// Frames of every fuzz target's modules identify a finding; frames of other code (the
    /// standard library, a module whose name merely contains one of ours) do not.
    @Test func framesOfEveryFuzzedModuleSignAFinding() {
        #expect(!FuzzTargetTable.modules.isEmpty)
        for module in FuzzTargetTable.modules {
            let symbol = "$s\(module.utf8.count)\(module)4TypeV5checkyyF"
            let log = "==1==ERROR: AddressSanitizer: SEGV\n    #0 0x1 in $sSa9subscriptyxSicig\n    #1 0x2 in \(symbol) x.swift:1"
            #expect(CrashReport.parse(log).signature == "asan SEGV at \(symbol)", "\(module)")
        }
        #expect(CrashReport.parse("==1==ERROR: AddressSanitizer: SEGV\n    #0 0x1 in $s9NotLinkURL4TypeV5checkyyF").signature == "asan SEGV")
    }

    @Test func otherReportsAreToldApart() {
        #expect(CrashReport.parse("Swift/Array.swift:600: Fatal error: Index out of range\n    #0 0x1 in $s7LinkURL8URLScanV4readyF x.swift:1").signature
                == "swift trap: Index out of range at $s7LinkURL8URLScanV4readyF")
        #expect(CrashReport.parse("==1== ERROR: libFuzzer: timeout after 10 seconds").kind == .timeout)
        #expect(CrashReport.parse("==1== ERROR: libFuzzer: out-of-memory (used: 2100Mb; exceeds: 2048Mb)").kind == .oom)
        #expect(CrashReport.parse("==1==ERROR: LeakSanitizer: detected memory leaks").kind == .leak)
        #expect(CrashReport.parse("==1== ERROR: libFuzzer: deadly signal").kind == .crash)
    }

    @Test func findingsAreRecordedCountedListedAndFixed() async throws {
        let dir = CLI.temporaryDirectory()
        let db = dir + "/r.sqlite"
        let log = dir + "/report.txt", input = dir + "/crash-1", input2 = dir + "/crash-2"
        try Data("LinkConform invariant broken (url): a rule\n".utf8).write(to: URL(fileURLWithPath: log))
        try Data("abcdef".utf8).write(to: URL(fileURLWithPath: input))
        try Data("abc".utf8).write(to: URL(fileURLWithPath: input2))
        for file in [input, input2] {
            let recorded = try await CLI.run(["findings", "record", "--db", db, "--target", "url", "--log", log, "--input", file])
            #expect(recorded.status == 0, "\(recorded.output)")
        }
        let list = try await CLI.run(["findings", "--db", db, "--json"])
        #expect(list.status == 1, "open findings fail the listing")
        #expect(list.stdout.contains("\"count\" : 2") && list.stdout.contains("\"inputBytes\" : 3"), "the smaller reproducer is kept: \(list.stdout)")
        try FileManager.default.createDirectory(atPath: dir + "/Corpus", withIntermediateDirectories: true)
        let fix = try await CLI.run(["findings", "fix", "1", "--db", db, "--corpus", dir + "/Corpus"])
        #expect(fix.status == 0, "\(fix.output)")
        let regressions = try FileManager.default.contentsOfDirectory(atPath: dir + "/Corpus/fuzz/regressions/url")
        #expect(regressions.count == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/Corpus/fuzz/regressions/url/" + regressions[0])) == Data("abc".utf8))
        #expect(try await CLI.run(["findings", "--db", db]).status == 0)
    }

    /// The target names a folder under the corpus when the finding is fixed: only the fuzz
    /// targets' own names are taken (`../..` wrote outside the corpus), also from an older
    /// store; and a report's text reaches the terminal escaped.
    @Test func targetsAreCheckedAndReportsEscaped() async throws {
        let dir = CLI.temporaryDirectory()
        let db = dir + "/r.sqlite"
        let log = dir + "/report.txt", input = dir + "/crash"
        try Data("LinkConform invariant broken (url): \u{1B}]0;PWN\u{7}\u{1B}[2J\n".utf8).write(to: URL(fileURLWithPath: log))
        try Data("abc".utf8).write(to: URL(fileURLWithPath: input))
        let outside = try await CLI.run(["findings", "record", "--db", db, "--target", "../../../escaped", "--log", log, "--input", input])
        #expect(outside.status == 64 && outside.stderr.contains("unknown fuzz target"), "\(outside.output)")
        let recorded = try await CLI.run(["findings", "record", "--db", db, "--target", "url", "--log", log, "--input", input])
        #expect(recorded.status == 0 && !recorded.stdout.contains("\u{1B}") && !recorded.stdout.contains("\u{7}"), "\(recorded.output)")
        let list = try await CLI.run(["findings", "--db", db])
        #expect(list.status == 1 && !list.stdout.contains("\u{1B}") && list.stdout.contains("\\x1b]0;PWN"), "\(list.stdout)")
        // A store that holds such a name already (written before the check): fix refuses it.
        let store = try ResultsStore(path: db)
        _ = try store.recordFinding(target: "../../../escaped", implementation: "reference", kind: .crash, signature: "s", message: "m",
                                    input: Array("x".utf8), reproducerPath: input)
        try FileManager.default.createDirectory(atPath: dir + "/c/Corpus", withIntermediateDirectories: true)
        let fix = try await CLI.run(["findings", "fix", "2", "--db", db, "--corpus", dir + "/c/Corpus"])
        #expect(fix.status == 2 && fix.stderr.contains("not one of"), "\(fix.output)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/escaped") && !FileManager.default.fileExists(atPath: dir + "/c/escaped"))
    }
}
