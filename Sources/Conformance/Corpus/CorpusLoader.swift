import Crypto
import Foundation
import LinkJSON

/// Reads suite folders, checks every field, and collects located problems.
struct CorpusLoader {
    let root: String
    var issues: [CorpusIssue] = []
    private var hashed: [(path: String, bytes: [UInt8])] = []

    init(root: String) { self.root = root }

    mutating func issue(_ severity: CorpusIssue.Severity, file: String, line: Int = 1, column: Int = 1, field: String = "", message: String) {
        issues.append(CorpusIssue(severity, file: file, line: line, column: column, field: field, message: message))
    }

    mutating func issue(_ severity: CorpusIssue.Severity, _ file: String, _ locations: JSONLocations, _ pointer: String, _ message: String) {
        let (line, column) = locations.nearestLocation(of: pointer)
        issue(severity, file: file, line: line, column: column, field: readableField(pointer), message: message)
    }

    var errorCount: Int { issues.count { $0.severity == .error } }

    func path(_ parts: String...) -> String {
        ([root] + parts).joined(separator: "/")
    }

    /// SHA-256 over every file read, in path order: each file's path, NUL, its length in
    /// decimal, NUL, its bytes.
    func fingerprint() -> String {
        var hasher = Crypto.SHA256()
        for (path, bytes) in hashed.sorted(by: { $0.path < $1.path }) {
            hasher.update(data: Array(path.utf8) + [0])
            hasher.update(data: Array(String(bytes.count).utf8) + [0])
            hasher.update(data: bytes)
        }
        return SHA256.hex(digest: hasher.finalize())
    }

    /// Warns about folders that belong to no registered suite.
    mutating func checkFolders() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        for name in names.sorted() where !name.hasPrefix(".") && name != "fuzz" {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path(name), isDirectory: &isDirectory), isDirectory.boolValue else { continue }
            if SuiteRegistry.suite(named: name) == nil {
                issue(.warning, file: path(name), message: "no suite named '\(name)' is registered; the folder is ignored")
            }
        }
    }

    /// Reads and parses one JSON file; nil (with an issue) when unreadable or malformed.
    mutating func document(_ file: String) -> JSONDocument? {
        guard let data = FileManager.default.contents(atPath: file) else {
            issue(.error, file: file, message: "cannot read the file")
            return nil
        }
        let bytes = [UInt8](data)
        hashed.append((String(file.dropFirst(root.count)), bytes))
        do {
            return try JSONDocument(parsing: bytes)
        } catch {
            issue(.error, file: file, line: error.line, column: error.column, message: "invalid JSON: \(error.message)")
            return nil
        }
    }

    mutating func shapeCheck(_ shape: JSONShape, _ value: JSONValue, at pointer: String, _ file: String, _ doc: JSONDocument) -> Bool {
        let problems = shape.problems(in: value, at: pointer)
        for p in problems { issue(.error, file, doc.locations, p.pointer, p.message) }
        return problems.isEmpty
    }

    /// Corpus text (titles, statements, notes, provenance, member names) is shown in terminals
    /// and reports: a hidden character in it (``HiddenCharacters``: a control, a bidirectional
    /// control, a line separator) is an error, each string named by its field. The members named
    /// in `exempt` (a case's `input` and `expect`: data, hostile on purpose) are not read.
    /// Returns whether the value is clean.
    @discardableResult
    mutating func checkHiddenCharacters(_ value: JSONValue, at pointer: String, _ file: String, _ doc: JSONDocument,
                                        exempt: Set<String> = []) -> Bool {
        func first(_ text: String) -> Unicode.Scalar? { text.unicodeScalars.first(where: HiddenCharacters.isHidden) }
        func problem(_ scalar: Unicode.Scalar, _ what: String) -> String {
            "the \(what) holds the hidden character \(HiddenCharacters.visible(scalar)) (U+\(String(scalar.value, radix: 16, uppercase: true))); corpus text is shown in terminals and reports, so write it visibly"
        }
        var clean = true
        switch value {
        case .string(let text):
            if let scalar = first(text) {
                issue(.error, file, doc.locations, pointer, problem(scalar, "text"))
                clean = false
            }
        case .array(let items):
            for (i, item) in items.enumerated() where !checkHiddenCharacters(item, at: pointer + "/\(i)", file, doc) { clean = false }
        case .object(let members):
            for member in members where !exempt.contains(member.key) {
                let inner = pointer + "/" + jsonPointerToken(member.key)
                if let scalar = first(member.key) {
                    issue(.error, file, doc.locations, inner, problem(scalar, "member name"))
                    clean = false
                }
                if !checkHiddenCharacters(member.value, at: inner, file, doc) { clean = false }
            }
        default:
            break
        }
        return clean
    }

    mutating func loadSuite(_ definition: SuiteDefinition) -> SuiteCorpus? {
        let suiteDir = path(definition.name)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: suiteDir, isDirectory: &isDirectory), isDirectory.boolValue else {
            issue(.error, file: suiteDir, message: "the suite '\(definition.name)' has no corpus folder")
            return nil
        }
        guard let registry = loadRegistry(definition) else { return nil }
        let casesDir = path(definition.name, "cases")
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: casesDir)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
        if files.isEmpty { issue(.error, file: casesDir, message: "no case files (*.json)") }
        var cases: [ConformanceCase] = []
        var firstSeen: [String: (String, Int)] = [:]
        let errorsBefore = errorCount
        for name in files {
            for c in loadCases(path(definition.name, "cases", name), definition, registry) {
                if let (file, line) = firstSeen[c.id] {
                    issue(.error, file: c.file, line: c.line, field: "id", message: "duplicate case id '\(c.id)' (first at \(file):\(line))")
                    continue
                }
                firstSeen[c.id] = (c.file, c.line)
                cases.append(c)
            }
        }
        let suite = SuiteCorpus(definition: definition, registry: registry, cases: cases)
        // Coverage is judged only on a corpus whose every case was read: when a file or a case
        // was refused, a requirement without cases may just have lost them, and reporting it
        // would bury the real error under follow-on ones.
        if errorCount == errorsBefore {
            CorpusLint.checkCoverage(suite, registryFile: path(definition.name, "requirements.json"), into: &self)
        }
        return suite
    }

    var registryLocations: [String: JSONLocations] = [:]

    mutating func loadRegistry(_ definition: SuiteDefinition) -> RequirementRegistry? {
        let file = path(definition.name, "requirements.json")
        guard let doc = document(file) else { return nil }
        registryLocations[file] = doc.locations
        let value = doc.value
        guard shapeCheck(RequirementRegistry.shape, value, at: "", file, doc) else { return nil }
        checkHiddenCharacters(value, at: "", file, doc)
        if value["suite"]?.stringValue != definition.name {
            issue(.error, file, doc.locations, "/suite", "expected \"\(definition.name)\", the folder's suite")
        }
        var documents: [SourceDocument] = []
        for member in value["documents"]?.objectValue ?? JSONObject() {
            let pointer = "/documents/" + jsonPointerToken(member.key)
            guard shapeCheck(RequirementRegistry.documentShape, member.value, at: pointer, file, doc) else { continue }
            documents.append(SourceDocument(key: member.key, title: member.value["title"]?.stringValue ?? "",
                                            location: member.value["where"]?.stringValue ?? ""))
        }
        var requirements: [Requirement] = []
        var seen = Set<String>()
        for (i, item) in (value["requirements"]?.arrayValue ?? []).enumerated() {
            let pointer = "/requirements/\(i)"
            let id = item["id"]?.stringValue ?? ""
            if !seen.insert(id).inserted { issue(.error, file, doc.locations, pointer + "/id", "duplicate requirement id '\(id)'") }
            let document = item["source"]?["document"]?.stringValue ?? ""
            if !documents.contains(where: { $0.key == document }) {
                issue(.error, file, doc.locations, pointer + "/source/document", "unknown document '\(document)' (declare it under 'documents')")
            }
            let decided = item["decided"]?.boolValue ?? false
            if decided && item["rationale"] == nil {
                issue(.error, file, doc.locations, pointer, "a decided requirement needs a 'rationale'")
            }
            requirements.append(Requirement(
                id: id, level: RequirementLevel(rawValue: item["level"]?.stringValue ?? "") ?? .info,
                applies: item["applies"]?.stringValue ?? "", title: item["title"]?.stringValue ?? "",
                statement: item["statement"]?.stringValue ?? "", document: document,
                section: item["source"]?["section"]?.stringValue ?? "", decided: decided,
                rationale: item["rationale"]?.stringValue, untestable: item["untestable"]?.stringValue))
        }
        let registry = RequirementRegistry(suite: definition.name, title: value["title"]?.stringValue ?? definition.title,
                                           documents: documents, requirements: requirements)
        // The module's code names requirements (violation codes): the registry must agree.
        for row in definition.codeRequirements.sorted(by: { ($0.requirement, $0.code) < ($1.requirement, $1.code) }) {
            let id = row.requirement
            guard let requirement = registry[id] else {
                issue(.error, file: file, message: "the \(definition.name) module reports violations of '\(id)', which the registry does not define (code \(row.code))")
                continue
            }
            if requirement.level != row.level, let i = requirements.firstIndex(where: { $0.id == id }) {
                issue(.error, file, doc.locations, "/requirements/\(i)/level",
                      "the \(definition.name) module treats \(id) as \(row.level.rawValue), the registry says \(requirement.level.rawValue) (code \(row.code))")
            }
        }
        return registry
    }

    mutating func loadCases(_ file: String, _ definition: SuiteDefinition, _ registry: RequirementRegistry) -> [ConformanceCase] {
        guard let doc = document(file) else { return [] }
        guard shapeCheck(ConformanceCase.fileShape, doc.value, at: "", file, doc) else { return [] }
        checkHiddenCharacters(doc.value, at: "", file, doc, exempt: ["cases"])
        if doc.value["suite"]?.stringValue != definition.name {
            issue(.error, file, doc.locations, "/suite", "expected \"\(definition.name)\", the folder's suite")
        }
        var cases: [ConformanceCase] = []
        for (i, item) in (doc.value["cases"]?.arrayValue ?? []).enumerated() {
            if let c = loadCase(item, at: "/cases/\(i)", file, doc, definition, registry) { cases.append(c) }
        }
        return cases
    }

    mutating func loadCase(_ item: JSONValue, at pointer: String, _ file: String, _ doc: JSONDocument,
                           _ definition: SuiteDefinition, _ registry: RequirementRegistry) -> ConformanceCase? {
        guard shapeCheck(ConformanceCase.shape, item, at: pointer, file, doc) else { return nil }
        var ok = true
        func fail(_ field: String, _ message: String) {
            issue(.error, file, doc.locations, pointer + field, message)
            ok = false
        }
        if !checkHiddenCharacters(item, at: pointer, file, doc, exempt: ["input", "expect"]) { ok = false }
        let id = item["id"]?.stringValue ?? ""
        func failInput(_ problem: JSONFieldError, _ operation: OperationDefinition) {
            fail(problem.pointer, "\(problem.problem) (case '\(id)', \(operation.name) input)")
        }
        if !CorpusLint.isValidCaseID(id, suite: definition.name) {
            fail("/id", "case ids look like '\(definition.name)/<topic>/<name>' in lower-case letters, digits, '-' and '.'")
        }
        let operationName = item["operation"]?.stringValue ?? ""
        let operation = definition.operation(named: operationName)
        if operation == nil {
            fail("/operation", "unknown operation '\(operationName)' (known: \(definition.operations.map(\.name).joined(separator: ", ")))")
        }
        let requirementID = item["requirement"]?.stringValue ?? ""
        if registry[requirementID] == nil { fail("/requirement", "unknown requirement '\(requirementID)'") }
        for (j, other) in (item["also"]?.arrayValue ?? []).enumerated() where registry[other.stringValue ?? ""] == nil {
            fail("/also/\(j)", "unknown requirement '\(other.stringValue ?? "")'")
        }
        let provenance = ConformanceCase.Provenance(rawValue: item["provenance"]?["kind"]?.stringValue ?? "") ?? .spec
        let source = item["provenance"]?["source"]?.stringValue
        if provenance.needsSource && source == nil {
            fail("/provenance", "provenance '\(provenance.rawValue)' needs a 'source' saying where it was seen")
        }
        var input = item["input"] ?? .null
        var expanded = true
        do {
            input = try StringGenerators.expand(input, at: pointer + "/input")
        } catch {
            fail(String(error.pointer.dropFirst(pointer.count)), error.message)
            expanded = false
        }
        let expect = item["expect"] ?? .null
        var prepared: OperationDefinition.PreparedInput?
        if let operation {
            // The input is read as the operation's handlers read it; the first problem names the
            // field and the case, which is then not run. An input whose generator failed still
            // holds the generator: reading it would only repeat the generator's error.
            if expanded {
                do throws(JSONFieldError) {
                    prepared = try operation.prepare(input)
                } catch {
                    failInput(error, operation)
                }
            }
            for p in operation.expect.problems(in: expect, at: pointer + "/expect") {
                fail(String(p.pointer.dropFirst(pointer.count)), p.message)
            }
        }
        // An unknown operation or an input that could not be read has already failed the case.
        guard ok, let prepared else { return nil }
        let line = doc.locations.location(of: pointer)?.line ?? 1
        return ConformanceCase(
            id: id, suite: definition.name, title: item["title"]?.stringValue ?? "", operation: operationName,
            requirement: requirementID, also: (item["also"]?.arrayValue ?? []).compactMap(\.stringValue),
            polarity: ConformanceCase.Polarity(rawValue: item["polarity"]?.stringValue ?? "") ?? .conforming,
            provenance: provenance, provenanceSource: source, input: input, expect: expect,
            note: item["note"]?.stringValue,
            level: registry[requirementID]?.level ?? .info, prepared: prepared, file: file, line: line)
    }
}
