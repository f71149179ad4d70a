import Foundation
import LinkJSON
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
        let started = Date()
        let result = try await CLI.run(["check", "--file", path])
        #expect(Date().timeIntervalSince(started) < 20)
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
    }
}
