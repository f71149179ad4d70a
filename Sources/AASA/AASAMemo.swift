/// What compiling and analysing rules found, kept across files by a store the caller owns
/// (``AASAMemoStore``), so that a file that differs from an earlier one in a few rules (a
/// fuzzer's mutation, a file edited and checked again) costs only those rules.
///
/// Everything kept is a function of what it is keyed by, and is used so that the answers are
/// exactly those without a store:
/// - a rule compiled (`rule`), keyed by what compiling reads (path, query, fragment, the two
///   flags, legacy or not, the file's variables), with the least budget it compiles within and
///   what it takes from it: a file with less left gets it uncompiled, as compiling would have
///   left it (`pattern-too-complex` stays), and a rule found over some budget is compiled again
///   only for a larger one;
/// - the analysis's facts about a compiled rule and whether one compiled rule covers another,
///   each with the inclusion work it cost (``AASARuleAnalysis/workBudget``): where the file's
///   work left would have cut the decision short, the answer is the one that cut gives;
/// - a file's parse and compiled rules (`file`), keyed by its bytes, for ``AASA/match(_:domain:appID:url:memo:)``.
public protocol AASAMemoStore: AnyObject, Sendable {
    /// What was kept for `key`, or nil.
    func value(for key: AASAMemo.Key) -> AASAMemo.Value?
    /// Keeps `value` for `key` (a store may drop it, or drop others to make room).
    func keep(_ value: AASAMemo.Value, for key: AASAMemo.Key)
}

public enum AASAMemo {
    /// What a rule's compilation depends on.
    struct RuleKey: Hashable, Sendable {
        let path: String
        let query: AASAQueryPattern
        let fragment: String
        let options: AASACompareOptions
        let isLegacy: Bool
        /// The file's variables (empty for a legacy path, which knows none).
        let variables: [String: [String]]
        /// Hashed once: a key is hashed at every look-up, and a pair's holds two.
        let hash: Int

        init(_ rule: borrowing AASARule, variables: [String: [String]]) {
            path = rule.path
            query = rule.query
            fragment = rule.fragment
            options = rule.options
            isLegacy = rule.isLegacy
            self.variables = rule.isLegacy ? [:] : variables
            var h = Hasher()
            h.combine(path)
            h.combine(query)
            h.combine(fragment)
            h.combine(options)
            h.combine(isLegacy)
            h.combine(self.variables)
            hash = h.finalize()
        }

        func hash(into hasher: inout Hasher) { hasher.combine(hash) }

        static func == (a: RuleKey, b: RuleKey) -> Bool {
            a.hash == b.hash && a.path == b.path && a.query == b.query && a.fragment == b.fragment && a.options == b.options
                && a.isLegacy == b.isLegacy && a.variables == b.variables
        }

        /// Characters in the key: a rough size.
        var weight: Int {
            var n = path.utf8.count + fragment.utf8.count
            switch query {
            case .string(let s): n += s.utf8.count
            case .dictionary(let items): n += items.reduce(0) { $0 + $1.name.utf8.count + $1.pattern.utf8.count }
            case .ignored: break
            }
            return n + variables.reduce(0) { $0 + $1.key.utf8.count + $1.value.reduce(0) { $0 + $1.utf8.count } }
        }
    }

    public struct Key: Hashable, Sendable {
        enum Kind: Hashable, Sendable {
            case file(FileKey)
            case rule(RuleKey)
            case facts(RuleKey)
            case covers(RuleKey, RuleKey)
        }
        let kind: Kind

        /// Which of the kinds it is (a store may bound each on its own).
        public enum Family: Sendable { case file, rule, facts, covers }

        public var family: Family {
            switch kind {
            case .file: .file
            case .rule: .rule
            case .facts: .facts
            case .covers: .covers
            }
        }
    }

    public struct Value: Sendable {
        enum Kind: Sendable {
            case file(AASAFile?, [[AASACompiledRule]])
            case rule(RuleCompilation)
            case facts(Facts)
            case covers(Metered<Bool>)
        }
        let kind: Kind
        /// A rough measure of the memory the value and its key hold (bytes of text, states and
        /// transitions), for a store to bound.
        public let weight: Int
    }

    /// A file's bytes, hashed once and in one pass (hashing an array hashes it byte by byte).
    struct FileKey: Hashable, Sendable {
        let bytes: [UInt8]
        let hash: Int

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
            var h = Hasher()
            bytes.withUnsafeBytes { h.combine(bytes: $0) }
            hash = h.finalize()
        }

        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
        static func == (a: FileKey, b: FileKey) -> Bool { a.hash == b.hash && a.bytes == b.bytes }
    }

    /// A rule compiled within some budget, or known not to compile within one.
    struct RuleCompilation: Sendable {
        /// Compiled: the rule (as first met) and the least budget it compiles within, and what it takes.
        var compiled: (rule: AASACompiledRule, need: Int, cost: Int)?
        /// Not compiled within this budget (nor, then, within any smaller one); -1 when unknown.
        var failsWithin = -1
    }

    /// A value decided with inclusion work (``AASAAutomaton/includes(_:budget:meter:workLimit:)``)
    /// counted from zero against ``AASARuleAnalysis/workBudget``: the work it added, and the most
    /// work a check inside it saw (nil when none was checked). Started with `work` already spent,
    /// the same decision is cut short exactly when `work + peak` passes the limit.
    struct Metered<T: Sendable>: Sendable {
        let value: T
        let cost: Int
        let peak: Int?

        init(value: T, cost: Int, peak: Int?) {
            self.value = value
            self.cost = cost
            self.peak = peak
        }

        /// Decides from zero, metering.
        init(_ decide: (inout AASAWorkMeter) -> T) {
            var meter = AASAWorkMeter()
            value = decide(&meter)
            cost = meter.work
            peak = meter.peak
        }

        /// The value as decided with `work` spent before (limit ``AASARuleAnalysis/workBudget``),
        /// `whenCut` where the limit would have cut it short; `work` moves on as it would have.
        func value(after work: inout Int, whenCut: T) -> T {
            if let peak, work + peak > AASARuleAnalysis.workBudget {
                work += peak
                return whenCut
            }
            work += cost
            return value
        }
    }

    /// What the analysis asks of a compiled rule, independent of where it is written.
    struct Facts: Sendable {
        let pathUniversal: Metered<Bool>
        let queryUniversal: Bool
        let fragmentUniversal: Bool
        let isEmpty: Bool
        let pathPrefix: [UInt32]
    }
}

/// The work of inclusion decisions, with the highest value a limit was checked against.
struct AASAWorkMeter {
    var work = 0
    var peak: Int?
}

extension AASACompiledRule {
    /// These automata for `rule`, which compiles to the same (same patterns, flags and variables).
    func rebound(to rule: AASARule) -> AASACompiledRule {
        var copy = self
        copy.rule = rule
        return copy
    }

    /// Rules compiled with nothing left of a budget: every automaton empty, as
    /// ``init(_:variables:within:)`` leaves a rule that does not fit.
    static let uncompiled: AASACompiledRule = {
        var nothingLeft = -1
        return AASACompiledRule(
            AASARule(detail: .index(0), origin: .component(0), pointer: "", path: "", query: .string(""), fragment: "",
                     exclude: false, caseSensitive: true, percentEncoded: true, pathPointer: nil, queryPointer: nil, fragmentPointer: nil),
            variables: [:], within: &nothingLeft)
    }()

    /// ``init(_:variables:within:)`` through `memo`: the same rule, automata and budget left.
    /// `seen` holds what this file's earlier rules found, by what they compile from without the
    /// variables (the file's, the same for each rule): a file that repeats a rule asks `memo`
    /// once for it. (The corpus's file of ten thousand repeated paths asked the shared store ten
    /// thousand times, under its lock, a tenth of an in-process run of the repeated corpus.)
    static func compile(_ rule: AASARule, variables: [String: [String]], within budget: inout Int,
                        memo: any AASAMemoStore, seen: inout [AASAMemo.RuleKey: AASAMemo.RuleCompilation]) -> AASACompiledRule {
        let sameFileKey = AASAMemo.RuleKey(rule, variables: [:])
        var known = AASAMemo.RuleCompilation()
        var ruleKey: AASAMemo.RuleKey?
        if let k = seen[sameFileKey] {
            known = k
        } else {
            let full = AASAMemo.RuleKey(rule, variables: variables)
            ruleKey = full
            if let value = memo.value(for: AASAMemo.Key(kind: .rule(full))), case .rule(let k) = value.kind { known = k }
            seen[sameFileKey] = known
        }
        if let (compiled, need, cost) = known.compiled {
            guard budget >= need else { return uncompiled.rebound(to: rule) }
            budget -= cost
            return compiled.rebound(to: rule)
        }
        if budget <= known.failsWithin { return uncompiled.rebound(to: rule) }
        let before = budget
        var need = 0
        let compiled = AASACompiledRule(rule, variables: variables, within: &budget, need: &need)
        if compiled.isCompiled {
            known.compiled = (compiled, need, before - budget)
        } else {
            known.failsWithin = before
        }
        seen[sameFileKey] = known
        // A rule met earlier in the file has returned above (compiled, or known not to compile
        // within a budget at least this one), so the full key was made; the fallback is for form.
        let full = ruleKey ?? AASAMemo.RuleKey(rule, variables: variables)
        let weight = full.weight + 64 + (compiled.isCompiled ? before - budget : 0)
        memo.keep(AASAMemo.Value(kind: .rule(known), weight: weight), for: AASAMemo.Key(kind: .rule(full)))
        return compiled
    }
}

extension AASAFile {
    /// ``compiledRulesByEntry()`` through `memo` (nil: no memo): the same rules, the same ones
    /// left out.
    func compiledRulesByEntry(memo: (any AASAMemoStore)?) -> [[AASACompiledRule]] {
        var spent = 0
        return compiledRulesByEntry(memo: memo, spent: &spent)
    }

    /// The same, setting `spent` to the compile budget the rules took (what their automata
    /// weigh: a store that keeps them counts it).
    func compiledRulesByEntry(memo: (any AASAMemoStore)?, spent: inout Int) -> [[AASACompiledRule]] {
        guard let memo else { return compiledRulesByEntry() }
        guard let applinks else { return [] }
        var left = Self.compileBudget
        defer { spent = Self.compileBudget - left }
        var seen: [AASAMemo.RuleKey: AASAMemo.RuleCompilation] = [:]
        return applinks.details.map { detail in
            rules(of: detail, in: applinks).map {
                AASACompiledRule.compile($0, variables: applinks.variables, within: &left, memo: memo, seen: &seen)
            }
        }
    }
}
