import AASA
import Foundation
import SeededRandom

/// The benchmark's files and URLs: two real files (from the corpus, which keeps the files of
/// specs/real-world byte for byte), a synthetic 200-rule file, a pathological one and a 128 KB
/// one; URLs generated from each file's rules (hits), others (misses), with queries and fragments.
enum AASABenchFiles {
    struct Sample {
        let name: String
        let bytes: [UInt8]
        let appID: String
        let domain: String
    }

    static let appID = "ABCDE12345.com.example.app"

    /// firefly.social (12 components, legacy paths beside them), CrimeanPatterns (90 legacy
    /// paths), when the corpus is found, and the synthetic 200-rule file.
    static func matchingFiles() -> [Sample] {
        var out: [Sample] = []
        let real = realWorldFiles()
        for (id, name, domain) in [("aasa/real-world/adophlidu-validate", "firefly.social", "firefly.social"),
                                   ("aasa/real-world/crimeanpatterns-validate", "CrimeanPatterns (awardwallet)", "awardwallet.com")] {
            guard let text = real[id] else {
                print("aasa: \(id) not found (run from the repository, or beside its .build)")
                continue
            }
            let bytes = Array(text.utf8)
            let appID = AASAFile.parse(bytes).0?.appIDs.first ?? Self.appID
            out.append(Sample(name: name, bytes: bytes, appID: appID, domain: domain))
        }
        out.append(Sample(name: "synthetic", bytes: synthetic(rules: 200), appID: appID, domain: "example.com"))
        return out
    }

    /// The `file` of every aasa.validate case of Corpus/aasa/cases/real-world.json, by case id.
    static func realWorldFiles() -> [String: String] {
        let relative = "Corpus/aasa/cases/real-world.json"
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        var candidates = [FileManager.default.currentDirectoryPath + "/" + relative]
        for _ in 0..<5 {
            candidates.append(folder.path + "/" + relative)
            folder = folder.deletingLastPathComponent()
        }
        guard let path = candidates.first(where: FileManager.default.fileExists(atPath:)),
              let data = FileManager.default.contents(atPath: path),
              let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let cases = json["cases"] as? [[String: Any]] else { return [:] }
        var out: [String: String] = [:]
        for c in cases {
            if let id = c["id"] as? String, let input = c["input"] as? [String: Any], let file = input["file"] as? String { out[id] = file }
        }
        return out
    }

    static func json(_ value: Any) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes]), as: UTF8.self)
    }

    /// 200 components of the kinds real files use: prefixes, digits, query items, fragments,
    /// case-insensitive and decoded ones, exclusions, languages.
    static func synthetic(rules: Int) -> [UInt8] {
        var components: [[String: Any]] = [["#": "no_universal_links", "exclude": true]]
        for i in 1..<rules {
            switch i % 8 {
            case 0: components.append(["/": "/shop/category\(i)/*"])
            case 1: components.append(["/": "/p/\(i)/$(digit)*", "?": ["ref": "*"]])
            case 2: components.append(["/": "/help/Topic\(i)", "caseSensitive": false])
            case 3: components.append(["/": "/u/*/post\(i)/*", "#": "*"])
            case 4: components.append(["/": "/static\(i)/*", "exclude": true])
            case 5: components.append(["/": "/$(lang)/guide\(i)/*", "percentEncoded": false])
            case 6: components.append(["/": "/q\(i)", "?": "id=*&v=?"])
            default: components.append(["/": "/a\(i)/*/b/*", "comment": "section \(i)"])
            }
        }
        let file: [String: Any] = ["applinks": ["details": [["appIDs": [appID], "components": components]]],
                                   "webcredentials": ["apps": [appID]]]
        return Array(json(file).utf8)
    }

    /// Rules whose stars make a backtracking matcher try every way to split a run of `a`s:
    /// `/*a*a*a*a*a*a*b` and friends, 40 of them, none of which a path of `a`s matches.
    static func pathological() -> (AASAFile, [UInt8]) {
        let last = Array("bcdefghijk")
        var components: [[String: Any]] = []
        for k in 0..<40 {
            let stars = String(repeating: "*a", count: 6 + k % 4)
            components.append(["/": "/" + stars + "*" + String(last[k % last.count]), "comment": "pathological \(k)"])
        }
        components.append(["/": "/post/*"])
        let bytes = Array(json(["applinks": ["details": [["appIDs": [appID], "components": components]]]]).utf8)
        return (AASAFile.parse(bytes).0!, bytes)
    }

    /// A realistic file just under 128 KB (131,072 bytes): components with comments, in several
    /// entries for two apps.
    static func large() -> [UInt8] {
        var details: [[String: Any]] = []
        var components: [[String: Any]] = []
        var i = 0
        func text() -> String {
            json(["applinks": ["details": details + [["appIDs": [appID, "VWXYZ67890.com.example.other"], "components": components]]]])
        }
        while true {
            let kinds: [[String: Any]] = [
                ["/": "/catalog/\(i)/*", "comment": "catalog section \(i), every item below it"],
                ["/": "/p/\(i)/$(digit)*", "?": ["ref": "*", "utm_source": "?*"], "comment": "product pages of series \(i)"],
                ["/": "/help/article-\(i)", "caseSensitive": false, "comment": "help article \(i)"],
                ["/": "/static/\(i)/*", "exclude": true, "comment": "assets are not links"],
            ]
            components.append(kinds[i % kinds.count])
            i += 1
            if components.count == 200 {
                details.append(["appIDs": [appID, "VWXYZ67890.com.example.other"], "components": components])
                components = []
            }
            if i % 16 == 0, text().utf8.count > 130_000 { break }
        }
        return Array(text().utf8)
    }

    /// `count` URLs for `file`'s rules: a little over half generated from a rule (most of them
    /// hits), the rest ordinary paths of a site (misses), about a third with a query or fragment.
    static func urls(for file: AASAFile, appID: String, domain: String, count: Int) -> [String] {
        var rng = SeededGenerator(seed: 0xAA5A)
        let rules = file.rules(for: appID)
        let variables = file.applinks?.variables ?? [:]
        let runs = ["", "42", "abc", "item-981", "2024/05/x", "Summer_Sale"]
        func pick<T>(_ list: [T]) -> T { list[Int(rng.next() % UInt64(list.count))] }
        func sample(_ pattern: String, _ vars: [String: [String]]) -> String {
            rewritePattern(pattern, variable: { name in
                switch name {
                case "digit": "7"
                case "alpha", "lower", "alnum", "xdigit": "b"
                case "upper": "B"
                case "region": "GB"
                case "lang": "en"
                default: vars[name].map { sample(pick($0), [:]) }
                }
            }, character: { c in c == "*" ? pick(runs) : c == "?" ? "z" : String(c) })
        }
        let misses = ["/", "/about", "/blog/2024/05/a-long-post-title", "/assets/app.3f9a1c.js", "/search", "/user/42/settings",
                      "/en/docs/getting-started", "/favicon.ico", "/checkout/cart"]
        var out: [String] = []
        while out.count < count {
            var path: String, query = "", fragment = ""
            if !rules.isEmpty && rng.next() % 100 < 55 {
                let rule = pick(rules)
                let vars = rule.isLegacy ? [:] : variables
                path = sample(rule.path, vars)
                if !path.hasPrefix("/") { path = "/" + path }
                switch rule.query {
                case .string(let s) where s != "*": query = sample(s, vars)
                case .dictionary(let items): query = items.map { $0.name + "=" + sample($0.pattern, vars) }.joined(separator: "&")
                default: break
                }
                if rule.fragment != "*" { fragment = sample(rule.fragment, vars) }
            } else {
                path = pick(misses)
            }
            if query.isEmpty && rng.next() % 3 == 0 { query = pick(["utm_source=newsletter&id=42", "ref=home", "q=shoes&page=2"]) }
            if fragment.isEmpty && rng.next() % 10 == 0 { fragment = pick(["top", "reviews"]) }
            let encodedPath = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
            out.append("https://\(domain)\(encodedPath)\(query.isEmpty ? "" : "?" + query)\(fragment.isEmpty ? "" : "#" + fragment)")
        }
        return out
    }
}
