import Conformance
@testable import DifferentialFuzzing
import Foundation
import LinkJSON
import ResultsStore
import SeededRandom
import Testing
import TestScratch

/// The corpus of the repository, loaded once.
let repositoryCorpus: Corpus = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    return Corpus.load(from: root.appendingPathComponent("Corpus").path)
}()

func mutator(_ operation: String) throws -> InputMutator {
    let (_, definition) = try #require(SuiteRegistry.operation(named: operation))
    return InputMutator(operation: definition, seeds: repositoryCorpus.suites.flatMap(\.cases).filter { $0.operation == operation }.map(\.input))
}

/// An implementation that answers as the reference does, except where `wrong` says otherwise.
func fake(_ wrong: @escaping @Sendable (_ operation: String, _ input: JSONValue) -> JSONValue?) -> SwiftImplementation {
    var handlers: [String: SuiteDefinition.Handler] = [:]
    for suite in SuiteRegistry.all {
        for (name, handler) in suite.reference {
            handlers[name] = { input in
                if let answer = wrong(name, input) { return answer }
                return try await handler(input)
            }
        }
    }
    return SwiftImplementation(info: ImplementationInfo(name: "fake", version: "1", language: "Swift", homepage: "https://example.invalid"),
                               handlers: handlers)
}

func temporaryStore() throws -> ResultsStore {
    try ResultsStore(path: TestScratch.path("differential", "store.sqlite"))
}

/// Serialized: these run synchronously on the test's thread, and the full suite has two cores.
@Suite(.serialized)
struct MutatorTests {
    @Test(arguments: ["ulc.parse", "xcallback.callback", "xignqr.pid", "aasa.validate", "aasa.match", "ulc.handle"])
    func theSameSeedMakesTheSameInputs(operation: String) throws {
        let m = try mutator(operation)
        func inputs(_ seed: UInt64) -> [JSONValue?] {
            var rng = SeededGenerator(seed: seed)
            return (0..<150).map { _ in m.next(&rng) }
        }
        let a = inputs(42), b = inputs(42), c = inputs(43)
        #expect(a == b)
        #expect(a != c, "another seed, other inputs")
        let made = a.compactMap { $0 }
        #expect(made.count > 100, "most attempts give an input of the operation")
        // Every input is one the operation reads, and nearly all are new (a mutation may land
        // on another seed now and then).
        let (_, definition) = try #require(SuiteRegistry.operation(named: operation))
        for input in made { #expect((try? definition.prepare(input)) != nil) }
        #expect(made.filter { m.seeds.contains($0) }.count * 10 < made.count)
    }

    @Test func everyLinkMutationIsDeterministicAndKeepsUTF8() {
        let link = Array("https://app.example.com/logout?a=1&ulc-success=https%3A%2F%2Fs.example%2Fok&ulc-error=https%3A%2F%2Fe.example#frag".utf8)
        let donors = [Array("https://x.example/?x-success=https%3A%2F%2Fd.example&q=%C3%A9".utf8)]
        for mutation in LinkMutation.allCases {
            for seed in 0..<20 as Range<UInt64> {
                var r1 = SeededGenerator(seed: seed), r2 = SeededGenerator(seed: seed)
                let a = LinkMutator.mutate(link, mutation, donors: donors, rng: &r1)
                let b = LinkMutator.mutate(link, mutation, donors: donors, rng: &r2)
                #expect(a == b, "\(mutation)")
                #expect(a != link, "\(mutation) changes the link")
                #expect(String(validating: a, as: UTF8.self) != nil, "\(mutation) keeps UTF-8")
            }
        }
    }

    @Test func namedLinkMutationsDoWhatTheySay() {
        var rng = SeededGenerator(seed: 9)
        let link = Array("https://a.example/x?ulc-success=https%3A%2F%2Fs.example&b=2".utf8)
        let doubled = String(decoding: LinkMutator.mutate(link, .doubleEncode, donors: [], rng: &rng), as: UTF8.self)
        #expect(doubled.contains("%25"))
        let duplicated = String(decoding: LinkMutator.mutate(link, .duplicateItem, donors: [], rng: &rng), as: UTF8.self)
        #expect(duplicated.components(separatedBy: "&").count == 3)
        let big = LinkMutator.mutate(link, .oversize, donors: [], rng: &rng)
        #expect(big.count >= 300)
        let nested = String(decoding: LinkMutator.mutate(link, .nestCallback, donors: [], rng: &rng), as: UTF8.self)
        #expect(nested.count > link.count && nested.hasPrefix("https://a.example/x?"))
    }

    /// The oversize mutation's copies (made by doubling) are the piece repeated, put where the
    /// piece by piece construction put them, for every place and for pieces of 1 to 5 bytes.
    @Test func oversizedPartsAreThePieceRepeatedInPlace() {
        let link = Array("https://a.example/x?q=1".utf8)
        for piece in ["a", "%2", "abc", "&x=1", "%25%2"].map({ Array($0.utf8) }) {
            for copies in [1, 2, 3, 7, 64, 1_000] {
                for at in [0, 1, 9, link.count - 1, link.count] {
                    var expected = Array(link[..<at])
                    for _ in 0..<copies { expected += piece }
                    expected += link[at...]
                    #expect(LinkMutator.repeating(piece, copies, at: at, in: link) == expected, "\(piece) x\(copies) at \(at)")
                }
            }
        }
        #expect(LinkMutator.repeating([], 5, at: 3, in: link) == link)
    }

    /// The node a JSON mutation picks is found by walking to it: the `k`th node of a pre-order
    /// listing of every path (made here the plain way, as the mutator once did), for every `k`.
    @Test func theKthNodeIsTheKthOfThePreOrderListing() throws {
        func listing(_ value: JSONValue, _ prefix: [JSONTextMutator.Step] = [], into out: inout [[JSONTextMutator.Step]]) {
            out.append(prefix)
            switch value {
            case .object(let o): for (i, m) in o.members.enumerated() { listing(m.value, prefix + [.member(i)], into: &out) }
            case .array(let a): for (i, v) in a.enumerated() { listing(v, prefix + [.item(i)], into: &out) }
            default: break
            }
        }
        let texts = [#"{"applinks":{"details":[{"appIDs":["A.b","C.d"],"components":[{"/":"/x/*","?":{"q":"1"}},{"/":"*"}]}]},"webcredentials":{}}"#,
                     "[]", "3", #"[[[[1]]],{"a":[{},[]]},"s"]"#]
        for text in texts {
            let value = try JSONParser.parse(text)
            var expected: [[JSONTextMutator.Step]] = []
            listing(value, into: &expected)
            #expect(JSONTextMutator.nodeCount(value) == expected.count, "\(text)")
            for (k, path) in expected.enumerated() {
                #expect(JSONTextMutator.path(k, in: value) == path, "\(text): node \(k)")
            }
        }
    }

    @Test func jsonMutationsKeepOrBreakTheDocumentDeterministically() {
        let file = #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example"],"components":[{"/":"/help/*"}]}]}}"#
        for mutation in JSONMutation.allCases {
            var r1 = SeededGenerator(seed: 5), r2 = SeededGenerator(seed: 5)
            let a = JSONTextMutator.mutate(file, mutation, donors: [], rng: &r1)
            #expect(a == JSONTextMutator.mutate(file, mutation, donors: [], rng: &r2), "\(mutation)")
            #expect(a != file, "\(mutation) changes the file")
        }
    }
}

struct SignatureTests {
    func trial(_ link: String, answer: JSONValue) async throws -> Judgement {
        let probe = try #require(Probe(operation: "ulc.parse", implementation: fake { _, _ in answer }))
        return try #require(await probe.trial(["link": .string(link)], caseID: "t")).judgement
    }

    @Test func inputsWithOneCauseShareASignature() async throws {
        let wrong: JSONValue = ["kind": "ulc"]
        let a = try await trial("https://app.example.com/logout?ulc-success=http%3A%2F%2Fs.example&ulc-error=https%3A%2F%2Fe.example", answer: wrong)
        let b = try await trial("https://app.example.com/out?x=1&ulc-success=https%3A%2F%2Fs.example&ulc-error=http%3A%2F%2Fe.example%2Fp", answer: wrong)
        guard case .differs(let da) = a, case .differs(let db) = b else { Issue.record("both disagree: \(a) \(b)"); return }
        #expect(da.signature == db.signature)
        #expect(da.signature == "ulc.parse kind [callback-not-https]")
        #expect(da.codes.contains("callback-not-https"))
        // Another cause (a fragment, whatever the callbacks), another signature.
        let c = try await trial("https://app.example.com/logout?ulc-success=https%3A%2F%2Fs.example&ulc-error=https%3A%2F%2Fe.example#x", answer: wrong)
        guard case .differs(let dc) = c else { Issue.record("disagrees: \(c)"); return }
        #expect(dc.signature != da.signature)
        // The reference's own answer agrees.
        let probe = try #require(Probe(operation: "ulc.parse", implementation: SwiftImplementation.reference))
        let same = try #require(await probe.trial(["link": "https://app.example.com/logout?ulc-success=http%3A%2F%2Fs.example"], caseID: "t"))
        #expect(same.judgement == .agrees)
    }

    /// `aasa.match` answers carry no violation codes: without the reference's reason, every wrong
    /// answer was the one signature `aasa.match result []`.
    @Test func anAnswerWithoutCodesIsToldApartByTheReferencesReason() async throws {
        let file = #"{"applinks": {"details": [{"appIDs": ["A.b"], "components": [{"/": "/private/*", "exclude": true}, {"/": "/buy/*"}]}]}}"#
        let alwaysMatch = fake { operation, _ in operation == "aasa.match" ? ["result": "match"] : nil }
        let probe = try #require(Probe(operation: "aasa.match", implementation: alwaysMatch))
        func signature(_ url: String) async throws -> String? {
            let input: JSONValue = ["file": .string(file), "domain": "example.com", "appID": "A.b", "url": .string(url)]
            let trial = try #require(await probe.trial(input, caseID: "t"))
            guard case .differs(let d) = trial.judgement else { return nil }
            return d.signature
        }
        #expect(try await signature("https://example.com/buy/1") == nil)   // the reference says match too
        #expect(try await signature("https://example.com:8443/buy/1") == "aasa.match result [] (no_match: url-port)")
        #expect(try await signature("https://example.com/sell") == "aasa.match result [] (no_match: no-rule-decided)")
        #expect(try await signature("https://example.com/private/1") == "aasa.match result [] (exclude: path-wildcards)")
        // An error does not depend on why the reference answered as it did.
        let (_, match) = try #require(SuiteRegistry.operation(named: "aasa.match"))
        let input: JSONValue = ["file": .string(file), "domain": "example.com", "appID": "A.b", "url": "https://example.com/sell"]
        let reference = ReferenceExpectation(expect: ["result": "no_match"], cause: "no_match: no-rule-decided")
        let errored = Judge.judge(.errored(message: "TypeError: no", detail: nil), operation: "aasa.match", prepared: try match.prepare(input),
                                  reference: reference, levels: [:])
        guard case .differs(let e) = errored else { Issue.record("an error disagrees"); return }
        #expect(e.signature == "aasa.match errored TypeError []")
    }

    /// The assetlinks operations' answers carry no codes either: their causes tell findings apart.
    @Test func anAssetLinksFindingNamesTheReferencesCause() async throws {
        let fingerprint = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
        let file = #"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "com.example.app", "sha256_cert_fingerprints": [""# + fingerprint + #""]}, "relation_extensions": {"delegate_permission/common.handle_all_urls": {"dynamic_app_link_components": [{"/": "/buy/*"}]}}}]"#
        let yes = fake { operation, _ in
            switch operation {
            case "assetlinks.match": ["result": "match"]
            case "assetlinks.verify": ["granted": true]
            default: nil
            }
        }
        let match = try #require(Probe(operation: "assetlinks.match", implementation: yes))
        let verify = try #require(Probe(operation: "assetlinks.verify", implementation: yes))
        func signature(_ probe: Probe, _ input: JSONValue) async throws -> String? {
            let trial = try #require(await probe.trial(input, caseID: "t"))
            guard case .differs(let d) = trial.judgement else { return nil }
            return d.signature
        }
        func url(_ url: String) -> JSONValue {
            ["file": .string(file), "domain": "example.com", "package": "com.example.app", "fingerprint": .string(fingerprint), "url": .string(url)]
        }
        #expect(try await signature(match, url("https://example.com/buy/1")) == nil)
        #expect(try await signature(match, url("https://example.com:8443/buy/1")) == "assetlinks.match result [] (no_match: url-port)")
        #expect(try await signature(match, url("https://example.com/sell")) == "assetlinks.match result [] (no_match: no-component-matched)")
        func package(_ name: String) -> JSONValue {
            ["file": .string(file), "package": .string(name), "fingerprint": .string(fingerprint)]
        }
        #expect(try await signature(verify, package("com.example.app")) == nil)
        #expect(try await signature(verify, package("com.example.other")) == "assetlinks.verify granted [] (package-not-listed)")
    }

    /// A receiver wrong about which links are its logout action gave `ulc.handle userSignedIn []`
    /// for every reason; the reference's reasons for leaving links alone tell them apart.
    @Test func aHandleFindingNamesWhyTheReferenceLeftTheLinksAlone() async throws {
        let logsOut = fake { operation, input in
            guard operation == "ulc.handle" else { return nil }
            let links = input["links"]?.arrayValue?.count ?? 0
            return ["opened": [], "prompts": 0, "backendAttempts": .int(links), "userSignedIn": false, "backendSessionOpen": false,
                    "elapsedSeconds": .array(Array(repeating: 0.2, count: links))]
        }
        let probe = try #require(Probe(operation: "ulc.handle", implementation: logsOut))
        func signature(_ links: [String]) async throws -> String? {
            let input: JSONValue = ["logoutAction": "https://app.example.com/logout", "signedIn": true, "forceQuitBeforeLink": false,
                                    "backend": [["answer": "closed", "seconds": 0.2]], "links": .array(links.map(JSONValue.string)),
                                    "openSucceeds": true]
            let trial = try #require(await probe.trial(input, caseID: "t"))
            guard case .differs(let d) = trial.judgement else { return nil }
            return d.signature
        }
        #expect(try await signature(["myapp://app.example.com/logout?ulc-success"]) == "ulc.handle userSignedIn [] (other-scheme)")
        #expect(try await signature(["https://app.example.com/login?ulc-success"]) == "ulc.handle userSignedIn [] (other-path)")
        // Each reason once, sorted; a logout is not a reason (the field that differs says enough).
        #expect(try await signature(["https://app.example.com/login?ulc-success", "myapp://app.example.com/logout?ulc-success",
                                     "https://app.example.com/login?ulc-success"])
                == "ulc.handle userSignedIn [] (other-path, other-scheme)")
    }

    /// `xcallback.callback` answers carry no codes: every callback the reference refused to open
    /// was `xcallback.callback open []`, a repeated x-success and a refused scheme alike (the audit's
    /// python-urllib D3, marked with a case about form-encoding). The reference's reason tells them apart.
    @Test func aCallbackFindingNamesWhyTheReferenceOpenedNothing() async throws {
        let opensFirst = fake { operation, _ in operation == "xcallback.callback" ? ["open": "m:"] : nil }
        let probe = try #require(Probe(operation: "xcallback.callback", implementation: opensFirst))
        func signature(_ url: String, outcome: String = "success", allowed: [String]? = nil) async throws -> String? {
            var input: JSONValue = ["url": .string(url), "outcome": .string(outcome)]
            if let allowed, case .object(var o) = input {
                o.append("allowedSchemes", .array(allowed.map(JSONValue.string)))
                input = .object(o)
            }
            let trial = try #require(await probe.trial(input, caseID: "t"))
            guard case .differs(let d) = trial.judgement else { return nil }
            return d.signature
        }
        #expect(try await signature("p://x-callback-url?x-success&x-success=m%3A")
                == "xcallback.callback open [] (failed validation: callback-duplicated)")
        #expect(try await signature("p://x-callback-url?x-cancel=m%3A&x-cancel=n%3A", outcome: "cancel")
                == "xcallback.callback open [] (failed validation: callback-duplicated)", "either callback: one cause")
        #expect(try await signature("p://x-callback-url/a") == "xcallback.callback open [] (no callback)")
        #expect(try await signature("p://x-callback-url/a?x-success=other%3A", allowed: ["m"]) == "xcallback.callback open [] (scheme not allowed)")
        #expect(try await signature("https://example.com/a") == "xcallback.callback open [] (not an x-callback-url)")
        // Where the reference opens something there is no reason: the signature stays as it was.
        #expect(try await signature("p://x-callback-url/a?x-success=s%3A") == "xcallback.callback open []")
    }

    @Test func crashesAndMalformedOutputsAreOneSignaturePerOperation() throws {
        let (_, parse) = try #require(SuiteRegistry.operation(named: "ulc.parse"))
        let prepared = try parse.prepare(["link": "https://a.example/?ulc-success=x"])
        let reference = ReferenceExpectation(expect: ["kind": "invalid"], codes: ["ulc-success:callback-not-absolute", "ulc-error:error-missing"])
        let levels: [String: RequirementLevel] = ["callback-not-absolute": .must, "error-missing": .should]
        let crash = Judge.judge(.crashed(message: "died"), operation: "ulc.parse", prepared: prepared, reference: reference, levels: levels)
        let crash2 = Judge.judge(.crashed(message: "died again"), operation: "ulc.parse", prepared: prepared,
                                 reference: ReferenceExpectation(expect: ["kind": "ulc"]), levels: levels)
        guard case .differs(let c1) = crash, case .differs(let c2) = crash2 else { Issue.record("crashes differ"); return }
        #expect(c1.signature == "ulc.parse crashed" && c1.signature == c2.signature)
        let malformed = Judge.judge(.output(["kind": 3]), operation: "ulc.parse", prepared: prepared, reference: reference, levels: levels)
        guard case .differs(let m) = malformed else { Issue.record("malformed differs"); return }
        #expect(m.kind == .malformed && m.signature == "ulc.parse malformed output.kind [callback-not-absolute]")
        #expect(Judge.judge(.skipped(reason: "no"), operation: "ulc.parse", prepared: prepared, reference: reference, levels: levels) == .skipped)
    }

    @Test func anErrorIsTheNameItStartsWithNotItsDetails() throws {
        let (_, parse) = try #require(SuiteRegistry.operation(named: "ulc.parse"))
        let prepared = try parse.prepare(["link": "https://a.example/?ulc-success=x"])
        let reference = ReferenceExpectation(expect: ["kind": "invalid"], codes: ["ulc-success:callback-not-absolute"])
        func signature(_ message: String) -> String? {
            guard case .differs(let d) = Judge.judge(.errored(message: message, detail: nil), operation: "ulc.parse", prepared: prepared,
                                                     reference: reference, levels: ["callback-not-absolute": .must]) else { return nil }
            return d.signature
        }
        // The same error at other positions is one cause; another error is another.
        let a = signature("UnicodeDecodeError: 'utf-8' codec can't decode byte 0xc3 in position 6: invalid continuation byte")
        #expect(a == "ulc.parse errored UnicodeDecodeError [callback-not-absolute]")
        #expect(signature("UnicodeDecodeError: 'utf-8' codec can't decode bytes in position 81-82: unexpected end of data") == a)
        #expect(signature("ValueError: Invalid IPv6 URL") == "ulc.parse errored ValueError [callback-not-absolute]")
        // Messages that do not start with a name keep the signature without one.
        for message in ["not JSON: line 1", "https://a.example: refused", "Expecting value: line 1 column 1", "", ":", "42: too long",
                        "NoSpace:after", String(repeating: "E", count: 65) + ": long"] {
            #expect(signature(message) == "ulc.parse errored [callback-not-absolute]", "\(message)")
        }
        #expect(Judge.errorName("json.decoder.JSONDecodeError: Expecting value") == "json.decoder.JSONDecodeError")
        #expect(Judge.errorName("RecursionError:") == "RecursionError")
        #expect(Judge.errorName(".hidden: x") == nil && Judge.errorName("9lives: x") == nil)
    }

    /// A protocol error on an input whose reference answer would not fit one protocol line is
    /// the reference's fault, and the finding says so; an answer that fits gets no such note.
    @Test func aReferenceAnswerOverTheProtocolLineIsNamedAsTheCause() async throws {
        #expect(Probe.overLongReference(["diagnostics": .array(Array(repeating: "rule-duplicate", count: 10))]) == nil)
        let huge = JSONValue.array(Array(repeating: .string(String(repeating: "x", count: 1_000)), count: 1_100))
        let note = try #require(Probe.overLongReference(["diagnostics": huge]))
        #expect(note.contains("the reference is at fault"))
        // Through a probe: an ordinary reference answer, an adapter's protocol error, no note.
        let probe = try #require(Probe(operation: "ulc.parse", implementation: FixedAnswer(.protocolError(message: "a line over the limit"))))
        let trial = try #require(await probe.trial(["link": "https://a.example/l?ulc-success=https%3A%2F%2Fs.example"], caseID: "t"))
        guard case .differs(let d) = trial.judgement else { Issue.record("differs: \(trial.judgement)"); return }
        #expect(d.kind == .protocolError && d.message == "a line over the limit")
    }
}

/// Answers every request with the same answer, or with what `answering` makes of it.
struct FixedAnswer: Implementation {
    let answering: @Sendable (Request) async -> Answer
    init(_ answer: Answer) { answering = { _ in answer } }
    init(answering: @escaping @Sendable (Request) async -> Answer) { self.answering = answering }
    var displayName: String { "fixed" }
    var window: Int { 1 }
    var notes: [String] { [] }
    func start() async throws(ImplementationError) -> ImplementationInfo {
        ImplementationInfo(name: "fixed", version: "1", language: "Swift", homepage: "https://example.invalid")
    }
    func supports(_ operation: String) -> Bool { true }
    func run(_ request: Request) async -> Answer { await answering(request) }
    func stop() async {}
}

struct MinimiserTests {
    /// ddmin of `input` through `probe`, a candidate kept when it disagrees with `d`'s signature.
    static func minimise(_ input: JSONValue, keeping d: Disagreement, through probe: Probe) async -> (JSONValue, Int) {
        let (small, trials, _) = await Minimiser(maxTrials: 5_000, parallel: 8).minimise(input) { candidates in
            var kept: [Bool] = []
            for c in candidates {
                guard let t = await probe.trial(c, caseID: "m"), case .differs(let d2) = t.judgement else { kept.append(false); continue }
                kept.append(d2.signature == d.signature)
            }
            return kept
        }
        return (small, trials)
    }

    @Test func ddminThroughAFakeImplementationKeepsTheCauseAndDropsTheRest() async throws {
        // Wrong only on links holding an 'é': minimised, the link keeps it and little else.
        let implementation = fake { op, input in
            op == "ulc.parse" && (input["link"]?.stringValue ?? "").contains("é") ? ["kind": "notULC"] : nil
        }
        let probe = try #require(Probe(operation: "ulc.parse", implementation: implementation))
        let link = "https://app.example.com/logout/é/more?x=1&y=2&ulc-success=https%3A%2F%2Fs.example%2Fa%2Fb&ulc-error=https%3A%2F%2Fe.example"
        let first = try #require(await probe.trial(["link": .string(link)], caseID: "t"))
        guard case .differs(let d) = first.judgement else { Issue.record("disagrees"); return }
        let (small, trials) = await Self.minimise(first.input, keeping: d, through: probe)
        let minimised = try #require(small["link"]?.stringValue)
        #expect(trials > 0 && trials <= 5_000)
        #expect(minimised.contains("é") && minimised.contains("ulc-success"))
        // What the signature needs stays (both callbacks: without ulc-error the reference would
        // report error-missing, another signature); the rest goes.
        #expect(minimised.count < link.count * 6 / 10 && !minimised.contains("more") && !minimised.contains("x=1"), "\(minimised)")
        // Still the same disagreement.
        let again = try #require(await probe.trial(small, caseID: "t"))
        guard case .differs(let d3) = again.judgement else { Issue.record("still disagrees"); return }
        #expect(d3.signature == d.signature)
    }

    /// An adapter that errors on every input, with another error where the cause is: the
    /// minimised input keeps the cause it was given (with one signature for every error, it
    /// shrank to whatever still errored).
    @Test func ddminKeepsTheErrorItWasGiven() async throws {
        let errors = FixedAnswer { request in
            (request.input["link"]?.stringValue ?? "").contains("zz")
                ? .errored(message: "AttributeError: 'int' object has no attribute 'get'")
                : .errored(message: "ValueError: cannot read position \(request.caseID.count)")
        }
        let probe = try #require(Probe(operation: "ulc.parse", implementation: errors))
        let link = "https://app.example.com/logout/zz/more?x=1&y=2&ulc-success=https%3A%2F%2Fs.example%2Fa%2Fb&ulc-error=https%3A%2F%2Fe.example"
        let first = try #require(await probe.trial(["link": .string(link)], caseID: "t"))
        guard case .differs(let d) = first.judgement else { Issue.record("disagrees"); return }
        #expect(d.errorName == "AttributeError")
        let (small, _) = await Self.minimise(first.input, keeping: d, through: probe)
        let minimised = try #require(small["link"]?.stringValue)
        #expect(minimised.contains("zz") && minimised.count < link.count, "\(minimised)")
    }

    @Test func ddminFindsTheOneItemThatMatters() async {
        let minimiser = Minimiser(maxTrials: 1_000, parallel: 4)
        let input: JSONValue = ["list": .array((0..<40).map { .string("item\($0)") }), "text": "abcdefXghij"]
        let (small, _, _) = await minimiser.minimise(input) { candidates in
            candidates.map { c in
                (c["list"]?.arrayValue ?? []).contains("item17") && (c["text"]?.stringValue ?? "").contains("X")
            }
        }
        #expect(small == ["list": ["item17"], "text": "X"])
    }

    /// A 64 KiB link that keeps its signature only over a length limit (the reference's
    /// `link-too-long`) cannot shrink: the byte budget stops ddmin after about 1 MiB of
    /// candidates instead of 2,000 candidates of 64 KiB (128 MB).
    @Test func theByteBudgetBoundsAnInputThatCannotShrink() async {
        let link = "https://a.example/?" + String(repeating: "ab=cd&", count: 11_000)
        let input: JSONValue = ["link": .string(link)]
        let limit = 65_000
        let minimiser = Minimiser(maxTrials: 2_000, maxBytes: 1 << 20, parallel: 32)
        let (small, trials, bytes) = await minimiser.minimise(input) { candidates in
            candidates.map { ($0["link"]?.stringValue?.utf8.count ?? 0) >= limit }
        }
        #expect((small["link"]?.stringValue?.utf8.count ?? 0) >= limit)
        // At most the budget and one group's last candidate beyond it.
        #expect(bytes >= 1 << 20 && bytes <= (1 << 20) + link.utf8.count, "\(bytes)")
        #expect(trials < 100, "\(trials)")
        // Without it, 200 candidates already carry several times as much.
        let unbounded = Minimiser(maxTrials: 200, parallel: 32)
        let (_, _, unboundedBytes) = await unbounded.minimise(input) { candidates in
            candidates.map { ($0["link"]?.stringValue?.utf8.count ?? 0) >= limit }
        }
        #expect(unboundedBytes > 4 * (1 << 20), "without it: \(unboundedBytes)")
    }

    /// The heaviest member goes first and a step's lightest candidates first, so a large item
    /// that does not matter is dropped while the budget is small: here 200 KB, three times the
    /// large item.
    @Test func aLargeItemThatDoesNotMatterGoesFirstAndCheaply() async {
        let junk = String(repeating: "z", count: 64_000)
        let input: JSONValue = ["action": "https://a.example/logout", "links": ["https://a.example/x", .string(junk), "keep-me"]]
        let minimiser = Minimiser(maxTrials: 2_000, maxBytes: 200_000, parallel: 32)
        let (small, _, bytes) = await minimiser.minimise(input) { candidates in
            candidates.map { ($0["links"]?.arrayValue ?? []).contains("keep-me") && ($0["action"]?.stringValue ?? "").contains("logout") }
        }
        #expect(small == ["action": "logout", "links": ["keep-me"]], "\(small)")
        #expect(bytes < 200_000, "\(bytes)")
    }
}

struct StoreTests {
    func new(_ signature: String, minimised: String) -> DifferentialFinding.New {
        DifferentialFinding.New(implementation: "impl", implementationVersion: "2", suite: "ulc", operation: "ulc.parse", kind: "differs",
                                signature: signature, fields: ["kind"], referenceCodes: ["ulc-error:callback-not-https"], message: "kind: expected x",
                                input: #"{"link":"a\u0000long one"}"#, minimisedInput: minimised, referenceOutput: #"{"kind":"invalid"}"#,
                                implementationAnswer: #"{"output":{"kind":"ulc"}}"#)
    }

    @Test func findingsRoundTripAndCountUp() throws {
        let store = try temporaryStore()
        let (first, isNew) = try store.recordDifferentialFinding(new("ulc.parse kind [callback-not-https]", minimised: #"{"link":"abc\u0000"}"#))
        #expect(isNew && first.count == 1 && first.status == .open)
        #expect(first.input == #"{"link":"a\u0000long one"}"#, "text with NUL kept whole")
        let (second, isNew2) = try store.recordDifferentialFinding(new("ulc.parse kind [callback-not-https]", minimised: #"{"link":"a"}"#))
        #expect(!isNew2 && second.id == first.id && second.count == 2 && second.minimisedInput == #"{"link":"a"}"#, "the smaller input is kept")
        // What describes the input goes with it: the smaller input's fields, codes and message.
        var smaller = new("ulc.parse kind [callback-not-https]", minimised: #"{"l":1}"#)
        smaller.fields = ["kind", "action"]
        smaller.referenceCodes = ["callback-not-https", "link-invalid-syntax"]
        smaller.message = "kind: expected y"
        let (third, _) = try store.recordDifferentialFinding(smaller)
        #expect(third.minimisedInput == #"{"l":1}"# && third.fields == ["kind", "action"] && third.message == "kind: expected y"
                && third.referenceCodes == ["callback-not-https", "link-invalid-syntax"], "\(third)")
        var larger = new("ulc.parse kind [callback-not-https]", minimised: #"{"link":"abcdef"}"#)
        larger.message = "not kept"
        let (fourth, _) = try store.recordDifferentialFinding(larger)
        #expect(fourth.minimisedInput == #"{"l":1}"# && fourth.message == "kind: expected y", "a larger input changes nothing")
        try store.addDifferentialSightings(implementation: "impl", ["ulc.parse kind [callback-not-https]": 40, "unknown": 3])
        let all = try store.differentialFindings(implementation: "impl")
        #expect(all.count == 1 && all[0].count == 44)
        #expect(all[0].referenceCodes == ["callback-not-https", "link-invalid-syntax"] && all[0].fields == ["kind", "action"])
        #expect(try store.differentialSignatures(implementation: "impl") == ["ulc.parse kind [callback-not-https]"])
        try store.markDifferentialFindingPromoted(id: first.id, caseID: "ulc/parse/x")
        let promoted = try #require(try store.differentialFinding(id: first.id))
        #expect(promoted.status == .promoted && promoted.promotedCase == "ulc/parse/x")
        #expect(try store.differentialFindings(implementation: "other").isEmpty)
    }
}

@Suite(.serialized)
struct FuzzerTests {
    /// Operations take turns in runs: each gets `run` inputs in a row, once in every round of
    /// turns, in an order that changes from round to round and is the same for a seed.
    @Test func operationsTakeTurnsInRuns() {
        let count = 16, run = DifferentialFuzzer.run
        func of(_ index: Int, seed: UInt64 = 9) -> Int { DifferentialFuzzer.operation(of: index, seed: seed, count: count) }
        var orders: Set<[Int]> = []
        for round in 0..<20 {
            let start = round * run * count
            let turns = (0..<count).map { of(start + $0 * run) }
            #expect(Set(turns).count == count, "round \(round): every operation once, \(turns)")
            for (t, operation) in turns.enumerated() {
                #expect((0..<run).allSatisfy { of(start + t * run + $0) == operation }, "a run is one operation")
            }
            orders.insert(turns)
        }
        #expect(orders.count > 10, "the order changes from round to round")
        #expect((0..<2_000).map { of($0) } == (0..<2_000).map { of($0) })
        #expect((0..<2_000).map { of($0) } != (0..<2_000).map { of($0, seed: 10) })
        #expect(DifferentialFuzzer.operation(of: 12_345, seed: 1, count: 1) == 0)
    }

    @Test func theReferenceAgreesWithItselfOnEveryOperation() async throws {
        let operations = SuiteRegistry.all.flatMap(\.operations).map(\.name)
        let fuzzer = DifferentialFuzzer(corpus: repositoryCorpus, operations: operations, implementation: SwiftImplementation.reference,
                                        info: SwiftImplementation.reference.info, store: nil,
                                        options: DifferentialFuzzer.Options(seed: 1, maxInputs: 1_000, window: 16))
        #expect(fuzzer.operations.count == operations.count, "every operation has corpus inputs")
        let summary = try await fuzzer.run()
        #expect(summary.stats.inputs > 800)
        #expect(summary.stats.disagreements == 0, "\(summary.found.map(\.disagreement.signature))")
        // The corpus pass asked every case of these operations, and none disagrees.
        let cases = repositoryCorpus.suites.flatMap(\.cases).filter { operations.contains($0.operation) }
        #expect(summary.stats.corpusCases == cases.count && summary.stats.corpusCasesDone == cases.count)
        #expect(summary.corpusSignatures == [:], "\(summary.corpusSignatures ?? [:])")
    }

    @Test func eachSignatureIsMarkedWithTheFirstCorpusCaseThatShowsIt() async throws {
        // Wrong on every x-callback-url; right on every ULC link.
        let implementation = fake { op, _ in op == "xcallback.parse" ? ["kind": "xcallback"] : nil }
        let operations = ["xcallback.parse", "ulc.parse"]
        let fuzzer = DifferentialFuzzer(corpus: repositoryCorpus, operations: operations, implementation: implementation,
                                        info: implementation.info, store: nil, options: DifferentialFuzzer.Options(seed: 4, maxInputs: 300, window: 8))
        let summary = try await fuzzer.run()
        let shown = try #require(summary.corpusSignatures)
        #expect(!shown.isEmpty && shown.keys.allSatisfy { $0.hasPrefix("xcallback.parse ") }, "\(shown)")
        // Nothing comes before the first x-callback-url case, so its signature is marked with it.
        let cases = repositoryCorpus.suites.flatMap(\.cases).filter { operations.contains($0.operation) }
        let first = try #require(cases.first { $0.operation == "xcallback.parse" })
        let probe = try #require(Probe(operation: "xcallback.parse", implementation: implementation))
        let trial = try #require(await probe.trial(first.input, caseID: first.id))
        guard case .differs(let d) = trial.judgement else { Issue.record("the fake agrees on \(first.id)"); return }
        #expect(shown[d.signature] == first.id)
        // Every case named shows its signature.
        for (signature, id) in shown.prefix(5) {
            let c = try #require(cases.first { $0.id == id })
            let again = try #require(await probe.trial(c.input, caseID: c.id))
            guard case .differs(let d2) = again.judgement else { Issue.record("\(id) agrees"); continue }
            #expect(d2.signature == signature)
        }
        // A signature found while fuzzing carries the case exactly when the corpus shows it.
        #expect(!summary.found.isEmpty)
        #expect(summary.found.allSatisfy { $0.corpusCase == shown[$0.disagreement.signature] })
        #expect(summary.found.contains { $0.corpusCase != nil })

        var options = DifferentialFuzzer.Options(seed: 4, maxInputs: 100, window: 8)
        options.corpusPass = false
        let without = try await DifferentialFuzzer(corpus: repositoryCorpus, operations: operations, implementation: implementation,
                                                   info: implementation.info, store: nil, options: options).run()
        #expect(without.corpusSignatures == nil && without.stats.corpusCases == 0)
        #expect(!without.found.isEmpty && without.found.allSatisfy { $0.corpusCase == nil })
    }

    /// An adapter that dies on every xcallback.build input and answers the rest as the
    /// reference does: the operation is set aside after its crashes, the others go on.
    @Test func anOperationThatKeepsCrashingIsSetAsideAndTheOthersGoOn() async throws {
        var options = DifferentialFuzzer.Options(seed: 5, maxInputs: 600, window: 1)
        options.setAsideAfter = 10
        options.corpusPass = false
        let summary = try await fuzzCrashingOnBuild(options)
        try #require(summary.setAside.count == 1)
        #expect(summary.setAside[0].operation == "xcallback.build" && summary.setAside[0].inputs >= 10)
        let crashes = try #require(summary.found.first { $0.disagreement.signature == "xcallback.build crashed" })
        #expect(crashes.count == 10, "no crash after the tenth")
        // The run went on with xcallback.parse (about half of the 600 inputs made after the set
        // aside); the xcallback.build ones were not made, nor counted.
        #expect(summary.stats.inputs > 200 && summary.stats.inputs < 600, "\(summary.stats.inputs)")
        #expect(summary.found.count == 1, "\(summary.found.map(\.disagreement.signature))")

        options.setAsideAfter = nil
        options.maxInputs = 100
        let never = try await fuzzCrashingOnBuild(options)
        #expect(never.setAside.isEmpty && (never.found.first?.count ?? 0) > 10)
    }

    /// Fuzzes xcallback.build and xcallback.parse with an implementation that dies on every
    /// xcallback.build input and answers the rest as the reference does.
    func fuzzCrashingOnBuild(_ options: DifferentialFuzzer.Options) async throws -> DifferentialFuzzer.Summary {
        let implementation = FixedAnswer { request in
            request.operation == "xcallback.build" ? .crashed(message: "died") : await SwiftImplementation.reference.run(request)
        }
        return try await DifferentialFuzzer(corpus: repositoryCorpus, operations: ["xcallback.build", "xcallback.parse"],
                                            implementation: implementation, info: try await implementation.start(), store: nil, options: options).run()
    }

    /// The same adapter with the corpus pass: xcallback.build is set aside there, after its tenth
    /// crash, with that crash as its finding; its remaining corpus cases are not asked and no
    /// input is made for it, while xcallback.parse is asked every case and fuzzed.
    @Test func anOperationThatKeepsCrashingInTheCorpusPassIsSetAsideThere() async throws {
        var options = DifferentialFuzzer.Options(seed: 5, maxInputs: 200, window: 1)
        options.setAsideAfter = 10
        let summary = try await fuzzCrashingOnBuild(options)
        try #require(summary.setAside.count == 1)
        let aside = summary.setAside[0]
        #expect(aside.operation == "xcallback.build" && aside.corpusPass && aside.inputs >= 10)
        let cases = repositoryCorpus.suites.flatMap(\.cases)
        let buildCases = cases.filter { $0.operation == "xcallback.build" }.count, parseCases = cases.filter { $0.operation == "xcallback.parse" }.count
        #expect(aside.inputs < buildCases, "the rest of its \(buildCases) cases are not asked")
        #expect(summary.stats.corpusCases == buildCases + parseCases && summary.stats.corpusCasesDone == parseCases + aside.inputs)
        let crashes = try #require(summary.found.first { $0.disagreement.signature == "xcallback.build crashed" })
        #expect(crashes.count == 10 && crashes.isNew, "one window at a time: exactly the ten crashes that set it aside")
        #expect(crashes.corpusCase != nil)
        // Only xcallback.parse inputs were made (about half of the 200), and the reference agrees with itself.
        #expect(summary.stats.inputs > 50 && summary.stats.inputs < 200, "\(summary.stats.inputs)")
        #expect(summary.found.count == 1, "\(summary.found.map(\.disagreement.signature))")
    }

    /// An adapter that raises one error on every double encoding: a signature of that error no
    /// case shows is marked with the first case that raises it.
    @Test func anErrorTheCorpusRaisesIsMarkedWithTheCaseThatRaisesIt() async throws {
        let raising = FixedAnswer { request in
            (request.input["link"]?.stringValue ?? "").contains("%25")
                ? .errored(message: "ValueError: nested escape at \(request.caseID.count)")
                : .errored(message: "KeyError: 'ulc-success'")
        }
        let fuzzer = DifferentialFuzzer(corpus: repositoryCorpus, operations: ["ulc.parse"], implementation: raising,
                                        info: ImplementationInfo(name: "fixed", version: "1", language: "Swift", homepage: "https://example.invalid"),
                                        store: nil, options: DifferentialFuzzer.Options(seed: 9, maxInputs: 400, window: 1))
        let summary = try await fuzzer.run()
        let cases = repositoryCorpus.suites.flatMap(\.cases).filter { $0.operation == "ulc.parse" }
        let firstDouble = try #require(cases.first { ($0.input["link"]?.stringValue ?? "").contains("%25") })
        #expect(summary.corpusErrors["ulc.parse errored ValueError"] == firstDouble.id)
        #expect(summary.corpusErrors["ulc.parse errored KeyError"] == cases.first?.id)
        // Every signature is an error the corpus raises: each is shown by a case, or marked with
        // the first case that raises its error (and only then).
        #expect(summary.found.contains { $0.corpusCaseWithSameError != nil }, "\(summary.found.map(\.disagreement.signature))")
        for found in summary.found {
            let key = try #require(found.disagreement.errorKey)
            if found.corpusCase == nil {
                #expect(found.corpusCaseWithSameError == summary.corpusErrors[key] && found.corpusCaseWithSameError != nil)
            } else {
                #expect(found.corpusCaseWithSameError == nil)
            }
        }
    }

    @Test func aFakeThatDisagreesIsFoundMinimisedAndStored() async throws {
        let store = try temporaryStore()
        // Takes every x-callback-url for valid, and dies on pids with a '_'.
        let implementation = fake { op, input in
            if op == "xcallback.parse" { return ["kind": "xcallback"] }
            return nil
        }
        var options = DifferentialFuzzer.Options(seed: 2, maxInputs: 300, window: 8)
        options.minimiseTrials = 200
        let fuzzer = DifferentialFuzzer(corpus: repositoryCorpus, operations: ["xcallback.parse", "ulc.parse"], implementation: implementation,
                                        info: implementation.info, store: store, options: options)
        let summary = try await fuzzer.run()
        #expect(summary.stats.newSignatures > 0)
        #expect(summary.found.allSatisfy { $0.disagreement.operation == "xcallback.parse" }, "ulc.parse agrees")
        let stored = try store.differentialFindings(implementation: "fake")
        #expect(Set(stored.map(\.signature)) == Set(summary.found.map(\.disagreement.signature)))
        #expect(stored.map(\.count).reduce(0, +) == summary.stats.disagreements, "every sighting is counted")
        // Known signatures are not new a second time.
        let again = try await DifferentialFuzzer(corpus: repositoryCorpus, operations: ["xcallback.parse"], implementation: implementation,
                                                 info: implementation.info, store: store, options: options).run()
        #expect(again.stats.newSignatures == 0 || again.found.filter(\.isNew).allSatisfy { !stored.map(\.signature).contains($0.disagreement.signature) })
        // A signature known before the run carries its finding's id (the summary printed `known`).
        let ids = Dictionary(stored.map { ($0.signature, $0.id) }, uniquingKeysWith: { a, _ in a })
        for found in again.found where !found.isNew {
            #expect(found.findingID != nil && found.findingID == ids[found.disagreement.signature], "\(found.disagreement.signature)")
        }
        #expect(again.found.contains { !$0.isNew })
    }

    /// The message, fields and codes stored with a finding are those of the minimised input the
    /// report prints them beside, not of the first input (84 of 210 python-urllib findings had
    /// other codes for the minimised input). The signature is the same for both, by construction.
    @Test func whatIsStoredDescribesTheMinimisedInput() async throws {
        let store = try temporaryStore()
        let implementation = fake { op, _ in op == "ulc.parse" ? ["kind": "ulc"] : nil }
        var options = DifferentialFuzzer.Options(seed: 3, maxInputs: 400, window: 8)
        options.minimiseTrials = 300
        options.corpusPass = false
        let summary = try await DifferentialFuzzer(corpus: repositoryCorpus, operations: ["ulc.parse"], implementation: implementation,
                                                   info: implementation.info, store: store, options: options).run()
        #expect(summary.stats.newSignatures > 0)
        let probe = try #require(Probe(operation: "ulc.parse", implementation: implementation))
        var firstDiffered = 0
        for f in try store.differentialFindings(implementation: "fake") where f.kind == "differs" && f.minimisedInput != f.input {
            let minimised = try #require(await probe.trial(try JSONParser.parse(f.minimisedInput), caseID: "t"))
            guard case .differs(let d) = minimised.judgement else { Issue.record("D\(f.id) agrees when asked again"); continue }
            #expect(d.signature == f.signature)
            #expect(f.referenceCodes == d.codes && f.fields == d.fields && f.message == d.message, "D\(f.id) \(f.signature)")
            let first = try #require(await probe.trial(try JSONParser.parse(f.input), caseID: "t"))
            if case .differs(let d0) = first.judgement, d0.codes != d.codes || d0.message != d.message { firstDiffered += 1 }
        }
        #expect(firstDiffered > 0, "some first input says something else than its minimised one")
    }
}

struct PromotionTests {
    @Test func aPromotedFindingLintsCleanAndJudgesTheImplementation() async throws {
        let root = TestScratch.path("promote", "Corpus")
        try FileManager.default.copyItem(atPath: repositoryCorpus.root, toPath: root)
        let store = try temporaryStore()
        let link = "https://app.example.com/logout?ulc-success=http%3A%2F%2Fs.example&ulc-error=https%3A%2F%2Fe.example"
        let (finding, _) = try store.recordDifferentialFinding(DifferentialFinding.New(
            implementation: "Naïve Impl", implementationVersion: "1", suite: "ulc", operation: "ulc.parse", kind: "differs",
            signature: "ulc.parse kind [callback-not-https]", fields: ["kind"], referenceCodes: ["callback-not-https"], message: "m",
            input: JSONValue.object(JSONObject([.init(key: "link", value: .string(link))])).serialized(),
            minimisedInput: JSONValue.object(JSONObject([.init(key: "link", value: .string(link))])).serialized(),
            referenceOutput: "{}", implementationAnswer: #"{"output":{"kind":"ulc"}}"#))
        let corpus = Corpus.load(from: root)
        let promotion = try await Promotion.prepare(finding, corpus: corpus)
        try promotion.write(corpusRoot: root)
        let after = Corpus.load(from: root)
        #expect(after.errors.isEmpty, "\(after.errors)")
        let added = try #require(after.suites.flatMap(\.cases).first { $0.id == promotion.caseID })
        #expect(added.id == "ulc/parse-callbacks/fuzz-na-ve-impl-d\(finding.id)" || added.id.hasSuffix("fuzz-na-ve-impl-d\(finding.id)"))
        #expect(added.requirement == "ULC-6" && added.polarity == .violating && added.provenance == .regression)
        #expect(added.provenanceSource?.contains("D\(finding.id)") == true)
        // The case fails the implementation's answer and passes the reference's.
        #expect(!added.prepared.compare(added.expect, ["kind": "ulc"]).isEmpty)
        let reference = try await SwiftImplementation.reference.run(Request(caseID: added.id, operation: added.operation, input: added.input))
        guard case .output(let output) = reference else { Issue.record("the reference answers"); return }
        #expect(added.prepared.compare(added.expect, output).isEmpty)
        // A second time: refused, the file unchanged.
        let text = try String(contentsOfFile: promotion.file, encoding: .utf8)
        #expect(throws: Promotion.Failure.self) { try promotion.write(corpusRoot: root) }
        #expect(try String(contentsOfFile: promotion.file, encoding: .utf8) == text)
    }

    /// A hostile adapter's name, version and answer reach the case's title, provenance and note
    /// with every hidden character written visibly, so the case lints clean.
    @Test func aHostileAdaptersFindingIsPromotedWithItsControlsVisible() async throws {
        let root = TestScratch.path("promote-hostile", "Corpus")
        try FileManager.default.copyItem(atPath: repositoryCorpus.root, toPath: root)
        let store = try temporaryStore()
        let link = "https://app.example.com/logout?ulc-success=http%3A%2F%2Fs.example&ulc-error=https%3A%2F%2Fe.example"
        let input = JSONValue.object(JSONObject([.init(key: "link", value: .string(link))])).serialized()
        let (finding, _) = try store.recordDifferentialFinding(DifferentialFinding.New(
            implementation: "evil\u{1B}[2J\nimpl\u{202E}", implementationVersion: "1\r\u{7}", suite: "ulc", operation: "ulc.parse", kind: "crashed",
            signature: "ulc.parse crashed", fields: [], referenceCodes: ["callback-not-https"], message: "m",
            input: input, minimisedInput: input, referenceOutput: "{}", implementationAnswer: "crashed: abort\n\u{1B}]0;pwned\u{7}"))
        let promotion = try await Promotion.prepare(finding, corpus: Corpus.load(from: root))
        let texts = [promotion.caseJSON["title"], promotion.caseJSON["provenance"]?["source"], promotion.caseJSON["note"]].map { $0?.stringValue ?? "" }
        for text in texts {
            #expect(!text.isEmpty && !text.unicodeScalars.contains(where: HiddenCharacters.isHidden), "\(text.debugDescription)")
        }
        #expect(texts[0].hasPrefix(#"evil\x1b[2J\nimpl\u{202E} crashes"#), "\(texts[0])")
        #expect(texts[1].contains(#"1\r\x07"#) && texts[2].contains(#"abort\n\x1b]0;pwned\x07"#))
        try promotion.write(corpusRoot: root)
        let after = Corpus.load(from: root)
        #expect(after.errors.isEmpty, "\(after.errors)")
        #expect(after.suites.flatMap(\.cases).contains { $0.id == promotion.caseID })
    }

    /// `aasa.match` reports no violation: the reviewer names the requirement. The refusal hints
    /// at the requirement of the cases the reference answers for the same reason (here
    /// `no_match: url-port`), and the polarity is the reviewer's where that requirement's cases
    /// have both.
    @Test func aFindingWithoutViolationsTakesTheRequirementTheReviewerNames() async throws {
        let store = try temporaryStore()
        let input: JSONValue = ["file": #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/*"}]}]}}"#,
                                "domain": "example.com", "appID": "ABCDE12345.com.example.app", "url": "https://example.com:444/x"]
        let (finding, _) = try store.recordDifferentialFinding(DifferentialFinding.New(
            implementation: "naive", implementationVersion: "1", suite: "aasa", operation: "aasa.match", kind: "differs",
            signature: "aasa.match result [] (no_match: url-port)", fields: ["result"], referenceCodes: [], message: "m",
            input: input.serialized(), minimisedInput: input.serialized(), referenceOutput: "{}", implementationAnswer: #"{"output":{"result":"match"}}"#))
        let unnamed = await #expect(throws: Promotion.Failure.self) { try await Promotion.prepare(finding, corpus: repositoryCorpus) }
        let text = unnamed?.description ?? ""
        #expect(text.contains("--requirement ID") && text.contains("judge AASA-20 (violating): a hint") && text.contains("  AASA-20 MUST: "), "\(text)")
        let mixed = await #expect(throws: Promotion.Failure.self) {
            try await Promotion.prepare(finding, corpus: repositoryCorpus, requirement: "AASA-20")
        }
        #expect(mixed?.description.contains("both conforming and violating") == true, "\(String(describing: mixed))")
        await #expect(throws: Promotion.Failure.self) { try await Promotion.prepare(finding, corpus: repositoryCorpus, requirement: "AASA-999") }
        let promotion = try await Promotion.prepare(finding, corpus: repositoryCorpus, requirement: "AASA-20", polarity: .violating)
        let written = promotion.caseJSON
        #expect(written["requirement"] == "AASA-20" && written["polarity"] == "violating", "\(written)")
        #expect(written["expect"] == ["result": "no_match"])
        let others = repositoryCorpus.suites.flatMap(\.cases).filter { $0.operation == "aasa.match" && $0.requirement == "AASA-20" && $0.polarity == .violating }
        #expect(others.contains { $0.file == promotion.file })
    }

    /// The audit's python-urllib D3: a repeated x-success, on which the reference opens nothing
    /// and reports no violation. It was promoted as a conforming case of XCB-D7 (form-encoding
    /// results), the most judged conforming requirement of the operation; it is now refused, with
    /// the operation's requirements listed, until the reviewer names one.
    @Test func aFindingWithoutViolationsIsRefusedUntilARequirementIsNamed() async throws {
        let root = TestScratch.path("promote-unnamed", "Corpus")
        try FileManager.default.copyItem(atPath: repositoryCorpus.root, toPath: root)
        let store = try temporaryStore()
        let input: JSONValue = ["url": "p://x-callback-url?x-success&x-success=m%3A", "outcome": "success"]
        let (finding, _) = try store.recordDifferentialFinding(DifferentialFinding.New(
            implementation: "python-urllib", implementationVersion: "1", suite: "xcallback", operation: "xcallback.callback", kind: "differs",
            signature: "xcallback.callback open []", fields: ["open"], referenceCodes: [], message: "m",
            input: input.serialized(), minimisedInput: input.serialized(), referenceOutput: "{}", implementationAnswer: #"{"output":{"open":"m:"}}"#))
        let corpus = Corpus.load(from: root)
        var refusal = ""
        do {
            let promotion = try await Promotion.prepare(finding, corpus: corpus)
            Issue.record("promoted as \(promotion.caseJSON["requirement"] ?? .null) \(promotion.caseJSON["polarity"] ?? .null)")
        } catch {
            refusal = error.description
        }
        #expect(refusal.contains("finds nothing wrong") && refusal.contains("--requirement"), "\(refusal)")
        #expect(refusal.contains("  XCB-D1 ") && refusal.contains("  XCB-D7 "), "the operation's requirements are listed: \(refusal)")
        #expect(!refusal.contains("  ULC-"), "only those of the operation's cases")
        // Named: every xcallback.callback case of XCB-D1 is violating, so the case is too.
        let promotion = try await Promotion.prepare(finding, corpus: corpus, requirement: "XCB-D1")
        #expect(promotion.caseJSON["requirement"] == "XCB-D1" && promotion.caseJSON["polarity"] == "violating", "\(promotion.caseJSON)")
        #expect(promotion.caseJSON["expect"] == ["open": .null])
        try promotion.write(corpusRoot: root)
        #expect(Corpus.load(from: root).errors.isEmpty)
        // A finding whose reference reports violations keeps its requirement: naming another is refused.
        let link: JSONValue = ["link": "https://app.example.com/logout?ulc-success=http%3A%2F%2Fs.example"]
        let (coded, _) = try store.recordDifferentialFinding(DifferentialFinding.New(
            implementation: "x", implementationVersion: "1", suite: "ulc", operation: "ulc.parse", kind: "differs",
            signature: "ulc.parse kind [callback-not-https]", fields: ["kind"], referenceCodes: ["callback-not-https"], message: "m",
            input: link.serialized(), minimisedInput: link.serialized(), referenceOutput: "{}", implementationAnswer: #"{"output":{"kind":"ulc"}}"#))
        await #expect(throws: Promotion.Failure.self) { try await Promotion.prepare(coded, corpus: corpus, requirement: "ULC-1") }
        #expect(try await Promotion.prepare(coded, corpus: corpus).caseJSON["requirement"] == "ULC-6")
    }

    /// A promoted case's note gives the adapter's answer: a traceback's absolute paths are cut to
    /// their file names (the audit's D692 note held /work/audit-fuzz/Adapters/...), an output's
    /// text is kept as it is.
    @Test func aNoteKeepsNoPathOfTheMachineTheAdapterRanOn() async throws {
        let store = try temporaryStore()
        let input: JSONValue = ["link": "https://app.example.com/logout?ulc-success=http%3A%2F%2Fs.example"]
        let traceback = #"Traceback:\n  File "/work/audit-fuzz/Adapters/aasa-regex/../python-common/adapter_protocol.py", line 3, in run\n  File "/usr/lib/python3.12/json/decoder.py", line 9"#
        let answer: JSONValue = ["errored": "TypeError: bad", "detail": ["traceback": .string(traceback)]]
        let (finding, _) = try store.recordDifferentialFinding(DifferentialFinding.New(
            implementation: "p", implementationVersion: "1", suite: "ulc", operation: "ulc.parse", kind: "errored",
            signature: "ulc.parse errored TypeError [callback-not-https]", fields: [], referenceCodes: ["callback-not-https"], message: "m",
            input: input.serialized(), minimisedInput: input.serialized(), referenceOutput: "{}", implementationAnswer: answer.serialized()))
        let note = try #require(try await Promotion.prepare(finding, corpus: repositoryCorpus).caseJSON["note"]?.stringValue)
        #expect(!note.contains("/work/") && !note.contains("/usr/lib"), "\(note)")
        #expect(note.contains(#"File \"adapter_protocol.py\", line 3"#) && note.contains("decoder.py"), "\(note)")
        #expect(Promotion.noteText(#"{"output":{"action":"https://a.example/x/y","value":"/a/b/c"}}"#).contains(#""/a/b/c""#))
    }
}
