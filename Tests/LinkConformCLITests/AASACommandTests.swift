import Foundation
import Testing

/// `linkconform aasa reach|diff` through the binary: output, exit codes, hostile text escaped.
struct AASACommandTests {
    static let app = "ABCDE12345.com.example.app"

    static func file(_ components: String) -> String {
        #"{"applinks": {"details": [{"appIDs": ["\#(app)"], "components": \#(components)}]}}"#
    }

    static func write(_ files: [String: String]) -> String {
        let dir = CLI.temporaryDirectory()
        for (name, text) in files { _ = FileManager.default.createFile(atPath: dir + "/" + name, contents: Data(text.utf8)) }
        return dir
    }

    @Test func diffLostMatchFails() async throws {
        let dir = Self.write(["old.json": Self.file(#"[{"/": "/buy/*"}, {"/": "/help"}]"#),
                              "new.json": Self.file(#"[{"/": "/help", "exclude": true}, {"/": "/buy/*"}]"#)])
        let r = try await CLI.run(["aasa", "diff", dir + "/old.json", dir + "/new.json", "--app-id", Self.app, "--domain", "example.com"])
        #expect(r.status == 1)
        #expect(r.stdout.contains(#"match -> exclude  https://example.com/help  old: #1 {"/":"/help"}  new: #0 {"/":"/help","exclude":true}"#))
    }

    @Test func diffExitCodes() async throws {
        let dir = Self.write(["a.json": Self.file(#"[{"/": "/x/"}]"#), "b.json": Self.file(#"[{"/": "x"}]"#),
                              "c.json": Self.file(#"[{"/": "/x"}, {"/": "/y"}]"#), "bad.json": "{nope"])
        let same = try await CLI.run(["aasa", "diff", dir + "/a.json", dir + "/b.json", "--app-id", Self.app, "--domain", "example.com"])
        #expect(same.status == 0)
        #expect(same.stdout.contains("no change"))
        // Only gains: listed, not failing, unless --fail-on any.
        let gain = try await CLI.run(["aasa", "diff", dir + "/a.json", dir + "/c.json", "--app-id", Self.app, "--domain", "example.com"])
        #expect(gain.status == 0)
        #expect(gain.stdout.contains("no_match -> match  https://example.com/y"))
        let any = try await CLI.run(["aasa", "diff", dir + "/a.json", dir + "/c.json", "--app-id", Self.app, "--domain", "example.com", "--fail-on", "any"])
        #expect(any.status == 1)
        let json = try await CLI.run(["aasa", "diff", dir + "/a.json", dir + "/c.json", "--app-id", Self.app, "--domain", "example.com", "--json"])
        #expect(json.stdout.contains(#""witness": "https://example.com/y""#))
        let bad = try await CLI.run(["aasa", "diff", dir + "/a.json", dir + "/bad.json", "--app-id", Self.app, "--domain", "example.com"])
        #expect(bad.status == 2)
        let missing = try await CLI.run(["aasa", "diff", dir + "/a.json", dir + "/none.json", "--app-id", Self.app, "--domain", "example.com"])
        #expect(missing.status == 2)
        let usage = try await CLI.run(["aasa", "diff", dir + "/a.json", "--app-id", Self.app, "--domain", "example.com"])
        #expect(usage.status == 64)
        let help = try await CLI.run(["aasa", "diff", "--help"])
        #expect(help.stdout.contains("linkconform aasa diff deployed.json candidate.json"))
    }

    @Test func reachAndHostileText() async throws {
        let dir = Self.write(["f.json": Self.file(#"[{"/": "/a/*"}, {"/": "/a/b"}, {"/": "/a/\u001b[31mx", "comment": "x"}, {"/": "/b\u202e"}]"#)])
        let r = try await CLI.run(["aasa", "reach", dir + "/f.json", "--app-id", Self.app, "--domain", "example.com"])
        #expect(r.status == 1)
        #expect(r.stdout.contains("#0 {\"/\":\"/a/*\"}: reachable https://example.com/a"))
        #expect(r.stdout.contains("dead, decided first by #0"))
        #expect(r.stdout.contains("dead, matches no URL"))
        #expect(!r.stdout.contains("\u{1B}"))
        #expect(!r.stdout.contains("\u{202E}"))
    }
}
