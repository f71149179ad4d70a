import Conformance
import Foundation
import LinkJSON
import Testing
@testable import ResultsStore
import TestScratch

/// Every text the store keeps comes back exactly as it was given, whatever is in it: U+0000
/// (which a C string would end at), ESC, CR, U+FFFD and C1 controls, emoji.
struct TextRoundTripTests {
    /// A text with something hostile around a NUL, different for every field so that a
    /// column read into the wrong field shows.
    static func hostile(_ field: String) -> String {
        "\(field)\u{0}after the NUL \u{1B}[31mred\u{1B}[0m\r\nline two \u{FFFD}\u{80}\u{7F} 🏳️‍🌈 end"
    }

    /// The repository's corpus, copied with its first ULC requirement's title made hostile. Lint
    /// refuses such a title (the one error), but the registry is still read with it: the store
    /// must keep it exactly all the same, should a corpus reach it unlinted.
    static func corpusWithHostileTitle() throws -> (Corpus, title: String) {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let root = TestScratch.path("text-corpus", "Corpus")
        try FileManager.default.copyItem(atPath: repository.appendingPathComponent("Corpus").path, toPath: root)
        let file = root + "/ulc/requirements.json"
        let document = try JSONParser.parse(String(contentsOfFile: file, encoding: .utf8))
        var top = try #require(document.objectValue)
        var requirements = try #require(top["requirements"]?.arrayValue)
        var first = try #require(requirements[0].objectValue)
        let title = hostile("title")
        first["title"] = .string(title)
        requirements[0] = .object(first)
        top["requirements"] = .array(requirements)
        try JSONValue.object(top).serialized(pretty: true).write(toFile: file, atomically: true, encoding: .utf8)
        let corpus = Corpus.load(from: root)
        try #require(corpus.errors.count == 1 && corpus.errors[0].field == "requirements[0].title"
                     && corpus.errors[0].message.contains("hidden character"), "\(corpus.errors)")
        try #require(corpus.suites.first { $0.name == "ulc" }?.registry.requirements.first?.title == title)
        return (corpus, title)
    }

    @Test func everyFieldOfARunRoundTrips() throws {
        let store = try ResultsStore(path: ResultsStoreTests.temporaryPath())
        let (corpus, title) = try Self.corpusWithHostileTitle()
        let start = RunStart(corpusFingerprint: corpus.fingerprint, gitCommit: Self.hostile("commit"),
                             toolVersion: Self.hostile("tool"), options: ["note": .string(Self.hostile("option"))])
        let run = try store.beginRun(start)
        try store.recordRequirements(run: run, corpus: corpus)
        let info = ImplementationInfo(name: Self.hostile("name"), version: Self.hostile("version"),
                                      language: Self.hostile("language"), homepage: Self.hostile("homepage"))
        let id = try store.register(info, run: run)
        #expect(try store.register(info, run: run) == id, "the same hostile implementation is found again")
        let other = ImplementationInfo(name: Self.hostile("name") + "2", version: info.version, language: info.language,
                                       homepage: info.homepage)
        #expect(try store.register(other, run: run) != id, "texts that differ only after a NUL stay apart")

        let result = CaseResult(suite: "ulc", caseID: Self.hostile("case"), operation: "ulc.parse", requirement: "ULC-1",
                                level: .must, outcome: .skipped, nullWouldPass: false,
                                actual: ["text": .string(Self.hostile("actual"))], expected: ["kind": "ulc"],
                                message: Self.hostile("skip reason"), durationNanos: 3)
        let large = CaseResult(suite: "ulc", caseID: "large", operation: "ulc.parse", requirement: "ULC-1", level: .must,
                               outcome: .errored, nullWouldPass: false,
                               actual: .string(String(repeating: Self.hostile("big"), count: 100)), expected: ["kind": "ulc"],
                               message: Self.hostile("error message"), durationNanos: 4)
        try store.insert([result], run: run, implementation: id)
        let writer = ResultWriter(store: store, run: run, implementation: id)
        try writer.append([large])
        try writer.finish()
        try store.setImplementationStatus(run: run, implementation: id, status: .gaveUp,
                                          notes: [Self.hostile("note one"), Self.hostile("note two")],
                                          expectedFailures: Self.hostile("expected-failures.txt"))
        try store.finishRun(run, status: .interrupted)

        let stored = try #require(try store.run(run))
        #expect(stored.gitCommit == start.gitCommit)
        #expect(stored.toolVersion == start.toolVersion)
        #expect(try JSONParser.parse(stored.options) == start.options)
        #expect(stored.status == .interrupted)

        let implementation = try #require(try store.implementations(run: run).first { $0.id == id })
        #expect(implementation.info == info)
        #expect(implementation.notes == [Self.hostile("note one"), Self.hostile("note two")])
        #expect(implementation.expectedFailures == Self.hostile("expected-failures.txt"))
        #expect(implementation.status == .gaveUp)

        #expect(try store.requirements(run: run).first { $0.suite == "ulc" }?.title == title)

        let results = try store.results(run: run).map(\.result)
        #expect(results.map(\.caseID) == [result.caseID, large.caseID])
        let same = results == [result, large]   // every field, the outputs too
        #expect(same)
        #expect(results.first?.message == Self.hostile("skip reason"))
        #expect(results.last?.message == Self.hostile("error message"))
    }

    @Test func everyFieldOfAFindingRoundTrips() throws {
        let store = try ResultsStore(path: ResultsStoreTests.temporaryPath())
        let input: [UInt8] = [0, 0x1B, 0x0D, 0xFF, 0xC3, 0x28, 0]
        let recorded = try store.recordFinding(target: Self.hostile("target"), implementation: Self.hostile("implementation"),
                                               kind: .crash, signature: Self.hostile("signature"),
                                               message: Self.hostile("message"), input: input,
                                               reproducerPath: Self.hostile("path"))
        // A second sighting finds the same signature (the lookup compares whole texts).
        let again = try store.recordFinding(target: Self.hostile("target"), implementation: Self.hostile("implementation"),
                                            kind: .crash, signature: Self.hostile("signature"),
                                            message: Self.hostile("message again"), input: input,
                                            reproducerPath: Self.hostile("path"))
        #expect(again.id == recorded.id && again.count == 2)
        let finding = try #require(try store.findings(target: Self.hostile("target")).first)
        #expect(finding.target == Self.hostile("target"))
        #expect(finding.implementation == Self.hostile("implementation"))
        #expect(finding.signature == Self.hostile("signature"))
        #expect(finding.message == Self.hostile("message again"))
        #expect(finding.reproducerPath == Self.hostile("path"))
        #expect(finding.input == input)
        #expect(try store.finding(id: recorded.id) == finding)
    }
}
