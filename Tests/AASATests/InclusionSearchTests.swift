import Testing
@testable import AASA
import SeededRandom

/// The inclusion search (`AASAAutomaton.includes`, behind `rule-unreachable`) against the plain
/// search it replaced, kept here as the specification: the same answer and the same work metered,
/// also when a budget or the work limit cuts the search short (the analysis's findings in a
/// hostile file depend on where that happens).
struct InclusionSearchTests {
    /// The replaced search, as it was: pairs of a state and a state set, hashed as arrays, each
    /// step made afresh.
    static func plainIncludes(_ a: AASAAutomaton, _ other: AASAAutomaton, budget: Int, meter: inout AASAWorkMeter, workLimit: Int) -> Bool? {
        let atoms = AASAAutomaton.alphabetAtoms([a, other])
        meter.work += atoms.count
        struct Pair: Hashable { let a: Int; let b: [Int] }
        var seen: Set<Pair> = [Pair(a: 0, b: [0])]
        var queue = [Pair(a: 0, b: [0])], head = 0
        while head < queue.count {
            let pair = queue[head]; head += 1
            if other.accepting[pair.a] && !a.anyAccepting(pair.b) { return false }
            for c in atoms {
                var nextB: [Int]?
                for t in other.transitions[pair.a] where t.label.contains(c) {
                    let b = nextB ?? Array(Set(pair.b.flatMap { s in a.transitions[s].filter { $0.label.contains(c) }.map(\.target) })).sorted()
                    if nextB == nil {
                        meter.work += pair.b.count + 1
                        meter.peak = meter.work
                        if meter.work > workLimit { return nil }
                    }
                    nextB = b
                    let p = Pair(a: t.target, b: b)
                    if seen.insert(p).inserted {
                        if seen.count > budget { return nil }
                        queue.append(p)
                    }
                }
            }
        }
        return true
    }

    static let pieces = ["a", "b", "A", "/", "*", "*", "?", "$(digit)", "$(food)", "é", "%2F", "x/", ".html"]
    static let variables = ["food": ["pizza", "taco*", "a"], "digit": ["0", "1", "2"]]

    static func pattern(_ rng: inout SeededGenerator) -> String {
        (0..<Int.random(in: 0...6, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
    }

    static func automaton(_ rng: inout SeededGenerator) -> AASAAutomaton {
        let options = AASACompareOptions(caseSensitive: Bool.random(using: &rng), percentEncoded: Bool.random(using: &rng))
        let kind: AASAPatternCompiler.Kind = Bool.random(using: &rng) ? .path : .other
        return AASAPatternCompiler.compile(pattern(&rng), as: kind, options: options, variables: variables)
    }

    @Test func sameAnswersAndWorkAsThePlainSearch() {
        var rng = SeededGenerator(seed: 0x1C1C)
        var answers: [Bool?: Int] = [:]
        for _ in 0..<3000 {
            let a = Self.automaton(&rng), b = Self.automaton(&rng)
            // Generous limits, then ones that cut: a pair budget of a few pairs, a work limit
            // just past the alphabet.
            for (budget, workLimit) in [(20_000, Int.max), (Int.random(in: 1...12, using: &rng), Int.max),
                                        (20_000, Int.random(in: 0...60, using: &rng))] {
                var fast = AASAWorkMeter(), plain = AASAWorkMeter()
                let x = a.includes(b, budget: budget, meter: &fast, workLimit: workLimit)
                let y = Self.plainIncludes(a, b, budget: budget, meter: &plain, workLimit: workLimit)
                #expect(x == y && fast.work == plain.work && fast.peak == plain.peak,
                        "\(a)\n includes?\n\(b)\n budget \(budget), limit \(workLimit): \(String(describing: x)) vs \(String(describing: y)), work \(fast.work) vs \(plain.work)")
                answers[x, default: 0] += 1
            }
        }
        // The generated pairs reach every answer, so each way out of the search is compared.
        #expect(answers[true, default: 0] > 500 && answers[false, default: 0] > 500 && answers[nil, default: 0] > 500, "\(answers)")
    }

    @Test func atomsMergedAreTheAtomsOfBoth() {
        var rng = SeededGenerator(seed: 0xA70)
        for _ in 0..<500 {
            let a = Self.automaton(&rng), b = Self.automaton(&rng)
            let merged = AASAAutomaton.mergedAtoms(AASAAutomaton.alphabetAtoms([a]), AASAAutomaton.alphabetAtoms([b]))
            #expect(merged == AASAAutomaton.alphabetAtoms([a, b]))
        }
        #expect(AASAAutomaton.mergedAtoms([0, 5, 9], [0, 2, 9, 12]) == [0, 2, 5, 9, 12])
        #expect(AASAAutomaton.mergedAtoms([0], []) == [0])
    }

    @Test func adjacentDuplicatesGoOnce() {
        func deduplicated(_ a: [Int]) -> [Int] { var a = a; a.removeAdjacentDuplicates(); return a }
        #expect(deduplicated([1, 1, 2, 3, 3, 3, 7]) == [1, 2, 3, 7])
        #expect(deduplicated([]) == [])
        #expect(deduplicated([5]) == [5])
        #expect(deduplicated([2, 2, 1, 1, 2]) == [2, 1, 2])
        #expect(AASAAutomaton.alphabetAtoms([.universal, .empty]) == [0])
        let ab = AASAPatternCompiler.compile("a?b", as: .other, options: .init())
        #expect(AASAAutomaton.alphabetAtoms([ab, .universal]) == [0, 0x61, 0x62, 0x63])
    }

    @Test func intTableAgreesWithADictionary() {
        var rng = SeededGenerator(seed: 0x7AB1E)
        var table = IntTable(), reference: [Int: Int32] = [:]
        for _ in 0..<50_000 {
            // Keys shaped like the search's: a small state in the high half, a set number below.
            let key = Int.random(in: 0..<40, using: &rng) << 32 | Int.random(in: 0..<3000, using: &rng)
            if Bool.random(using: &rng) {
                let value = Int32.random(in: 0..<1000, using: &rng)
                table[key] = value
                reference[key] = value
            } else {
                #expect(table.insert(key) == (reference[key] == nil))
                if reference[key] == nil { reference[key] = 0 }
            }
            #expect(table[key] == reference[key])
        }
        #expect(table.count == reference.count)
        for (k, v) in reference { #expect(table[k] == v) }
        #expect(table[-5 & Int.max] == nil)
    }
}

/// Rules compiled for the analysis alone prepare no matcher (`compiledRulesByEntry(prepared:
/// false)`); matched anyway, they give the prepared matcher's answers.
struct UnpreparedMatcherTests {
    @Test func sameAnswersAsAPreparedMatcher() {
        var rng = SeededGenerator(seed: 0x0E9A)
        var accepted = 0
        for _ in 0..<400 {
            let a = InclusionSearchTests.automaton(&rng)
            let prepared = AASAPatternMatcher(a), unprepared = AASAPatternMatcher(a, prepared: false)
            if case .unprepared = unprepared.way {} else { Issue.record("prepared anyway") }
            for _ in 0..<10 {
                let input = scalars(InclusionSearchTests.pattern(&rng).replacingOccurrences(of: "*", with: "aa"))
                var s1 = 0, s2 = 0
                let x = prepared.accepts(input, steps: &s1), y = unprepared.accepts(input, steps: &s2)
                #expect(x == y, "\(a)\n on \(input)")
                if x { accepted += 1 }
            }
        }
        #expect(accepted > 100, "\(accepted) accepted: the inputs should reach both answers")
    }

    @Test func theAnalysisFindsTheSameWithUnpreparedRules() throws {
        let text = fileText(components: ##"[{"/": "/a/*"}, {"/": "/a/b"}, {"/": "/a/*"}, {"/": "*", "exclude": true}, {"/": "/c"}]"##)
        let file = try #require(parsed(text))
        let unprepared = AASARuleAnalysis.findings(file, compiled: file.compiledRulesByEntry(prepared: false))
        let prepared = AASARuleAnalysis.findings(file, compiled: file.compiledRulesByEntry())
        #expect(unprepared == prepared)
        #expect(unprepared.map(\.code) == [.ruleUnreachable, .ruleDuplicate, .ruleUnreachable])
    }
}

/// The numbering of state sets that the tables and the inclusion search share.
struct StateSetTableTests {
    @Test func setsAreNumberedInOrderOnceEach() {
        var rng = SeededGenerator(seed: 0x5E75)
        var table = StateSetTable(), reference: [[Int32]: Int32] = [:], order: [[Int32]] = []
        for _ in 0..<20_000 {
            let set = Array(Set((0..<Int.random(in: 0...6, using: &rng)).map { _ in Int32.random(in: 0..<12, using: &rng) })).sorted()
            let n = set.withUnsafeBufferPointer { table.number($0) }
            if let known = reference[set] {
                #expect(n == known)
            } else {
                #expect(n == Int32(order.count))
                reference[set] = Int32(order.count)
                order.append(set)
            }
        }
        #expect(table.count == order.count)
        for (n, set) in order.enumerated() {
            #expect(table.states(of: n) == set && table.size(of: n) == set.count)
        }
    }

    @Test func aFullTableNumbersNoNewSet() {
        var table = StateSetTable()
        let one: [Int32] = [1], two: [Int32] = [1, 2]
        #expect(one.withUnsafeBufferPointer { table.number($0, limit: 1) } == 0)
        #expect(two.withUnsafeBufferPointer { table.number($0, limit: 1) } == nil)
        #expect(one.withUnsafeBufferPointer { table.number($0, limit: 1) } == 0)
        #expect(table.count == 1)
    }

    @Test func aTableOfNoMembersReadsNothing() {
        let dfa = AASADFA([], reading: .bytes, prefix: [0x2F], budget: 8)
        #expect(dfa?.start == -1)
    }
}
