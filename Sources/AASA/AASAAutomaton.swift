/// A set of Unicode scalar values (as `UInt32`), kept as sorted, disjoint, non-adjacent closed
/// ranges: the label of an automaton transition.
///
/// ```swift
/// AASACharacterClass(scalar: 0x61).contains(0x61)   // true ("a")
/// AASACharacterClass.any.contains(0x1F600)          // true
/// ```
public struct AASACharacterClass: Sendable, Hashable, CustomStringConvertible {
    public let ranges: [ClosedRange<UInt32>]

    /// Every Unicode scalar value (and the surrogate gap, which never occurs in input).
    public static let any = AASACharacterClass(uncheckedRanges: [0...0x10FFFF])
    /// No scalar: the label of an edge no input takes.
    public static let none = AASACharacterClass(uncheckedRanges: [])

    public init(scalar: UInt32) {
        // An ASCII scalar's class is shared, so that building a file's automata does not make
        // an array for every literal character of every pattern.
        if scalar < 0x80 {
            self = Self.asciiScalars[Int(scalar)]
        } else {
            ranges = [scalar...scalar]
        }
    }

    /// The class of each ASCII scalar alone.
    static let asciiScalars: [AASACharacterClass] = (0..<0x80).map { AASACharacterClass(uncheckedRanges: [$0...$0]) }

    /// Sorts and merges `ranges`.
    public init(ranges: [ClosedRange<UInt32>]) {
        var out: [ClosedRange<UInt32>] = []
        for r in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = out.last, r.lowerBound <= last.upperBound &+ 1 {
                out[out.count - 1] = last.lowerBound...max(last.upperBound, r.upperBound)
            } else {
                out.append(r)
            }
        }
        self.ranges = out
    }

    init(uncheckedRanges: [ClosedRange<UInt32>]) {
        ranges = uncheckedRanges
    }

    @inline(__always)
    public func contains(_ c: UInt32) -> Bool {
        for r in ranges {
            if c < r.lowerBound { return false }
            if c <= r.upperBound { return true }
        }
        return false
    }

    /// The class under ASCII case folding: upper-case ASCII letters become lower-case ones.
    func foldedASCII() -> AASACharacterClass {
        var out: [ClosedRange<UInt32>] = []
        for r in ranges {
            let lo = max(r.lowerBound, 0x41), hi = min(r.upperBound, 0x5A)
            if lo <= hi {
                out.append((lo + 0x20)...(hi + 0x20))
                if r.lowerBound < lo { out.append(r.lowerBound...(lo - 1)) }
                if r.upperBound > hi { out.append((hi + 1)...r.upperBound) }
            } else {
                out.append(r)
            }
        }
        return AASACharacterClass(ranges: out)
    }

    /// A scalar of the class to show in a witness: `a` or a printable ASCII one when there is one.
    /// Nil for the empty class.
    public var representative: UInt32? {
        if ranges.isEmpty { return nil }
        if contains(0x61) { return 0x61 }
        for r in ranges where r.upperBound >= 0x21 {
            let c = max(r.lowerBound, 0x21)
            if c < 0xD800 || c > 0xDFFF { return c }
        }
        return ranges[0].lowerBound
    }

    public var description: String {
        if self == .any { return "any" }
        if ranges.isEmpty { return "none" }
        return ranges.map { r in
            r.lowerBound == r.upperBound ? show(r.lowerBound) : "\(show(r.lowerBound))-\(show(r.upperBound))"
        }.joined(separator: ",")
    }

    private func show(_ c: UInt32) -> String {
        if c >= 0x21 && c < 0x7F, let s = Unicode.Scalar(c) { return String(Character(s)) }
        return "U+" + String(c, radix: 16, uppercase: true)
    }
}

/// A nondeterministic finite automaton without empty transitions, over Unicode scalar values:
/// what a pattern compiles to. States are numbered `0..<stateCount`; state 0 is the start;
/// `transitions[s]` lists the labelled edges leaving `s`; `accepting[s]` says whether input may
/// end in `s`.
///
/// Matching simulates the set of current states, one input scalar at a time (Thompson's
/// method), so its cost is at most `input length x transitions`, whatever the pattern; nothing
/// backtracks. ``steps`` counts the work so tests can check that bound without a clock.
///
/// Later steps build product automata on this type: ``step(_:_:)`` moves a state set,
/// ``alphabetAtoms(_:)`` splits the alphabet into classes no label distinguishes,
/// ``includes(_:budget:)`` decides language inclusion, ``shortestWitness()`` gives an accepted
/// input.
///
/// ```swift
/// let a = AASAPatternCompiler.compile("/buy/*", as: .path, options: .init())
/// a.accepts(Array("/buy/42".unicodeScalars.map(\.value)))   // true
/// ```
public struct AASAAutomaton: Sendable, Hashable, CustomStringConvertible {
    public struct Transition: Sendable, Hashable {
        public let label: AASACharacterClass
        public let target: Int
        public init(label: AASACharacterClass, target: Int) {
            self.label = label
            self.target = target
        }
    }

    public let transitions: [[Transition]]
    public let accepting: [Bool]

    public init(transitions: [[Transition]], accepting: [Bool]) {
        precondition(!transitions.isEmpty && transitions.count == accepting.count)
        self.transitions = transitions
        self.accepting = accepting
    }

    public var start: Int { 0 }
    public var stateCount: Int { transitions.count }
    public var transitionCount: Int { transitions.reduce(0) { $0 + $1.count } }

    /// An automaton accepting every input.
    public static let universal = AASAAutomaton(transitions: [[Transition(label: .any, target: 0)]], accepting: [true])
    /// An automaton accepting nothing.
    public static let empty = AASAAutomaton(transitions: [[]], accepting: [false])

    /// Whether the automaton accepts `input`.
    public func accepts(_ input: [UInt32]) -> Bool {
        var steps = 0
        return accepts(input, steps: &steps)
    }

    /// Whether the automaton accepts `input`, adding to `steps` one per (state, input scalar)
    /// pair visited: never more than `input.count x stateCount` (plus `stateCount` for the end).
    /// The simulation is the one matching uses where no table fits (``AASAFlatNFA``).
    public func accepts(_ input: [UInt32], steps: inout Int) -> Bool {
        AASAFlatNFA(self).accepts(input, steps: &steps)
    }

    /// The states reached from `states` on `c` (sorted, each once).
    public func step(_ states: [Int], _ c: UInt32) -> [Int] {
        var out: [Int] = []
        for s in states {
            for t in transitions[s] where t.label.contains(c) { out.append(t.target) }
        }
        out.sort()
        out.removeAdjacentDuplicates()
        return out
    }

    /// Whether some state of `states` accepts.
    public func anyAccepting(_ states: [Int]) -> Bool { states.contains { accepting[$0] } }

    /// Whether the automaton accepts no input at all.
    public var isEmpty: Bool { shortestWitness() == nil }

    /// One shortest accepted input (labels shown by their ``AASACharacterClass/representative``),
    /// or nil when the language is empty.
    public func shortestWitness() -> [UInt32]? {
        var previous = [(state: Int, scalar: UInt32)?](repeating: nil, count: stateCount)
        var seen = [Bool](repeating: false, count: stateCount)
        var queue = [0], head = 0
        seen[0] = true
        while head < queue.count {
            let s = queue[head]; head += 1
            if accepting[s] {
                var out: [UInt32] = [], at = s
                while let p = previous[at] { out.append(p.scalar); at = p.state }
                return out.reversed()
            }
            for t in transitions[s] where !seen[t.target] {
                guard let c = t.label.representative else { continue }
                seen[t.target] = true
                previous[t.target] = (s, c)
                queue.append(t.target)
            }
        }
        return nil
    }

    /// How many character ranges the transitions' labels hold in all: what a flat copy of the
    /// edges, or the atoms' bounds, take room for.
    var labelRangeCount: Int {
        var ranges = 0
        for list in transitions { for t in list { ranges += t.label.ranges.count } }
        return ranges
    }

    /// Scalars that stand for every class of input no label of `automata` tells apart: the
    /// lower bound of each interval between label bounds. Stepping on these representatives
    /// explores every behaviour of a product of the automata.
    public static func alphabetAtoms(_ automata: [AASAAutomaton]) -> [UInt32] {
        // Two bounds per range at most, in one array sized for them and sorted once.
        let ranges = automata.reduce(0) { $0 + $1.labelRangeCount }
        var bounds: [UInt32] = []
        bounds.reserveCapacity(2 * ranges + 1)
        bounds.append(0)
        for a in automata {
            for list in a.transitions {
                for t in list {
                    for r in t.label.ranges {
                        bounds.append(r.lowerBound)
                        if r.upperBound < 0x10FFFF { bounds.append(r.upperBound + 1) }
                    }
                }
            }
        }
        bounds.sort()
        bounds.removeAdjacentDuplicates()
        return bounds
    }

    /// ``alphabetAtoms(_:)`` of two sets of automata from the atoms of each: the union of two
    /// sorted lists, each value once.
    static func mergedAtoms(_ x: [UInt32], _ y: [UInt32]) -> [UInt32] {
        var out: [UInt32] = []
        out.reserveCapacity(x.count + y.count)
        var i = 0, j = 0
        while i < x.count || j < y.count {
            let next = j == y.count || (i < x.count && x[i] <= y[j]) ? x[i] : y[j]
            if i < x.count && x[i] == next { i += 1 }
            if j < y.count && y[j] == next { j += 1 }
            out.append(next)
        }
        return out
    }

    /// Whether every input `other` accepts, this automaton accepts too (L(other) ⊆ L(self)).
    /// Explores pairs (state of `other`, state set of `self`) breadth first; `nil` when more
    /// than `budget` pairs would be needed (undecided).
    public func includes(_ other: AASAAutomaton, budget: Int = 20_000) -> Bool? {
        var meter = AASAWorkMeter()
        return includes(other, budget: budget, meter: &meter, workLimit: .max)
    }

    /// ``includes(_:budget:)``, adding to `meter` what the decision cost: the states stepped
    /// through (what a caller deciding many inclusions bounds in total), with the last work
    /// checked against `workLimit` (the most: work only grows); undecided too once the work
    /// passes `workLimit`.
    ///
    /// Explores the pairs breadth first in a fixed order: for each pair, the atoms in order,
    /// and for each atom the edges of `other`'s state in order. The first pair found where
    /// `other` accepts and no state of the set does decides "no"; the order also fixes where a
    /// budget cuts and what the meter reads then. State sets are numbered as they appear, and
    /// each set's step on each atom is made once: the same set comes back with many states of
    /// `other`. (Kept as plain arrays and hashed at each pair, with a step built in a `Set`,
    /// the decisions were two fifths of what the `aasa` fuzz target does per input.)
    ///
    /// `atoms`: ``alphabetAtoms(_:)`` of the two automata, when the caller has them (a rule's
    /// own atoms, kept, merge with another's in linear time; sorting them afresh for every pair
    /// cost about 7% of the analysis on the fuzz corpus).
    func includes(_ other: AASAAutomaton, budget: Int, meter: inout AASAWorkMeter, workLimit: Int, atoms: [UInt32]? = nil) -> Bool? {
        let atoms = atoms ?? Self.alphabetAtoms([self, other])
        meter.work += atoms.count
        var product = InclusionSearch(including: self, included: other, atoms: atoms)
        return product.run(budget: budget, meter: &meter, workLimit: workLimit)
    }

    /// Whether the automaton accepts every input.
    public var isUniversal: Bool { includes(.universal) == true }

    public var description: String {
        var lines: [String] = []
        for s in 0..<stateCount {
            let edges = transitions[s].map { "\($0.label) -> \($0.target)" }.joined(separator: "; ")
            lines.append("\(s)\(accepting[s] ? " (accepting)" : ""): \(edges)")
        }
        return lines.joined(separator: "\n")
    }
}

/// Builds an ``AASAAutomaton`` from a token sequence: a Thompson construction with empty
/// transitions, whose empty transitions are then removed (each state takes the labelled edges
/// and acceptance of the states it reaches through empty ones) and whose unreachable states are
/// dropped.
struct AASAAutomatonBuilder {
    var empties: [[Int]] = []
    var edges: [[(AASACharacterClass, Int)]] = []

    mutating func newState() -> Int {
        empties.append([])
        edges.append([])
        return empties.count - 1
    }

    /// Adds `tokens` after state `from`; returns the state they end in: `to` when given (the
    /// last labelled edge goes straight there), else a new one.
    ///
    /// The alternatives of a choice start at `from` itself and end in the choice's one end
    /// state, with no empty transition on either side. With empty transitions there, removing
    /// them gave every alternative's last state the first edges of every alternative of the
    /// next choice: `$(lang)$(lang)` had 600 x 600 transitions, and a pattern of 32 `$(lang)`
    /// took 5 s and 600 MB to compile. Now each choice costs its alternatives' own edges.
    mutating func add(_ tokens: [AASAToken], from: Int, to: Int? = nil) -> Int {
        var current = from
        for (k, token) in tokens.enumerated() {
            let last = k == tokens.count - 1
            switch token {
            case .scalar(let c):
                let s = last ? (to ?? newState()) : newState()
                edges[current].append((AASACharacterClass(scalar: c), s))
                current = s
            case .one(let cls):
                let s = last ? (to ?? newState()) : newState()
                edges[current].append((cls, s))
                current = s
            case .star:
                let s = newState()
                empties[current].append(s)
                edges[s].append((.any, s))
                current = s
            case .choice(let alternatives):
                let end = last ? (to ?? newState()) : newState()
                for alternative in alternatives { _ = add(alternative, from: current, to: end) }
                current = end
            }
        }
        if let to, current != to { empties[current].append(to) }
        return to ?? current
    }

    static func build(_ tokens: [AASAToken]) -> AASAAutomaton {
        var unlimited = Int.max, need = 0
        return build(tokens, within: &unlimited, need: &need)!
    }

    /// Builds the automaton of `tokens` if that costs at most `budget` (its states, the states
    /// its empty transitions reach and the transitions it gets, counted as they are made),
    /// taking the cost from `budget`; nil, with `budget` unchanged, when it would cost more.
    /// Counting as it goes catches every way a pattern can blow up (a run of `*`, of nullable
    /// choices: each state then takes the edges of all the ones after it), not only the ones
    /// foreseen. On success `need` is the least budget it builds within (the larger of the
    /// states counted first and the cost: with any less it fails).
    static func build(_ tokens: [AASAToken], within budget: inout Int, need: inout Int) -> AASAAutomaton? {
        let states = AASAPatternCompiler.stateCount(tokens)
        guard states <= budget else { return nil }
        var b = AASAAutomatonBuilder()
        let start = b.newState()
        let final = b.add(tokens, from: start)
        guard let (automaton, cost) = b.finish(start: start, final: final, limit: budget) else { return nil }
        budget -= cost
        need = max(states, cost)
        return automaton
    }

    func closure(_ s: Int) -> [Int] {
        var seen: Set<Int> = [s], stack = [s], out = [s]
        while let x = stack.popLast() {
            for y in empties[x] where seen.insert(y).inserted {
                stack.append(y)
                out.append(y)
            }
        }
        return out
    }

    /// The automaton without empty transitions and its cost, or nil as soon as the cost passes
    /// `limit`.
    func finish(start: Int, final: Int, limit: Int) -> (AASAAutomaton, Int)? {
        // The new number of each state reached, by its number here (-1: not reached yet).
        var number = [Int](repeating: -1, count: empties.count)
        number[start] = 0
        var order = [start], head = 0
        var transitions: [[AASAAutomaton.Transition]] = []
        var accepting: [Bool] = []
        var cost = 0
        var seen = Set<AASAAutomaton.Transition>()
        while head < order.count {
            let s = order[head]; head += 1
            var out: [AASAAutomaton.Transition] = []
            var accepts = false
            let reached = empties[s].isEmpty ? [s] : closure(s)
            cost += reached.count
            // Edges are kept once: a state with one edge and no empty move has nothing to compare.
            let dedupe = reached.count > 1 || edges[s].count > 1
            if dedupe { seen.removeAll(keepingCapacity: true) }
            for u in reached {
                if u == final { accepts = true }
                cost += edges[u].count
                for (label, target) in edges[u] {
                    var n = number[target]
                    if n < 0 {
                        n = order.count
                        number[target] = n
                        order.append(target)
                    }
                    let t = AASAAutomaton.Transition(label: label, target: n)
                    if !dedupe || seen.insert(t).inserted { out.append(t) }
                }
            }
            if cost > limit { return nil }
            transitions.append(out)
            accepting.append(accepts)
        }
        return (AASAAutomaton(transitions: transitions, accepting: accepting), cost)
    }
}
