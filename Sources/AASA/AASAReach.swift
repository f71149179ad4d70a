/// Which rules of an app can decide a URL at all, with a URL for each that can (contract,
/// Matching rule 2: the first rule whose components all match decides).
///
/// For rule *k*, the URLs it decides are L(*k*) minus the union of L(*i*) for the earlier rules
/// *i*. The answer is computed from the compiled automata, not by sampling: the three
/// components are explored as products of every rule's automaton over raw URL characters (see
/// `AASARawModel.swift`), which gives every set of rules one component can match at once, and
/// the combinations of those sets give every set of rules one URL can match.
///
/// - `reachable(witness:)`: a URL that this rule decides, checked with ``AASAMatcher``.
/// - `dead(coveredBy:)`: proved: no URL of the model is decided by it. `coveredBy` lists the
///   earlier rules that decide the URLs it matches (empty: it matches no URL at all).
/// - `undecided`: the exploration reached its ``Budget`` before it was complete; the rule has no
///   witness among what was explored, and it may or may not be dead.
///
/// ```swift
/// let report = AASAReach.analyze(file, appID: "ABCDE12345.com.example.app", domain: "example.com")
/// report.rules[0].verdict   // .reachable(witness: "https://example.com/buy")
/// ```
public enum AASAReach {
    /// The bounds of the exploration. `states`: product states walked per component (path,
    /// query, fragment); `combinations`: (path, query, fragment) signature triples combined;
    /// `cells`: the memory one component's walk may hold (each product state has a slot per
    /// rule, so many rules fill it long before `states`: it bounds a file's time and memory as a
    /// whole, where `states` alone let 2,000 rules take six minutes and 1.9 GB). Past any bound
    /// the answer is incomplete and negative answers become "undecided".
    public struct Budget: Sendable, Hashable {
        public var states: Int
        public var combinations: Int
        public var cells: Int

        public init(states: Int = 60_000, combinations: Int = 1_000_000, cells: Int = 16_000_000) {
            self.states = states
            self.combinations = combinations
            self.cells = cells
        }

        public static let standard = Budget()
    }

    public enum Verdict: Sendable, Hashable {
        case reachable(witness: String)
        /// Indices (in ``AASAFile/rules(for:)`` order) of the earlier rules deciding every URL
        /// this rule matches; empty when the rule matches no URL at all.
        case dead(coveredBy: [Int])
        case undecided(reason: String)
    }

    public struct RuleReach: Sendable, Hashable {
        public let index: Int
        public let rule: AASARule
        public let verdict: Verdict
    }

    public struct Report: Sendable, Hashable {
        public let appID: String
        public let domain: String
        public let rules: [RuleReach]
        /// Whether the exploration was complete (then no verdict is `undecided`).
        public let complete: Bool
        /// Product states walked, over the three components.
        public let statesExplored: Int
    }

    /// The verdict of every rule of `appID` in `file`, in order.
    public static func analyze(_ file: AASAFile, appID: String, domain: String, budget: Budget = .standard) -> Report {
        let matcher = file.matcher(appID: appID)
        let rules = matcher.rules
        let space = AASADecisionSpace(rules: rules, budget: budget)
        var witness = [String?](repeating: nil, count: rules.count)
        var covers = [Set<Int>](repeating: [], count: rules.count)
        var matchesSome = [Bool](repeating: false, count: rules.count)
        space.forEach { matched, p, q, f in
            guard let decider = matched.first(in: 0..<rules.count) else { return }
            if witness[decider] == nil {
                witness[decider] = AASADecisionSpace.url(domain: domain, path: p, query: q, fragment: f)
            }
            matchesSome[decider] = true
            var j = decider + 1
            while let later = matched.first(in: j..<rules.count) {
                covers[later].insert(decider)
                matchesSome[later] = true
                j = later + 1
            }
        }
        var complete = space.complete
        var out: [RuleReach] = []
        for (k, compiled) in rules.enumerated() {
            let verdict: Verdict
            if let url = witness[k] {
                if matcher.match(url: url, domain: domain).rule == compiled.rule {
                    verdict = .reachable(witness: url)
                } else {
                    // Never expected: the model and the matcher disagree. Claim nothing.
                    complete = false
                    verdict = .undecided(reason: "the witness found (\(url)) is not decided by this rule when matched")
                }
            } else if space.complete {
                verdict = .dead(coveredBy: matchesSome[k] ? covers[k].sorted() : [])
            } else {
                verdict = .undecided(reason: "no witness within the bound (\(budget.states) product states and \(budget.cells) cells per component, \(budget.combinations) combinations)")
            }
            out.append(RuleReach(index: k, rule: compiled.rule, verdict: verdict))
        }
        return Report(appID: appID, domain: domain, rules: out, complete: complete, statesExplored: space.statesExplored)
    }
}

/// Every change of answer between two versions of a file, for one app and domain: the classes
/// of URLs whose answer (`match`, `exclude`, `no_match`) differs, each with a URL and the rules
/// deciding it in each version.
///
/// The decision function of a file is a first match over its rules. Both rule lists are explored
/// together (one product per component over the rules of both versions); every URL of the model
/// matches a set of rules given by a signature triple, and decides in each version by the first
/// of its rules there. Each pair (old decider, new decider) whose answers differ is one change;
/// its witness is checked with both versions' ``AASAMatcher``s.
///
/// ```swift
/// let report = AASADiff.compare(old: v1, new: v2, appID: app, domain: "example.com")
/// report.changes.first?.description   // "match -> no_match https://example.com/buy (old: {\"/\":\"/buy\"}; new: no rule)"
/// ```
public enum AASADiff {
    public struct Change: Sendable, Hashable, CustomStringConvertible {
        public let old: AASAMatchKind
        public let new: AASAMatchKind
        public let witness: String
        /// The deciding rule in each version (nil: no rule decides, `no_match`) and its index
        /// in ``AASAFile/rules(for:)`` order.
        public let oldRule: AASARule?
        public let newRule: AASARule?
        public let oldIndex: Int?
        public let newIndex: Int?

        /// A `match` that no longer is: a route that stops opening the app.
        public var losesMatch: Bool { old == .match && new != .match }

        public var description: String {
            "\(old.rawValue) -> \(new.rawValue) \(witness) (old: \(oldRule?.text ?? "no rule"); new: \(newRule?.text ?? "no rule"))"
        }
    }

    public struct Report: Sendable, Hashable {
        public let appID: String
        public let domain: String
        /// Changes that lose a `match` first, then by old and new rule index.
        public let changes: [Change]
        /// Whether the comparison was complete: when false, the changes listed are real but
        /// others may exist (the ``AASAReach/Budget`` was reached).
        public let complete: Bool
        public let statesExplored: Int
    }

    public static func compare(old: AASAFile, new: AASAFile, appID: String, domain: String,
                               budget: AASAReach.Budget = .standard) -> Report {
        let oldMatcher = old.matcher(appID: appID), newMatcher = new.matcher(appID: appID)
        let nOld = oldMatcher.rules.count, nNew = newMatcher.rules.count
        let space = AASADecisionSpace(rules: oldMatcher.rules + newMatcher.rules, budget: budget)
        struct Pair: Hashable { let old: Int?; let new: Int? }
        var witnesses: [Pair: String] = [:]
        var order: [Pair] = []
        func kind(_ rule: AASARule?) -> AASAMatchKind { rule?.matchKind ?? .noMatch }
        space.forEach { matched, p, q, f in
            let o = matched.first(in: 0..<nOld)
            let n = matched.first(in: nOld..<(nOld + nNew)).map { $0 - nOld }
            let pair = Pair(old: o, new: n)
            guard witnesses[pair] == nil,
                  kind(o.map { oldMatcher.rules[$0].rule }) != kind(n.map { newMatcher.rules[$0].rule }) else { return }
            witnesses[pair] = AASADecisionSpace.url(domain: domain, path: p, query: q, fragment: f)
            order.append(pair)
        }
        var complete = space.complete
        var changes: [Change] = []
        for pair in order {
            let url = witnesses[pair]!
            let oldRule = pair.old.map { oldMatcher.rules[$0].rule }, newRule = pair.new.map { newMatcher.rules[$0].rule }
            guard oldMatcher.match(url: url, domain: domain).rule == oldRule,
                  newMatcher.match(url: url, domain: domain).rule == newRule else {
                complete = false   // never expected: the model and the matcher disagree
                continue
            }
            changes.append(Change(old: kind(oldRule), new: kind(newRule), witness: url, oldRule: oldRule, newRule: newRule,
                                  oldIndex: pair.old, newIndex: pair.new))
        }
        changes.sort { a, b in
            if a.losesMatch != b.losesMatch { return a.losesMatch }
            if a.oldIndex != b.oldIndex { return (a.oldIndex ?? Int.max) < (b.oldIndex ?? Int.max) }
            return (a.newIndex ?? Int.max) < (b.newIndex ?? Int.max)
        }
        return Report(appID: appID, domain: domain, changes: changes, complete: complete, statesExplored: space.statesExplored)
    }
}
