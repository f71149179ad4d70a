import ChildProcess
import Foundation
import LinkURL
import SeededRandom
import Testing
@testable import ULC

/// The links ULC.build produces read back the same in the readers apps really use:
/// Foundation's URLComponents, Python's parse_qsl, and WHATWG URLSearchParams (Node).
struct ReaderAgreementTests {
    /// Callback URLs full of the characters that trip encoders: + & = # % ? / : and non-ASCII.
    static let cases: [(success: String, error: String)] = {
        var rng = SeededGenerator(seed: 7)
        let pieces = ["a+b", "x&y=z", "100%25", "%2B", "q?r", "p/q:r", "caf%C3%A9", "~._-", "!$'()*,;", "%2526", "%23frag", "@at"]
        return (0..<200).map { i in
            let s = (0..<3).map { _ in pieces.randomElement(using: &rng)! }
            return ("https://s\(i).example/\(s[0])?k=\(s[1])&m=\(s[2])", "https://e.example/err?code=\(s[1])")
        }
    }()

    static func builtLinks() throws -> [String] {
        try cases.map { try ULC.build(action: "https://app.example.com/logout?force=1", success: $0.success, error: $0.error) }
    }

    @Test func foundationURLComponentsReadsTheBuiltCallbacks() throws {
        for (link, want) in zip(try Self.builtLinks(), Self.cases) {
            let items = URLComponents(string: link)?.queryItems ?? []
            #expect(items.first { $0.name == "ulc-success" }?.value == want.success, "\(link)")
            #expect(items.first { $0.name == "ulc-error" }?.value == want.error, "\(link)")
        }
    }

    @Test(.enabled(if: Self.has("python3"), "python3 is needed for parse_qsl"))
    func pythonParseQslReadsTheBuiltCallbacks() throws {
        let script = """
            import sys, json
            from urllib.parse import urlsplit, parse_qsl
            for line in sys.stdin:
                q = dict(parse_qsl(urlsplit(line.strip()).query, keep_blank_values=True))
                print(json.dumps([q.get("ulc-success"), q.get("ulc-error")]))
            """
        try checkExternalReader(["python3", "-c", script])
    }

    @Test(.enabled(if: Self.has("node"), "node is needed for URLSearchParams"))
    func whatwgURLSearchParamsReadsTheBuiltCallbacks() throws {
        let script = """
            const lines = require('fs').readFileSync(0, 'utf8').split('\\n').filter(l => l);
            for (const l of lines) { const p = new URL(l).searchParams; console.log(JSON.stringify([p.get('ulc-success'), p.get('ulc-error')])); }
            """
        try checkExternalReader(["node", "-e", script])
    }

    func checkExternalReader(_ command: [String]) throws {
        let links = try Self.builtLinks()
        let output = try Self.run(command, input: links.joined(separator: "\n") + "\n")
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.count == links.count)
        for (line, want) in zip(lines, Self.cases) {
            let pair = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String]
            #expect(pair == [want.success, want.error], "\(command[0]) read \(line)")
        }
    }

    static func has(_ tool: String) -> Bool {
        (try? run(["sh", "-c", "command -v \(tool)"], input: "")) != nil
    }

    static func run(_ command: [String], input: String) throws -> String {
        // Close-on-exec pipes (CapturedCommand): a child another test starts meanwhile cannot
        // hold this one's output open.
        let result = try CapturedCommand.run(command, input: Array(input.utf8))
        guard result.status == 0 else { throw CocoaError(.executableLoad) }
        return String(decoding: result.stdout, as: UTF8.self)
    }
}
