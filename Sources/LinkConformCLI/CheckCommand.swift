import ArgumentParser
import AssetLinks
import Conformance
import Foundation
import LinkJSON
import LinkURL

struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Explain one link (or one document): which protocol, what it asks for, and every rule it breaks.",
        discussion: """
            Examples:
              linkconform check 'https://example.com/logout?ulc-success=...&ulc-error=...'
              linkconform check --json '<link>'
              linkconform check --file link.txt   (raw bytes: invalid UTF-8, any size)
              printf '%s' '<link>' | linkconform check -
              linkconform check --document FILE [--with KEY=VALUE]... [URL...]
              linkconform check --aasa apple-app-site-association --domain example.com \\
                  --app-id ABCDE12345.com.example.app https://example.com/buy/42
              linkconform check --assetlinks assetlinks.json --package com.example.app \\
                  --fingerprint 14:6D:...:E5 https://example.com/products/1
              linkconform check 'https://broker.example/authorize?idp_params=%7B...%7D'
              linkconform check --domain example.com [--app-id ID] \\
                  [--package P --fingerprint F] [URL...]
                  (live: fetches the association files over HTTPS and judges
                  how they are served)

            For each suite that recognises the subject, prints the parts (raw as written and \
            decoded once) and every violation with its requirement id, level and byte offset, \
            then one verdict line. Exit 0 when a suite recognises the subject and it breaks no \
            MUST rule (the JSON's "valid"), 1 otherwise, 2 when the input cannot be read, 64 for \
            a usage error. A live check (--domain without --aasa) prints one verdict per platform \
            and exits 0 when iOS and Android both read their files, 1 otherwise, 2 when the \
            domain cannot be reached at all (docs/live-checks.md).
            """ + "\n\n" + documentHelp(SuiteRegistry.all))

    @Argument(help: ArgumentHelp("The link, or '-' to read it from stdin; with --document, URLs to check against the document.",
                                 valueName: "link"))
    var inputs: [String] = []

    @Option(help: ArgumentHelp("Read the link from a file (its bytes as they are; one trailing newline is ignored).", valueName: "path"))
    var file: String?

    @Option(help: ArgumentHelp("Check a document (an association file) instead of a link.", valueName: "path"))
    var document: String?

    @Option(help: ArgumentHelp("Check an Apple App Site Association file (the aasa suite alone): its diagnostics, then each URL given after it, matched for --app-id on --domain.", valueName: "path"))
    var aasa: String?

    @Option(help: ArgumentHelp("With --aasa or --assetlinks: the host the file is served for (--assetlinks: default each URL's own host). Alone: the domain whose association files are fetched and judged live, over HTTPS.", valueName: "host"))
    var domain: String?

    @Option(help: ArgumentHelp("Check an Android Digital Asset Links statement list (the assetlinks suite alone): its diagnostics, whether --package signed with --fingerprint is verified, then what each URL given after it gets from the dynamic components.", valueName: "path"))
    var assetlinks: String?

    @Option(help: ArgumentHelp("With --assetlinks or a live check (--domain): the Android package name (application ID) to verify.", valueName: "name"))
    var package: String?

    @Option(help: ArgumentHelp("With --assetlinks or a live check (--domain): the SHA-256 fingerprint of the app's signing certificate (AA:BB:..., colons optional, any case).", valueName: "hex"))
    var fingerprint: String?

    @Option(help: ArgumentHelp("With --assetlinks: the relation to verify (default delegate_permission/common.handle_all_urls).", valueName: "relation"))
    var relation: String?

    @Option(name: .customLong("app-id"), help: ArgumentHelp("With --aasa or --domain: the app whose rules the URLs are matched against (<prefix>.<bundle id>).", valueName: "id"))
    var appID: String?

    @OptionGroup(title: "Live checks (--domain without --aasa)")
    var live: LiveCheckOptions

    @Option(name: .customLong("with"), help: ArgumentHelp("A parameter asked of the document (repeatable; the parameters are listed under Documents above).", valueName: "key=value"))
    var with: [String] = []

    @Flag(help: "Print JSON.")
    var json = false

    @Flag(help: ArgumentHelp("List every violation; without it the text lists the first \(CheckRendering.defaultPerCode) of each code and counts the rest (the JSON always lists all)."))
    var all = false

    @Option(help: ArgumentHelp("Corpus folder, for requirement titles.", valueName: "dir"))
    var corpus = "Corpus"

    /// Largest input read from a file or stdin; anything longer is cut and reported as too long.
    static let maxInput = 16 << 20

    /// The document parameters of every suite, for the help text: a parameter several suites
    /// take (`domain`) gets a line for each, and every line is wrapped to fit 80 columns.
    static func documentHelp(_ suites: [SuiteDefinition]) -> String {
        let readers = suites.filter(\.readsDocuments)
        guard !readers.isEmpty else { return "Documents: no suite reads documents yet." }
        var lines = ["Documents (--document), read by: " + readers.map(\.name).joined(separator: ", ") + "; each suite that recognises the document reads it."]
        let parameters = Check.documentParameters(suites: readers)
        lines.append(parameters.isEmpty ? "No --with parameters." : "Parameters (--with KEY=VALUE):")
        let declared = readers.flatMap(\.documentParameters)
        for p in parameters {
            for (i, other) in declared.filter({ $0.name == p.name }).enumerated() {
                let name = i == 0 ? p.name : ""
                lines += wrapped(other.help, first: "  " + name.padding(toLength: 14, withPad: " ", startingAt: 0) + " ", width: 79)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `text` cut at spaces into lines of at most `width` characters, the first after `first`
    /// and the others indented as far (the help's own wrapping would start them at column 0).
    static func wrapped(_ text: String, first: String, width: Int) -> [String] {
        let indent = String(repeating: " ", count: first.count)
        var lines: [String] = [], line = first
        for word in text.split(separator: " ") {
            if line.count > indent.count, line.count + 1 + word.count > width {
                lines.append(line)
                line = indent
            }
            line += (line.count > indent.count ? " " : "") + word
        }
        return lines + [line]
    }

    func validate() throws {
        // An empty value (an unset variable in a CI script) would match nothing and pass quietly.
        for (name, value) in [("--domain", domain), ("--app-id", appID), ("--package", package), ("--fingerprint", fingerprint)] {
            if let value, value.allSatisfy(\.isWhitespace) { throw ValidationError("\(name) is empty") }
        }
        if aasa == nil, assetlinks == nil, let domain {
            if document != nil || file != nil || !with.isEmpty { throw ValidationError("a live check (--domain) takes URLs, not --document, --file or --with") }
            if relation != nil { throw ValidationError("--relation goes with --assetlinks") }
            if (package == nil) != (fingerprint == nil) { throw ValidationError("give --package and --fingerprint together") }
            try live.validate(domain: domain)
            return
        }
        if live.isGiven { throw ValidationError("--ca-file, --port, --resolve and the timeouts go with a live check: --domain without --aasa or --assetlinks") }
        if package != nil || fingerprint != nil || relation != nil, assetlinks == nil {
            throw ValidationError("--package, --fingerprint and --relation go with --assetlinks (--package and --fingerprint also with a live check, --domain)")
        }
        if let relation, let problem = AssetLinksRelationFormat.problem(in: relation) {
            throw ValidationError("--relation '\(relation)' is not a relation (kind/detail, each of a-z, 0-9, _ and .): \(problem)")
        }
        if assetlinks != nil {
            if aasa != nil || document != nil || file != nil { throw ValidationError("give --assetlinks alone, without --aasa, --document or --file") }
            if !with.isEmpty || appID != nil { throw ValidationError("with --assetlinks, give --package and --fingerprint instead of --with or --app-id") }
            if (package == nil) != (fingerprint == nil) { throw ValidationError("verifying an app needs both --package and --fingerprint") }
            if !inputs.isEmpty && package == nil {
                throw ValidationError("matching URLs needs the app: add --package and --fingerprint")
            }
            return
        }
        if aasa != nil {
            if document != nil || file != nil { throw ValidationError("give --aasa alone, without --document or --file") }
            if !with.isEmpty { throw ValidationError("with --aasa, give --domain and --app-id instead of --with") }
            if !inputs.isEmpty && (domain == nil || appID == nil) {
                throw ValidationError("matching URLs needs the host the file is served for and the app: add --domain and --app-id")
            }
            return
        }
        if appID != nil { throw ValidationError("--app-id goes with --aasa or --domain") }
        if document != nil {
            if file != nil { throw ValidationError("give either --document or a link, not both") }
            do {
                try Check.validate(parameters: try Check.parameters(with))
            } catch {
                throw ValidationError(error.message)
            }
            return
        }
        if !with.isEmpty { throw ValidationError("--with asks a question of a document: give --document too") }
        if inputs.count > 1 { throw ValidationError("give one link (URLs after it are for --document)") }
        if inputs.isEmpty == (file == nil) { throw ValidationError("give either a link argument (or '-') or --file") }
    }

    func run() async throws {
        if aasa == nil, assetlinks == nil, let domain {
            try await runLive(domain: domain)
            return
        }
        let subject = try readSubject()
        let suites = aasa != nil ? [AASASuite.definition] : assetlinks != nil ? [AssetLinksSuite.definition] : SuiteRegistry.all
        var rendering = CheckRendering(report: Check.explain(subject, suites: suites), titles: requirementTitles())
        if all { rendering.perCode = nil }
        Console.line(json ? rendering.json().serialized(pretty: true) : rendering.human())
        if rendering.exitCode != 0 { throw ExitCode(rendering.exitCode) }
    }

    func readSubject() throws -> CheckSubject {
        if let aasa {
            var parameters: [String: String] = [:]
            parameters["domain"] = domain
            parameters["app-id"] = appID
            return .document(CheckDocument(path: aasa, bytes: try readFile(aasa, trimNewline: false), parameters: parameters, urls: inputs,
                                           claimed: true))
        }
        if let assetlinks {
            var parameters: [String: String] = [:]
            parameters["package"] = package
            parameters["fingerprint"] = fingerprint
            parameters["relation"] = relation
            parameters["domain"] = domain
            return .document(CheckDocument(path: assetlinks, bytes: try readFile(assetlinks, trimNewline: false), parameters: parameters,
                                           urls: inputs, claimed: true))
        }
        if let document {
            let bytes = try readFile(document, trimNewline: false)
            return .document(CheckDocument(path: document, bytes: bytes, parameters: (try? Check.parameters(with)) ?? [:], urls: inputs))
        }
        if let file { return .link(try readFile(file, trimNewline: true)) }
        if inputs.first == "-" {
            // Standard input that cannot be read (a directory given as `< dir`, a closed
            // descriptor) is an error, not an empty link.
            do {
                return .link(trimmed(try FileHandle.standardInput.read(upToCount: Self.maxInput + 1) ?? Data()))
            } catch {
                var info = stat()
                let directory = fstat(0, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
                Console.error("cannot read the link from standard input: " + (directory ? "it is a directory" : "\(error.localizedDescription)"))
                throw Exit.harness
            }
        }
        return .link(rawArgument(inputs.first ?? ""))
    }

    func readFile(_ path: String, trimNewline: Bool) throws -> [UInt8] {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            Console.error("cannot read \(path): it is a directory; give a file that holds the link")
            throw Exit.harness
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            Console.error("cannot read \(path): no such file, or not readable")
            throw Exit.harness
        }
        let data: Data
        do {
            data = try handle.read(upToCount: Self.maxInput + 1) ?? Data()
        } catch {
            Console.error("cannot read \(path): \(error.localizedDescription)")
            throw Exit.harness
        }
        return trimNewline ? trimmed(data) : [UInt8](data)
    }

    /// One trailing newline (LF or CRLF) removed.
    func trimmed(_ input: Data) -> [UInt8] {
        var data = input
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
}
