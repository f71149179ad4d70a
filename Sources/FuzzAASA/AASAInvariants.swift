import AASA
import FuzzSupport
import LinkRules

/// apple-app-site-association files on arbitrary bytes: `AASA.validate`, `AASAFile.parse`, the
/// compiled matcher and its explanation.
///
/// An input is a file, optionally followed by a NUL byte and a URL (a JSON text never holds a raw
/// NUL). A URL that starts with `/` is read on `https://example.com`; the domain is the URL's
/// own host, so that matching gets past the host check. Without a URL, the URLs come from the
/// file: each rule's shortest accepted path, query and fragment (its witness).
enum AASAInvariants {
    static let separator: UInt8 = 0
    static let fallbackAppID = "ABCDE12345.com.example.app"
    static let fallbackDomain = "example.com"
    /// Rules per app whose witnesses are tried, and of those, how many go through every check.
    static let witnessRules = 8
    static let checkedWitnesses = 3

    /// The contract's table (docs/aasa.md, "Diagnostic codes"), written out again here so the
    /// module's own table is checked against it rather than against itself.
    static let contract: [String: (requirement: String, level: RuleLevel)] = [
        "not-json": ("AASA-1", .must), "not-object": ("AASA-1", .must), "file-too-large": ("AASA-2", .must),
        "no-applinks": ("AASA-36", .info), "applinks-not-object": ("AASA-3", .must), "details-missing": ("AASA-3", .must),
        "details-wrong-type": ("AASA-3", .must), "details-dictionary": ("AASA-4", .should), "detail-not-object": ("AASA-3", .must),
        "appids-missing": ("AASA-5", .must), "appids-wrong-type": ("AASA-5", .must), "appid-array": ("AASA-5", .must),
        "appid-wrong-type": ("AASA-5", .must), "appid-malformed": ("AASA-6", .must), "appid-prefix-unusual": ("AASA-7", .info),
        "components-wrong-type": ("AASA-8", .must), "component-not-object": ("AASA-8", .must), "component-wrong-type": ("AASA-9", .must),
        "query-dictionary-non-string": ("AASA-10", .should), "component-unknown-key": ("AASA-11", .should),
        "paths-with-components": ("AASA-12", .should), "paths-wrong-type": ("AASA-13", .must), "apps-not-empty": ("AASA-13", .must),
        "defaults-wrong-type": ("AASA-14", .must), "variables-wrong-type": ("AASA-15", .must), "variable-name-invalid": ("AASA-15", .must),
        "variable-undefined": ("AASA-15", .must), "variable-recursive": ("AASA-15", .must), "pattern-unicode-encoded": ("AASA-16", .should),
        "rule-unreachable": ("AASA-17", .should), "rule-duplicate": ("AASA-17", .should), "exclude-after-catch-all": ("AASA-17", .should),
        "service-wrong-type": ("AASA-18", .must), "unknown-service": ("AASA-19", .info),
        "pattern-too-complex": ("AASA-37", .should), "apps-missing": ("AASA-13", .must),
    ]
    /// The codes only the rule analysis reports (validate adds them after parse's).
    static let analysisCodes: Set<AASADiagnosticCode> = [.ruleUnreachable, .ruleDuplicate, .excludeAfterCatchAll]
    /// What validate adds to parse's diagnostics: the analysis's codes and the rules left out by
    /// the compile budget.
    static let validateCodes = analysisCodes.union([.patternTooComplex])

    static func check(_ input: UnsafeBufferPointer<UInt8>, _ p: inout Problems) {
        let bytes: [UInt8], url: String?
        if let cut = input.firstIndex(of: separator) {
            bytes = Array(input[..<cut])
            let text = String(decoding: input[(cut + 1)...], as: UTF8.self)
            url = text.utf8.first == UInt8(ascii: "/") ? "https://" + fallbackDomain + text : text
        } else {
            bytes = Array(input)
            url = nil
        }
        let diagnostics = AASA.validate(bytes)
        guard let file = checkValidation(bytes, diagnostics, &p) else { return }
        // The analysis once per input: validate's rule codes are its findings, and the match
        // checks ask it which rules never decide.
        let findings = AASARuleAnalysis.findings(file)
        checkAnalysis(diagnostics, findings, &p)
        let appIDs = file.appIDs.isEmpty ? [fallbackAppID] : Array(file.appIDs.prefix(2))
        let tooComplex = Set(diagnostics.filter { $0.code == .patternTooComplex }.map(\.pointer))
        for appID in appIDs {
            let matcher = file.matcher(appID: appID)
            for rule in matcher.rules {
                p.check(rule.isCompiled != tooComplex.contains(rule.rule.pointer),
                        "a rule is left uncompiled exactly when validate reports it too complex", rule.rule.place)
            }
            var urls: [String] = url.map { [$0] } ?? []
            for (index, compiled) in matcher.rules.prefix(witnessRules).enumerated() {
                guard let witness = witnessURL(compiled) else { continue }
                if index < checkedWitnesses { urls.append(witness.url) }
                if witness.plain {
                    // A URL of plain characters made of a rule's own witnesses is decided by
                    // that rule or an earlier one.
                    let result = matcher.match(url: witness.url, domain: fallbackDomain)
                    let decidedAt = result.rule.flatMap { rule in matcher.rules.firstIndex { $0.rule == rule } }
                    p.check(decidedAt.map { $0 <= index } ?? false, "a rule's witness URL is decided by it or an earlier rule",
                            "\(appID) rule \(index) \(compiled.rule.text): \(witness.url) -> \(result.kind) \(result.pattern ?? "")")
                }
            }
            for (i, u) in urls.enumerated() {
                // Reading the file again (AASA.match) costs a parse and a compile: once per input.
                checkMatch(i == 0 && appID == appIDs[0] ? bytes : nil, file, matcher, url: u, findings: findings, &p)
            }
        }
    }

    /// validate and parse: deterministic, in agreement, and every code as the contract lists it.
    /// (validate reads the file on its own, so its agreement with parse and with the analysis run
    /// here compares independent runs: a validate that is not deterministic disagrees.)
    static func checkValidation(_ bytes: [UInt8], _ diagnostics: [AASADiagnostic], _ p: inout Problems) -> AASAFile? {
        let (file, parsed) = AASAFile.parse(bytes)
        let (again, parsedAgain) = AASAFile.parse(bytes)
        p.check(again == file && parsedAgain == parsed, "parse is deterministic")
        p.check(diagnostics.starts(with: parsed), "validate reports parse's diagnostics first",
                "parse: \(parsed.map(\.code.rawValue)), validate: \(diagnostics.map(\.code.rawValue))")
        p.check(!parsed.contains { validateCodes.contains($0.code) }, "parse reports no rule analysis code")
        p.check(diagnostics.dropFirst(parsed.count).allSatisfy { validateCodes.contains($0.code) },
                "validate adds only rule analysis codes to parse's", "\(diagnostics.dropFirst(parsed.count).map(\.code.rawValue))")
        for d in diagnostics {
            let row = contract[d.code.rawValue]
            p.check(row?.requirement == d.requirement && row?.level == d.level, "a diagnostic's requirement and level are the contract's",
                    "\(d.code.rawValue): \(d.requirement) \(d.level.rawValue), contract: \(row.map { "\($0.requirement) \($0.level.rawValue)" } ?? "none")")
            p.check(d.line >= 1 && d.column >= 1 && (d.pointer.isEmpty || d.pointer.utf8.first == UInt8(ascii: "/")),
                    "a diagnostic has a pointer and a line and column", d.description)
        }
        let unreadable: Set<AASADiagnosticCode> = [.notJSON, .notObject, .fileTooLarge]
        if file == nil {
            p.check(diagnostics.contains { unreadable.contains($0.code) }, "a file that is not read says why", "\(diagnostics.map(\.code.rawValue))")
        } else {
            p.check(!diagnostics.contains { $0.code == .notJSON || $0.code == .notObject }, "a file that is read is JSON and an object")
        }
        return file
    }

    /// validate's rule analysis codes are the analysis's findings, one per code and rule, in order.
    static func checkAnalysis(_ diagnostics: [AASADiagnostic], _ findings: [AASARuleAnalysis.Finding], _ p: inout Problems) {
        var seen = Set<String>()
        let expected = findings.map { $0.code.rawValue + " " + $0.rule.pointer }.filter { seen.insert($0).inserted }
        let reported = diagnostics.filter { analysisCodes.contains($0.code) }.map { $0.code.rawValue + " " + $0.pointer }
        p.check(reported == expected, "validate reports the analysis's findings", "validate: \(reported), analysis: \(expected)")
    }

    /// Every check of one URL; with the file's `bytes`, also `AASA.match` on them.
    static func checkMatch(_ bytes: [UInt8]?, _ file: AASAFile, _ matcher: AASAMatcher, url: String,
                           findings: [AASARuleAnalysis.Finding], _ p: inout Problems) {
        let parts = AASAURLParts.read(url)
        let domain = parts?.host ?? fallbackDomain
        var steps = 0, stepsAgain = 0
        let result = matcher.match(url: url, domain: domain, steps: &steps)
        let again = matcher.match(url: url, domain: domain, steps: &stepsAgain)
        p.check(again == result && stepsAgain == steps, "match is deterministic", url)
        p.check(matcher.match(url: url, domain: domain) == result, "match with and without steps agree", url)
        p.check(matcher.matchRuleByRule(url: url, domain: domain) == result,
                "the shared tables agree with the rules tried one by one", url)
        if let bytes {
            p.check(AASA.match(bytes, domain: domain, appID: matcher.appID, url: url) == (AASA.isRefusedForSize(bytes) ? .noMatch : result),
                    "AASA.match agrees with the compiled matcher (and matches nothing in a file over 128 KB)", url)
        }

        // Linear time: each automaton reads one component (or query item value) at most, one
        // step per (state, character) plus one per state at the end, as in AutomatonTests. A
        // character is a byte of the URL, or three (a %XX escape) for a non-ASCII byte under
        // percentEncoded, so no component is longer than `length`.
        let length = url.utf8.count + 2 * url.utf8.filter { $0 >= 0x80 }.count
        let states = matcher.rules.reduce(0) { $0 + $1.stateCount }
        let bound = (length + 1) * states + 2 * matcher.rules.count
        p.check(steps <= bound, "matching takes at most (URL length + 1) x states steps",
                "\(steps) steps > \(bound) for \(url.utf8.count) bytes, \(states) states in \(matcher.rules.count) rules")

        // The result names a rule of the app, as written.
        if let rule = result.rule {
            let index = matcher.rules.firstIndex { $0.rule == rule }
            p.check(index != nil && result.kind == rule.matchKind && result.detail == rule.detail
                    && result.component == rule.origin.index && result.pattern == rule.text,
                    "a decided result names a rule of the app, as written", "\(result.kind) \(result.pattern ?? "")")
            let entry = file.applinks?.details.first { $0.key == rule.detail }
            p.check(entry?.appIDs.contains(matcher.appID) == true, "the deciding rule's entry lists the app ID", "\(rule.detail)")
            // A rule the analysis calls duplicate or unreachable never decides.
            if let index, index > 0 {
                let called = findings.first { $0.appID == matcher.appID && $0.rule == rule }
                p.check(called == nil, "a rule the analysis says never decides does not decide",
                        "\(url): \(rule.text) decided, reported \(called?.code.rawValue ?? "") after \(called?.earlier.text ?? "")")
            }
        } else {
            p.check(result.kind == .noMatch && result.detail == nil && result.component == nil && result.pattern == nil,
                    "no_match names no rule", "\(result.kind)")
        }

        // The explanation agrees: its result is match's; the trials follow the rules in order
        // and stop at the first that decides.
        let explanation = matcher.explain(url: url, domain: domain)
        p.check(explanation.result == result, "explain gives match's result", "\(url): \(explanation.result.kind) vs \(result.kind)")
        let trials = explanation.trials
        p.check(trials.count <= matcher.rules.count && zip(trials, matcher.rules).allSatisfy { $0.rule == $1.rule },
                "the trials are the app's rules in order")
        p.check(!trials.dropLast().contains { $0.decided }, "the deciding trial is the first that decided")
        if result.kind == .noMatch {
            p.check(!(trials.last?.decided ?? false), "no trial decides a no_match")
            if explanation.urlProblem == nil {
                p.check(trials.count == matcher.rules.count, "a no_match tries every rule", "\(trials.count) of \(matcher.rules.count)")
            } else {
                p.check(trials.isEmpty, "a URL problem stops before the rules")
            }
        } else {
            p.check(explanation.urlProblem == nil && trials.last?.decided == true && trials.last?.rule == result.rule,
                    "the last trial is the deciding rule")
        }
        let problem = parts == nil ? AASAURLProblem.unreadable : parts!.problem(domain: domain)
        p.check(explanation.urlProblem == problem, "explain names the URL's problem",
                "\(url): \(String(describing: explanation.urlProblem)) vs \(String(describing: problem))")

        // The reason `aasa.match` reports agrees with the explanation: the deciding rule's shape,
        // the URL's problem, or (the file read) whether the app has rules at all.
        if let bytes {
            let reason = AASA.reason(for: result, bytes, domain: domain, appID: matcher.appID, url: url, memo: nil)
            let expected: Set<String>
            if let rule = result.rule {
                expected = [AASA.shape(of: rule)]
            } else if let urlProblem = explanation.urlProblem {
                expected = [urlProblem.reason]
            } else if matcher.rules.isEmpty {
                expected = ["no-applinks", "app-not-listed", "app-has-no-rules"]
            } else {
                expected = ["no-rule-decided"]
            }
            p.check(expected.contains(reason), "the reason agrees with the explanation", "\(url): \(reason), expected one of \(expected.sorted())")
        }
    }

    /// A URL on the fallback domain made of the rule's shortest accepted path, query and
    /// fragment; `plain` when every character in it reads back as itself in its place (letters,
    /// digits, `-._~`, and the delimiters that part leaves alone), so the rule must accept it.
    /// Nil when a part accepts nothing.
    static func witnessURL(_ rule: AASACompiledRule) -> (url: String, plain: Bool)? {
        guard let path = rule.path.shortestWitness(), let fragment = rule.fragment.shortestWitness() else { return nil }
        var plain = isPlain(path, also: "/=&+") && isPlain(fragment, also: "/=&+?")
        // The input's slash rules: a leading run counts as one, a trailing run is dropped.
        if path.count > 1 && (path.last == 0x2F || path[1] == 0x2F) { plain = false }
        var query: [UInt32] = []
        switch rule.query {
        case .whole(let a):
            guard let q = a.shortestWitness() else { return nil }
            plain = plain && isPlain(q, also: "/=&+?")
            query = q
        case .items(let items):
            var names = Set<[UInt32]>()
            for item in items {
                guard let value = item.value.shortestWitness() else { return nil }
                let name = item.name.unicodeScalars.map(\.value)
                plain = plain && isPlain(name, also: "/+?") && !name.isEmpty && isPlain(value, also: "/=+?")
                    && names.insert(item.comparedName).inserted
                if !query.isEmpty { query.append(0x26) }
                query += name + [0x3D] + value
            }
        case .ignored:
            break
        }
        var text = "https://" + fallbackDomain + scalarString(path)
        if !query.isEmpty { text += "?" + scalarString(query) }
        if !fragment.isEmpty { text += "#" + scalarString(fragment) }
        return (text, plain)
    }

    /// Letters, digits, `-._~` and the delimiters in `also`, which the component reads as
    /// themselves where it is written.
    static func isPlain(_ s: [UInt32], also: String) -> Bool {
        let extra = Set(also.unicodeScalars.map(\.value))
        return s.allSatisfy { c in
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
                || c == 0x2D || c == 0x2E || c == 0x5F || c == 0x7E || extra.contains(c)
        }
    }

    static func scalarString(_ s: [UInt32]) -> String {
        var view = String.UnicodeScalarView()
        for c in s { if let u = Unicode.Scalar(c) { view.append(u) } }
        return String(view)
    }
}

extension FuzzTarget {
    /// apple-app-site-association files: validate, parse, the compiled matcher and its explanation.
    public static let aasa = FuzzTarget(name: "aasa", check: AASAInvariants.check)
}
