import Foundation
import LinkJSON
import Testing

/// What reaches a terminal from outside is shown, never obeyed: `check` shows decoded control
/// and bidi characters as escapes (its JSON keeps them exact), and `run` prints a hostile
/// adapter's name, notes and errors the same way.
struct HostileOutputTests {
    static let fixtures = CLI.repository.appendingPathComponent("Tests/LinkConformCLITests/Fixtures").path
    /// A ULC whose success callback retitles the terminal and whose error callback turns it red,
    /// once decoded; the action's path carries a bidi override, decoded too.
    static let link = "https://app.example.com/l%E2%80%AEogout?ulc-success=https%3A%2F%2Fs.example%2F%1b]0;title%07"
        + "&ulc-error=https%3A%2F%2Fs.example%2F%1b[31m"

    /// Raw control characters (but the line feed), DEL, C1 controls and bidi controls.
    static func raw(_ text: String) -> [UInt32] {
        text.unicodeScalars.map(\.value).filter { v in
            v != 0x0A && (v < 0x20 || (0x7F...0x9F).contains(v) || [0x061C, 0x200E, 0x200F].contains(v)
                          || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v))
        }
    }

    @Test func checkShowsDecodedControlsEscaped() async throws {
        let result = try await CLI.run(["check", Self.link])
        #expect(Self.raw(result.output).isEmpty, "raw: \(Self.raw(result.output).map { String($0, radix: 16) })\n\(result.output)")
        #expect(result.stdout.contains("https://s.example/\\x1b]0;title\\x07"), "\(result.stdout)")
        #expect(result.stdout.contains("https://s.example/\\x1b[31m"))
    }

    @Test func checkJSONKeepsTheExactCharacters() async throws {
        let result = try await CLI.run(["check", "--json", Self.link])
        let json = try JSONParser.parse(result.stdout)
        let fields = json["protocols"]?.arrayValue?.first?["fields"]?.arrayValue ?? []
        let decoded = fields.compactMap { $0["decoded"]?.stringValue }
        #expect(decoded.contains("https://s.example/\u{1B}]0;title\u{07}"), "\(decoded)")
        #expect(decoded.contains("https://s.example/\u{1B}[31m"))
    }

    /// JSON output keeps the values exact, but writes C1 and bidirectional controls as `\u`
    /// escapes, so that the text itself, shown with `cat`, carries none of them raw.
    @Test func checkJSONWritesHiddenCharactersAsEscapes() async throws {
        let result = try await CLI.run(["check", "--json", "https://a.example/x?ulc-success=%c2%9b31m%e2%80%ae&ulc-error=x"])
        #expect(Self.raw(result.stdout).isEmpty, "raw: \(Self.raw(result.stdout).map { String($0, radix: 16) })")
        #expect(result.stdout.contains("\\u009b31m\\u202e"), "\(result.stdout)")
        let json = try JSONParser.parse(result.stdout)
        let fields = json["protocols"]?.arrayValue?.first?["fields"]?.arrayValue ?? []
        #expect(fields.contains { $0["decoded"]?.stringValue == "\u{9B}31m\u{202E}" }, "\(fields)")
        #expect(JSONSerializer.escapingHidden("{\"a\" : \"x\u{9B}\u{7F}\u{2066}é\"}") == "{\"a\" : \"x\\u009b\\u007f\\u2066é\"}")
    }

    @Test func checkShowsRawControlsOfTheLinkItself() async throws {
        let result = try await CLI.run(["check", "https://a.example/\u{1B}[2J\u{202E}x?y=\u{9B}1m"])
        #expect(Self.raw(result.output).isEmpty, "raw: \(Self.raw(result.output).map { String($0, radix: 16) })")
        #expect(result.stdout.contains("https://a.example/\\x1b[2J\\u{202E}x?y=\\u{9B}1m"), "\(result.stdout)")
    }

    @Test func runPrintsAHostileAdapterEscaped() async throws {
        let dir = CLI.temporaryDirectory()
        let adapter = "python3 \(Self.fixtures)/hostile_adapter.py"
        let result = try await CLI.run(["run", "--corpus", CLI.repository.appendingPathComponent("Corpus").path, "--suite", "ulc",
                                        "--db", dir + "/r.sqlite", "--reports", dir, "--no-progress",
                                        "--adapter", adapter, "--adapter", adapter + " exit", "--adapter", adapter + " markup"])
        #expect(result.status == 2, "one adapter never starts: \(result.output)")
        #expect(Self.raw(result.output).isEmpty, "raw: \(Self.raw(result.output).map { String($0, radix: 16) })")
        #expect(result.stdout.contains("hostile\\n# Heading 2.1.0\\r\\n (\\x1b[31mPython\\u{202E})"), "\(result.stdout)")
        #expect(result.stderr.contains("\\x1b]0;pwned\\x07\\x1b[31mred"), "\(result.stderr)")
        let summary = try String(contentsOfFile: dir + "/summary.md", encoding: .utf8)
        #expect(Self.raw(summary).isEmpty)
        #expect(!summary.contains("<script"))
        let json = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/results.json"))))
        #expect(json["implementations"]?.arrayValue?.first?["version"]?.stringValue == "2.1.0\r\n")
        let page = try String(contentsOfFile: dir + "/index.html", encoding: .utf8)
        #expect(Self.raw(page.replacingOccurrences(of: "\t", with: " ")).isEmpty, "raw: \(Self.raw(page).map { String($0, radix: 16) })")
        #expect(HTMLPage.foreignElements(page).isEmpty, "elements from outside: \(HTMLPage.foreignElements(page))")
        #expect(page.contains("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;") && !page.contains("href=\"javascript"))
        #expect(page.contains("hostile\n# Heading") && page.contains(#"\x1b]0;pwned\x07"#), "names and outputs as text")
    }

    /// `fuzz` names the adapter from its handshake on its first line: escaped there as on every
    /// other line (the line feed in the name once went through raw, starting a line of its own),
    /// and in the findings report.
    @Test func fuzzPrintsAHostileAdapterEscaped() async throws {
        let dir = CLI.temporaryDirectory()
        let result = try await CLI.run(["fuzz", "--corpus", CLI.repository.appendingPathComponent("Corpus").path,
                                        "--db", dir + "/f.sqlite", "--reports", dir, "--no-progress", "--seconds", "1",
                                        "--operation", "ulc.parse", "--adapter", "python3 \(Self.fixtures)/hostile_adapter.py"])
        #expect(Self.raw(result.output).isEmpty, "raw: \(Self.raw(result.output).map { String($0, radix: 16) })")
        #expect(result.stderr.contains("fuzzing hostile\\n# Heading 2.1.0\\r\\n against the reference"), "\(result.stderr)")
        #expect(!result.output.split(separator: "\n").contains { $0.hasPrefix("# Heading") }, "\(result.output)")
        let reports = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".md") }
        #expect(reports.count == 1, "\(reports)")
        for file in reports {
            let text = try String(contentsOfFile: dir + "/" + file, encoding: .utf8)
            #expect(Self.raw(text).isEmpty, "raw in \(file): \(Self.raw(text).map { String($0, radix: 16) })")
            #expect(!text.split(separator: "\n").contains { $0.hasPrefix("# Heading") || $0.hasPrefix("# Injected") }, "\(text)")
        }
    }

    /// What was typed comes back in usage errors (the argument library quotes it), and file
    /// names come back in lint's lines: both escaped.
    @Test func usageErrorsAndLintLinesAreEscaped() async throws {
        let hostile = "\u{1B}]0;PWN\u{7}\u{1B}[2J"
        for arguments in [["run", "--suite", hostile], ["report", "--run", hostile], ["report", "--format", hostile], ["corpus", "lint", "--suite", hostile]] {
            let r = try await CLI.run(arguments)
            #expect(r.status == 64, "\(arguments)")
            #expect(!r.stderr.contains("\u{1B}") && !r.stderr.contains("\u{7}") && r.stderr.contains("\\x1b]0;PWN"), "\(arguments): \(r.stderr)")
        }
        let help = try await CLI.run(["corpus", "--help"])
        #expect(help.status == 0 && help.stdout.contains("USAGE: linkconform corpus"), "help still goes to stdout")
        let version = try await CLI.run(["--version"])
        #expect(version.status == 0 && !version.stdout.isEmpty)

        let corpus = CLI.temporaryDirectory() + "/Corpus"
        try FileManager.default.copyItem(atPath: CLI.repository.appendingPathComponent("Corpus").path, toPath: corpus)
        _ = FileManager.default.createFile(atPath: corpus + "/ulc/cases/bad\(hostile).json", contents: Data("{nope".utf8))
        let lint = try await CLI.run(["corpus", "lint", "--corpus", corpus])
        #expect(lint.status == 2)
        #expect(!lint.stdout.contains("\u{1B}") && lint.stdout.contains("bad\\x1b]0;PWN"), "\(lint.stdout)")
    }
}

