import AASA
import Conformance
import LinkJSON
import Testing

/// The reference's cache of compiled AASA rules (``AASACompileCache``): the same answers as
/// compiling every file anew, bounded, and safe from many tasks at once.
struct AASACompileCacheTests {
    static let app = "ABCDE12345.com.example.app"

    /// Every `aasa.validate` and `aasa.match` input of the corpus up to 4 KB, with two variants
    /// of each file (its first rule dropped, or repeated at the end), so that files share rules
    /// at different places. (The compile budget's cases are in ``theCompileBudgetStillHolds()``.)
    static let inputs: (files: [[UInt8]], matches: [(file: [UInt8], domain: String, appID: String, url: String)]) = {
        let corpus = Corpus.load(from: TemporaryCorpus.repositoryCorpus)
        var files: [[UInt8]] = [], matches: [(file: [UInt8], domain: String, appID: String, url: String)] = []
        for c in corpus.suites.flatMap(\.cases) where c.operation == "aasa.validate" || c.operation == "aasa.match" {
            guard let text = c.input.objectValue?["file"]?.stringValue, text.utf8.count <= 4 * 1024 else { continue }
            files.append(Array(text.utf8))
            files.append(contentsOf: variants(text).map { Array($0.utf8) })
            if let o = c.input.objectValue, let domain = o["domain"]?.stringValue, let appID = o["appID"]?.stringValue,
               let url = o["url"]?.stringValue {
                matches.append((Array(text.utf8), domain, appID, url))
                for v in variants(text) { matches.append((Array(v.utf8), domain, appID, url)) }
            }
        }
        return (files, matches)
    }()

    static func variants(_ text: String) -> [String] {
        guard var root = (try? JSONParser.parse(Array(text.utf8)))?.objectValue, var applinks = root["applinks"]?.objectValue,
              var details = applinks["details"]?.arrayValue, var first = details.first?.objectValue,
              let components = first["components"]?.arrayValue, !components.isEmpty else { return [] }
        var out: [String] = []
        func with(_ list: [JSONValue]) -> String {
            first["components"] = .array(list)
            details[0] = .object(first)
            applinks["details"] = .array(details)
            root["applinks"] = .object(applinks)
            return JSONValue.object(root).serialized()
        }
        out.append(with(Array(components.dropFirst())))
        out.append(with(components + [components[0]]))
        return out
    }

    /// The answers without a cache, computed once for every test.
    static let validated = inputs.files.map { AASA.validate($0) }
    static let matched = inputs.matches.map { AASA.match($0.file, domain: $0.domain, appID: $0.appID, url: $0.url) }

    static func same(_ a: AASAMatchResult, _ b: AASAMatchResult) -> Bool {
        a == b && a.detail == b.detail && a.component == b.component && a.pattern == b.pattern
    }

    @Test func validatingGivesTheSameDiagnostics() {
        let cache = AASACompileCache()
        // Twice: the second pass finds every rule and pair in the cache.
        for _ in 0..<2 {
            for (file, expected) in zip(Self.inputs.files, Self.validated) {
                #expect(AASA.validate(file, memo: cache) == expected, "\(String(decoding: file, as: UTF8.self).prefix(300))")
            }
        }
        #expect(cache.counters.hits > 0)
    }

    @Test func matchingGivesTheSameAnswers() {
        let cache = AASACompileCache()
        for _ in 0..<2 {
            for (m, expected) in zip(Self.inputs.matches, Self.matched) {
                let cached = AASA.match(m.file, domain: m.domain, appID: m.appID, url: m.url, memo: cache)
                #expect(Self.same(cached, expected), "\(m.url) under \(String(decoding: m.file, as: UTF8.self).prefix(300))")
            }
        }
    }

    /// A rule that fits the whole budget but not what an earlier rule left of it is not compiled
    /// (`pattern-too-complex`), whichever file the cache saw it in first; and the reverse.
    @Test func theCompileBudgetStillHolds() {
        let big = String(repeating: "$(lang)", count: 368), half = String(repeating: "$(lang)", count: 200)
        func file(_ paths: [String]) -> [UInt8] {
            let components = paths.map { #"{"/": "/\#($0)"}"# }.joined(separator: ", ")
            return Array(#"{"applinks": {"details": [{"appIDs": ["\#(Self.app)"], "components": [\#(components)]}]}}"#.utf8)
        }
        let alone = file([big, "about"]), after = file([half, big, "about"])
        let url = "https://example.com/" + String(repeating: "en", count: 368)
        let expected = [alone, after].map { (AASA.validate($0), AASA.match($0, domain: "example.com", appID: Self.app, url: url)) }
        #expect(expected[0].0.isEmpty && expected[1].0.map(\.code.rawValue) == ["pattern-too-complex"])
        for order in [[0, 1], [1, 0]] {
            let cache = AASACompileCache()
            for i in order {
                let f = [alone, after][i]
                #expect(AASA.validate(f, memo: cache) == expected[i].0)
                #expect(Self.same(AASA.match(f, domain: "example.com", appID: Self.app, url: url, memo: cache), expected[i].1))
            }
        }
    }

    @Test func staysWithinItsLimitsAndEvicts() {
        let limits = AASACompileCache.Limits(count: 3, weight: 50_000)
        let cache = AASACompileCache(files: limits, rules: limits, pairs: limits)
        for (m, expected) in zip(Self.inputs.matches, Self.matched).prefix(100) {
            #expect(Self.same(AASA.match(m.file, domain: m.domain, appID: m.appID, url: m.url, memo: cache), expected))
            let held = cache.holding
            for h in [held.files, held.rules, held.pairs] {
                #expect(h.count <= 3 && h.weight <= 50_000)
            }
        }
        for (file, expected) in zip(Self.inputs.files, Self.validated).prefix(100) {
            #expect(AASA.validate(file, memo: cache) == expected)
        }
        #expect(cache.counters.evictions > 0)
        // A value heavier than the whole limit is not kept (a rule at the compile budget weighs about 1,000,000).
        let none = AASACompileCache(files: limits, rules: limits, pairs: limits)
        let big = Array(#"{"applinks": {"details": [{"appIDs": ["\#(Self.app)"], "components": [{"/": "/\#(String(repeating: "$(lang)", count: 368))"}]}]}}"#.utf8)
        #expect(AASA.validate(big, memo: none).isEmpty)
        #expect(none.holding.rules.weight <= 50_000 && none.counters.evictions == 0)
    }

    /// A file kept for `aasa.match` holds its compiled rules, so its weight counts them: files at
    /// the compile budget, each with a rule of its own, are dropped as they come (before, their
    /// weight was their bytes: the defaults kept 512 of them, about 14 MB each).
    @Test func aFileKeptForMatchingWeighsItsCompiledRules() {
        let cache = AASACompileCache()
        for i in 0..<12 {
            let path = "/" + String(repeating: "$(lang)", count: 72) + "/x\(i)"
            let file = Array(#"{"applinks": {"details": [{"appIDs": ["\#(Self.app)"], "components": [{"/": "\#(path)"}]}]}}"#.utf8)
            #expect(AASA.match(file, domain: "example.com", appID: Self.app, url: "https://example.com/en/x\(i)", memo: cache)
                    == AASA.match(file, domain: "example.com", appID: Self.app, url: "https://example.com/en/x\(i)"))
            let held = cache.holding
            #expect(held.files.weight <= AASACompileCache.fileLimits.weight && held.rules.weight <= AASACompileCache.ruleLimits.weight)
            #expect(held.files.weight > held.files.count * 150_000, "\(held.files)")
        }
        #expect(cache.holding.files.count < 12)
    }

    @Test func manyTasksShareOneCache() async {
        let cache = AASACompileCache(files: .init(count: 16, weight: 1 << 20), rules: .init(count: 64, weight: 400_000),
                                     pairs: .init(count: 256, weight: 1 << 20))
        let files = Array(zip(Self.inputs.files, Self.validated).prefix(150))
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for t in 0..<8 {
                group.addTask {
                    var bad = 0
                    for (i, (file, expected)) in files.enumerated() where i % 8 == t || i % 3 == 0 {
                        if AASA.validate(file, memo: cache) != expected { bad += 1 }
                    }
                    return bad
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }
}
