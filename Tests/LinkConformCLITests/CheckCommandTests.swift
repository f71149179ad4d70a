import Conformance
import Foundation
import LinkJSON
import Reports
@testable import LinkConformCLI
import Testing

/// `linkconform check`: one link explained.
struct CheckCommandTests {
    static let webex = "https://cisco.webex.com/logout?ulc-success=https%3A%2F%2Fsampledomain.com%2Fsuccess&ulc-error=https%3A%2F%2Fsampledomain.com%2Ferror"

    @Test func validLinkIsExplainedWithRawAndDecodedCallbacks() async throws {
        let result = try await CLI.run(["check", Self.webex])
        #expect(result.status == 0)
        #expect(result.stdout.contains("ulc: a valid ULC"))
        #expect(result.stdout.contains("raw      https%3A%2F%2Fsampledomain.com%2Fsuccess"))
        #expect(result.stdout.contains("decoded  https://sampledomain.com/success"))
    }

    @Test func violationsCarryRequirementLevelAndTitle() async throws {
        let link = "https://app.example.com/logout?ulc-success=http%3A%2F%2Fs.example&ulc-success=x"
        let result = try await CLI.run(["check", link])
        #expect(result.status == 1)
        #expect(result.stdout.contains("ULC-D1 MUST (Each callback parameter appears once): ulc-success:callback-duplicated"))
        #expect(result.stdout.contains("ULC-D3 SHOULD"))
    }

    @Test func jsonOutputHasTheSameFacts() async throws {
        let result = try await CLI.run(["check", "--json", Self.webex])
        let json = try JSONParser.parse(result.stdout)
        #expect(json["valid"] == true)
        let ulc = json["protocols"]?.arrayValue?.first
        #expect(ulc?["suite"] == "ulc")
        let success = ulc?["fields"]?.arrayValue?.first { $0["label"] == "ulc-success" }
        #expect(success?["decoded"] == "https://sampledomain.com/success")
    }

    @Test func notAULCIsSaidPlainly() async throws {
        let result = try await CLI.run(["check", "https://example.com/?a=1"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("not a link of any protocol"))
    }

    @Test func tenMegabyteLinkGetsADiagnosticQuickly() async throws {
        let dir = CLI.temporaryDirectory()
        let path = dir + "/huge.txt"
        try Data(("https://a.example/l?ulc-success=" + String(repeating: "%41", count: 3_500_000)).utf8).write(to: URL(fileURLWithPath: path))
        let result = try await CLI.run(["check", "--file", path])
        // Bounded, not a speed test (a quadratic reading of 10 MB would take hours): the bound
        // leaves room for a machine the rest of the suite keeps busy.
        #expect(result.elapsed < .seconds(120))
        #expect(result.status == 1)
        #expect(result.stdout.contains("link-too-long"))
    }

    @Test func invalidUTF8FromStdinIsReadAsBytes() async throws {
        var bytes = Array("https://a.example/l?ulc-success=https%3A%2F%2Fs.example&x=".utf8)
        bytes += [0xFF, 0xFE, 0x0A]
        let result = try await CLI.run(["check", "--json", "-"], stdin: Data(bytes))
        let json = try JSONParser.parse(result.stdout)
        #expect(json["bytes"]?.intValue == bytes.count - 1)
        let violations = json["protocols"]?.arrayValue?.first?["violations"]?.arrayValue ?? []
        #expect(violations.contains { $0["code"] == "link-invalid-syntax" })
    }

    @Test func missingInputIsAUsageError() async throws {
        #expect(try await CLI.run(["check"]).status == 64)
        #expect(try await CLI.run(["check", "--file", "/nonexistent"]).status == 2)
        // A folder is not an empty link: exit 2, said plainly.
        let folder = try await CLI.run(["check", "--file", NSTemporaryDirectory()])
        #expect(folder.status == 2 && folder.stderr.contains("is a directory"), "\(folder.output)")
        // The same for standard input (`check - < folder`): it read as an empty link, exit 1.
        let stdinFolder = try await CLI.runTool(["sh", "-c", "exec \"$0\" check - < /", CLI.binary])
        #expect(stdinFolder.status == 2 && stdinFolder.stderr.contains("standard input: it is a directory"), "\(stdinFolder.output)")
    }

    // MARK: one verdict, three outputs (in process)

    /// Every corpus input that is a link: each string (or string in a list) of a case's input
    /// that has a scheme separator. That covers every parse-like operation's input, of every
    /// suite, without naming one, and the links other operations take besides.
    static let corpusLinks: [(id: String, link: String)] = {
        let corpus = Corpus.load(from: CLI.repository.appendingPathComponent("Corpus").path)
        var links: [(String, String)] = []
        var seen: Set<String> = []
        for suite in corpus.suites {
            for c in suite.cases {
                for member in c.input.objectValue ?? JSONObject() {
                    let texts = member.value.stringValue.map { [$0] } ?? member.value.arrayValue?.compactMap(\.stringValue) ?? []
                    for text in texts where text.contains("://") && seen.insert(text).inserted {
                        links.append((c.id + " " + member.key, text))
                    }
                }
            }
        }
        return links
    }()

    @Test func humanJSONAndExitCodeAgreeForEveryCorpusLink() throws {
        #expect(Self.corpusLinks.count > 400)
        for (id, link) in Self.corpusLinks {
            let rendering = CheckRendering(report: Check.explain(.link(Array(link.utf8))), titles: [:])
            let human = rendering.human()
            let json = rendering.json()
            let valid = json["valid"]?.boolValue
            #expect((rendering.exitCode == 0) == (valid == true), "\(id): exit \(rendering.exitCode), JSON valid \(String(describing: valid))")
            #expect(human.hasSuffix("verdict: " + (json["verdict"]?.stringValue ?? "?")), "\(id): human verdict line")
            var anyValid = false, anyRecognized = false
            // A link no suite recognizes lists none: the list must be there, not read as empty.
            let protocols = try #require(json["protocols"]?.arrayValue, "\(id): protocols listed")
            for p in protocols {
                let suite = p["suite"]?.stringValue ?? "?"
                #expect(human.contains("\(suite): \(p["verdict"]?.stringValue ?? "?")\n"), "\(id): \(suite) verdict line")
                let violations = p["violations"]?.arrayValue ?? []
                for v in violations {
                    let code = v["code"]?.stringValue ?? "?"
                    // As the terminal shows it: a key naming a parameter with a control character
                    // in its name (x-succ<LF>ess) is escaped there.
                    #expect(human.contains(": " + Escaping.terminal(code)), "\(id): \(code) missing from the human text")
                }
                let recognized = p["recognized"]?.boolValue == true
                let noMust = !violations.contains { $0["level"] == "MUST" }
                #expect(p["valid"]?.boolValue == (recognized && noMust), "\(id): \(suite) valid is not 'recognized and no MUST violation'")
                anyValid = anyValid || p["valid"]?.boolValue == true
                anyRecognized = anyRecognized || recognized
            }
            #expect(valid == anyValid && json["recognized"]?.boolValue == anyRecognized, "\(id): overall verdict")
        }
    }

    @Test func xErrorSwallowedByTheFragmentIsShownWithANote() throws {
        let link = "myapp://x-callback-url/open?x-success=b://c#frag&x-error=e%3A%2F%2Ff"
        let rendering = CheckRendering(report: Check.explain(.link(Array(link.utf8))), titles: [:])
        let fields = rendering.json()["protocols"]?.arrayValue?.first?["fields"]?.arrayValue ?? []
        let error = fields.first { $0["label"] == "x-error" }
        #expect(error?["raw"] == .null)
        #expect(error?["note"]?.stringValue?.contains("in the fragment") == true)
        #expect(rendering.human().contains("e%3A%2F%2Ff"))
    }

    @Test func strayParameterOfACutCallbackIsExplainedWhereItLanded() throws {
        let xcb = CheckRendering(report: Check.explain(.link(Array("myapp://x-callback-url/open?x-success=b://c?d=1&e=2".utf8))), titles: [:])
        let e = xcb.json()["protocols"]?.arrayValue?.first?["fields"]?.arrayValue?.first { $0["label"] == "parameter e" }
        #expect(e?["note"]?.stringValue?.contains("rest of x-success's own query") == true)
        let ulc = CheckRendering(report: Check.explain(.link(Array("https://app.example/logout?ulc-success=https://s.example/ok?a=1&b=2&ulc-error=https%3A%2F%2Fe.example".utf8))), titles: [:])
        let action = ulc.json()["protocols"]?.arrayValue?.first?["fields"]?.arrayValue?.first { $0["label"] == "action" }
        #expect(action?["note"]?.stringValue?.contains("'b=2' is most likely the rest of ulc-success's own query") == true)
    }

    // MARK: documents

    /// A suite that reads documents only: it counts the document's bytes and URLs, and reports
    /// a MUST violation when the `app` parameter is missing.
    static let documentSuite = SuiteDefinition(
        name: "testdoc", title: "a test-only document suite", recognizes: "any document",
        operations: [], reference: [:],
        explain: { subject in
            guard let document = subject.document else { return nil }
            var violations: [CheckExplanation.Violation] = []
            if document.parameters["app"] == nil {
                violations.append(.init(requirement: "TD-1", level: .must, code: "app-missing", message: "no app asked", offset: nil))
            }
            return CheckExplanation(
                suite: "testdoc", recognized: true,
                wording: .init(valid: "a good document", withWarnings: "a good document, with warnings", invalid: "a bad document", unrecognized: "not a document"),
                fields: [.init("bytes", value: String(document.bytes.count)), .init("urls", value: document.urls.joined(separator: " "))],
                violations: violations)
        },
        codeRequirements: [], documentParameters: [DocumentParameter(name: "app", help: "the app ID to look for")])

    @Test func documentParametersAreValidatedAgainstTheSuites() throws {
        let suites = SuiteRegistry.all + [Self.documentSuite]
        try Check.validate(parameters: ["app": "ABCDE.com.example"], suites: suites)
        #expect(throws: CheckUsageError.self) { try Check.validate(parameters: ["bogus": "1"], suites: suites) }
        let linkSuites = SuiteRegistry.all.filter { !$0.readsDocuments }
        #expect(!linkSuites.isEmpty)
        #expect(throws: CheckUsageError(code: .noDocumentSuite, message: "no suite reads documents yet")) {
            try Check.validate(parameters: [:], suites: linkSuites)
        }
        #expect(try Check.parameters(["app=a=b"]) == ["app": "a=b"])
        #expect(throws: CheckUsageError.self) { try Check.parameters(["app"]) }
        #expect(CheckCommand.documentHelp(suites).contains("app            the app ID to look for"))
        #expect(CheckCommand.documentHelp(linkSuites).contains("no suite reads documents yet"))
        #expect(CheckCommand.documentHelp(SuiteRegistry.all).contains("read by: aasa"))
    }

    @Test func documentGoesOnlyToSuitesThatReadDocuments() throws {
        let suites = SuiteRegistry.all + [Self.documentSuite]
        let document = CheckDocument(path: "aasa.json", bytes: Array("{}".utf8), parameters: ["app": "X.y"], urls: ["https://a.example/p"])
        let good = CheckRendering(report: Check.explain(.document(document), suites: suites), titles: [:])
        #expect(good.report.explanations.map(\.suite) == ["testdoc"])
        #expect(good.exitCode == 0 && good.json()["valid"] == true)
        #expect(good.json()["document"]?["parameters"]?["app"] == "X.y")
        #expect(good.human().contains("document aasa.json (2 bytes)") && good.human().hasSuffix("verdict: valid"))

        let bad = CheckRendering(report: Check.explain(.document(CheckDocument(path: "x", bytes: [])), suites: suites), titles: [:])
        #expect(bad.exitCode == 1 && bad.json()["valid"] == false)
        #expect(bad.human().contains("testdoc: a bad document") && bad.human().contains(": app-missing"))
        // A link never reaches the document suite.
        #expect(Check.explain(.link(Array(Self.webex.utf8)), suites: suites).explanations.map(\.suite) == ["ulc"])
    }

    /// A file that breaks one rule thousands of times: the text lists the first ten of each code
    /// and counts the rest; `--all` and the JSON list every one.
    @Test func manyViolationsOfOneCodeAreCountedNotListed() throws {
        let paths = Array(repeating: #""/a""#, count: 500).joined(separator: ",")
        let file = #"{"applinks": {"apps": [], "details": [{"appID": "ABCDE12345.com.example.app", "paths": [\#(paths)]}]}}"#
        let report = Check.explain(.document(CheckDocument(path: "aasa.json", bytes: Array(file.utf8))), suites: [AASASuite.definition])
        var rendering = CheckRendering(report: report, titles: [:])
        let text = rendering.human()
        #expect(text.components(separatedBy: ": rule-duplicate").count - 1 == 10)
        #expect(text.contains("violations (499, 0 MUST):"))
        #expect(text.contains("... and 489 more rule-duplicate (the first 10 of each code are listed; --all lists every one)"))
        rendering.perCode = nil
        #expect(rendering.human().components(separatedBy: ": rule-duplicate").count - 1 == 499)
        #expect(!rendering.human().contains("more rule-duplicate"))
        #expect(rendering.json()["protocols"]?.arrayValue?.first?["violations"]?.arrayValue?.count == 499)
    }

    @Test func aParameterNoSuiteTakesIsAUsageError() async throws {
        let result = try await CLI.run(["check", "--document", "Package.swift", "--with", "app=x"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("no suite takes the parameter 'app' (known: domain, app-id, package, fingerprint, relation)"))
    }

    /// `domain` is asked of statement lists too: given with one, it does not make the aasa suite
    /// read the list as well (which then said `not-object` of it); an AASA file given a domain
    /// alone is still read by aasa, and the help gives the parameter's meaning for each suite.
    @Test func aParameterSeveralSuitesTakeDoesNotClaimADocument() throws {
        let fingerprint = AssetLinksMitIDCheckTests.fingerprint
        let list = #"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "com.example.app", "sha256_cert_fingerprints": [""#
            + fingerprint + #""]}}]"#
        let parameters = ["domain": "example.com", "package": "com.example.app", "fingerprint": fingerprint]
        let listReport = Check.explain(.document(CheckDocument(path: "assetlinks.json", bytes: Array(list.utf8), parameters: parameters,
                                                               urls: ["https://example.com/a"])))
        #expect(listReport.explanations.map(\.suite) == ["assetlinks"])
        #expect(listReport.verdict.valid)
        let onlyDomain = Check.explain(.document(CheckDocument(path: "list", bytes: Array(list.utf8), parameters: ["domain": "example.com"])))
        #expect(onlyDomain.explanations.map(\.suite) == ["assetlinks"])
        let aasa = #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/*"}]}]}}"#
        let aasaReport = Check.explain(.document(CheckDocument(path: "aasa", bytes: Array(aasa.utf8), parameters: ["domain": "example.com"])))
        #expect(aasaReport.explanations.map(\.suite) == ["aasa"])
        let help = CheckCommand.documentHelp(SuiteRegistry.all)
        #expect(help.contains("  domain         aasa: the host the file is served for"), "\(help)")
        #expect(help.contains("                 assetlinks: the host the list is served for"), "\(help)")
        #expect(help.split(separator: "\n").allSatisfy { $0.count <= 80 || !$0.hasPrefix(" ") }, "\(help)")
    }

    /// With another relation than handle_all_urls, "verified" answers for that relation, and
    /// the URLs (App Links, which only handle_all_urls verifies) say which one they are matched for.
    @Test func urlsSayTheRelationTheyAreMatchedFor() throws {
        let fingerprint = AssetLinksMitIDCheckTests.fingerprint
        let list = #"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "com.example.app", "sha256_cert_fingerprints": [""#
            + fingerprint + #""]}}]"#
        func explanation(_ extra: [String: String]) -> CheckExplanation {
            let parameters = ["package": "com.example.app", "fingerprint": fingerprint].merging(extra) { $1 }
            return AssetLinksSuite.explanation(of: CheckDocument(path: "assetlinks.json", bytes: Array(list.utf8), parameters: parameters,
                                                                 urls: ["https://example.com/a"]))
        }
        let other = explanation(["relation": "delegate_permission/common.get_login_creds"])
        #expect(other.fields.first { $0.label == "verified" }?.value == "no")
        let urls = try #require(other.fields.first { $0.label == "urls" })
        #expect(urls.value == "matched for delegate_permission/common.handle_all_urls")
        #expect(urls.note?.contains("not by delegate_permission/common.get_login_creds") == true)
        #expect(explanation([:]).fields.allSatisfy { $0.label != "urls" })
    }
}
