import Foundation
import LinkJSON
import Testing
@testable import Conformance

/// A case input of the wrong shape is a lint error naming file, case and field, and the case is
/// not run; an output of the wrong shape is a `protocolError` naming the field.
struct MalformedShapeTests {
    /// One case whose input is wrong in one way, and the issue lint must report.
    struct BadInput: CustomTestStringConvertible {
        let suite: String
        let id: String
        let operation: String
        let requirement: String
        let input: String
        let expect: String
        let field: String
        let problem: String
        var testDescription: String { "\(id): \(field)" }
    }

    static let badInputs: [BadInput] = [
        .init(suite: "ulc", id: "ulc/bad/string", operation: "ulc.parse", requirement: "ULC-1", input: #"{"link": 3}"#,
              expect: #"{"kind": "notULC"}"#, field: "input.link", problem: "expected a string, found the number 3"),
        .init(suite: "ulc", id: "ulc/bad/unknown", operation: "ulc.parse", requirement: "ULC-1", input: #"{"link": "https://a", "lnik": "x"}"#,
              expect: #"{"kind": "notULC"}"#, field: "input.lnik", problem: "unknown field 'lnik' (known: link)"),
        .init(suite: "ulc", id: "ulc/bad/missing", operation: "ulc.build", requirement: "ULC-1", input: #"{"action": "https://a/l", "success": "https://s"}"#,
              expect: #"{"roundTrip": true}"#, field: "input.error", problem: "missing required field"),
        .init(suite: "ulc", id: "ulc/bad/bool", operation: "ulc.handle", requirement: "ULC-1",
              input: #"{"logoutAction": "https://a/l", "signedIn": "yes", "links": []}"#,
              expect: #"{"prompts": 0}"#, field: "input.signedIn", problem: "expected true or false, found the string \"yes\""),
        .init(suite: "ulc", id: "ulc/bad/number", operation: "ulc.handle", requirement: "ULC-1",
              input: #"{"logoutAction": "https://a/l", "signedIn": true, "links": [], "backend": [{"answer": "closed", "seconds": "1"}]}"#,
              expect: #"{"prompts": 0}"#, field: "input.backend[0].seconds", problem: "expected a number, found the string \"1\""),
        .init(suite: "ulc", id: "ulc/bad/enum", operation: "ulc.handle", requirement: "ULC-1",
              input: #"{"logoutAction": "https://a/l", "signedIn": true, "links": [], "backend": [{"answer": "maybe"}]}"#,
              expect: #"{"prompts": 0}"#, field: "input.backend[0].answer", problem: "expected one of \"closed\""),
        .init(suite: "ulc", id: "ulc/bad/string-array", operation: "ulc.handle", requirement: "ULC-1",
              input: #"{"logoutAction": "https://a/l", "signedIn": true, "links": ["https://a/l", 3]}"#,
              expect: #"{"prompts": 0}"#, field: "input.links[1]", problem: "expected a string, found the number 3"),
        .init(suite: "ulc", id: "ulc/bad/not-object", operation: "ulc.parse", requirement: "ULC-1", input: #""https://a""#,
              expect: #"{"kind": "notULC"}"#, field: "input", problem: "expected an object, found the string \"https://a\""),
        .init(suite: "xcallback", id: "xcallback/bad/nested", operation: "xcallback.build", requirement: "XCB-2",
              input: #"{"scheme": "app", "action": "a", "parameters": [{"name": "a"}, {"name": "b", "value": "1"}, {"name": 5}]}"#,
              expect: #"{"roundTrip": true}"#, field: "input.parameters[2].name", problem: "expected a string, found the number 5"),
        .init(suite: "xcallback", id: "xcallback/bad/other-outcome", operation: "xcallback.callback", requirement: "XCB-2",
              input: #"{"url": "app://x-callback-url/a?x-success=s%3A%2F%2Fok", "outcome": "success", "errorCode": "1"}"#,
              expect: #"{"open": null}"#, field: "input.errorCode", problem: "only an outcome \"error\" takes 'errorCode'"),
        .init(suite: "xcallback", id: "xcallback/bad/error-without-message", operation: "xcallback.callback", requirement: "XCB-2",
              input: #"{"url": "app://x-callback-url/a?x-error=s%3A%2F%2Ffail", "outcome": "error", "errorCode": "1"}"#,
              expect: #"{"open": null}"#, field: "input.errorMessage", problem: "missing required field"),
        .init(suite: "xignqr", id: "xignqr/bad/array", operation: "xignqr.redirect", requirement: "XQR-5",
              input: #"{"url": "xignqr://authentication?pid=CgM%3D", "schemes": "xignqr"}"#,
              expect: #"{"kind": "none"}"#, field: "input.schemes", problem: "expected an array, found the string \"xignqr\""),
        .init(suite: "assetlinks", id: "assetlinks/bad/includes", operation: "assetlinks.verify", requirement: "AL-20",
              input: #"{"file": "[]", "package": "a.b", "fingerprint": "AA", "includes": {"https://e.example/a.json": 3}}"#,
              expect: #"{"granted": false}"#, field: "input.includes.https://e.example/a.json", problem: "expected the file's text as a string"),
    ]

    @Test(arguments: badInputs)
    func aCaseInputOfTheWrongShapeIsALintErrorNamingTheField(_ bad: BadInput) throws {
        let tmp = TemporaryCorpus()
        tmp.copyRealRegistry(suite: bad.suite)
        // A good case beside the bad one: it loads, so the bad one is refused for its input alone.
        let good = #"{"id": "\#(bad.suite)/good/one", "title": "t", "operation": "\#(bad.operation)", "requirement": "\#(bad.requirement)", "polarity": "conforming", "provenance": {"kind": "spec"}, "input": \#(Self.goodInputs[bad.operation]!), "expect": \#(bad.expect)}"#
        let wrong = #"{"id": "\#(bad.id)", "title": "t", "operation": "\#(bad.operation)", "requirement": "\#(bad.requirement)", "polarity": "conforming", "provenance": {"kind": "spec"}, "input": \#(bad.input), "expect": \#(bad.expect)}"#
        tmp.write("\(bad.suite)/cases/shapes.json", "{\"suite\": \"\(bad.suite)\", \"cases\": [\n\(good),\n\(wrong)\n]}")
        let corpus = Corpus.load(from: tmp.root)
        let issues = corpus.errors.filter { $0.file.hasSuffix("\(bad.suite)/cases/shapes.json") }
        #expect(issues.count == 1, "\(issues)")
        let issue = try #require(issues.first)
        #expect(issue.field == "cases[1]." + bad.field)
        #expect(issue.line == 3)
        #expect(issue.message.contains(bad.problem), "\(issue.message)")
        #expect(issue.message.contains("case '\(bad.id)'"), "\(issue.message)")
        let loaded = try #require(corpus.suites.first { $0.name == bad.suite }).cases.map(\.id)
        #expect(loaded == ["\(bad.suite)/good/one"], "the good case loads, the bad one is not run")
    }

    static let goodInputs: [String: String] = [
        "ulc.parse": #"{"link": "https://a"}"#,
        "ulc.build": #"{"action": "https://a/l", "success": "https://s", "error": "https://e"}"#,
        "ulc.handle": #"{"logoutAction": "https://a/l", "signedIn": true, "links": []}"#,
        "xcallback.build": #"{"scheme": "app", "action": "a"}"#,
        "xcallback.callback": #"{"url": "app://x-callback-url/a", "outcome": "cancel"}"#,
        "xignqr.redirect": #"{"url": "https://a"}"#,
        "assetlinks.verify": #"{"file": "[]", "package": "a.b", "fingerprint": "AA"}"#,
    ]

    /// Malformed answers, one per operation, and the field each message must name.
    static let badOutputs: [String: (output: JSONValue, field: String)] = [
        "ulc.parse": (["kind": "invalid", "violations": ["ulc-error:error-missing", 3]],
                      "output.violations[1]: expected a violation key or an object with 'key' or 'code', found the number 3"),
        "ulc.build": (["refused": "no"], "output.refused: expected an array, found the string \"no\""),
        "ulc.handle": (["opened": [], "prompts": "0"], "output.prompts: expected an integer, found the string \"0\""),
        "xcallback.parse": (["kind": "xcallback", "parameters": [["name": 5]]], "output.parameters[0].name: expected a string, found the number 5"),
        "xcallback.build": (["url": ["app://x-callback-url/a"]], "output.url: expected a string, found an array"),
        "xcallback.callback": (["reason": "nothing to open"], "output.open: missing required field"),
        "xignqr.redirect": ("none", "output: expected an object, found the string \"none\""),
        "xignqr.pid": (["ok": "yes"], "output.ok: expected true or false, found the string \"yes\""),
        "aasa.validate": (["diagnostics": ["not-json", ["code": 7]]],
                          "output.diagnostics[1].code: expected a string, found the number 7"),
        "aasa.match": (["result": "matched"], "output.result: expected one of \"match\", \"exclude\", \"no_match\", found the string \"matched\""),
        "aasa.entitlement": (["host": "example.com"], "output.entry: missing required field"),
        "assetlinks.validate": (["diagnostics": "fingerprint-malformed"], "output.diagnostics: expected an array, found the string \"fingerprint-malformed\""),
        "assetlinks.verify": (["granted": "yes"], "output.granted: expected true or false, found the string \"yes\""),
        "assetlinks.match": (["result": "matched"],
                             "output.result: expected one of \"match\", \"exclude\", \"no_match\", \"no_dynamic_rules\", \"not_verified\", found the string \"matched\""),
        "mitid.authorize": (["kind": "appSwitch", "os": 1], "output.os: expected a string, found the number 1"),
        "mitid.return": (["reason": "no file"], "output.verdict: missing required field"),
    ]

    @Test func anOutputOfTheWrongShapeIsAProtocolErrorNamingTheField() async throws {
        let answers = Self.badOutputs
        let bad = SwiftImplementation(
            info: ImplementationInfo(name: "bad", version: "0", language: "none", homepage: ""),
            handlers: answers.mapValues { answer in { @Sendable _ in answer.output } })
        var all: [CaseResult] = []
        try await Runner(corpus: RunnerTests.corpus).run(bad) { all += $0 }
        #expect(Set(answers.keys) == Set(SuiteRegistry.all.flatMap(\.operations).map(\.name)), "every operation is answered badly")
        for (operation, answer) in answers {
            let results = all.filter { $0.operation == operation }
            try #require(!results.isEmpty, "the corpus has cases of \(operation)")
            let wrong = results.filter { $0.outcome != .protocolError || $0.message != "malformed output: " + answer.field }
            #expect(wrong.isEmpty, "\(operation): \(wrong.prefix(3).map { "\($0.caseID) \($0.outcome): \($0.message ?? "")" })")
        }
    }

    /// Every include past the tree's budget is an event; an answer lists the first ones and
    /// counts the rest, so that it fits the adapter protocol's line (the audit's tree named
    /// 200,000 and made a 10 MB answer).
    @Test func theIncludeEventsOfAVerifyAnswerAreBounded() async throws {
        let many = "[" + Array(repeating: #"{"include": "https://i.example/x"}"#, count: 2_000).joined(separator: ",") + "]"
        let answer = await SwiftImplementation.reference.run(Request(caseID: "x", operation: "assetlinks.verify", input: [
            "file": #"[{"include": "https://i.example/x"}]"#, "includes": ["https://i.example/x": .string(many)],
            "package": "com.example.app", "fingerprint": "AA"]))
        guard case .output(let output) = answer else {
            Issue.record("expected an output, got \(answer)")
            return
        }
        #expect(output["includes"]?.arrayValue?.count == 32)
        let rest = try #require(output["includesNotListed"]?.intValue)
        #expect(rest > 19_000, "\(rest)")
    }

    @Test func theReferenceRefusesAMalformedInputNamingTheField() async throws {
        let answer = await SwiftImplementation.reference.run(Request(caseID: "x", operation: "ulc.handle",
                                                                     input: ["logoutAction": "https://a/l", "signedIn": true, "links": "https://a/l"]))
        guard case .errored(let message, _) = answer else {
            Issue.record("expected an error, got \(answer)")
            return
        }
        #expect(message == "input.links: expected an array, found the string \"https://a/l\"")
    }
}
