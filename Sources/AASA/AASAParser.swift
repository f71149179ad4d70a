import LinkJSON

extension AASAFile {
    /// Reads a file's bytes into the model, with the structural and pattern diagnostics of the
    /// contract's table (every code except the rule analysis codes `rule-unreachable`,
    /// `rule-duplicate` and `exclude-after-catch-all`, which ``AASA/validate(_:)`` adds).
    ///
    /// The file is `nil` when it cannot be read at all: over the hard limit (1 MiB), not JSON
    /// (duplicate member names are accepted, the last one winning, as Foundation's reader does),
    /// or not an object. Never traps, whatever the input.
    public static func parse(_ bytes: [UInt8]) -> (AASAFile?, [AASADiagnostic]) {
        let (file, diagnostics, _) = read(bytes)
        return (file, diagnostics)
    }

    static func read(_ bytes: [UInt8]) -> (AASAFile?, [AASADiagnostic], JSONLocations) {
        if bytes.count > aasaHardSizeLimit {
            return (nil, [AASADiagnostic(.fileTooLarge, pointer: "", line: 1, column: 1,
                                         message: "the file has \(bytes.count) bytes, over this reader's hard limit of \(aasaHardSizeLimit) bytes (and the platform's 128 KB); not read")], JSONLocations())
        }
        var sizeDiagnostic: [AASADiagnostic] = []
        if bytes.count > aasaPlatformSizeLimit {
            sizeDiagnostic.append(AASADiagnostic(.fileTooLarge, pointer: "", line: 1, column: 1,
                                                 message: "the file has \(bytes.count) bytes; the system reads at most \(aasaPlatformSizeLimit) bytes (128 KB)"))
        }
        let document: JSONDocument
        do {
            document = try JSONDocument(parsing: bytes, options: .init(maxDepth: 512, allowDuplicateKeys: true))
        } catch {
            return (nil, sizeDiagnostic + [AASADiagnostic(.notJSON, pointer: "", line: error.line, column: error.column,
                                                          message: "not JSON: \(error.message)")], JSONLocations())
        }
        var reader = AASAReader(locations: document.locations)
        reader.diagnostics = sizeDiagnostic
        let file = reader.readFile(document.value, byteCount: bytes.count)
        if let file { reader.checkEncodedPatterns(file) }
        return (file, reader.diagnostics, document.locations)
    }
}

/// Known keys of each kind of dictionary, for `component-unknown-key` and its suggestions.
enum AASAKeys {
    static let component = ["/", "?", "#", "exclude", "caseSensitive", "percentEncoded", "comment"]
    static let detail = ["appIDs", "appID", "components", "paths", "defaults", "comment"]
    static let applinks = ["details", "defaults", "substitutionVariables", "apps"]
    static let services = ["applinks", "webcredentials", "appclips", "activitycontinuation"]
}

struct AASAReader {
    let locations: JSONLocations
    var diagnostics: [AASADiagnostic] = []
    var variables: [String: [String]] = [:]

    init(locations: JSONLocations) {
        self.locations = locations
    }

    mutating func report(_ code: AASADiagnosticCode, _ pointer: String, _ message: String) {
        let (line, column) = locations.nearestLocation(of: pointer)
        diagnostics.append(AASADiagnostic(code, pointer: pointer, line: line, column: column, message: message))
    }

    static func child(_ pointer: String, _ token: String) -> String { pointer + "/" + jsonPointerToken(token) }
    static func child(_ pointer: String, _ index: Int) -> String { pointer + "/" + String(index) }

    mutating func readFile(_ value: JSONValue, byteCount: Int) -> AASAFile? {
        guard let top = value.objectValue else {
            report(.notObject, "", "the top level is \(article(value.typeName)), not an object")
            return nil
        }
        var applinks: AASAAppLinks?
        var services: [String: [String]] = [:]
        for member in top {
            let pointer = Self.child("", member.key)
            switch member.key {
            case "applinks":
                applinks = readAppLinks(member.value, pointer)
            case "webcredentials", "appclips", "activitycontinuation":
                services[member.key] = readService(member.key, member.value, pointer)
            default:
                report(.unknownService, pointer, "the system ignores the top-level key \"\(member.key)\"\(suggestion(member.key, AASAKeys.services))")
            }
        }
        if top["applinks"] == nil {
            report(.noApplinks, "", "no \"applinks\": no universal links for this domain")
        }
        return AASAFile(applinks: applinks, webcredentials: services["webcredentials"], appclips: services["appclips"],
                        activityContinuation: services["activitycontinuation"], byteCount: byteCount)
    }

    mutating func readService(_ name: String, _ value: JSONValue, _ pointer: String) -> [String] {
        guard let object = value.objectValue else {
            report(.serviceWrongType, pointer, "\"\(name)\" is \(article(value.typeName)); expected {\"apps\": [app IDs]}")
            return []
        }
        guard let apps = object["apps"]?.arrayValue else {
            report(.serviceWrongType, pointer, object["apps"] == nil
                   ? "\"\(name)\" has no \"apps\" array"
                   : "\"\(name).apps\" is \(article(object["apps"]!.typeName)), not an array of app IDs")
            return []
        }
        var ids: [String] = []
        for (i, app) in apps.enumerated() {
            let p = Self.child(Self.child(pointer, "apps"), i)
            if let id = app.stringValue {
                checkAppID(id, p)
                ids.append(id)
            } else {
                report(.serviceWrongType, p, "an app ID of \"\(name).apps\" is \(article(app.typeName)), not a string")
            }
        }
        return ids
    }

    /// Whether `details` is in the legacy format the App Search guide describes: an array whose
    /// entries each name one `appID` with `paths` (no `appIDs`, no `components`, the iOS 13 keys).
    /// A file that uses the newer keys anywhere is not; nor is the oldest, dictionary form, of
    /// which no source says whether it carried `apps`.
    static func isLegacyFormat(_ details: JSONValue?) -> Bool {
        guard let entries = details?.arrayValue?.compactMap(\.objectValue), !entries.isEmpty else { return false }
        return entries.allSatisfy { $0["appID"] != nil && $0["paths"] != nil && $0["appIDs"] == nil && $0["components"] == nil }
    }

    mutating func readAppLinks(_ value: JSONValue, _ pointer: String) -> AASAAppLinks? {
        guard let object = value.objectValue else {
            report(.applinksNotObject, pointer, "\"applinks\" is \(article(value.typeName)), not an object")
            return nil
        }
        for member in object where !AASAKeys.applinks.contains(member.key) {
            report(.componentUnknownKey, Self.child(pointer, member.key),
                   "\"applinks\" has a key the system ignores: \"\(member.key)\"\(suggestion(member.key, AASAKeys.applinks))")
        }
        if let apps = object["apps"] {
            if apps.arrayValue?.isEmpty != true {
                report(.appsNotEmpty, Self.child(pointer, "apps"), "legacy \"applinks.apps\" must be an empty array; it is \(describe(apps))")
            }
        } else if Self.isLegacyFormat(object["details"]) {
            report(.appsMissing, pointer, "a file in the legacy format (\"appID\" and \"paths\") has no \"applinks.apps\": the App Search guide requires \"apps\": [] in that format (the iOS 13 format, \"appIDs\" and \"components\", has no such key)")
        }
        if let vars = object["substitutionVariables"] {
            readVariables(vars, Self.child(pointer, "substitutionVariables"))
        }
        var defaults: AASAComponentKeys?
        if let d = object["defaults"] {
            defaults = readComponent(d, Self.child(pointer, "defaults"), index: nil, isDefaults: true)
        }
        var details: [AASADetail] = []
        var dictionaryForm = false
        let detailsPointer = Self.child(pointer, "details")
        switch object["details"] {
        case nil:
            report(.detailsMissing, pointer, "\"applinks\" has no \"details\"")
        case .array(let entries)?:
            for (i, entry) in entries.enumerated() {
                if let detail = readDetail(entry, Self.child(detailsPointer, i), key: .index(i)) { details.append(detail) }
            }
        case .object(let entries)?:
            dictionaryForm = true
            report(.detailsDictionary, detailsPointer, "\"details\" is in the oldest form, a dictionary keyed by app ID; write an array of entries with \"appIDs\"")
            for member in entries {
                let p = Self.child(detailsPointer, member.key)
                checkAppID(member.key, p)
                if let detail = readDetail(member.value, p, key: .appID(member.key)) { details.append(detail) }
            }
        case let other?:
            report(.detailsWrongType, detailsPointer, "\"details\" is \(article(other.typeName)); expected an array")
        }
        return AASAAppLinks(details: details, isDictionaryForm: dictionaryForm, defaults: defaults, variables: variables)
    }

    mutating func readVariables(_ value: JSONValue, _ pointer: String) {
        guard let object = value.objectValue else {
            report(.variablesWrongType, pointer, "\"substitutionVariables\" is \(article(value.typeName)), not an object of string arrays")
            return
        }
        for member in object {
            let p = Self.child(pointer, member.key)
            if member.key.unicodeScalars.contains(where: { $0 == "$" || $0 == "(" || $0 == ")" }) {
                report(.variableNameInvalid, p, "the variable name \"\(member.key)\" contains '$', '(' or ')'; no pattern can use it")
            }
            guard let list = member.value.arrayValue else {
                report(.variablesWrongType, p, "the variable \"\(member.key)\" is \(article(member.value.typeName)), not an array of strings; it is not defined")
                continue
            }
            var alternatives: [String] = []
            for (i, item) in list.enumerated() {
                let ip = Self.child(p, i)
                guard let s = item.stringValue else {
                    report(.variablesWrongType, ip, "an alternative of \"\(member.key)\" is \(article(item.typeName)), not a string; it is left out")
                    continue
                }
                if let used = AASAPatternSyntax.variableReferences(in: s).first {
                    report(.variableRecursive, ip, "the alternative \"\(s)\" of \"\(member.key)\" uses the variable $(\(used)); a value may not use variables, so it is read as literal text")
                }
                alternatives.append(s)
            }
            variables[member.key] = alternatives
        }
    }

    mutating func readDetail(_ value: JSONValue, _ pointer: String, key: AASADetailKey) -> AASADetail? {
        guard let object = value.objectValue else {
            report(.detailNotObject, pointer, "an entry of \"details\" is \(article(value.typeName)), not an object")
            return nil
        }
        var appIDs: [String] = []
        if case .appID(let id) = key {
            appIDs.append(id)
        } else {
            if object["appIDs"] == nil && object["appID"] == nil {
                report(.appIDsMissing, pointer, "the entry has neither \"appIDs\" nor \"appID\": no app uses it")
            }
            if let ids = object["appIDs"] {
                let p = Self.child(pointer, "appIDs")
                if let list = ids.arrayValue {
                    for (i, item) in list.enumerated() {
                        if let id = item.stringValue {
                            checkAppID(id, Self.child(p, i))
                            appIDs.append(id)
                        } else {
                            report(.appIDsWrongType, Self.child(p, i), "an element of \"appIDs\" is \(article(item.typeName)), not a string")
                        }
                    }
                } else {
                    report(.appIDsWrongType, p, "\"appIDs\" is \(article(ids.typeName)), not an array of strings")
                }
            }
            if let id = object["appID"] {
                let p = Self.child(pointer, "appID")
                switch id {
                case .string(let s):
                    checkAppID(s, p)
                    if !appIDs.contains(s) { appIDs.append(s) }
                case .array:
                    report(.appIDArray, p, "\"appID\" is an array; it takes one app ID as a string (use \"appIDs\" for a list)")
                default:
                    report(.appIDWrongType, p, "\"appID\" is \(article(id.typeName)), not a string")
                }
            }
        }
        for member in object where !AASAKeys.detail.contains(member.key) {
            report(.componentUnknownKey, Self.child(pointer, member.key),
                   "the entry has a key the system ignores: \"\(member.key)\"\(suggestion(member.key, AASAKeys.detail))")
        }
        var defaults: AASAComponentKeys?
        if let d = object["defaults"] {
            defaults = readComponent(d, Self.child(pointer, "defaults"), index: nil, isDefaults: true)
        }
        var components: [AASAComponentKeys]?
        if let c = object["components"] {
            let p = Self.child(pointer, "components")
            if let list = c.arrayValue {
                components = []
                for (i, item) in list.enumerated() {
                    if let component = readComponent(item, Self.child(p, i), index: i, isDefaults: false) {
                        components!.append(component)
                    }
                }
            } else {
                report(.componentsWrongType, p, "\"components\" is \(article(c.typeName)), not an array of dictionaries")
            }
        }
        var paths: [AASALegacyPath]?
        if let ps = object["paths"] {
            let p = Self.child(pointer, "paths")
            if object["components"] != nil {
                report(.pathsWithComponents, p, "\"paths\" beside \"components\": iOS 13 and later ignore \"paths\"")
            }
            if let list = ps.arrayValue {
                paths = []
                for (i, item) in list.enumerated() {
                    if let s = item.stringValue {
                        let path = AASALegacyPath(index: i, text: s, pointer: Self.child(p, i))
                        if !path.pattern.unicodeScalars.allSatisfy(\.isASCII) {
                            report(.patternUnicodeEncoded, path.pointer, "the legacy path \"\(s)\" has non-ASCII characters; paths are compared percent-encoded, so it never matches")
                        }
                        paths!.append(path)
                    } else {
                        report(.pathsWrongType, Self.child(p, i), "an element of \"paths\" is \(article(item.typeName)), not a string")
                    }
                }
            } else {
                report(.pathsWrongType, p, "\"paths\" is \(article(ps.typeName)), not an array of strings")
            }
        }
        return AASADetail(key: key, pointer: pointer, appIDs: appIDs, defaults: defaults, components: components,
                          hasComponentsKey: object["components"] != nil, paths: paths)
    }

    /// Reads a component dictionary, or a `defaults` dictionary (whose type problems are
    /// `defaults-wrong-type`).
    mutating func readComponent(_ value: JSONValue, _ pointer: String, index: Int?, isDefaults: Bool) -> AASAComponentKeys? {
        let wrongType: AASADiagnosticCode = isDefaults ? .defaultsWrongType : .componentWrongType
        let what = isDefaults ? "\"defaults\"" : "the component"
        guard let object = value.objectValue else {
            report(isDefaults ? .defaultsWrongType : .componentNotObject, pointer,
                   "\(isDefaults ? "\"defaults\"" : "a component") is \(article(value.typeName)), not a dictionary")
            return nil
        }
        var keys = AASAComponentKeys(pointer: pointer, index: index)
        for member in object {
            let p = Self.child(pointer, member.key)
            let v = member.value
            func expect(_ type: String) -> String { "\(what)'s \"\(member.key)\" is \(article(v.typeName)), not \(type); the system ignores it" }
            switch member.key {
            case "/", "#", "comment":
                guard let s = v.stringValue else { report(wrongType, p, expect("a string")); continue }
                switch member.key {
                case "/": keys.path = s
                case "#": keys.fragment = s
                default: keys.comment = s
                }
                if member.key != "comment" { checkVariables(s, p) }
            case "?":
                switch v {
                case .string(let s):
                    keys.query = .string(s)
                    checkVariables(s, p)
                case .object(let dict):
                    var items: [AASAQueryItemPattern] = []
                    var ignored = false
                    for item in dict {
                        let ip = Self.child(p, item.key)
                        if let s = item.value.stringValue {
                            items.append(AASAQueryItemPattern(name: item.key, pattern: s))
                            checkVariables(s, ip)
                        } else {
                            ignored = true
                            report(.queryDictionaryNonString, ip, "the query item \"\(item.key)\" has \(article(item.value.typeName)) as its pattern; the system then ignores the whole \"?\" dictionary, which matches every query")
                        }
                    }
                    keys.query = ignored ? .ignored : .dictionary(items)
                default:
                    report(wrongType, p, expect("a string or a dictionary"))
                }
            case "exclude", "caseSensitive", "percentEncoded":
                guard let b = v.boolValue else { report(wrongType, p, expect("a boolean")); continue }
                switch member.key {
                case "exclude": keys.exclude = b
                case "caseSensitive": keys.caseSensitive = b
                default: keys.percentEncoded = b
                }
            default:
                report(.componentUnknownKey, p, "\(what) has a key the system ignores: \"\(member.key)\"\(suggestion(member.key, AASAKeys.component))")
            }
        }
        return keys
    }

    /// Reports each variable a pattern uses that neither `substitutionVariables` nor the
    /// predefined set defines. Variables are read before components (the reader reads
    /// `substitutionVariables` first), so the check sees every definition.
    mutating func checkVariables(_ pattern: String, _ pointer: String) {
        var reported = Set<String>()
        for name in AASAPatternSyntax.variableReferences(in: pattern) where variables[name] == nil && AASAPredefined.lookup(name) == nil {
            if reported.insert(name).inserted {
                report(.variableUndefined, pointer, "the pattern \"\(pattern)\" uses $(\(name)), which no substitution variable defines; it is read as literal text")
            }
        }
    }

    /// `pattern-unicode-encoded`: a component pattern with non-ASCII characters that is
    /// compared percent-encoded (after defaults) can never match. Reported where the pattern is
    /// written, once.
    mutating func checkEncodedPatterns(_ file: AASAFile) {
        guard let applinks = file.applinks else { return }
        var seen = Set<String>()
        for detail in applinks.details {
            for component in detail.components ?? [] {
                let rule = file.resolve(component, detail: detail, applinks: applinks)
                guard rule.percentEncoded else { continue }
                var patterns: [(String, String?)] = [(rule.path, rule.pathPointer), (rule.fragment, rule.fragmentPointer)]
                switch rule.query {
                case .string(let s): patterns.append((s, rule.queryPointer))
                case .dictionary(let items):
                    for item in items { patterns.append((item.pattern, rule.queryPointer.map { Self.child($0, item.name) })) }
                    for item in items where !item.name.unicodeScalars.allSatisfy(\.isASCII) {
                        patterns.append((item.name, rule.queryPointer.map { Self.child($0, item.name) }))
                    }
                case .ignored: break
                }
                for case let (text, pointer?) in patterns where !text.unicodeScalars.allSatisfy(\.isASCII) {
                    if seen.insert(pointer).inserted {
                        report(.patternUnicodeEncoded, pointer, "the pattern \"\(text)\" has non-ASCII characters but is compared percent-encoded (URLs are ASCII then), so it never matches; encode it or set \"percentEncoded\": false")
                    }
                }
            }
        }
    }

    mutating func checkAppID(_ id: String, _ pointer: String) {
        switch AASAAppID.check(id) {
        case .malformed(let why):
            report(.appIDMalformed, pointer, "\"\(id)\" is not an app ID (<prefix>.<bundle ID>): \(why)")
        case .unusualPrefix:
            report(.appIDPrefixUnusual, pointer, "the prefix of \"\(id)\" is not 10 upper-case letters and digits (a Team ID); old prefixes can be like that, placeholders too")
        case .wellFormed:
            break
        }
    }
}

/// The shape of an app ID: `<Application Identifier Prefix>.<Bundle Identifier>`.
enum AASAAppID {
    enum Shape: Equatable { case wellFormed, unusualPrefix, malformed(String) }

    /// Malformed: no `.`, an empty prefix or bundle ID, an empty label in the bundle ID, or a
    /// character outside ASCII letters, digits, `-`, `_` and `.`. Unusual prefix: anything but
    /// exactly 10 upper-case ASCII letters and digits.
    static func check(_ id: String) -> Shape {
        let bytes = Array(id.utf8)
        guard let dot = bytes.firstIndex(of: UInt8(ascii: ".")) else { return .malformed("no '.' between prefix and bundle ID") }
        let prefix = bytes[..<dot], bundle = bytes[(dot + 1)...]
        if prefix.isEmpty { return .malformed("the prefix is empty") }
        if bundle.isEmpty { return .malformed("the bundle ID is empty") }
        if bundle.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).contains(where: \.isEmpty) {
            return .malformed("the bundle ID has an empty part")
        }
        func allowed(_ b: UInt8) -> Bool {
            (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A) || b == UInt8(ascii: "-") || b == UInt8(ascii: "_") || b == UInt8(ascii: ".")
        }
        if let bad = bytes.first(where: { !allowed($0) }) {
            return .malformed(bad < 0x80 ? "it contains '\(Character(Unicode.Scalar(bad)))'" : "it contains non-ASCII characters")
        }
        let teamLike = prefix.count == 10 && prefix.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) }
        return teamLike ? .wellFormed : .unusualPrefix
    }
}

/// " (did you mean \"x\"?)" for a key close to a known one: equal ignoring ASCII case, or at
/// most two edits away (for keys of three characters or more); "" otherwise.
func suggestion(_ key: String, _ known: [String]) -> String {
    let lower = key.lowercased()
    if let same = known.first(where: { $0.lowercased() == lower }) { return " (did you mean \"\(same)\"?)" }
    guard !key.dropFirst(2).isEmpty else { return "" }   // three characters or more
    let a = Array(key.unicodeScalars)
    var best: (String, Int)?
    for k in known where !k.dropFirst(2).isEmpty {
        let b = Array(k.unicodeScalars)
        // The distance is at least the difference in length: a long key (a fuzzer's, or a
        // mistake's) is not compared scalar by scalar with every known one.
        guard abs(a.count - b.count) <= 2 else { continue }
        let d = editDistance(a, b)
        if d <= 2, best == nil || d < best!.1 { best = (k, d) }
    }
    return best.map { " (did you mean \"\($0.0)\"?)" } ?? ""
}

func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
    if a.isEmpty { return b.count }
    var previous = Array(0...b.count)
    var current = previous
    for i in 1...a.count {
        current[0] = i
        for j in stride(from: 1, through: b.count, by: 1) {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}

func article(_ typeName: String) -> String {
    switch typeName {
    case "null": "null"
    case "array", "object": "an \(typeName)"
    default: "a \(typeName)"
    }
}

func describe(_ value: JSONValue) -> String {
    if let a = value.arrayValue { return "an array of \(a.count) element\(a.count == 1 ? "" : "s")" }
    return article(value.typeName)
}
