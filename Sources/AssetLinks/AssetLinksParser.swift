import AASA
import LinkJSON

extension AssetLinks {
    /// Reads a statement list's bytes into the model, with every diagnostic of the contract's
    /// table. The list is nil when it cannot be read at all: over ``maxFileBytes``, not strict
    /// JSON (duplicate member names refused), nested deeper than 64 levels, or not an array.
    /// Never traps, whatever the input.
    ///
    /// ```swift
    /// let (list, diagnostics) = AssetLinks.parse(Array(text.utf8))
    /// list?.statements.count
    /// ```
    public static func parse(_ bytes: [UInt8]) -> (AssetLinksList?, [AssetLinksDiagnostic]) {
        if bytes.count > maxFileBytes {
            return (nil, [AssetLinksDiagnostic(.fileTooLarge, pointer: "", line: 1, column: 1,
                                               message: "the file has \(bytes.count) bytes, over LinkConform's limit of \(maxFileBytes) bytes (1 MiB); not read")])
        }
        let document: JSONDocument
        do {
            document = try JSONDocument(parsing: bytes, options: .init(maxDepth: 64, allowDuplicateKeys: false))
        } catch {
            return (nil, [AssetLinksDiagnostic(.notJSON, pointer: "", line: error.line, column: error.column,
                                               message: "not strict JSON: \(error.message)")])
        }
        var reader = AssetLinksReader(locations: document.locations)
        let list = reader.readList(document.value, byteCount: bytes.count)
        return (list, reader.diagnostics)
    }
}

/// Keys a statement, a component and an extension may have.
enum AssetLinksKeys {
    static let statement = ["relation", "target", "relation_extensions", "include"]
    static let target = ["namespace", "site", "package_name", "sha256_cert_fingerprints"]
    static let component = ["/", "?", "#", "exclude", "comments", "comment"]
    static let extensionKeys = ["dynamic_app_link_components"]
}

struct AssetLinksReader {
    let locations: JSONLocations
    var diagnostics: [AssetLinksDiagnostic] = []

    init(locations: JSONLocations) {
        self.locations = locations
    }

    mutating func report(_ code: AssetLinksDiagnosticCode, _ pointer: String, _ message: String) {
        let (line, column) = locations.nearestLocation(of: pointer)
        diagnostics.append(AssetLinksDiagnostic(code, pointer: pointer, line: line, column: column, message: message))
    }

    static func child(_ pointer: String, _ token: String) -> String { pointer + "/" + jsonPointerToken(token) }
    static func child(_ pointer: String, _ index: Int) -> String { pointer + "/" + String(index) }

    func kind(_ value: JSONValue) -> String { AssociationWording.kind(of: value) }

    mutating func readList(_ value: JSONValue, byteCount: Int) -> AssetLinksList? {
        guard let items = value.arrayValue else {
            report(.notArray, "", "the top level is \(kind(value)); a statement list is a JSON array of statements")
            return nil
        }
        if items.isEmpty {
            report(.listEmpty, "", "the statement list is empty: it grants nothing, and the platform reports an empty list as an error")
        }
        var statements: [AssetLinksStatement] = []
        var includes: [AssetLinksInclude] = []
        for (i, item) in items.enumerated() {
            let pointer = Self.child("", i)
            guard let object = item.objectValue else {
                report(.statementNotObject, pointer, "a statement is \(kind(item)), not an object; it is skipped")
                continue
            }
            for member in object where !AssetLinksKeys.statement.contains(member.key) {
                report(.statementUnknownKey, Self.child(pointer, member.key),
                       "the statement has a key the platform ignores: \"\(member.key)\"\(AssociationWording.didYouMean(member.key, among: AssetLinksKeys.statement))")
            }
            if let include = object["include"] {
                if let read = readInclude(include, object, pointer, index: i, count: includes.count) { includes.append(read) }
            } else if let statement = readStatement(object, pointer, index: i) {
                statements.append(statement)
            }
        }
        return AssetLinksList(statements: statements, includes: includes, byteCount: byteCount)
    }

    mutating func readInclude(_ value: JSONValue, _ object: JSONObject, _ pointer: String, index: Int, count: Int) -> AssetLinksInclude? {
        let p = Self.child(pointer, "include")
        let standard = ["relation", "target", "relation_extensions"].filter { object[$0] != nil }
        if !standard.isEmpty {
            report(.includeWithFields, pointer, "an include statement may not also have " + standard.map { "\"\($0)\"" }.joined(separator: " or ")
                   + "; the platform refuses the whole statement")
            return nil
        }
        guard let url = value.stringValue else {
            report(.includeInvalid, p, "\"include\" is \(kind(value)), not the URL of another statement list")
            return nil
        }
        guard let web = AssetLinksWebURL(url) else {
            report(.includeInvalid, p, "\"include\" is not an http(s) URL: \(AssetLinksWebURL.problem(url))")
            return nil
        }
        if count == AssetLinks.maxIncludes {
            report(.includeLimit, p, "this is include number \(count + 1); the platform follows at most \(AssetLinks.maxIncludes) includes in a whole tree of lists")
        }
        let insecure = web.scheme == "http"
        if insecure {
            report(.includeInsecure, p, "the include \"\(url)\" is http: a list served over https never follows an insecure include")
        }
        return AssetLinksInclude(index: index, pointer: p, url: url, isInsecure: insecure)
    }

    mutating func readStatement(_ object: JSONObject, _ pointer: String, index: Int) -> AssetLinksStatement? {
        var valid = true
        var relations: [String] = []
        let rp = Self.child(pointer, "relation")
        switch object["relation"] {
        case nil:
            report(.relationMissing, pointer, "the statement has no \"relation\" array; it is skipped")
            valid = false
        case .array(let list)?:
            if list.isEmpty { report(.relationEmpty, rp, "\"relation\" is an empty array: the statement grants nothing") }
            for (i, item) in list.enumerated() {
                let ip = Self.child(rp, i)
                guard let relation = item.stringValue else {
                    report(.relationNotString, ip, "a relation is \(kind(item)), not a string; the statement is skipped")
                    valid = false
                    continue
                }
                if let problem = AssetLinksRelationFormat.problem(in: relation) {
                    report(.relationInvalid, ip, "\"\(relation)\" is not a relation string: \(problem); the statement is skipped")
                    valid = false
                    continue
                }
                if !AssetLinksRelation.predefined.contains(relation) {
                    report(.relationUnknown, ip, "\"\(relation)\" is not one of the relations the sources define"
                           + AssociationWording.didYouMean(relation, among: AssetLinksRelation.predefined))
                }
                relations.append(relation)
            }
        case let other?:
            report(.relationNotArray, rp, "\"relation\" is \(kind(other)), not an array of relation strings; the statement is skipped")
            valid = false
        }
        let target = readTarget(object["target"], pointer)
        if target == nil { valid = false }
        var components: [AssetLinksComponent]?
        if let extensions = object["relation_extensions"] {
            components = readExtensions(extensions, Self.child(pointer, "relation_extensions"), declared: relations, target: target)
        }
        guard valid, let target else { return nil }
        return AssetLinksStatement(index: index, pointer: pointer, relations: relations, target: target, dynamicComponents: components)
    }

    mutating func readTarget(_ value: JSONValue?, _ pointer: String) -> AssetLinksTarget? {
        let tp = Self.child(pointer, "target")
        guard let value else {
            report(.targetMissing, pointer, "the statement has no \"target\"; it is skipped")
            return nil
        }
        guard let object = value.objectValue else {
            report(.targetNotObject, tp, "\"target\" is \(kind(value)), not an object; the statement is skipped")
            return nil
        }
        for member in object where !AssetLinksKeys.target.contains(member.key) {
            report(.statementUnknownKey, Self.child(tp, member.key),
                   "the target has a key the platform ignores: \"\(member.key)\"\(AssociationWording.didYouMean(member.key, among: AssetLinksKeys.target))")
        }
        switch object["namespace"]?.stringValue {
        case "web":
            return readWebTarget(object, tp)
        case "android_app":
            return readAppTarget(object, tp)
        case let other:
            let shown = other.map { "\"\($0)\"" } ?? (object["namespace"].map(kind) ?? "missing")
            report(.namespaceUnknown, Self.child(tp, "namespace"), "the namespace is \(shown); it must be \"web\" or \"android_app\"; the statement is skipped")
            return nil
        }
    }

    mutating func readWebTarget(_ object: JSONObject, _ tp: String) -> AssetLinksTarget? {
        let sp = Self.child(tp, "site")
        guard let siteValue = object["site"] else {
            report(.siteMissing, tp, "a web target needs a \"site\"; the statement is skipped")
            return nil
        }
        guard let site = siteValue.stringValue else {
            report(.siteInvalid, sp, "\"site\" is \(kind(siteValue)), not a URL; the statement is skipped")
            return nil
        }
        guard let web = AssetLinksWebURL(site) else {
            report(.siteInvalid, sp, "\"\(site)\" is not a site: \(AssetLinksWebURL.problem(site)); the statement is skipped")
            return nil
        }
        var valid = true
        if web.url.userinfo != nil {
            report(.siteUserinfo, sp, "\"\(site)\" has login information before the host; the statement is skipped")
            valid = false
        }
        if !web.url.path.isEmpty {
            report(.siteHasPath, sp, "\"\(site)\" has a path (\"\(web.url.text(in: web.url.path))\"); a site is scheme, host and port only, not even a trailing '/'; the statement is skipped")
            valid = false
        }
        if web.url.query != nil {
            report(.siteHasQuery, sp, "\"\(site)\" has a query; the statement is skipped")
            valid = false
        }
        if web.url.fragment != nil {
            report(.siteHasFragment, sp, "\"\(site)\" has a fragment; the statement is skipped")
            valid = false
        }
        if web.url.port == web.defaultPort {
            report(.siteDefaultPort, sp, "\"\(site)\" writes the default port \(web.defaultPort); leave it out")
        }
        return valid ? .web(site: site, origin: web.origin) : nil
    }

    mutating func readAppTarget(_ object: JSONObject, _ tp: String) -> AssetLinksTarget? {
        var valid = true
        var packageName = ""
        let pp = Self.child(tp, "package_name")
        switch object["package_name"] {
        case nil:
            report(.packageMissing, tp, "an android_app target needs a \"package_name\"; the statement is skipped")
            valid = false
        case .string(let name)?:
            if let problem = AssetLinksPackageName.invalid(name) {
                report(.packageInvalid, pp, "\"\(name)\" is not a package name: \(problem); the statement is skipped")
                valid = false
            } else if let odd = AssetLinksPackageName.unusual(name) {
                report(.packageNameUnusual, pp, "\"\(name)\" is not an application ID Android installs: \(odd); no app can match it")
            }
            packageName = name
        case let other?:
            report(.packageInvalid, pp, "\"package_name\" is \(kind(other)), not a string; the statement is skipped")
            valid = false
        }
        var fingerprints: [String] = []
        let fp = Self.child(tp, "sha256_cert_fingerprints")
        switch object["sha256_cert_fingerprints"] {
        case nil:
            report(.fingerprintsMissing, tp, "an android_app target needs \"sha256_cert_fingerprints\"; the statement is skipped")
            valid = false
        case .array(let list)?:
            if list.isEmpty {
                report(.fingerprintsEmpty, fp, "\"sha256_cert_fingerprints\" is empty; it must hold at least one certificate fingerprint; the statement is skipped")
                valid = false
            }
            for (i, item) in list.enumerated() {
                let ip = Self.child(fp, i)
                guard let text = item.stringValue else {
                    report(.fingerprintNotString, ip, "a fingerprint is \(kind(item)), not a string; the statement is skipped")
                    valid = false
                    continue
                }
                if let problem = AssetLinksFingerprint.problem(in: text) {
                    report(.fingerprintMalformed, ip, "\"\(text)\" is not a SHA-256 fingerprint as statements write it: \(problem); the statement is skipped")
                    valid = false
                    continue
                }
                fingerprints.append(text)
            }
        case let other?:
            report(.fingerprintsNotArray, fp, "\"sha256_cert_fingerprints\" is \(kind(other)), not an array of fingerprints (write [\"...\"]); the statement is skipped")
            valid = false
        }
        return valid ? .androidApp(packageName: packageName, fingerprints: fingerprints) : nil
    }

    /// Reads `relation_extensions`; returns the handle_all_urls dynamic components, if any.
    mutating func readExtensions(_ value: JSONValue, _ pointer: String, declared: [String], target: AssetLinksTarget?) -> [AssetLinksComponent]? {
        guard let object = value.objectValue else {
            report(.extensionsWrongType, pointer, "\"relation_extensions\" is \(kind(value)), not an object keyed by relation; it is ignored")
            return nil
        }
        var found: [AssetLinksComponent]?
        for member in object {
            let ep = Self.child(pointer, member.key)
            if !declared.contains(member.key) {
                report(.extensionRelationUndeclared, ep, "an extension for \"\(member.key)\", which the statement's \"relation\" does not list; it is ignored")
            }
            guard let ext = member.value.objectValue else {
                report(.extensionsWrongType, ep, "the extension for \"\(member.key)\" is \(kind(member.value)), not an object; it is ignored")
                continue
            }
            for key in ext.keys where !AssetLinksKeys.extensionKeys.contains(key) {
                report(.componentUnknownKey, Self.child(ep, key),
                       "the extension has a key the platform ignores: \"\(key)\"\(AssociationWording.didYouMean(key, among: AssetLinksKeys.extensionKeys))")
            }
            guard let list = ext["dynamic_app_link_components"] else { continue }
            let lp = Self.child(ep, "dynamic_app_link_components")
            if let target, case .web = target {
                report(.dynamicTargetNotApp, lp, "dynamic app-link components on a web target: only an android_app target's rules decide which URLs open an app")
            }
            guard let items = list.arrayValue else {
                report(.dynamicComponentsWrongType, lp, "\"dynamic_app_link_components\" is \(kind(list)), not an array of components; it is ignored")
                continue
            }
            var components: [AssetLinksComponent] = []
            for (i, item) in items.enumerated() {
                if let c = readComponent(item, Self.child(lp, i), index: i) { components.append(c) }
            }
            if member.key == AssetLinksRelation.handleAllURLs && declared.contains(member.key) { found = components }
        }
        return found
    }

    /// A component; nil (skipped) when it is not an object or one of its keys has the wrong type.
    mutating func readComponent(_ value: JSONValue, _ pointer: String, index: Int) -> AssetLinksComponent? {
        guard let object = value.objectValue else {
            report(.dynamicComponentsWrongType, pointer, "a component is \(kind(value)), not an object; it is skipped")
            return nil
        }
        var path: String?, fragment: String?, query: [AssetLinksComponent.QueryItem]?, exclude = false
        var valid = true
        for member in object {
            let p = Self.child(pointer, member.key)
            let v = member.value
            switch member.key {
            case "/", "#":
                guard let s = v.stringValue else {
                    report(.componentWrongType, p, "the component's \"\(member.key)\" is \(kind(v)), not a pattern string; the component is skipped")
                    valid = false
                    continue
                }
                if member.key == "/" { path = s } else { fragment = s }
            case "?":
                guard let dict = v.objectValue else {
                    report(.componentWrongType, p, "the component's \"?\" is \(kind(v)); Android reads only a dictionary of query parameter patterns; the component is skipped")
                    valid = false
                    continue
                }
                var items: [AssetLinksComponent.QueryItem] = []
                for item in dict {
                    guard let pattern = item.value.stringValue else {
                        report(.componentWrongType, Self.child(p, item.key), "the pattern of the query parameter \"\(item.key)\" is \(kind(item.value)), not a string; the component is skipped")
                        valid = false
                        continue
                    }
                    items.append(.init(name: item.key, pattern: pattern))
                }
                query = items
            case "exclude":
                guard let b = v.boolValue else {
                    report(.componentWrongType, p, "the component's \"exclude\" is \(kind(v)), not a boolean; the component is skipped")
                    valid = false
                    continue
                }
                exclude = b
            case "comments", "comment":
                if v.stringValue == nil {
                    report(.componentWrongType, p, "the component's \"\(member.key)\" is \(kind(v)), not a string")
                }
            default:
                report(.componentUnknownKey, p, "the component has a key the platform ignores: \"\(member.key)\"\(AssociationWording.didYouMean(member.key, among: AssetLinksKeys.component))")
            }
        }
        return valid ? AssetLinksComponent(index: index, pointer: pointer, path: path, query: query, fragment: fragment, exclude: exclude) : nil
    }
}
