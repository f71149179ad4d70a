import AASA
import ArgumentParser
import Foundation
import LinkJSON
import Reports

/// `linkconform aasa`: questions about Apple App Site Association files that validators do not
/// answer: which rules can ever decide (`reach`), and what changed between two versions (`diff`).
struct AASACommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "aasa",
        abstract: "Analyse apple-app-site-association files: reachable rules, changes between versions.",
        discussion: """
            Both answers are computed from the compiled patterns (automata), not by sampling URLs; \
            every URL shown is checked with the matcher. Past the bounds (--max-states product \
            states and --max-cells cells per URL component, --max-combinations), an answer may be \
            "undecided"; see docs/aasa.md.
            """,
        subcommands: [Reach.self, Diff.self])

    struct Common: ParsableArguments {
        @Option(name: .customLong("app-id"), help: ArgumentHelp("The app ID whose rules are used (<prefix>.<bundle id>).", valueName: "id"))
        var appID: String

        @Option(help: ArgumentHelp("The domain the file is served from (the host of the URLs shown).", valueName: "host"))
        var domain: String

        @Flag(help: "Print JSON.")
        var json = false

        @Option(name: .customLong("max-states"), help: ArgumentHelp("Product states explored per URL component.", valueName: "n"))
        var maxStates = AASAReach.Budget.standard.states

        @Option(name: .customLong("max-combinations"), help: ArgumentHelp("Combinations of path, query and fragment classes examined.", valueName: "n"))
        var maxCombinations = AASAReach.Budget.standard.combinations

        @Option(name: .customLong("max-cells"), help: ArgumentHelp("Memory of one URL component's walk, in cells (4 bytes; a product state has one per rule).", valueName: "n"))
        var maxCells = AASAReach.Budget.standard.cells

        var budget: AASAReach.Budget { AASAReach.Budget(states: maxStates, combinations: maxCombinations, cells: maxCells) }

        func validate() throws {
            if maxStates < 1 || maxCombinations < 1 || maxCells < 1 { throw ValidationError("--max-states, --max-combinations and --max-cells must be positive") }
            if domain.isEmpty || domain.contains(where: { "/?#@: ".contains($0) }) { throw ValidationError("--domain takes a host name, such as example.com") }
            if !appID.contains(".") || appID.hasPrefix(".") || appID.hasSuffix(".") || appID.contains(where: \.isWhitespace) {
                throw ValidationError("--app-id takes <prefix>.<bundle id>, such as ABCDE12345.com.example.app")
            }
        }
    }

    /// A file read for `reach` or `diff`: its rules, and whether the system refuses it for its
    /// size (over 128 KB), in which case no rule of it decides anything on a device.
    struct Loaded {
        let path: String
        let file: AASAFile
        let byteCount: Int
        var refusedForSize: Bool { byteCount > aasaPlatformSizeLimit }
        var sizeNote: String {
            "\(Escaping.terminal(path)) has \(byteCount) bytes, over the \(aasaPlatformSizeLimit) (128 KB) the system reads: iOS refuses the whole file, so it opens no URL in the app"
        }
    }

    /// Reads and parses a file; exit 2 when it cannot be read or is not an AASA file.
    static func load(_ path: String) throws -> Loaded {
        guard let data = FileManager.default.contents(atPath: path) else {
            Console.error("cannot read \(Escaping.terminal(path)): no such file, or not readable")
            throw Exit.harness
        }
        guard let file = AASAFile.parse([UInt8](data)).0 else {
            Console.error("cannot read \(Escaping.terminal(path)): not an apple-app-site-association file (not a JSON object)")
            throw Exit.harness
        }
        return Loaded(path: path, file: file, byteCount: data.count)
    }

    /// Exit 2 when none of `files` lists `appID`: a mistyped or unset app ID would otherwise
    /// read as "no change" or "no rule", and a nightly would stay green.
    static func requireListed(_ appID: String, in files: [Loaded]) throws {
        guard !files.contains(where: { $0.file.appIDs.contains(appID) }) else { return }
        let listed = Array(Set(files.flatMap(\.file.appIDs))).sorted()
        let names = files.map { Escaping.terminal($0.path) }
        let subject = names.count == 1 ? "\(names[0]) does not list" : "neither \(names.joined(separator: " nor ")) lists"
        let found = listed.isEmpty ? "it lists no app ID at all"
            : "listed: " + listed.prefix(10).map { Escaping.terminal($0) }.joined(separator: ", ") + (listed.count > 10 ? ", ..." : "")
        Console.error("\(subject) the app ID \(Escaping.terminal(appID)); \(found)")
        throw Exit.harness
    }

    static func place(_ rule: AASARule?, index: Int?) -> String {
        guard let rule, let index else { return "no rule" }
        return "#\(index) " + Escaping.terminal(rule.text)
    }

    /// The members every JSON answer starts with.
    static func header(appID: String, domain: String, complete: Bool) -> JSONObject {
        var o = JSONObject()
        o.append("appID", .string(appID))
        o.append("domain", .string(domain))
        o.append("complete", .bool(complete))
        return o
    }

    static func ruleJSON(_ rule: AASARule?, index: Int?) -> JSONValue {
        guard let rule, let index else { return .null }
        var o = JSONObject()
        o.append("index", .number(Double(index)))
        o.append("pointer", .string(rule.pointer))
        o.append("rule", .string(rule.text))
        o.append("exclude", .bool(rule.exclude))
        return .object(o)
    }

    struct Reach: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reach",
            abstract: "For each rule of an app: a URL it decides, or why it never decides.",
            discussion: """
                Example:
                  linkconform aasa reach apple-app-site-association --app-id ABCDE12345.com.example.app --domain example.com

                One line per rule, in the order the system tries them: "reachable" with a URL \
                that this rule decides (it matches, no earlier rule does), "dead" with the earlier \
                rules that decide every URL it matches (or "matches no URL"), or "undecided" past \
                the bounds. Exit 0 when every rule is reachable, 1 when some rule is dead or \
                undecided or the file is over the 128 KB the system reads (it is then refused \
                whole), 2 when the file cannot be read or does not list the app ID, 64 for a \
                usage error.
                """)

        @Argument(help: ArgumentHelp("The file.", valueName: "file"))
        var file: String

        @OptionGroup var common: Common

        func run() throws {
            let loaded = try AASACommand.load(file)
            try AASACommand.requireListed(common.appID, in: [loaded])
            let report = AASAReach.analyze(loaded.file, appID: common.appID, domain: common.domain, budget: common.budget)
            if common.json {
                var o = AASACommand.header(appID: report.appID, domain: report.domain, complete: report.complete)
                if loaded.refusedForSize { o.append("refusedForSize", .number(Double(loaded.byteCount))) }
                o.append("rules", .array(report.rules.map { r in
                    var x = JSONObject()
                    x.append("index", .number(Double(r.index)))
                    x.append("pointer", .string(r.rule.pointer))
                    x.append("rule", .string(r.rule.text))
                    switch r.verdict {
                    case .reachable(let url):
                        x.append("verdict", "reachable")
                        x.append("witness", .string(url))
                    case .dead(let covers):
                        x.append("verdict", "dead")
                        x.append("coveredBy", .array(covers.map { .number(Double($0)) }))
                    case .undecided(let reason):
                        x.append("verdict", "undecided")
                        x.append("reason", .string(reason))
                    }
                    return .object(x)
                }))
                Console.line(JSONValue.object(o).serialized(pretty: true))
            } else {
                var lines: [String] = []
                if loaded.refusedForSize { lines.append(loaded.sizeNote + "; the rules as they would be read:") }
                if report.rules.isEmpty { lines.append("no rule of the file applies to \(Escaping.terminal(report.appID))") }
                for r in report.rules {
                    let head = place(r.rule, index: r.index)
                    switch r.verdict {
                    case .reachable(let url): lines.append("\(head): reachable \(Escaping.terminal(url))")
                    case .dead(let covers) where covers.isEmpty: lines.append("\(head): dead, matches no URL")
                    case .dead(let covers):
                        let by = covers.map { place(report.rules[$0].rule, index: $0) }.joined(separator: ", ")
                        lines.append("\(head): dead, decided first by \(by)")
                    case .undecided(let reason): lines.append("\(head): undecided (\(Escaping.terminal(reason)))")
                    }
                }
                Console.line(lines.joined(separator: "\n"))
            }
            if loaded.refusedForSize || report.rules.contains(where: { if case .reachable = $0.verdict { false } else { true } }) { throw Exit.failures }
        }
    }

    struct Diff: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "diff",
            abstract: "Every change of answer (match, exclude, no_match) between two versions of a file.",
            discussion: """
                Example (a nightly check before deploying a new file):
                  linkconform aasa diff deployed.json candidate.json --app-id ABCDE12345.com.example.app --domain example.com

                One line per class of URLs whose answer changed: old -> new, a URL of the class, \
                and the deciding rule in each version. Exit 1 when some URL's answer changes from \
                match to something else (a route stops opening the app), or with --fail-on any \
                when anything changed, and when the new version is over the 128 KB the system \
                reads (it refuses the whole file); 0 otherwise; 2 when a file cannot be read or \
                neither version lists the app ID; 64 for a usage error. An incomplete comparison \
                (past the bounds) is said so and exits 1.
                """)

        enum FailOn: String, ExpressibleByArgument, CaseIterable {
            case lostMatch = "lost-match"
            case any
        }

        @Argument(help: ArgumentHelp("The old version.", valueName: "old"))
        var old: String

        @Argument(help: ArgumentHelp("The new version.", valueName: "new"))
        var new: String

        @OptionGroup var common: Common

        @Option(name: .customLong("fail-on"), help: ArgumentHelp("Which changes fail: lost-match (a match that no longer is) or any.", valueName: "which"))
        var failOn: FailOn = .lostMatch

        func run() throws {
            let a = try AASACommand.load(old), b = try AASACommand.load(new)
            try AASACommand.requireListed(common.appID, in: [a, b])
            // A version over 128 KB is refused whole: what it would decide is still compared,
            // and the size is said first (a new version over it loses every match).
            let sizeNotes = [a, b].filter(\.refusedForSize).map(\.sizeNote)
            let report = AASADiff.compare(old: a.file, new: b.file, appID: common.appID, domain: common.domain, budget: common.budget)
            if common.json {
                var o = AASACommand.header(appID: report.appID, domain: report.domain, complete: report.complete)
                o.append("oldRefusedForSize", .bool(a.refusedForSize))
                o.append("newRefusedForSize", .bool(b.refusedForSize))
                o.append("changes", .array(report.changes.map { c in
                    var x = JSONObject()
                    x.append("old", .string(c.old.rawValue))
                    x.append("new", .string(c.new.rawValue))
                    x.append("witness", .string(c.witness))
                    x.append("oldRule", AASACommand.ruleJSON(c.oldRule, index: c.oldIndex))
                    x.append("newRule", AASACommand.ruleJSON(c.newRule, index: c.newIndex))
                    return .object(x)
                }))
                Console.line(JSONValue.object(o).serialized(pretty: true))
            } else {
                var lines = report.changes.map { c in
                    "\(c.old.rawValue) -> \(c.new.rawValue)  \(Escaping.terminal(c.witness))  old: \(AASACommand.place(c.oldRule, index: c.oldIndex))  new: \(AASACommand.place(c.newRule, index: c.newIndex))"
                }
                lines.insert(contentsOf: sizeNotes, at: 0)
                if report.changes.isEmpty { lines.append(Self.unchanged(complete: report.complete, old: a, new: b)) }
                if !report.complete { lines.append("undecided: the comparison stopped at its bounds; other changes may exist (raise --max-states)") }
                Console.line(lines.joined(separator: "\n"))
            }
            // A new version the system refuses for its size loses every match the old one had
            // (unless the old one was refused too).
            let lostToSize = b.refusedForSize && !a.refusedForSize
            let failing = lostToSize || (failOn == .any ? !report.changes.isEmpty : report.changes.contains(where: \.losesMatch))
            if failing || !report.complete { throw Exit.failures }
        }

        /// The line for rules that decide every URL alike: "no change", unless one version is
        /// refused for its size and the other is not, which changes what a device does.
        static func unchanged(complete: Bool, old: Loaded, new: Loaded) -> String {
            let within = complete ? "" : " (within the bounds)"
            if new.refusedForSize && !old.refusedForSize {
                return "the rules decide every URL as before\(within), but iOS refuses the new version: every URL the old one opened in the app opens in the browser"
            }
            if old.refusedForSize && !new.refusedForSize {
                return "the rules decide every URL as before\(within), but iOS refused the old version: every URL the new one matches opens the app, where none did"
            }
            return complete ? "no change" : "no change found within the bounds"
        }
    }
}
