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
            Finding(code: $0.code, appID: $0.appID, rule: byEntry[$0.later].rule, earlier: byEntry[$0.earlier].rule)
        }
    }

    /// Where a compiled rule is: its entry's index in `byEntry`, then its index in the entry.
    struct Place: Hashable {
        let entry: Int32
        let index: Int32
    }

    /// A finding as the analysis records it: the two rules by their places. A ``Finding`` holds
    /// copies of both rules (360 bytes); the corpus's file of ten thousand repeated paths has ten
    /// thousand findings, and at the peak of a stored run of the repeated corpus their copies
    /// were 26.7 of the 88.5 MB on the heap (heaptrack).
    struct Found {
        let code: AASADiagnosticCode
        let appID: String
        let later: Place
        let earlier: Place
    }

    /// One rule as the pairwise loops read it: its place, the facts of what it compiles from
    /// (shared by every rule of the file that compiles from the same), and whether its path is
    /// universal as decided at its turn (after the work spent before it; see
    /// ``AASAMemo/Metered``).
    struct Slot {
        let facts: RuleFacts
        let place: Place
        let pathUniversal: Bool

        var isCatchAll: Bool { pathUniversal && facts.queryUniversal && facts.fragmentUniversal }
    }

    /// The findings, at most one per rule and app, with the rules by their places.
    static func found(_ file: AASAFile, compiled byEntry: [[AASACompiledRule]], memo: (any AASAMemoStore)? = nil) -> [Found] {
        var out: [Found] = []
        var budget = pairBudget
        var meter = AASAWorkMeter()
        let variables = file.applinks?.variables ?? [:]
        // Rules that compile from the same (same patterns, flags and variables) share their facts:
        // a file of ten thousand repeated paths made ten thousand (440 bytes each; two runs of that
        // corpus case at once were 8.8 MB of a stored run's peak, heaptrack).
        var shared: [SharingKey: RuleFacts] = [:]
        // Apps listed by the same entries have the same rules: read once for all of them (one
        // entry may list a thousand app IDs).
        var slotsByEntries: [[Int]: [Slot]] = [:]
        for appID in file.appIDs {
            let entries = file.entries(listing: appID)
            let slots: [Slot]
            if let known = slotsByEntries[entries] {
                slots = known
            } else {
                var made: [Slot] = []
                made.reserveCapacity(entries.reduce(0) { $0 + byEntry[$1].count })
                for entry in entries {
                    // By index, the rule read in place: `enumerated()` copied each compiled rule
                    // (289 bytes and the references in them).
                    for index in byEntry[entry].indices {
                        let key = SharingKey(byEntry[entry][index])
                        let facts: RuleFacts
                        if let known = shared[key] {
                            facts = known
                        } else {
                            let compiled = byEntry[entry][index]
                            facts = RuleFacts(compiled, variables: variables, memo: compiled.isCompiled ? memo : nil)
                            shared[key] = facts
                        }
                        made.append(Slot(facts: facts, place: Place(entry: Int32(entry), index: Int32(index)),
                                         pathUniversal: facts.pathUniversal.value(after: &meter.work, whenCut: false)))
                    }
                }
                slots = made
                slotsByEntries[entries] = made
            }
            for j in slots.indices {
                let later = slots[j]
                let laterRule = byEntry[later.place].rule
                var found: Found?
                // Ends at the first duplicate. (Written `where found == nil`, the loop went on to
                // the first rule, comparing a copy of the optional finding with nil each time: a
                // file of ten thousand repeated paths took 8 s, every one of them a duplicate of
                // the first. Found by `linkconform fuzz`.)
                for i in 0..<j {
                    budget -= 1
                    if budget < 0 || meter.work > workBudget { return out }
                    if slots[i].facts.normalizedPath == later.facts.normalizedPath && byEntry[slots[i].place].rule.sameSettings(as: laterRule) {
                        found = Found(code: .ruleDuplicate, appID: appID, later: later.place, earlier: slots[i].place)
                        break
                    }
                }
                if found == nil && laterRule.exclude {
                    for i in 0..<j where !byEntry[slots[i].place].rule.exclude && slots[i].isCatchAll {
                        found = Found(code: .excludeAfterCatchAll, appID: appID, later: later.place, earlier: slots[i].place)
                        break
                    }
                }
                if found == nil && !later.facts.isEmpty {
                    for i in 0..<j where meter.work <= workBudget && slots[i].covers(later, meter: &meter, memo: memo) {
                        found = Found(code: .ruleUnreachable, appID: appID, later: later.place, earlier: slots[i].place)
                        break
                    }
                }
                if let found { out.append(found) }
            }
        }
        return out
    }

    /// What decides whether two rules of one file share their facts: what they compile from
    /// (an ``AASAMemo/RuleKey`` made without the variables, which are the same for every rule
    /// of the file and would be hashed for each), and whether they were compiled (a rule past
    /// the compile budget is not, and matches nothing).
    struct SharingKey: Hashable {
        let rule: AASAMemo.RuleKey
        let isCompiled: Bool

        init(_ compiled: borrowing AASACompiledRule) {
            rule = AASAMemo.RuleKey(compiled.rule, variables: [:])
            isCompiled = compiled.isCompiled
        }
    }

    /// A diagnostic of the analysis already reported: its code and the rule's place (one place,
    /// one pointer; two integers hash for less than the pointer's text).
    struct Reported: Hashable {
        let code: AASADiagnosticCode
        let place: Place
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
            guard seen.insert(Reported(code: f.code, place: f.later)).inserted else { continue }
            let rule = byEntry[f.later].rule
            let (line, column) = locations.nearestLocation(of: rule.pointer)
            let earlier = byEntry[f.earlier].rule.place
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

    /// What a compiled rule compiles from, with the facts the analysis asks about it, each
    /// computed once per file (and kept across files in a memo, when there is one). A class:
    /// the pairwise loops read the facts of every earlier rule, and as a struct (a compiled
    /// rule's automata, a string, arrays) each read copied and released it, an eighth of a whole
    /// corpus run.
    final class RuleFacts {
        /// The first rule of the file that compiles from this (its automata and options; where
        /// it is written is each rule's own, in its ``Slot``).
        let compiled: AASACompiledRule
        /// Whether the path accepts every path, decided from no work spent: each rule replays it
        /// after the work spent before its turn (``AASAMemo/Metered/value(after:whenCut:)``).
        let pathUniversal: AASAMemo.Metered<Bool>
        let queryUniversal: Bool
        let fragmentUniversal: Bool
        let isEmpty: Bool
        let pathPrefix: [UInt32]
        /// The path after the slash rules, made once (duplicates compare it pairwise).
        let normalizedPath: String
        /// What the rule compiles from, when its facts and pairs go through a memo.
        let key: AASAMemo.RuleKey?

        static let anyPath = AASAPatternCompiler.compile("/*", as: .path, options: .init())

        /// The facts of `compiled`, through `memo` (kept by what the rule compiles from) when
        /// there is one.
        init(_ compiled: AASACompiledRule, variables: [String: [String]], memo: (any AASAMemoStore)?) {
            let facts: AASAMemo.Facts
            if let memo {
                let key = AASAMemo.RuleKey(compiled.rule, variables: variables)
                let memoKey = AASAMemo.Key(kind: .facts(key))
                if let value = memo.value(for: memoKey), case .facts(let f) = value.kind {
                    facts = f
                } else {
                    facts = Self.decide(compiled)
                    memo.keep(AASAMemo.Value(kind: .facts(facts), weight: key.weight + 64 + 4 * facts.pathPrefix.count), for: memoKey)
                }
                self.key = key
            } else {
                facts = Self.decide(compiled)
                key = nil
            }
            self.compiled = compiled
            normalizedPath = compiled.rule.normalizedPath
            pathUniversal = facts.pathUniversal
            queryUniversal = facts.queryUniversal
            fragmentUniversal = facts.fragmentUniversal
            isEmpty = facts.isEmpty
            pathPrefix = facts.pathPrefix
        }

        /// The facts of a compiled rule, decided from no work spent: the only inclusion is the
        /// path's against `/*`.
        static func decide(_ compiled: AASACompiledRule) -> AASAMemo.Facts {
            let pathUniversal = AASAMemo.Metered { includes(compiled.path, anyPath, &$0) }
            let queryUniversal: Bool
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
            return AASAMemo.Facts(pathUniversal: pathUniversal, queryUniversal: queryUniversal,
                                  fragmentUniversal: compiled.fragment.isUniversal, isEmpty: empty,
                                  pathPrefix: requiredPrefix(compiled.path))
        }

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
    }
}

extension AASARuleAnalysis.Slot {
    /// ``covers(_:meter:)``, through `memo` when both rules' facts came from it: the checks
    /// that decide without an inclusion are made here, the inclusions are kept by pair.
    func covers(_ later: Self, meter: inout AASAWorkMeter, memo: (any AASAMemoStore)?) -> Bool {
        guard let memo, let key = facts.key, let laterKey = later.facts.key else { return covers(later, meter: &meter) }
        if !pathUniversal {
            guard facts.compiled.rule.options == later.facts.compiled.rule.options else { return false }
            let (a, b) = (facts.pathPrefix, later.facts.pathPrefix)
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
    func covers(_ later: Self, meter: inout AASAWorkMeter) -> Bool {
        let mine = facts, theirs = later.facts
        let sameOptions = mine.compiled.rule.options == theirs.compiled.rule.options
        if !pathUniversal {
            guard sameOptions else { return false }
            let (a, b) = (mine.pathPrefix, theirs.pathPrefix)
            if !(a.starts(with: b) || b.starts(with: a)) { return false }   // disjoint languages
            let atoms = AASAAutomaton.mergedAtoms(mine.pathAtoms, theirs.pathAtoms)
            guard Facts.includes(mine.compiled.path, theirs.compiled.path, &meter, atoms: atoms) else { return false }
        }
        if !mine.fragmentUniversal {
            guard sameOptions else { return false }
            let atoms = AASAAutomaton.mergedAtoms(mine.fragmentAtoms, theirs.fragmentAtoms)
            guard Facts.includes(mine.compiled.fragment, theirs.compiled.fragment, &meter, atoms: atoms) else { return false }
        }
        if !mine.queryUniversal {
            guard sameOptions else { return false }
            switch (mine.compiled.query, theirs.compiled.query) {
            case (.whole(let a), .whole(let b)):
                let atoms = AASAAutomaton.mergedAtoms(mine.wholeQueryAtoms, theirs.wholeQueryAtoms)
                guard Facts.includes(a, b, &meter, atoms: atoms) else { return false }
            case (.items(let mine), .items(let theirs)):
                // Every item this rule names must be named by `later` with a pattern whose
                // values (and the empty value of an absent item) this rule accepts.
                for item in mine {
                    guard let other = theirs.first(where: { $0.comparedName == item.comparedName }),
                          Facts.includes(item.value, other.value, &meter) else { return false }
                }
            default:
                return false
            }
        }
        return true
    }

    private typealias Facts = AASARuleAnalysis.RuleFacts
}

extension [[AASACompiledRule]] {
    /// The compiled rule at `place`, read in place (no copy of its 289 bytes).
    subscript(place: AASARuleAnalysis.Place) -> AASACompiledRule {
        _read { yield self[Int(place.entry)][Int(place.index)] }
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
