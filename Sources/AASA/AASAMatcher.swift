/// One rule compiled: an automaton per pattern, built once.
public struct AASACompiledRule: Sendable {
    /// One `?` dictionary member: the item name as compared (folded when case-insensitive)
    /// and the automaton of its value pattern.
    public struct QueryItem: Sendable {
        public let name: String
        public let comparedName: [UInt32]
        public let value: AASAAutomaton
        let valueMatcher: AASAPatternMatcher
    }

    public enum Query: Sendable {
        /// `?` as a string: the whole query.
        case whole(AASAAutomaton)
        /// `?` as a dictionary of string patterns.
        case items([QueryItem])
        /// `?` as a dictionary with a non-string value: ignored, matches every query.
        case ignored
    }

    /// Where the rule is written (set anew when the memo hands out a rule compiled elsewhere).
    public internal(set) var rule: AASARule
    public let path: AASAAutomaton
    public let query: Query
    public let fragment: AASAAutomaton
    /// The same patterns ready to match (a table where the budget allows; see ``AASADFA``).
    let pathMatcher: AASAPatternMatcher
    let wholeQueryMatcher: AASAPatternMatcher?
    let fragmentMatcher: AASAPatternMatcher

    /// Whether the rule's patterns were compiled. A rule whose patterns would cost more than its
    /// file's compile budget had left (``AASAFile/compileBudget``) is not: it matches no URL,
    /// and validating reports it as `pattern-too-complex`.
    public let isCompiled: Bool

    public init(_ rule: AASARule, variables: [String: [String]]) {
        var unlimited = Int.max
        self.init(rule, variables: variables, within: &unlimited)
    }

    /// The rule compiled if that costs at most `budget` (taken from it); otherwise not compiled
    /// (every automaton empty), and `budget` unchanged.
    init(_ rule: AASARule, variables: [String: [String]], within budget: inout Int) {
        var need = 0
        self.init(rule, variables: variables, within: &budget, need: &need)
    }

    /// ``init(_:variables:within:)``, setting `need`, when the rule is compiled, to the least
    /// budget it compiles within.
    init(_ rule: AASARule, variables: [String: [String]], within budget: inout Int, need: inout Int, prepared: Bool = true) {
        self.rule = rule
        let options = rule.options
        // Legacy paths know `*` and `?` only (decided: variables came with components).
        let vars = rule.isLegacy ? [:] : variables
        var left = budget, fits = true
        need = 0
        func automaton(_ pattern: String, _ kind: AASAPatternCompiler.Kind) -> AASAAutomaton {
            let spent = budget - left
            var needed = 0
            guard fits, let a = AASAPatternCompiler.compile(pattern, as: kind, options: options, variables: vars, within: &left, need: &needed) else {
                fits = false
                return .empty
            }
            need = max(need, spent + needed)
            return a
        }
        var path = automaton(rule.path, .path)
        var fragment = automaton(rule.fragment, .other)
        var query: Query
        switch rule.query {
        case .string(let s):
            query = .whole(automaton(s, .other))
        case .ignored:
            query = .ignored
        case .dictionary(let items):
            query = .items(items.map { item in
                var name: [UInt32] = []
                for c in item.name.unicodeScalars { options.fold(c.value, into: &name) }
                let value = automaton(item.pattern, .other)
                return QueryItem(name: item.name, comparedName: name, value: value, valueMatcher: AASAPatternMatcher(value, prepared: prepared))
            })
        }
        if fits {
            budget = left
        } else {
            (path, fragment, query) = (.empty, .empty, .whole(.empty))
        }
        isCompiled = fits
        self.path = path
        self.fragment = fragment
        self.query = query
        pathMatcher = AASAPatternMatcher(path, prepared: prepared)
        fragmentMatcher = AASAPatternMatcher(fragment, prepared: prepared)
        if case .whole(let a) = query { wholeQueryMatcher = AASAPatternMatcher(a, prepared: prepared) } else { wholeQueryMatcher = nil }
    }

    /// States of all the rule's automata: with the input's length, what bounds the steps of
    /// matching (at most (length + 1) x states, whatever the patterns).
    public var stateCount: Int {
        var n = path.stateCount + fragment.stateCount
        switch query {
        case .whole(let a): n += a.stateCount
        case .items(let items): n += items.reduce(0) { $0 + $1.value.stateCount }
        case .ignored: break
        }
        return n
    }

    /// Whether this rule decides `input`: ``failures(_:steps:)`` without listing them, stopping
    /// at the first part that does not match (what matching needs; explaining needs the list).
    func decides(_ input: inout AASAInput, steps: inout Int) -> Bool {
        let view = input.view(rule.options)
        guard pathMatcher.accepts(view.path, steps: &steps) else { return false }
        switch query {
        case .whole:
            guard wholeQueryMatcher?.accepts(view.query, steps: &steps) ?? true else { return false }
        case .ignored:
            break
        case .items(let items):
            for item in items where !itemMatches(item, view, steps: &steps) { return false }
        }
        return fragmentMatcher.accepts(view.fragment, steps: &steps)
    }

    /// Every occurrence of the item must match; an absent item reads as present and empty.
    func itemMatches(_ item: QueryItem, _ view: AASAInput.View, steps: inout Int) -> Bool {
        var found = false
        for (name, value) in view.items where name == item.comparedName {
            found = true
            if !item.valueMatcher.accepts(value, steps: &steps) { return false }
        }
        return found || item.valueMatcher.accepts([], steps: &steps)
    }

    /// The parts of `input` this rule's patterns reject (empty when the rule decides).
    func failures(_ input: inout AASAInput, steps: inout Int) -> [AASAComponentPart] {
        let view = input.view(rule.options)
        var failed: [AASAComponentPart] = []
        if !pathMatcher.accepts(view.path, steps: &steps) { failed.append(.path) }
        switch query {
        case .whole:
            if !(wholeQueryMatcher?.accepts(view.query, steps: &steps) ?? true) { failed.append(.query) }
        case .ignored:
            break
        case .items(let items):
            for item in items where !itemMatches(item, view, steps: &steps) { failed.append(.queryItem(item.name)) }
        }
        if !fragmentMatcher.accepts(view.fragment, steps: &steps) { failed.append(.fragment) }
        return failed
    }
}

/// A part of a URL a rule compares.
public enum AASAComponentPart: Sendable, Hashable, CustomStringConvertible {
    case path, query, fragment
    /// A named item of a `?` dictionary.
    case queryItem(String)

    public var description: String {
        switch self {
        case .path: "path (/)"
        case .query: "query (?)"
        case .fragment: "fragment (#)"
        case .queryItem(let name): "query item \"\(name)\""
        }
    }
}

/// The URL's components as the rules read them, per comparison options, computed on first use.
struct AASAInput {
    struct View {
        let path: [UInt32]
        let query: [UInt32]
        let fragment: [UInt32]
        let items: [(name: [UInt32], value: [UInt32])]
    }

    let url: AASAURLParts
    var views: [AASACompareOptions: View] = [:]

    init(url: AASAURLParts) {
        self.url = url
    }

    mutating func view(_ options: AASACompareOptions) -> View {
        if let v = views[options] { return v }
        let query = url.query ?? []
        var items: [(name: [UInt32], value: [UInt32])] = []
        if url.query != nil {
            for item in query.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: false) {
                if let eq = item.firstIndex(of: UInt8(ascii: "=")) {
                    items.append((AASAInputText.characters(item[..<eq], options), AASAInputText.characters(item[(eq + 1)...], options)))
                } else {
                    items.append((AASAInputText.characters(item, options), []))
                }
            }
        }
        let v = View(path: AASAInputText.normalizedPath(AASAInputText.characters(url.path, options)),
                     query: AASAInputText.characters(query, options),
                     fragment: AASAInputText.characters(url.fragment ?? [], options),
                     items: items)
        views[options] = v
        return v
    }
}

/// What a file says about a URL for an app (contract, `aasa.match`).
public enum AASAMatchKind: String, Sendable, Hashable, CaseIterable {
    case match
    case exclude
    case noMatch = "no_match"
}

/// The answer of ``AASAMatcher/match(url:domain:)``: the kind, and for `match` and `exclude`
/// the deciding rule: its entry (index, or app ID key in the dictionary form), its index in
/// `components` (or legacy `paths`) and its text.
///
/// The deciding rule is held in one shared object made when compiling, so that handing an
/// answer out is one reference, not the dozen strings of a rule.
public struct AASAMatchResult: Sendable, Hashable {
    public let kind: AASAMatchKind
    private let decided: Decided?

    public var detail: AASADetailKey? { decided?.rule.detail }
    public var component: Int? { decided?.rule.origin.index }
    public var pattern: String? { decided?.pattern }
    public var rule: AASARule? { decided?.rule }

    /// The deciding rule and its text, computed once.
    final class Decided: Sendable, Hashable {
        let rule: AASARule
        let pattern: String

        init(_ rule: AASARule) {
            self.rule = rule
            pattern = rule.text
        }

        static func == (a: Decided, b: Decided) -> Bool { a === b || a.rule == b.rule }
        func hash(into hasher: inout Hasher) { hasher.combine(rule) }
    }

    public static let noMatch = AASAMatchResult(kind: .noMatch, decided: nil)

    init(deciding rule: AASARule) {
        kind = rule.matchKind
        decided = Decided(rule)
    }

    private init(kind: AASAMatchKind, decided: Decided?) {
        self.kind = kind
        self.decided = decided
    }
}

/// One rule tried by ``AASAMatcher/explain(url:domain:)``: whether it decided, and if not,
/// which parts of the URL its patterns rejected.
public struct AASARuleTrial: Sendable, Hashable, CustomStringConvertible {
    public let rule: AASARule
    /// Empty when the rule decided.
    public let failed: [AASAComponentPart]
    public var decided: Bool { failed.isEmpty }

    public var description: String {
        if decided { return "\(rule.place): decides, \(rule.matchKind.rawValue)" }
        return "\(rule.place): no, \(failed.map(\.description).joined(separator: ", ")) did not match"
    }
}

/// Why a URL got its answer: the URL problem that stopped it, or each rule tried in order up
/// to the one that decided.
public struct AASAExplanation: Sendable, Hashable {
    public let urlProblem: AASAURLProblem?
    public let trials: [AASARuleTrial]
    public let result: AASAMatchResult
}

/// The rules of one app in one file, compiled once; answers `aasa.match` for any number of URLs.
///
/// ```swift
/// let matcher = file.matcher(appID: "ABCDE12345.com.example.app")
/// matcher.match(url: "https://example.com/buy/1", domain: "example.com").kind   // .match
/// matcher.explain(url: "https://example.com/x", domain: "example.com").trials   // each rule tried
/// ```
public struct AASAMatcher: Sendable {
    public let appID: String
    public let rules: [AASACompiledRule]
    /// The same rules as one program over URL bytes (what ``match(url:domain:)`` runs).
    let program: AASAMatchProgram

    public init(file: AASAFile, appID: String) {
        self.init(file: file, appID: appID, tableBudget: AASADFA.sharedStateBudget)
    }

    /// `tableBudget`: the most states one shared table may have (tests lower it to make the
    /// program split its tables, or match every rule on its own).
    public init(file: AASAFile, appID: String, tableBudget: Int) {
        self.appID = appID
        rules = file.compiledRules(appID: appID)
        program = AASAMatchProgram(rules, budget: tableBudget)
    }

    /// How the program is laid out: the number of shared path tables, the rules in them, and
    /// the rules tried whole by their own automata.
    public var layout: (tables: Int, tabulated: Int, ruleByRule: Int) {
        (program.tables.count, program.tables.reduce(0) { $0 + $1.rules.count }, program.untabulated.count)
    }

    /// `match`, `exclude` or `no_match` for `url` served from `domain`.
    public func match(url: String, domain: String) -> AASAMatchResult {
        var steps = 0
        return match(url: url, domain: domain, steps: &steps)
    }

    /// ``match(url:domain:)``, adding the automaton steps taken to `steps`.
    public func match(url: String, domain: String, steps: inout Int) -> AASAMatchResult {
        program.match(url: url, domain: domain, compiled: rules, steps: &steps)
    }

    /// ``match(url:domain:)`` the way ``explain(url:domain:)`` reads the rules: each in turn,
    /// with its own automata. The same answer by another road (tests and fuzzing hold the two
    /// against each other).
    public func matchRuleByRule(url: String, domain: String) -> AASAMatchResult {
        Self.matchRuleByRule(rules, url: url, domain: domain)
    }

    /// `rules` tried in turn for one URL: what a single match needs, without the shared tables
    /// (which pay off only over many URLs; see ``AASA/match(_:domain:appID:url:)``).
    static func matchRuleByRule(_ rules: [AASACompiledRule], url: String, domain: String) -> AASAMatchResult {
        guard let parts = AASAURLParts.read(url), parts.problem(domain: domain) == nil else { return .noMatch }
        var input = AASAInput(url: parts)
        var steps = 0
        // By index: binding each compiled rule to a name would copy it, with every automaton and
        // table it holds retained and released, for each rule tried.
        for i in rules.indices where rules[i].decides(&input, steps: &steps) {
            return AASAMatchResult(deciding: rules[i].rule)
        }
        return .noMatch
    }

    /// Each rule tried for `url`, in order, up to the one that decides.
    public func explain(url: String, domain: String) -> AASAExplanation {
        guard let parts = AASAURLParts.read(url) else {
            return AASAExplanation(urlProblem: .unreadable, trials: [], result: .noMatch)
        }
        if let problem = parts.problem(domain: domain) {
            return AASAExplanation(urlProblem: problem, trials: [], result: .noMatch)
        }
        var input = AASAInput(url: parts)
        var steps = 0
        var trials: [AASARuleTrial] = []
        for i in rules.indices {
            let failed = rules[i].failures(&input, steps: &steps)
            trials.append(AASARuleTrial(rule: rules[i].rule, failed: failed))
            if failed.isEmpty {
                return AASAExplanation(urlProblem: nil, trials: trials, result: AASAMatchResult(deciding: rules[i].rule))
            }
        }
        return AASAExplanation(urlProblem: nil, trials: trials, result: .noMatch)
    }
}

extension AASAFile {
    /// The app's rules compiled once (see ``AASAMatcher``).
    public func matcher(appID: String) -> AASAMatcher { AASAMatcher(file: self, appID: appID) }

    /// Each of the app's rules compiled on its own, without the shared tables of a matcher
    /// (what a matcher and a one-off ``AASA/match(_:domain:appID:url:)`` start from). A rule past
    /// the compile budget is left uncompiled.
    public func compiledRules(appID: String) -> [AASACompiledRule] {
        let byEntry = compiledRulesByEntry()
        return entries(listing: appID).flatMap { byEntry[$0] }
    }

    /// What compiling a file's rules may cost, together: the states and transitions of their
    /// automata and the states reached building them (``AASAAutomatonBuilder/build(_:within:need:)``).
    /// A 128 KB file can name `$(lang)` (615 codes) eighteen thousand times: compiled, tens of
    /// millions of states, minutes and gigabytes. The sources say nothing of a limit; this one is
    /// ours (docs/aasa.md, Matching rule 13): 368 uses of `$(lang)` (about 2,700 each) fit, or
    /// about 185 rules `/$(lang)/section/*` (200,000 held only 37 of those, in a 1 KB file).
    public static let compileBudget = 1_000_000

    /// Every entry's rules, compiled in file order within the compile budget: each entry once
    /// (whichever apps list it); a rule that costs more than is left is not compiled (a later,
    /// cheaper one still may be). The same for every app, so matching and validating agree on
    /// which rules are left out. With `prepared` false, the rules are for the analysis, which
    /// reads their automata only: their matchers prepare nothing (``AASAPatternMatcher``; the
    /// two analyses' compiles were a sixth of the `aasa` fuzz target's instructions, half of it
    /// tables that nothing matched).
    func compiledRulesByEntry(prepared: Bool = true) -> [[AASACompiledRule]] {
        guard let applinks else { return [] }
        var left = Self.compileBudget
        var need = 0
        return applinks.details.map { detail in
            rules(of: detail, in: applinks).map {
                AASACompiledRule($0, variables: applinks.variables, within: &left, need: &need, prepared: prepared)
            }
        }
    }
}
