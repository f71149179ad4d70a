/// An app's rules compiled into one program over a URL: what ``AASAMatcher/match(url:domain:)``
/// runs.
///
/// The path patterns of many rules share one ``AASADFA``: rules with `percentEncoded: true`
/// (the default, so nearly every rule) read the path's own bytes in place, rules with
/// `percentEncoded: false` read its decoded characters (once per URL for all of them). Each
/// table reads the path once, whatever the number of its rules, and the state it ends in names
/// the rules whose path pattern matches. The program marks those rules, then tries them in
/// file order: the first whose query and fragment match too decides. Rules whose path tables
/// would grow past the budget are tried by their own automata, as
/// ``AASAMatcher/explain(url:domain:)`` tries every rule.
///
/// Nothing is allocated per URL for rules read as bytes: the URL is split in place, query
/// items are compared where they stand, and the answer of each rule is made when compiling.
struct AASAMatchProgram: Sendable {
    /// What a table reads.
    enum Input: Sendable, Equatable {
        /// The path's bytes after the slash rules (the leading `/` is in the table).
        case pathBytes
        /// The decoded path's characters, folded when not case-sensitive.
        case decodedPath(caseSensitive: Bool)
    }

    struct Table: Sendable {
        let dfa: AASADFA
        let input: Input
        /// `rules[k]`: the rule of the table's member `k`.
        let rules: [Int32]
    }

    /// What a rule whose path matched still asks of the query and the fragment.
    enum Rest: Sendable {
        case nothing
        case bytes(query: QueryCheck, fragment: AASADFA?)
        /// Patterns not read as bytes, or too large to tabulate: the rule's own automata decide
        /// (path included).
        case ruleByRule
    }

    enum QueryCheck: Sendable {
        case any
        case whole(AASADFA)
        case items([Item])
    }

    struct Item: Sendable {
        /// The name as a rule reading bytes compares it (folded when case-insensitive).
        let name: [UInt32]
        let caseSensitive: Bool
        let value: AASADFA
    }

    let tables: [Table]
    /// Rules no table holds, tried whole by their own automata.
    let untabulated: [Int32]
    let rest: [Rest]
    let results: [AASAMatchResult]
    let ruleCount: Int

    init(_ rules: [AASACompiledRule], budget: Int = AASADFA.sharedStateBudget) {
        ruleCount = rules.count
        results = rules.map { AASAMatchResult(deciding: $0.rule) }
        var rest = rules.map { Self.rest(of: $0) }
        var tables: [Table] = [], untabulated: [Int32] = []
        // Rules of literals and one-character classes that may end in `*` share a table (its
        // states grow with the sum of theirs, less the prefixes they share, not the product),
        // one per way of reading the path. A star inside a pattern keeps its states alive next
        // to every other rule's: such a rule gets a table of its own.
        for input in [Input.pathBytes, .decodedPath(caseSensitive: true), .decodedPath(caseSensitive: false)] {
            var group: [Int] = [], groupStates = 0
            for r in rules.indices where Self.input(of: rules[r].rule) == input {
                let states = rules[r].path.stateCount
                if Self.isPrefixLike(rules[r].path) {
                    // Chunks of at most twice the budget in states: the prefixes the rules share
                    // usually bring a chunk within it; one that does not fit is halved.
                    if !group.isEmpty && groupStates + states > 2 * budget {
                        Self.tabulate(rules, group, input, budget: budget, tables: &tables, untabulated: &untabulated)
                        group = []
                        groupStates = 0
                    }
                    group.append(r)
                    groupStates += states
                } else {
                    Self.tabulate(rules, [r], input, budget: min(budget, AASADFA.stateBudget), tables: &tables, untabulated: &untabulated)
                }
            }
            Self.tabulate(rules, group, input, budget: budget, tables: &tables, untabulated: &untabulated)
        }
        self.tables = tables
        self.untabulated = untabulated.sorted()
        // No table read their paths: their own automata check everything.
        for r in untabulated { rest[Int(r)] = .ruleByRule }
        self.rest = rest
    }

    static func input(of rule: AASARule) -> Input {
        rule.percentEncoded ? .pathBytes : .decodedPath(caseSensitive: rule.caseSensitive)
    }

    /// Whether the only loops of `a` are accepting states that take any character back to
    /// themselves: a pattern like `/buy/*`, `/item/???` or `/$(lang)/help`, but not `/*/buy`.
    static func isPrefixLike(_ a: AASAAutomaton) -> Bool {
        for s in 0..<a.stateCount where a.transitions[s].contains(where: { $0.target == s }) {
            guard a.accepting[s], a.transitions[s].count == 1, a.transitions[s][0].label == .any else { return false }
        }
        return true
    }

    /// One table for the rules `group`; when they do not fit one, the same for each half; a
    /// rule that does not fit one on its own is left to its own automata.
    static func tabulate(_ rules: [AASACompiledRule], _ group: [Int], _ input: Input, budget: Int,
                         tables: inout [Table], untabulated: inout [Int32]) {
        guard !group.isEmpty else { return }
        let members = group.map { AASADFA.Member(automaton: rules[$0].path, caseSensitive: rules[$0].rule.caseSensitive) }
        let dfa = input == .pathBytes ? AASADFA(members, reading: .bytes, prefix: [0x2F], budget: budget)
                                      : AASADFA(members, reading: .scalars, budget: budget)
        if let dfa {
            tables.append(Table(dfa: dfa, input: input, rules: group.map { Int32($0) }))
        } else if group.count == 1 {
            untabulated.append(Int32(group[0]))
        } else {
            let half = group.count / 2
            tabulate(rules, Array(group[..<half]), input, budget: budget, tables: &tables, untabulated: &untabulated)
            tabulate(rules, Array(group[half...]), input, budget: budget, tables: &tables, untabulated: &untabulated)
        }
    }

    static func rest(of compiled: AASACompiledRule) -> Rest {
        let caseSensitive = compiled.rule.caseSensitive
        // nil: the pattern does not fit a table; .some(nil): it accepts everything.
        func table(_ a: AASAAutomaton) -> AASADFA?? {
            if AASAPatternMatcher.acceptsEverything(a) { return .some(nil) }
            guard compiled.rule.percentEncoded,
                  let dfa = AASADFA([.init(automaton: a, caseSensitive: caseSensitive)], reading: .bytes, budget: AASADFA.stateBudget)
            else { return nil }
            return .some(dfa)
        }
        guard let fragment = table(compiled.fragment) else { return .ruleByRule }
        let query: QueryCheck
        switch compiled.query {
        case .ignored:
            query = .any
        case .whole(let a):
            guard let t = table(a) else { return .ruleByRule }
            query = t.map { .whole($0) } ?? .any
        case .items(let items):
            var checks: [Item] = []
            for item in items {
                // A value pattern of `*` holds for every occurrence and for absence.
                guard let t = table(item.value) else { return .ruleByRule }
                if let t { checks.append(Item(name: item.comparedName, caseSensitive: caseSensitive, value: t)) }
            }
            query = checks.isEmpty ? .any : .items(checks)
        }
        if case .any = query, fragment == nil { return .nothing }
        return .bytes(query: query, fragment: fragment)
    }

    /// The answer for `url`, with `compiled` the same rules, for the parts tried by their own
    /// automata.
    func match(url: String, domain: String, compiled: [AASACompiledRule], steps: inout Int) -> AASAMatchResult {
        withUTF8(url) { b in
            guard let scan = AASAURLScan(b), scan.isUniversalLink(b, domain: domain) else { return .noMatch }
            // The slash rules: the bytes after the leading run of slashes, up to the trailing run.
            var lo = scan.path.lowerBound, hi = scan.path.upperBound
            while lo < hi && b[lo] == 0x2F { lo += 1 }
            while hi > lo && b[hi - 1] == 0x2F { hi -= 1 }
            // The components as the rules tried by their own automata read them, made on first use.
            var input: AASAInput?
            func withParts<R>(_ body: (inout AASAInput) -> R) -> R {
                if input == nil { input = AASAInput(url: AASAURLParts(scan, b)) }
                return body(&input!)
            }
            // One bit per rule: its path matched (or it is tried whole).
            let words = (ruleCount + 63) / 64
            return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: max(1, words)) { marks -> AASAMatchResult in
                marks.initialize(repeating: 0)
                func mark(_ r: Int32) { marks[Int(r) >> 6] |= 1 << UInt64(r & 63) }
                for table in tables {
                    let state: Int32
                    switch table.input {
                    case .pathBytes:
                        state = table.dfa.run(b, lo..<hi, steps: &steps)
                    case .decodedPath(let caseSensitive):
                        let path = withParts { $0.view(AASACompareOptions(caseSensitive: caseSensitive, percentEncoded: false)).path }
                        state = table.dfa.run(path, steps: &steps)
                    }
                    for member in table.dfa.accepted(state) { mark(table.rules[Int(member)]) }
                }
                for r in untabulated { mark(r) }
                for w in 0..<words {
                    var bits = marks[w]
                    while bits != 0 {
                        let r = w << 6 | bits.trailingZeroBitCount
                        bits &= bits &- 1
                        switch rest[r] {
                        case .nothing:
                            return results[r]
                        case .bytes(let query, let fragment):
                            if restMatches(query, fragment, b, scan, steps: &steps) { return results[r] }
                        case .ruleByRule:
                            if withParts({ compiled[r].decides(&$0, steps: &steps) }) { return results[r] }
                        }
                    }
                }
                return .noMatch
            }
        }
    }

    func restMatches(_ query: QueryCheck, _ fragment: AASADFA?, _ b: UnsafeBufferPointer<UInt8>, _ scan: AASAURLScan,
                     steps: inout Int) -> Bool {
        let empty = b.count..<b.count
        switch query {
        case .any:
            break
        case .whole(let dfa):
            guard dfa.accepts(dfa.run(b, scan.query ?? empty, steps: &steps)) else { return false }
        case .items(let items):
            for item in items where !itemMatches(item, b, scan.query, steps: &steps) { return false }
        }
        guard let fragment else { return true }
        return fragment.accepts(fragment.run(b, scan.fragment ?? empty, steps: &steps))
    }

    /// Every occurrence of the item must match; an absent item reads as present and empty. The
    /// query is split at each `&` (empty items included), an item at its first `=`.
    func itemMatches(_ item: Item, _ b: UnsafeBufferPointer<UInt8>, _ query: Range<Int>?, steps: inout Int) -> Bool {
        var found = false
        if let query {
            var start = query.lowerBound
            while true {
                var end = start, eq = -1
                while end < query.upperBound && b[end] != 0x26 {
                    if eq < 0 && b[end] == 0x3D { eq = end }
                    end += 1
                }
                if Self.nameEquals(b, start..<(eq < 0 ? end : eq), item.name, caseSensitive: item.caseSensitive) {
                    found = true
                    let value = eq < 0 ? end..<end : (eq + 1)..<end
                    if !item.value.accepts(item.value.run(b, value, steps: &steps)) { return false }
                }
                if end >= query.upperBound { break }
                start = end + 1
            }
        }
        if found { return true }
        return item.value.accepts(item.value.run(b, b.count..<b.count, steps: &steps))
    }

    /// Whether the bytes `range`, read as a rule with `percentEncoded: true` reads them, are `name`.
    static func nameEquals(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ name: [UInt32], caseSensitive: Bool) -> Bool {
        var k = 0
        func take(_ c: UInt8) -> Bool {
            let folded = caseSensitive ? c : AASAURLScan.lowerASCII(c)
            guard k < name.count, name[k] == UInt32(folded) else { return false }
            k += 1
            return true
        }
        let hex = AASAPercentEscape.upperHex
        for i in range {
            let c = b[i]
            if c < 0x80 {
                guard take(c) else { return false }
            } else {
                guard take(0x25), take(hex[Int(c >> 4)]), take(hex[Int(c & 0xF)]) else { return false }
            }
        }
        return k == name.count
    }
}
