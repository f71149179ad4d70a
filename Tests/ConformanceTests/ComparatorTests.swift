import AASA
import AssetLinks
import Foundation
import LinkJSON
import Testing
@testable import Conformance

/// How outputs are judged against expectations, operation by operation.
struct ComparatorTests {
    let parse = ULCSuite.definition.operation(named: "ulc.parse")!
    let build = ULCSuite.definition.operation(named: "ulc.build")!
    let handle = ULCSuite.definition.operation(named: "ulc.handle")!
    /// Inputs the comparisons read (the parse comparison reads none, but every input is read).
    let link: JSONValue = ["link": "https://a.example/l?ulc-success=https%3A%2F%2Fs.example"]
    let scenario: JSONValue = ["logoutAction": "https://a.example/l", "signedIn": true, "links": ["https://a.example/l"]]

    @Test func parseViolationsCompareAsSetsOnlyWhenReported() {
        let expect: JSONValue = ["kind": "invalid", "violations": ["a", "b"]]
        #expect(parse.compare(expect, ["kind": "invalid", "violations": ["b", "a"]], link).isEmpty)
        #expect(parse.compare(expect, ["kind": "invalid"], link).isEmpty, "an adapter may report no violations")
        #expect(parse.compare(expect, ["kind": "invalid", "violations": [["key": "a"]]], link).count == 1)
        #expect(parse.compare(expect, ["kind": "invalid", "violations": [["code": "a"], ["code": "x", "parameter": "p"]]], link)
            .first?.actual == "missing b; unexpected p:x")
    }

    @Test func longKeyListsCompareAsSetsAndAMismatchNamesABoundedNumber() {
        let expect: JSONValue = ["kind": "invalid", "violations": ["a", "b"]]
        // 50,000 keys reported: compared through sets, not pair by pair.
        let many = (0..<50_000).map { JSONValue.string("k\($0)") }
        let found = parse.compare(expect, ["kind": "invalid", "violations": .array(many + ["a", "b"])], link)
        #expect(found.count == 1)
        let text = found.first?.description ?? ""
        #expect(text.contains("and 49980 more"), "\(text.prefix(300))")
        #expect(text.utf8.count < 1_000)
        // The same keys, in another order and repeated: equal as sets.
        let same: [JSONValue] = (0..<2_000).map { _ in "b" } + ["a"]
        #expect(parse.compare(expect, ["kind": "invalid", "violations": .array(same)], link).isEmpty)
        #expect(listed(Set(["z", "y"])) == "y, z")
    }

    @Test func nullExpectationMeansAbsent() {
        #expect(parse.compare(["kind": "ulc", "success": nil], ["kind": "ulc"], link).isEmpty)
        #expect(parse.compare(["kind": "ulc", "success": nil], ["kind": "ulc", "success": "x"], link).count == 1)
    }

    @Test func roundTripRejectsALinkThatFormReadersMisread() {
        let input: JSONValue = ["action": "https://a.example/l", "success": "https://s.example/a+b", "error": "https://e.example"]
        let good: JSONValue = ["link": "https://a.example/l?ulc-success=https%3A%2F%2Fs.example%2Fa%2Bb&ulc-error=https%3A%2F%2Fe.example"]
        let plus: JSONValue = ["link": "https://a.example/l?ulc-success=https%3A%2F%2Fs.example%2Fa+b&ulc-error=https%3A%2F%2Fe.example"]
        #expect(build.compare(["roundTrip": true], good, input).isEmpty)
        #expect(!build.compare(["roundTrip": true], plus, input).isEmpty)
        #expect(!build.compare(["roundTrip": true], ["refused": []], input).isEmpty)
        #expect(build.compare(["refused": true], ["refused": []], input).isEmpty)
    }

    @Test func handleChecksEachGivenKey() {
        let actual: JSONValue = ["opened": [["url": "https://s", "universalLinksOnly": false, "atSeconds": 1]], "prompts": 0,
                                 "backendAttempts": 2, "userSignedIn": false, "backendSessionOpen": false, "elapsedSeconds": [21]]
        #expect(handle.compare(["opened": ["https://s"]], actual, scenario).isEmpty)
        #expect(handle.compare(["universalLinksOnly": true], actual, scenario).count == 1)
        #expect(handle.compare(["maxElapsedSeconds": 20], actual, scenario).count == 1)
        #expect(handle.compare(["minBackendAttempts": 3], actual, scenario).count == 1)
        #expect(handle.compare(["maxBackendAttempts": 2, "prompts": 0], actual, scenario).isEmpty)
    }

    @Test func anOutputThatDoesNotReadIsOneMalformedMismatch() {
        let found = parse.compare(["kind": "ulc"], ["kind": "ulc", "success": 7], link)
        #expect(found == [Mismatch(malformedOutput: JSONFieldError(path: [.key("output"), .key("success")], problem: "expected a string, found the number 7"))])
        // Members the operation does not read are ignored; null is absent.
        #expect(parse.compare(["kind": "ulc", "success": nil], ["kind": "ulc", "success": nil, "raw": ["x": 1]], link).isEmpty)
    }

    @Test func shapesNameTheOffendingField() {
        let shape = JSONShape.object(["link": .string, "n": .numberIn(0...5)], required: ["link"])
        let problems = shape.problems(in: ["n": 9, "extra": true])
        #expect(problems.map(\.pointer).sorted() == ["/extra", "/link", "/n"])
        #expect(problems.first { $0.pointer == "/n" }?.message == "expected a number from 0 to 5, found the number 9")
    }

    @Test func sha256MatchesKnownVectors() {
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex([UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Array(String(repeating: "a", count: 1_000).utf8)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    @Test func everyOperationHasAReferenceHandler() {
        #expect(SuiteRegistry.all.flatMap(\.operations).count >= 8)
        for suite in SuiteRegistry.all {
            for op in suite.operations { #expect(suite.reference[op.name] != nil, "\(op.name)") }
        }
    }

    /// The reference's answers to the largest hostile x-callback links (64 KiB of parameters)
    /// fit the adapter protocol's 1 MiB line, so the reference never disagrees with itself
    /// over the protocol (found by differential fuzzing: listing every violation made 3 MB).
    @Test func theReferencesLargestXCallbackAnswersFitOneProtocolLine() async throws {
        let handler = try #require(XCallbackSuite.definition.reference["xcallback.parse"])
        let base = "myapp://x-callback-url/act?x-success=https%3A%2F%2Fa.example&"
        for item in ["a=1+1", "x-%d=+", "%d=+", "a", "%01=%01"] {
            var url = base
            var n = 0
            while url.utf8.count < 65_400 {
                url += (n == 0 ? "" : "&") + item.replacingOccurrences(of: "%d", with: String(n, radix: 16))
                n += 1
            }
            var line: [UInt8] = []
            JSONSerializer.write(try await handler(["url": .string(url)]), to: &line)
            #expect(line.count < 1 << 20, "\(item): \(line.count) bytes")
        }
    }

    /// The same for `mitid.authorize`: a 64 KB authorize URL of 7,700 unknown `mitid` keys (the
    /// JSON's quotes and colons left raw, so that the most keys fit) answered 1.3 MB.
    @Test func theReferencesLargestMitIDAnswersFitOneProtocolLine() async throws {
        let handler = try #require(MitIDSuite.definition.reference["mitid.authorize"])
        let members = (0..<7_700).map { "\"\(String($0, radix: 16))\":1" }.joined(separator: ",")
        let url = "https://broker.example/authorize?client_id=app&idp_params={\"mitid\":{\"enable_app_switch\":true,\(members)}}"
        #expect(url.utf8.count < 65_536)
        var line: [UInt8] = []
        let output = try await handler(["url": .string(url)])
        JSONSerializer.write(output, to: &line)
        #expect(line.count < 1 << 20, "\(line.count) bytes")
        #expect(output["violations"]?.arrayValue?.count ?? 0 < 64)
    }

    /// The reference's `validate` answers for files with thousands of problems fit the adapter
    /// protocol's 1 MiB line (found by differential fuzzing: ten thousand repeated AASA paths
    /// gave 1.5 MB), and still name every code found, which is what judging compares.
    @Test func theReferencesLargestDocumentAnswersFitOneProtocolLine() async throws {
        let app = "ABCDE12345.com.example.app"
        // Every path repeated (rule-duplicate), objects among the paths (paths-wrong-type), a
        // key of control characters in every component (its pointer is six times as long in
        // JSON), and a pattern too long to quote.
        let longKey = String(repeating: "\\u0001", count: 4_000)   // escaped in the file's text
        let component = "{\"/\": \"/b\", \"\(longKey)\": 1}"
        let aasa = "{\"applinks\":{\"apps\":[],\"details\":[{\"appID\":\"\(app)\",\"paths\":["
            + Array(repeating: "\"/a\", {\"x\": 1}", count: 20_000).joined(separator: ",")
            + ",\"/" + String(repeating: "p", count: 60_000) + "\"]}, {\"appIDs\":[\"\(app)\"],\"components\":["
            + Array(repeating: component, count: 25).joined(separator: ",") + "]}]}}"   // 960 KB: under the 1 MiB the module reads
        var statements: [String] = []
        for i in 0..<5_000 {   // 850 KB: under the 1 MiB the module reads
            // A malformed fingerprint, or an unknown key whose name is a long run of escapes.
            statements.append(i % 2 == 0
                ? "{\"relation\":[\"delegate_permission/common.handle_all_urls\"],\"target\":{\"namespace\":\"android_app\",\"package_name\":\"a.b\(i)\",\"sha256_cert_fingerprints\":[\"no\"]}}"
                : "{\"\(String(repeating: "\\u0001", count: 20))\(i)\":1}")
        }
        let assetLinks = "[" + statements.joined(separator: ",") + "]"
        for (operation, file) in [("aasa.validate", aasa), ("assetlinks.validate", assetLinks)] {
            let (suite, _) = try #require(SuiteRegistry.operation(named: operation))
            let handler = try #require(suite.reference[operation])
            let output = try await handler(["file": .string(file)])
            var line: [UInt8] = []
            JSONSerializer.write(output, to: &line)
            #expect(line.count < 1 << 20, "\(operation): \(line.count) bytes")
            let items = try #require(output.objectValue?["diagnostics"]?.arrayValue)
            let codes = items.compactMap { $0.objectValue?["code"]?.stringValue }
            var perCode: [String: Int] = [:]
            for code in codes { perCode[code, default: 0] += 1 }
            #expect(perCode.values.allSatisfy { $0 <= 32 }, "\(operation): \(perCode)")
            // The codes of the whole list, uncut.
            let all: Set<String> = operation == "aasa.validate"
                ? Set(AASA.validate(Array(file.utf8)).map(\.code.rawValue))
                : Set(AssetLinks.validate(Array(file.utf8)).map(\.code.rawValue))
            #expect(Set(codes) == all, "\(operation)")
            #expect(all.count > 1, "\(operation): \(all.sorted())")
            // The last item of a code that had more says how many.
            let noted = items.filter { ($0.objectValue?["message"]?.stringValue ?? "").contains("more \(operation == "aasa.validate" ? "rule-duplicate" : "fingerprint-malformed") diagnostics not listed") }
            #expect(noted.count == 1, "\(operation)")
            for item in items {
                #expect((item.objectValue?["message"]?.stringValue ?? "").utf8.count <= 1_024 + 200)
                #expect((item.objectValue?["pointer"]?.stringValue ?? "").utf8.count <= 1_024)
            }
        }
    }
}
