import ArgumentParser
import Conformance
import Foundation
import LinkJSON
import LinkURL

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Explain one link: which protocol, what it asks for, and every rule it breaks.",
        discussion: """
            Examples:
              linkconform check 'https://cisco.webex.com/logout?ulc-success=https%3A%2F%2Fsampledomain.com%2Fsuccess&ulc-error=https%3A%2F%2Fsampledomain.com%2Ferror'
              linkconform check --json '<link>'
              linkconform check --file link.txt        (raw bytes: invalid UTF-8 and huge links welcome)
              printf '%s' '<link>' | linkconform check -

            For each protocol that recognises the link, prints the parts (raw and decoded) and every \
            violation with its requirement id, level and byte offset. Exit 0 when a protocol \
            recognises the link and it breaks no MUST rule, 1 otherwise, 2 when the input cannot be read.
            """)

    @Argument(help: ArgumentHelp("The link, or '-' to read it from stdin.", valueName: "link"))
    var link: String?

    @Option(help: ArgumentHelp("Read the link from a file (its bytes as they are; one trailing newline is ignored).", valueName: "path"))
    var file: String?

    @Flag(help: "Print JSON.")
    var json = false

    @Option(help: ArgumentHelp("Corpus folder, for requirement titles.", valueName: "dir"))
    var corpus = "Corpus"

    /// Largest input read from a file or stdin; anything longer is cut and reported as too long.
    static let maxInput = 16 << 20

    func validate() throws {
        if (link == nil) == (file == nil) { throw ValidationError("give either a link argument (or '-') or --file") }
    }

    func run() throws {
        let bytes = try readInput()
        let explanations = SuiteRegistry.all.compactMap { $0.explain(bytes) }
        let url = LinkURL(parsing: bytes)
        let titles = requirementTitles()
        if json {
            var root = JSONObject()
            root["link"] = .string(shown(bytes))
            root["bytes"] = .int(bytes.count)
            root["recognized"] = .bool(!explanations.isEmpty)
            root["valid"] = .bool(explanations.contains { $0.valid })
            root["url"] = urlJSON(url)
            root["protocols"] = .array(explanations.map { explanation in
                var o = explanation.json.objectValue ?? JSONObject()
                o["violations"] = .array((o["violations"]?.arrayValue ?? []).map { v in
                    var item = v.objectValue ?? JSONObject()
                    item["title"] = .string(titles[item["requirement"]?.stringValue ?? ""])
                    return .object(item)
                })
                return .object(o)
            })
            Console.line(JSONValue.object(root).serialized(pretty: true))
        } else {
            printHuman(bytes, url, explanations, titles)
        }
        if !explanations.contains(where: { $0.valid }) { throw Exit.failures }
    }

    func readInput() throws -> [UInt8] {
        var data: Data
        if let file {
            guard let handle = FileHandle(forReadingAtPath: file) else {
                Console.error("cannot read \(file)")
                throw Exit.harness
            }
            data = (try? handle.read(upToCount: Self.maxInput + 1)) ?? Data()
        } else if link == "-" {
            data = (try? FileHandle.standardInput.read(upToCount: Self.maxInput + 1)) ?? Data()
        } else {
            return rawArgument(link ?? "")
        }
        if data.last == 0x0A { data.removeLast() }
        if data.last == 0x0D { data.removeLast() }
        return [UInt8](data)
    }

    /// The argument's bytes as the shell passed them (Swift repairs invalid UTF-8 in
    /// `CommandLine.arguments`; the raw `argv` keeps it).
    func rawArgument(_ argument: String) -> [UInt8] {
        for i in 1..<Int(CommandLine.argc) {
            guard let pointer = CommandLine.unsafeArgv[i] else { continue }
            let raw = Array(UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer)))
            if String(decoding: raw, as: UTF8.self) == argument { return raw }
        }
        return Array(argument.utf8)
    }

    func requirementTitles() -> [String: String] {
        let loaded = Corpus.load(from: corpus)
        var titles: [String: String] = [:]
        for suite in loaded.suites { for r in suite.registry.requirements { titles[r.id] = r.title } }
        return titles
    }

    /// The link for display: invalid UTF-8 repaired, long links shortened.
    func shown(_ bytes: [UInt8]) -> String {
        let limit = 300
        let head = String(decoding: bytes.prefix(limit), as: UTF8.self)
        return bytes.count <= limit ? head : head + "... (\(bytes.count) bytes)"
    }

    func urlJSON(_ url: LinkURL) -> JSONValue {
        var o = JSONObject()
        for component in URLComponent.allCases {
            if let text = url.text(of: component) {
                o[component.rawValue] = .string(text.count > 300 ? String(text.prefix(297)) + "..." : text)
            }
        }
        o["diagnostics"] = .array(url.diagnostics.map { d in
            ["code": .string(d.code.rawValue), "offset": .int(d.offset), "component": .string(d.component?.rawValue), "message": .string(d.message)]
        })
        if url.droppedDiagnostics > 0 { o["moreDiagnostics"] = .int(url.droppedDiagnostics) }
        return .object(o)
    }

    func printHuman(_ bytes: [UInt8], _ url: LinkURL, _ explanations: [LinkExplanation], _ titles: [String: String]) {
        Console.line(shown(bytes))
        if explanations.isEmpty {
            Console.line("not a link of any protocol LinkConform checks: " + SuiteRegistry.all.map { "\($0.name) reads \($0.recognizes)" }.joined(separator: "; "))
            if url.isOverLimit {
                Console.line("  the link is over the \(URLLimits.default.maxLength)-byte limit and was not split")
            } else {
                for component in URLComponent.allCases {
                    if let text = url.text(of: component) { Console.line("  \(component.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)) \(text)") }
                }
            }
            for d in url.diagnostics { Console.line("  syntax: \(d.message)") }
            return
        }
        for e in explanations {
            Console.line("\(e.suite): \(e.verdict)")
            for field in e.fields {
                let width = max(12, e.fields.map(\.label.count).max() ?? 0)
                let label = field.label.padding(toLength: width, withPad: " ", startingAt: 0)
                switch (field.raw, field.decoded) {
                case (nil, _): Console.line("  \(label) (absent)")
                case (let raw?, nil): Console.line("  \(label) \(raw)")
                case (let raw?, let decoded?):
                    Console.line("  \(label) raw      \(raw)")
                    Console.line("  \(String(repeating: " ", count: width)) decoded  \(decoded)")
                }
            }
            if e.violations.isEmpty {
                Console.line("  violations   none")
                continue
            }
            Console.line("  violations (\(e.violations.count)):")
            for v in e.violations {
                let at = v.offset.map { " at byte \($0)" } ?? ""
                let title = titles[v.requirement].map { " (\($0))" } ?? ""
                Console.line("    \(v.requirement) \(v.level.rawValue)\(title): \(v.code)\(at)")
                Console.line("      \(v.message)")
            }
        }
    }
}
