import LinkJSON

/// The rule analysis behind `rule-duplicate`, `exclude-after-catch-all` and `rule-unreachable`
/// (AASA-17): for each app, whether an earlier rule always decides before a later one.
///
/// Decided exactly on the compiled automata, and conservatively: a rule is reported only when
/// one earlier rule provably decides every URL it would (its path, query and fragment languages
/// include the later rule's, compared under the same options, or are universal). Whatever is
/// not decided within the budgets is not reported. A rule that can match nothing at all is never
/// called unreachable (`pattern-unicode-encoded` or nothing explains that).
public enum AASARuleAnalysis {
    /// Pairs of rules compared per file at most; further pairs are not examined.
    public static let pairBudget = 200_000
    /// What deciding inclusions may cost per file in all (``AASAAutomaton/includes(_:budget:work:)``):
    /// a hostile file of hundreds of rules that all start with `$(lang)` otherwise had every
    /// pair explore its 20,000 pairs of states (minutes); past it, nothing more is reported.
    public static let workBudget = 2_000_000

    /// What the analysis found about one rule of one app.
    public struct Finding: Sendable, Hashable {
        public let code: AASADiagnosticCode
        public let appID: String
        /// The rule reported.
        public let rule: AASARule
        /// The earlier rule that always decides first.
        public let earlier: AASARule
    }

    /// The findings for every app of `file`, at most one per rule and app.
    public static func findings(_ file: AASAFile) -> [Finding] {
        findings(file, compiled: file.compiledRulesByEntry(prepared: false))
    }

    /// `memo` (``AASAMemoStore``) keeps each compiled rule's facts and each pair's inclusions
    /// across files; the findings are the same without it.
    static func findings(_ file: AASAFile, compiled byEntry: [[AASACompiledRule]], memo: (any AASAMemoStore)? = nil) -> [Finding] {
        found(file, compiled: byEntry, memo: memo).map {
            Finding(code: $0.code, appID: $0.appID, rule: $0.later.compiled.rule, earlier: $0.earlier.compiled.rule)
        }
    }

    /// A finding as the analysis records it: the two rules by reference. A ``Finding`` holds
    /// copies of both rules (360 bytes); the corpus's file of ten thousand repeated paths has ten
    /// thousand findings, and at the peak of a stored run of the repeated corpus their copies
    /// were 26.7 of the 88.5 MB on the heap (heaptrack).
    struct Found {
        let code: AASADiagnosticCode
        let appID: String
        let later: RuleFacts
        let earlier: RuleFacts
    }

    /// The findings, at most one per rule and app, with the rules by reference.
    static func found(_ file: AASAFile, compiled byEntry: [[AASACompiledRule]], memo: (any AASAMemoStore)? = nil) -> [Found] {
        var out: [Found] = []
        var budget = pairBudget
        var meter = AASAWorkMeter()
        let variables = file.applinks?.variables ?? [:]
        // Apps listed by the same entries have the same rules: read once for all of them (one
        // entry may list a thousand app IDs).
        var factsByEntries: [[Int]: [RuleFacts]] = [:]
        for appID in file.appIDs {
            let entries = file.entries(listing: appID)
            let facts: [RuleFacts]
            if let known = factsByEntries[entries] {
                facts = known
            } else {
                // Rule by rule from each entry's compiled rules: `flatMap` first made an array of
                // copies of them to map from (289 bytes a rule, grown by doubling).
                var made: [RuleFacts] = []
                made.reserveCapacity(entries.reduce(0) { $0 + byEntry[$1].count })
                for entry in entries {
                    for compiled in byEntry[entry] {
                        if let memo, compiled.isCompiled {
                            made.append(RuleFacts(compiled, variables: variables, memo: memo, meter: &meter))
                        } else {
                            made.append(RuleFacts(compiled, meter: &meter))
                        }
                    }
                }
                facts = made
                factsByEntries[entries] = made
            }
            for j in facts.indices {
                let later = facts[j].compiled.rule
                var found: Found?
                // Ends at the first duplicate. (Written `where found == nil`, the loop went on to
                // the first rule, comparing a copy of the optional finding with nil each time: a
                // file of ten thousand repeated paths took 8 s, every one of them a duplicate of
                // the first. Found by `linkconform fuzz`.)
                for i in 0..<j {
                    budget -= 1
                    if budget < 0 || meter.work > workBudget { return out }
                    if facts[i].normalizedPath == facts[j].normalizedPath && facts[i].compiled.rule.sameSettings(as: later) {
                        found = Found(code: .ruleDuplicate, appID: appID, later: facts[j], earlier: facts[i])
                        break
                    }
                }
                if found == nil && later.exclude {
                    for i in 0..<j where !facts[i].compiled.rule.exclude && facts[i].isCatchAll {
                        found = Found(code: .excludeAfterCatchAll, appID: appID, later: facts[j], earlier: facts[i])
                        break
                    }
                }
                if found == nil && !facts[j].isEmpty {
                    for i in 0..<j where meter.work <= workBudget && facts[i].covers(facts[j], meter: &meter, memo: memo) {
                        found = Found(code: .ruleUnreachable, appID: appID, later: facts[j], earlier: facts[i])
                        break
                    }
                }
                if let found { out.append(found) }
            }
        }
        return out
    }

    /// A diagnostic of the analysis already reported: its code and the rule's place.
    struct Reported: Hashable {
        let code: AASADiagnosticCode
        let pointer: String
    }

    static func diagnostics(_ file: AASAFile, locations: JSONLocations, memo: (any AASAMemoStore)? = nil) -> [AASADiagnostic] {
        var seen = Set<Reported>()
        var out: [AASADiagnostic] = []
        // Without a memo, the rules are compiled for this analysis alone; a memo's are shared
        // with matching.
        let byEntry = memo == nil ? file.compiledRulesByEntry(prepared: false) : file.compiledRulesByEntry(memo: memo)
        for rule in byEntry.joined() where !rule.isCompiled {
            let (line, column) = locations.nearestLocation(of: rule.rule.pointer)
            out.append(AASADiagnostic(.patternTooComplex, pointer: rule.rule.pointer, line: line, column: column,
                message: "\(rule.rule.place) costs more to compile than the file has left of its budget (\(AASAFile.compileBudget) states and transitions, spent in file order): it is not compiled and matches no URL"))
        }
        for f in found(file, compiled: byEntry, memo: memo) {
            let rule = f.later.compiled.rule
            guard seen.insert(Reported(code: f.code, pointer: rule.pointer)).inserted else { continue }
            let (line, column) = locations.nearestLocation(of: rule.pointer)
            let earlier = f.earlier.compiled.rule.place
            let message: String
            switch f.code {
            case .ruleDuplicate:
                message = "for \(f.appID), \(rule.text) repeats \(earlier), which always decides first"
            case .excludeAfterCatchAll:
                message = "for \(f.appID), the exclusion \(rule.text) comes after \(earlier), which matches every URL; put exclusions first"
            default:
                message = "for \(f.appID), \(rule.text) never decides: \(earlier) matches every URL it would and comes first"
            }
            out.append(AASADiagnostic(f.code, pointer: rule.pointer, line: line, column: column, message: message))
        }
        return out
    }

    /// One compiled rule with the facts the analysis asks about it, each computed once. A class:
    /// the pairwise loops read `facts[i]` for every earlier rule, and as a struct (a compiled
    /// rule's automata, a string, arrays) each read copied and released it, an eighth of a whole
    /// corpus run.
    final class RuleFacts {
        let compiled: AASACompiledRule
        let pathUniversal: Bool
        let queryUniversal: Bool
        let fragmentUniversal: Bool
        let isEmpty: Bool
        let pathPrefix: [UInt32]
        /// The path after the slash rules, made once (duplicates compare it pairwise).
        let normalizedPath: String
        /// What the rule compiles from, when its facts and pairs go through a memo.
        let key: AASAMemo.RuleKey?

        static let anyPath = AASAPatternCompiler.compile("/*", as: .path, options: .init())

        init(_ compiled: AASACompiledRule, meter: inout AASAWorkMeter) {
            self.compiled = compiled
            key = nil
            normalizedPath = compiled.rule.normalizedPath
            pathUniversal = Self.includes(compiled.path, Self.anyPath, &meter)
            fragmentUniversal = compiled.fragment.isUniversal
            switch compiled.query {
            case .ignored: queryUniversal = true
            case .whole(let a): queryUniversal = a.isUniversal
            case .items(let items): queryUniversal = items.allSatisfy { $0.value.isUniversal }
            }
            var empty = compiled.path.isEmpty || compiled.fragment.isEmpty
            switch compiled.query {
            case .whole(let a): empty = empty || a.isEmpty
            case .items(let items): empty = empty || items.contains { $0.value.isEmpty }
            case .ignored: break
            }
            isEmpty = empty
            pathPrefix = requiredPrefix(compiled.path)
        }

        /// The same facts of a compiled rule, kept in `memo` by what the rule compiles from.
        init(_ compiled: AASACompiledRule, variables: [String: [String]], memo: any AASAMemoStore, meter: inout AASAWorkMeter) {
            let key = AASAMemo.RuleKey(compiled.rule, variables: variables)
            let memoKey = AASAMemo.Key(kind: .facts(key))
            let facts: AASAMemo.Facts
            if let value = memo.value(for: memoKey), case .facts(let f) = value.kind {
                facts = f
            } else {
                // Decided from no work spent: the only inclusion is the path's against `/*`.
                var fromZero = AASAWorkMeter()
                let decided = RuleFacts(compiled, meter: &fromZero)
                facts = AASAMemo.Facts(
                    pathUniversal: AASAMemo.Metered(value: decided.pathUniversal, cost: fromZero.work, peak: fromZero.peak),
                    queryUniversal: decided.queryUniversal, fragmentUniversal: decided.fragmentUniversal,
                    isEmpty: decided.isEmpty, pathPrefix: decided.pathPrefix)
                memo.keep(AASAMemo.Value(kind: .facts(facts), weight: key.weight + 64 + 4 * facts.pathPrefix.count), for: memoKey)
            }
            self.compiled = compiled
            self.key = key
            normalizedPath = compiled.rule.normalizedPath
            pathUniversal = facts.pathUniversal.value(after: &meter.work, whenCut: false)
            queryUniversal = facts.queryUniversal
            fragmentUniversal = facts.fragmentUniversal
            isEmpty = facts.isEmpty
            pathPrefix = facts.pathPrefix
        }

        var isCatchAll: Bool { pathUniversal && queryUniversal && fragmentUniversal }

        /// Whether `a` provably accepts all `b` accepts, within the per-decision budget and the
        /// file's ``AASARuleAnalysis/workBudget`` (undecided counts as no). `atoms`: the two
        /// automata's alphabet atoms, when known.
        static func includes(_ a: AASAAutomaton, _ b: AASAAutomaton, _ meter: inout AASAWorkMeter, atoms: [UInt32]? = nil) -> Bool {
            a.includes(b, budget: 20_000, meter: &meter, workLimit: AASARuleAnalysis.workBudget, atoms: atoms) == true
        }

        /// The alphabet atoms of this rule's path, fragment and whole-query patterns (made when
        /// the rule is first compared: most are told apart by their prefixes first).
        lazy var pathAtoms = AASAAutomaton.alphabetAtoms([compiled.path])
        lazy var fragmentAtoms = AASAAutomaton.alphabetAtoms([compiled.fragment])
        lazy var wholeQueryAtoms: [UInt32] = {
            if case .whole(let a) = compiled.query { return AASAAutomaton.alphabetAtoms([a]) }
            return []
        }()

        /// ``covers(_:meter:)``, through `memo` when both rules' facts came from it: the checks
        /// that decide without an inclusion are made here, the inclusions are kept by pair.
        func covers(_ later: RuleFacts, meter: inout AASAWorkMeter, memo: (any AASAMemoStore)?) -> Bool {
            guard let memo, let key, let laterKey = later.key else { return covers(later, meter: &meter) }
            if !pathUniversal {
                guard compiled.rule.options == later.compiled.rule.options else { return false }
                let (a, b) = (pathPrefix, later.pathPrefix)
                if !(a.starts(with: b) || b.starts(with: a)) { return false }
            }
            let memoKey = AASAMemo.Key(kind: .covers(key, laterKey))
            let decided: AASAMemo.Metered<Bool>
            if let value = memo.value(for: memoKey), case .covers(let m) = value.kind {
                decided = m
            } else {
                decided = AASAMemo.Metered { covers(later, meter: &$0) }
                memo.keep(AASAMemo.Value(kind: .covers(decided), weight: key.weight + laterKey.weight + 64), for: memoKey)
            }
            return decided.value(after: &meter.work, whenCut: false)
        }

        /// Whether this (earlier) rule matches every URL `later` matches.
        func covers(_ later: RuleFacts, meter: inout AASAWorkMeter) -> Bool {
            let sameOptions = compiled.rule.options == later.compiled.rule.options
            if !pathUniversal {
                guard sameOptions else { return false }
                let (a, b) = (pathPrefix, later.pathPrefix)
                if !(a.starts(with: b) || b.starts(with: a)) { return false }   // disjoint languages
                let atoms = AASAAutomaton.mergedAtoms(pathAtoms, later.pathAtoms)
                guard Self.includes(compiled.path, later.compiled.path, &meter, atoms: atoms) else { return false }
            }
            if !fragmentUniversal {
                guard sameOptions else { return false }
                let atoms = AASAAutomaton.mergedAtoms(fragmentAtoms, later.fragmentAtoms)
                guard Self.includes(compiled.fragment, later.compiled.fragment, &meter, atoms: atoms) else { return false }
            }
            if !queryUniversal {
                guard sameOptions else { return false }
                switch (compiled.query, later.compiled.query) {
                case (.whole(let a), .whole(let b)):
                    let atoms = AASAAutomaton.mergedAtoms(wholeQueryAtoms, later.wholeQueryAtoms)
                    guard Self.includes(a, b, &meter, atoms: atoms) else { return false }
                case (.items(let mine), .items(let theirs)):
                    // Every item this rule names must be named by `later` with a pattern whose
                    // values (and the empty value of an absent item) this rule accepts.
                    for item in mine {
                        guard let other = theirs.first(where: { $0.comparedName == item.comparedName }),
                              Self.includes(item.value, other.value, &meter) else { return false }
                    }
                default:
                    return false
                }
            }
            return true
        }
    }
}

/// The scalars every input an automaton accepts starts with, as far as they are forced: follows
/// single-scalar transitions from the start while the state set does not accept.
func requiredPrefix(_ a: AASAAutomaton) -> [UInt32] {
    var states = [a.start], out: [UInt32] = []
    while !a.anyAccepting(states), out.count < 256 {
        var label: UInt32?
        for s in states {
            for t in a.transitions[s] {
                guard t.label.ranges.count == 1, t.label.ranges[0].lowerBound == t.label.ranges[0].upperBound else { return out }
                let c = t.label.ranges[0].lowerBound
                if label == nil { label = c } else if label != c { return out }
            }
        }
        guard let c = label else { return out }
        out.append(c)
        states = a.step(states, c)
    }
    return out
}
