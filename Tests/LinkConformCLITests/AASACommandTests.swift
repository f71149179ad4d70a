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

    /// A version over 128 KB is refused whole by the system: diff fails when the new one is,
    /// reach says so and fails; an app ID neither file lists is an error, not "no change".
    @Test func sizeAndUnlistedAppIDs() async throws {
        let small = Self.file(#"[{"/": "/buy/*"}]"#)
        let big = Self.file(#"[{"/": "/buy/*", "comment": "\#(String(repeating: "a", count: 131_072))"}]"#)
        let dir = Self.write(["small.json": small, "big.json": big])
        let args = ["--app-id", Self.app, "--domain", "example.com"]
        let grown = try await CLI.run(["aasa", "diff", dir + "/small.json", dir + "/big.json"] + args)
        #expect(grown.status == 1)
        #expect(grown.stdout.contains("big.json has 131") && grown.stdout.contains("iOS refuses the whole file"), "\(grown.stdout)")
        // The rules themselves are the same, but a refused file is a change on a device: not "no change".
        #expect(!grown.stdout.contains("no change"), "\(grown.stdout)")
        #expect(grown.stdout.contains("the rules decide every URL as before, but iOS refuses the new version"), "\(grown.stdout)")
        let shrunk = try await CLI.run(["aasa", "diff", dir + "/big.json", dir + "/small.json"] + args)
        #expect(shrunk.status == 0)
        #expect(!shrunk.stdout.contains("no change") && shrunk.stdout.contains("but iOS refused the old version"), "\(shrunk.stdout)")
        let bothBig = try await CLI.run(["aasa", "diff", dir + "/big.json", dir + "/big.json"] + args)
        #expect(bothBig.status == 0 && bothBig.stdout.contains("no change"), "\(bothBig.stdout)")
        let json = try await CLI.run(["aasa", "diff", dir + "/small.json", dir + "/big.json", "--json"] + args)
        #expect(json.status == 1 && json.stdout.contains(#""newRefusedForSize": true"#))
        let reach = try await CLI.run(["aasa", "reach", dir + "/big.json"] + args)
        #expect(reach.status == 1)
        #expect(reach.stdout.contains("iOS refuses the whole file") && reach.stdout.contains("reachable https://example.com/buy"))
        let typo = try await CLI.run(["aasa", "diff", dir + "/small.json", dir + "/small.json", "--app-id", "ABCDE12345.com.example.ap", "--domain", "example.com"])
        #expect(typo.status == 2)
        #expect(typo.stderr.contains("neither") && typo.stderr.contains("listed: ABCDE12345.com.example.app"), "\(typo.stderr)")
        let typoReach = try await CLI.run(["aasa", "reach", dir + "/small.json", "--app-id", "X.y", "--domain", "example.com"])
        #expect(typoReach.status == 2 && typoReach.stderr.contains("does not list the app ID X.y"))
        let empty = try await CLI.run(["aasa", "reach", dir + "/small.json", "--app-id", "", "--domain", "example.com"])
        #expect(empty.status == 64)
        // check: the file's diagnostics still come, and no URL matches.
        let check = try await CLI.run(["check", "--aasa", dir + "/big.json", "https://example.com/buy/1"] + args)
        #expect(check.stdout.contains("file-too-large") && check.stdout.contains("no_match"), "\(check.stdout)")
        #expect(check.stdout.contains("refuses a file over 128 KB"))
        let blank = try await CLI.run(["check", "--aasa", dir + "/small.json", "--domain", "", "--app-id", Self.app, "https://example.com/buy/1"])
        #expect(blank.status == 64 && blank.stderr.contains("--domain is empty"))
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
