import Foundation
import Testing
@testable import Conformance

/// Loading and linting the corpus: every problem named by file, line and field.
struct CorpusLoaderTests {
    @Test func repositoryCorpusLintsCleanAndCoversEveryJudgedRequirement() throws {
        let corpus = Corpus.load(from: TemporaryCorpus.repositoryCorpus)
        #expect(corpus.errors.isEmpty, "\(corpus.errors)")
        let ulc = try #require(corpus.suites.first { $0.name == "ulc" })
        #expect(ulc.cases.count >= 150)
        #expect(corpus.suites.map(\.name) == SuiteRegistry.all.map(\.name))
        for suite in corpus.suites { #expect(suite.cases.count >= 50, "\(suite.name) has its cases") }
        let stats = CorpusStats(corpus).suites[0]
        #expect(stats.judged > 0, "coverage of no judged requirement would pass vacuously")
        #expect(stats.fullyCovered == stats.judged)
        #expect(corpus.fingerprint.count == 64)
    }

    @Test func syntaxErrorNamesFileLineAndColumn() {
        let tmp = TemporaryCorpus()
        tmp.copyRealRegistry()
        tmp.write("ulc/cases/broken.json", "{\n  \"suite\": \"ulc\",\n  \"cases\": [\n    {\"id\": \"x\",}\n  ]\n}\n")
        let corpus = Corpus.load(from: tmp.root)
        let error = corpus.errors.first { $0.file.hasSuffix("broken.json") }
        #expect(error?.line == 4)
        #expect(error?.column == 16)
        #expect(error?.message.contains("invalid JSON") == true)
    }

    @Test func missingFieldAndUnknownOperationAreReportedWhereTheyAre() {
        let tmp = TemporaryCorpus()
        tmp.copyRealRegistry()
        tmp.write("ulc/cases/bad.json", """
            {
              "suite": "ulc",
              "cases": [
                {
                  "id": "ulc/x/one",
                  "title": "t",
                  "operation": "ulc.parze",
                  "requirement": "ULC-1",
                  "polarity": "conforming",
                  "provenance": {"kind": "spec"},
                  "input": {"link": "https://a"},
                  "expect": {"kind": "ulc"}
                },
                {
                  "id": "ulc/x/two",
                  "operation": "ulc.parse",
                  "requirement": "ULC-404",
                  "polarity": "sideways",
                  "provenance": {"kind": "observed"},
                  "input": {"link": 3},
                  "expect": {"kind": "maybe"}
                }
              ]
            }
            """)
        let corpus = Corpus.load(from: tmp.root)
        let issues = corpus.errors.filter { $0.file.hasSuffix("bad.json") }
        func find(_ field: String) -> CorpusIssue? { issues.first { $0.field == field } }
        #expect(find("cases[0].operation")?.line == 7)
        #expect(find("cases[0].operation")?.message.contains("unknown operation 'ulc.parze'") == true)
        #expect(find("cases[1].title")?.message == "missing required field 'title'")
        #expect(find("cases[1].polarity")?.line == 18)
        // A case that fails its shape is not checked further, so the rest is reported once it is fixed.
        #expect(!issues.isEmpty)
        #expect(issues.allSatisfy { $0.description.contains("bad.json:") })
    }

    @Test func fieldErrorsInAnOtherwiseValidCaseAreAllReported() {
        let tmp = TemporaryCorpus()
        tmp.copyRealRegistry()
        tmp.write("ulc/cases/fields.json", """
            {"suite": "ulc", "cases": [
              {"id": "ulc/x/a", "title": "t", "operation": "ulc.parse", "requirement": "ULC-404", "also": ["ULC-1", "NOPE"],
               "polarity": "conforming", "provenance": {"kind": "observed"}, "input": {"link": 3}, "expect": {"kind": "maybe"}}
            ]}
            """)
        let fields = Set(Corpus.load(from: tmp.root).errors.filter { $0.file.hasSuffix("fields.json") }.map(\.field))
        #expect(fields.isSuperset(of: ["cases[0].requirement", "cases[0].also[1]", "cases[0].provenance", "cases[0].input.link", "cases[0].expect.kind"]))
    }

    @Test func duplicateIdsAreReportedWithTheFirstPlace() {
        let tmp = TemporaryCorpus()
        tmp.copyRealRegistry()
        let one = #"{"id": "ulc/x/same", "title": "t", "operation": "ulc.parse", "requirement": "ULC-1", "polarity": "conforming", "provenance": {"kind": "spec"}, "input": {"link": "https://a"}, "expect": {"kind": "notULC"}}"#
        tmp.write("ulc/cases/a.json", "{\"suite\": \"ulc\", \"cases\": [\(one)]}")
        tmp.write("ulc/cases/b.json", "{\"suite\": \"ulc\", \"cases\": [\n\(one)]}")
        let duplicate = Corpus.load(from: tmp.root).errors.first { $0.message.contains("duplicate case id") }
        #expect(duplicate?.file.hasSuffix("b.json") == true)
        #expect(duplicate?.line == 2)
        #expect(duplicate?.message.contains("a.json:1") == true)
    }

    @Test func uncoveredRequirementsAreErrorsAtTheRequirement() {
        let tmp = TemporaryCorpus()
        tmp.copyRealRegistry()
        tmp.write("ulc/cases/one.json", #"{"suite": "ulc", "cases": [{"id": "ulc/x/a", "title": "t", "operation": "ulc.parse", "requirement": "ULC-1", "polarity": "conforming", "provenance": {"kind": "spec"}, "input": {"link": "https://a"}, "expect": {"kind": "notULC"}}]}"#)
        let errors = Corpus.load(from: tmp.root).errors
        let ulc1 = errors.first { $0.message.contains("requirement ULC-1 ") }
        #expect(ulc1?.message.contains("no violating case") == true)
        #expect(ulc1?.file.hasSuffix("requirements.json") == true)
        #expect(errors.contains { $0.message.contains("ULC-6 has no conforming and no violating case") })
        #expect(!errors.contains { $0.message.contains("ULC-5 ") }, "untestable requirements need no cases")
        #expect(!errors.contains { $0.message.contains("ULC-21 ") }, "INFO requirements need no cases")
    }

    @Test func registryMustAgreeWithTheCodesLevels() {
        let tmp = TemporaryCorpus()
        tmp.copyRealRegistry()
        let path = tmp.root + "/ulc/requirements.json"
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        tmp.write("ulc/requirements.json", text.replacingOccurrences(of: "\"id\": \"ULC-D2\",\n      \"level\": \"SHOULD\"", with: "\"id\": \"ULC-D2\",\n      \"level\": \"MAY\""))
        let errors = Corpus.load(from: tmp.root).errors
        #expect(errors.contains { $0.message.contains("treats ULC-D2 as SHOULD, the registry says MAY") })
    }

    @Test func missingCorpusFolderIsAClearError() {
        let corpus = Corpus.load(from: "/nonexistent/corpus")
        #expect(corpus.errors.first?.message.contains("no corpus folder") == true)
    }

    @Test func generatorsExpandBeforeCasesAreChecked() throws {
        let tmp = TemporaryCorpus()
        tmp.copyRealRegistry()
        tmp.write("ulc/cases/gen.json", #"{"suite": "ulc", "cases": [{"id": "ulc/x/long", "title": "t", "operation": "ulc.parse", "requirement": "ULC-D11", "polarity": "violating", "provenance": {"kind": "decided"}, "input": {"link": {"$concat": ["https://a.example/l?ulc-success=", {"$repeat": "ab", "count": 40000}]}}, "expect": {"kind": "invalid"}}]}"#)
        let corpus = Corpus.load(from: tmp.root)
        let c = try #require(corpus.suites.first?.cases.first { $0.id == "ulc/x/long" })
        #expect(c.input["link"]?.stringValue?.utf8.count == 32 + 80_000)
    }

    @Test func oversizedGeneratorIsRefused() {
        let tmp = TemporaryCorpus()
        tmp.copyRealRegistry()
        tmp.write("ulc/cases/gen.json", #"{"suite": "ulc", "cases": [{"id": "ulc/x/big", "title": "t", "operation": "ulc.parse", "requirement": "ULC-D11", "polarity": "violating", "provenance": {"kind": "decided"}, "input": {"link": {"$repeat": "abcdefgh", "count": 100000000}}, "expect": {"kind": "invalid"}}]}"#)
        let error = Corpus.load(from: tmp.root).errors.first { $0.field == "cases[0].input.link" }
        #expect(error?.message.contains("limit") == true)
    }

    /// Corpus text reaches terminals and reports: a control or bidi character in a title, note,
    /// provenance or requirement is an error at its field. Inputs and expectations are data and
    /// may hold anything.
    @Test func hiddenCharactersInCorpusTextAreErrorsAtTheirField() throws {
        let tmp = TemporaryCorpus()
        tmp.copyRealRegistry()
        let path = tmp.root + "/ulc/requirements.json"
        let registry = try String(contentsOfFile: path, encoding: .utf8)
        let first = try #require(registry.range(of: "\"statement\": \""))
        tmp.write("ulc/requirements.json", registry.replacingCharacters(in: first, with: #""statement": "\u202e"#))
        let good = #""id": "ulc/x/data", "title": "t", "operation": "ulc.parse", "requirement": "ULC-1", "polarity": "conforming", "provenance": {"kind": "spec"}, "input": {"link": "https://a/\u001b[31m\n"}, "expect": {"kind": "notULC"}"#
        tmp.write("ulc/cases/text.json", """
            {"suite": "ulc", "cases": [
              {\(good)},
              {"id": "ulc/x/title", "title": "red \\u001b[31m", "operation": "ulc.parse", "requirement": "ULC-1", "polarity": "conforming",
               "provenance": {"kind": "observed", "source": "seen\\r\\nhere"}, "note": "tab\\there", "input": {"link": "https://a"}, "expect": {"kind": "notULC"}}
            ]}
            """)
        let corpus = Corpus.load(from: tmp.root)
        let hidden = corpus.errors.filter { $0.message.contains("hidden character") }
        let fields = Set(hidden.filter { $0.file.hasSuffix("text.json") }.map(\.field))
        #expect(fields == ["cases[1].title", "cases[1].provenance.source", "cases[1].note"], "\(hidden)")
        #expect(hidden.first { $0.field == "cases[1].title" }?.message.contains("\\x1b (U+1B)") == true)
        #expect(hidden.first { $0.field == "cases[1].title" }?.line == 3)
        let statement = try #require(hidden.first { $0.file.hasSuffix("requirements.json") })
        #expect(statement.field.hasSuffix(".statement") && statement.message.contains("\\u{202E}"), "\(statement)")
        // The case with controls in its input only is read; the other is not.
        let ids = corpus.suites.flatMap(\.cases).map(\.id)
        #expect(ids.contains("ulc/x/data") && !ids.contains("ulc/x/title"))
    }

    @Test func caseIdsMustLookLikePaths() {
        #expect(CorpusLint.isValidCaseID("ulc/parse/webex-link", suite: "ulc"))
        #expect(CorpusLint.isValidCaseID("ulc/parse-action/v1.2", suite: "ulc"))
        #expect(!CorpusLint.isValidCaseID("ulc/Parse/x", suite: "ulc"))
        #expect(!CorpusLint.isValidCaseID("ulc/x", suite: "ulc"))
        #expect(!CorpusLint.isValidCaseID("xcb/parse/x", suite: "ulc"))
        #expect(!CorpusLint.isValidCaseID("ulc//x", suite: "ulc"))
    }
}
