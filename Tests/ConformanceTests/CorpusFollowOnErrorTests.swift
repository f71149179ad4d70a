import Foundation
import Testing
@testable import Conformance

/// One mistake in a corpus is one error: nothing that only follows from it is reported too.
struct CorpusFollowOnErrorTests {
    /// The repository's ULC suite, copied, with one of its case files changed by `edit`.
    func ulcSuite(editing file: String, _ edit: (String) -> String) throws -> TemporaryCorpus {
        let tmp = TemporaryCorpus()
        tmp.copyRealRegistry()
        let cases = TemporaryCorpus.repositoryCorpus + "/ulc/cases"
        let names = try FileManager.default.contentsOfDirectory(atPath: cases).filter { $0.hasSuffix(".json") }
        #expect(names.contains(file))
        for name in names {
            let text = try String(contentsOfFile: cases + "/" + name, encoding: .utf8)
            tmp.write("ulc/cases/" + name, name == file ? edit(text) : text)
        }
        return tmp
    }

    /// The temporary corpus holds only the ULC suite: the other suites' missing folders are not
    /// what these tests look at.
    func ulcErrors(_ corpus: Corpus) -> [CorpusIssue] {
        corpus.errors.filter { $0.file.hasPrefix(corpus.root + "/ulc/") }
    }

    @Test func theUnchangedCopyIsClean() throws {
        let tmp = try ulcSuite(editing: "build.json") { $0 }
        let corpus = Corpus.load(from: tmp.root)
        #expect(ulcErrors(corpus).isEmpty, "\(ulcErrors(corpus))")
        #expect((corpus.suites.first { $0.name == "ulc" }?.cases.count ?? 0) > 100)
    }

    @Test func aSyntaxErrorIsTheOnlyError() throws {
        // A missing comma: the file's cases are lost, and with them the only violating cases of
        // some requirements; those requirements must not be reported as uncovered.
        let tmp = try ulcSuite(editing: "build.json") { text in
            var lines = text.components(separatedBy: "\n")
            let i = try! #require(lines.firstIndex { $0.contains("\"polarity\":") })
            lines[i] = lines[i].replacingOccurrences(of: ",", with: "")
            return lines.joined(separator: "\n")
        }
        let errors = ulcErrors(Corpus.load(from: tmp.root))
        #expect(errors.count == 1, "\(errors.map(\.description))")
        #expect(errors.first?.message.hasPrefix("invalid JSON") == true)
        #expect(errors.first?.file.hasSuffix("build.json") == true)
    }

    @Test func aGeneratorErrorIsReportedOnce() throws {
        let tmp = TemporaryCorpus()
        tmp.copyRealRegistry()
        tmp.write("ulc/cases/gen.json", #"{"suite": "ulc", "cases": [{"id": "ulc/x/neg", "title": "t", "operation": "ulc.parse", "requirement": "ULC-D11", "polarity": "violating", "provenance": {"kind": "decided"}, "input": {"link": {"$repeat": "a", "count": -1}}, "expect": {"kind": "invalid"}}]}"#)
        let errors = Corpus.load(from: tmp.root).errors.filter { $0.file.hasSuffix("gen.json") }
        #expect(errors.count == 1, "\(errors.map(\.description))")
        #expect(errors.first?.field == "cases[0].input.link")
        #expect(errors.first?.message.contains("$repeat") == true)
    }
}
