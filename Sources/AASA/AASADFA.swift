/// Patterns made deterministic together for matching: one table lookup per input character
/// advances every member at once, with no allocation, and the state reached at the end names
/// the members that accept, in member order. Built by the subset construction over the
/// members' automata within a budget of states and of work; past it (or for an alphabet too
/// fine to tabulate) there is none, and the caller splits the members or simulates the
/// automaton instead. Both are linear in the input.
///
/// Two ways of reading input:
/// - ``Reading/scalars``: the characters a rule compares, already decoded and folded (each
///   member reads them as they are);
/// - ``Reading/bytes``: the URL's own bytes as rules with `percentEncoded: true` read them
///   (contract rule 7): an ASCII byte is one character, a non-ASCII byte its `%XY` escape
///   (three characters), and a case-insensitive member folds ASCII letters. The path of such
///   rules is then read in place, once for all of them.
///
/// ```swift
/// let a = AASAPatternCompiler.compile("/buy/*", as: .path, options: .init())
/// AASADFA(a)!.accepts(Array("/buy/42".unicodeScalars.map(\.value)))   // true
///
/// let members = ["/buy/*", "/help"].map {
///     AASADFA.Member(automaton: AASAPatternCompiler.compile($0, as: .path, options: .init()), caseSensitive: true)
/// }
/// let both = AASADFA(members, reading: .bytes, budget: 512)!
/// var steps = 0
/// Array("/buy/1".utf8).withUnsafeBufferPointer { both.accepted(both.run($0, 0..<$0.count, steps: &steps)) }   // [0]
/// ```
///
/// A class, not a struct: the matcher reaches it once per rule tried, and a reference is one
/// retain where a struct of its arrays would be several.
public final class AASADFA: Sendable {
    public enum Reading: Sendable { case scalars, bytes }

    public struct Member: Sendable {
        public let automaton: AASAAutomaton
        /// How a member reading ``Reading/bytes`` folds letters (ignored for scalars).
        public let caseSensitive: Bool
        public init(automaton: AASAAutomaton, caseSensitive: Bool) {
            self.automaton = automaton
            self.caseSensitive = caseSensitive
        }
    }

    public let reading: Reading
    /// Class of each byte (bytes) or of each ASCII scalar (scalars).
    let lowClass: [UInt8]
    /// Scalars: classes of the scalars from 128 up, each range's lower bound and class, sorted.
    let highBounds: [UInt32]
    let highClasses: [UInt8]
    let classCount: Int
    /// `next[state * classCount + class]`: the next state, or -1 when no member can accept any more.
    let next: [Int32]
    /// The state before the first character, or -1 when no member can accept anything.
    public let start: Int32
    /// Members accepting in state `s`: `acceptedMembers[acceptedFirst[s]..<acceptedFirst[s + 1]]`.
    let acceptedFirst: [Int32]
    let acceptedMembers: [Int32]
    public var stateCount: Int { acceptedFirst.count - 1 }

    /// States one pattern's table may have.
    public static let stateBudget = 512
    /// States a table shared by several rules may have.
    public static let sharedStateBudget = 2048
    /// Edges the construction may follow before it gives up (what bounds the time of compiling
    /// many rules with many stars).
    public static let workBudget = 2_000_000

    /// One pattern over scalars.
    public convenience init?(_ automaton: AASAAutomaton, budget: Int = AASADFA.stateBudget) {
        self.init([Member(automaton: automaton, caseSensitive: true)], reading: .scalars, budget: budget)
    }

    /// `prefix`: characters read before the input's first (paths of rules read as bytes start
    /// with the `/` of the slash rules, which the caller does not feed).
    public init?(_ members: [Member], reading: Reading, prefix: [UInt32] = [], budget: Int) {
        var builder = Builder(members)
        // The state sets met so far, numbered in that order; a step writes the set it reaches
        // into `reached` (each state once, so the members' states are room enough).
        var sets = StateSetTable()
        var reached = [Int32](repeating: 0, count: builder.stateCount)
        func number(_ count: Int) -> Int32? {
            if count == 0 { return -1 }
            return reached.withUnsafeBufferPointer { sets.number(UnsafeBufferPointer(rebasing: $0[..<count]), limit: budget) }
        }
        var initial = builder.initial()
        for c in prefix { initial = builder.step(initial, sensitive: [c], insensitive: [c]) }
        for (i, s) in initial.enumerated() { reached[i] = s }
        guard let first = number(initial.count) else { return nil }
        start = first
        self.reading = reading
        // What each class reads as, for case-sensitive and case-insensitive members.
        let sensitive: [[UInt32]], insensitive: [[UInt32]]
        switch reading {
        case .scalars:
            let atoms = AASAAutomaton.alphabetAtoms(members.map(\.automaton))
            guard atoms.count <= 250 else { return nil }
            (lowClass, highBounds, highClasses) = Self.scalarClasses(atoms)
            sensitive = atoms.map { [$0] }
            insensitive = sensitive
        case .bytes:
            let representatives: [UInt8]
            (lowClass, representatives) = builder.byteClasses()
            highBounds = []
            highClasses = []
            sensitive = representatives.map { Builder.characters($0, caseSensitive: true) }
            insensitive = representatives.map { Builder.characters($0, caseSensitive: false) }
        }
        classCount = sensitive.count
        var table: [Int32] = []
        var acceptedFirst: [Int32] = [0], acceptedMembers: [Int32] = []
        var head = 0
        while head < sets.count {
            let set = sets.states(of: head); head += 1
            acceptedMembers += builder.acceptingMembers(set)
            acceptedFirst.append(Int32(acceptedMembers.count))
            for k in 0..<classCount {
                let count = set.withUnsafeBufferPointer { set in
                    reached.withUnsafeMutableBufferPointer { builder.step(set, sensitive: sensitive[k], insensitive: insensitive[k], into: $0.baseAddress!) }
                }
                guard let n = number(count), builder.work <= Self.workBudget else { return nil }
                table.append(n)
            }
        }
        next = table
        self.acceptedFirst = acceptedFirst
        self.acceptedMembers = acceptedMembers
    }

    /// Class of each ASCII scalar, and the classes of the scalars from 128 up, for `atoms` (the
    /// lower bound of each interval no label tells apart).
    static func scalarClasses(_ atoms: [UInt32]) -> ([UInt8], [UInt32], [UInt8]) {
        func classOf(_ c: UInt32) -> Int { AASAAutomaton.atomIndex(of: c, in: atoms) }
        let ascii = (0..<128).map { UInt8(classOf(UInt32($0))) }
        var bounds: [UInt32] = [128], classes: [UInt8] = [UInt8(classOf(128))]
        for (i, a) in atoms.enumerated() where a > 128 {
            bounds.append(a)
            classes.append(UInt8(i))
        }
        return (ascii, bounds, classes)
    }

    @inline(__always)
    func scalarClass(_ c: UInt32) -> Int {
        if c < 128 { return Int(lowClass[Int(c)]) }
        var lo = 0, hi = highBounds.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if highBounds[mid] <= c { lo = mid } else { hi = mid - 1 }
        }
        return Int(highClasses[lo])
    }

    /// Reading scalars: the state after `input`, or -1 as soon as no member can accept; adds
    /// one step per scalar read and one for the end.
    public func run(_ input: [UInt32], steps: inout Int) -> Int32 {
        var state = start
        if state < 0 { return -1 }
        for c in input {
            steps += 1
            state = next[Int(state) &* classCount &+ scalarClass(c)]
            if state < 0 { return -1 }
        }
        steps += 1
        return state
    }

    /// Reading bytes: the state after the bytes `range` of `bytes`, or -1 as soon as no member
    /// can accept; adds one step per byte read and one for the end.
    @inline(__always)
    public func run(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, steps: inout Int) -> Int32 {
        var state = start
        if state < 0 { return -1 }
        let width = classCount
        next.withUnsafeBufferPointer { next in
            lowClass.withUnsafeBufferPointer { byteClass in
                var i = range.lowerBound
                while i < range.upperBound {
                    state = next[Int(state) &* width &+ Int(byteClass[Int(bytes[i])])]
                    i &+= 1
                    if state < 0 { break }
                }
                steps &+= i &- range.lowerBound &+ 1
            }
        }
        return state
    }

    /// The members accepting in `state` (none for -1), in member order.
    @inline(__always)
    public func accepted(_ state: Int32) -> ArraySlice<Int32> {
        if state < 0 { return [] }
        return acceptedMembers[Int(acceptedFirst[Int(state)])..<Int(acceptedFirst[Int(state) + 1])]
    }

    /// Whether some member accepts in `state`.
    @inline(__always)
    public func accepts(_ state: Int32) -> Bool {
        state >= 0 && acceptedFirst[Int(state)] < acceptedFirst[Int(state) + 1]
    }

    /// Reading scalars: whether some member accepts `input`.
    public func accepts(_ input: [UInt32], steps: inout Int) -> Bool {
        accepts(run(input, steps: &steps))
    }

    /// The construction's view of the members: their states numbered one after another, with
    /// each state's edges flat.
    struct Builder {
        let members: [Member]
        var owner: [Int32] = []
        var offset: [Int32] = []
        var accepting: [Bool] = []
        var edgeFirst: [Int32] = [0]
        var edgeLow: [UInt32] = [], edgeHigh: [UInt32] = [], edgeTarget: [Int32] = []
        var mark: [Int32]
        var generation: Int32 = 0
        /// Edges looked at so far.
        var work = 0
        /// Whether each state's member is case-sensitive.
        var sensitiveState: [Bool] = []
        /// Scratch for the three characters of an escape: the state sets before and after each
        /// character, deduplicated with their own marks (no set is allocated per step).
        var escapeCurrent: [Int32] = [], escapeNext: [Int32] = []
        var escapeMark: [Int32]
        var escapeGeneration: Int32 = 0

        init(_ members: [Member]) {
            self.members = members
            var total: Int32 = 0
            for (m, member) in members.enumerated() {
                let a = member.automaton
                offset.append(total)
                for s in 0..<a.stateCount {
                    owner.append(Int32(m))
                    sensitiveState.append(member.caseSensitive)
                    accepting.append(a.accepting[s])
                    for t in a.transitions[s] {
                        for r in t.label.ranges {
                            edgeLow.append(r.lowerBound)
                            edgeHigh.append(r.upperBound)
                            edgeTarget.append(total + Int32(t.target))
                        }
                    }
                    edgeFirst.append(Int32(edgeLow.count))
                }
                total += Int32(a.stateCount)
            }
            mark = Array(repeating: -1, count: Int(total))
            escapeMark = mark
        }

        func initial() -> [Int32] { offset }

        /// The characters a member reading `byte` compares (from a table made once: building a
        /// table asks this of all 256 bytes, and made each time it was half of a compile's
        /// allocations).
        static func characters(_ byte: UInt8, caseSensitive: Bool) -> [UInt32] {
            caseSensitive ? byteReadings.sensitive[Int(byte)] : byteReadings.insensitive[Int(byte)]
        }

        static let byteReadings: (sensitive: [[UInt32]], insensitive: [[UInt32]]) = {
            func read(_ caseSensitive: Bool) -> [[UInt32]] {
                (0..<256).map {
                    AASAInputText.characters(CollectionOfOne(UInt8($0)), AASACompareOptions(caseSensitive: caseSensitive, percentEncoded: true))
                }
            }
            return (read(true), read(false))
        }()

        var stateCount: Int { owner.count }

        /// The states reached from `set`, each member reading a byte its own way: as
        /// `sensitive` when case-sensitive, else as `insensitive`.
        mutating func step(_ set: [Int32], sensitive: [UInt32], insensitive: [UInt32]) -> [Int32] {
            guard !set.isEmpty else { return [] }   // (no members at all: nothing to write into)
            var out = [Int32](repeating: 0, count: stateCount)
            let count = set.withUnsafeBufferPointer { set in
                out.withUnsafeMutableBufferPointer { step(set, sensitive: sensitive, insensitive: insensitive, into: $0.baseAddress!) }
            }
            return Array(out[..<count])
        }

        /// ``step(_:sensitive:insensitive:)`` into `out`, which has room for every state: the
        /// number of states reached, written sorted. The table is built one step per state set
        /// and class, so this is most of a table's cost: when every member reads one character
        /// (all but the escapes of non-ASCII bytes), the edges are read through plain pointers,
        /// marking each state reached with this step's generation.
        mutating func step(_ set: UnsafeBufferPointer<Int32>, sensitive: [UInt32], insensitive: [UInt32],
                           into out: UnsafeMutablePointer<Int32>) -> Int {
            generation += 1
            var n = 0
            if sensitive.count == 1 && insensitive.count == 1 {
                let (cs, ci) = (sensitive[0], insensitive[0])
                let generation = generation
                var looked = 0
                edgeFirst.withUnsafeBufferPointer { first in
                    edgeLow.withUnsafeBufferPointer { low in
                        edgeHigh.withUnsafeBufferPointer { high in
                            edgeTarget.withUnsafeBufferPointer { target in
                                sensitiveState.withUnsafeBufferPointer { sensitiveState in
                                    mark.withUnsafeMutableBufferPointer { mark in
                                        for s in set {
                                            let c = sensitiveState[Int(s)] ? cs : ci
                                            let from = Int(first[Int(s)]), to = Int(first[Int(s) &+ 1])
                                            for e in from..<to where c >= low[e] && c <= high[e] {
                                                let t = Int(target[e])
                                                if mark[t] != generation {
                                                    mark[t] = generation
                                                    out[n] = Int32(t)
                                                    n &+= 1
                                                }
                                            }
                                            looked &+= to &- from &+ 1
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
                work += looked
            } else {
                for s in set {
                    let chars = sensitiveState[Int(s)] ? sensitive : insensitive
                    // The characters (one, or the three of an escape), one state set after another.
                    escapeCurrent.removeAll(keepingCapacity: true)
                    escapeCurrent.append(s)
                    for c in chars {
                        escapeNext.removeAll(keepingCapacity: true)
                        escapeGeneration += 1
                        for from in escapeCurrent {
                            for e in Int(edgeFirst[Int(from)])..<Int(edgeFirst[Int(from) + 1]) where c >= edgeLow[e] && c <= edgeHigh[e] {
                                let t = edgeTarget[e]
                                if escapeMark[Int(t)] != escapeGeneration {
                                    escapeMark[Int(t)] = escapeGeneration
                                    escapeNext.append(t)
                                }
                            }
                            work += Int(edgeFirst[Int(from) + 1] - edgeFirst[Int(from)]) + 1
                        }
                        swap(&escapeCurrent, &escapeNext)
                    }
                    for t in escapeCurrent where mark[Int(t)] != generation {
                        mark[Int(t)] = generation
                        out[n] = t
                        n += 1
                    }
                }
            }
            var written = UnsafeMutableBufferPointer(start: out, count: n)
            written.sort()
            return n
        }

        func acceptingMembers(_ set: [Int32]) -> [Int32] {
            var out: [Int32] = []
            for s in set where accepting[Int(s)] && out.last != owner[Int(s)] {
                out.append(owner[Int(s)])
            }
            // `set` is sorted and members' states are numbered in member order.
            return out
        }

        /// Each byte's class (bytes whose characters fall in the same label intervals for every
        /// way of reading present), and one byte of each class. Bytes read as ASCII characters
        /// only, so only label bounds below 128 tell them apart.
        func byteClasses() -> ([UInt8], [UInt8]) {
            var bound = [Bool](repeating: false, count: 129)
            for s in edgeLow.indices {
                if edgeLow[s] < 128 { bound[Int(edgeLow[s])] = true }
                if edgeHigh[s] < 128 { bound[Int(edgeHigh[s]) + 1] = true }
            }
            var atom = [Int](repeating: 0, count: 128), n = 0
            for c in 0..<128 {
                if c > 0 && bound[c] { n += 1 }
                atom[c] = n
            }
            let readings = Array(Set(members.map(\.caseSensitive))).sorted { !$0 && $1 }
            // A byte's signature: the atom of each character it reads as, each way of reading
            // present (at most 2 x 3 atoms below 128, 8 bits each).
            var classOf: [UInt64: UInt8] = [:]
            var classes = [UInt8](repeating: 0, count: 256), representatives: [UInt8] = []
            for b in 0..<256 {
                var signature: UInt64 = 0
                for caseSensitive in readings {
                    for c in Self.characters(UInt8(b), caseSensitive: caseSensitive) {
                        signature = signature << 8 | UInt64(atom[Int(c)] + 1)
                    }
                    signature <<= 8
                }
                if let known = classOf[signature] {
                    classes[b] = known
                } else {
                    let n = UInt8(representatives.count)
                    classOf[signature] = n
                    classes[b] = n
                    representatives.append(UInt8(b))
                }
            }
            return (classes, representatives)
        }
    }
}

/// `%XY` escapes as rules with `percentEncoded: true` see a non-ASCII byte.
enum AASAPercentEscape {
    static let upperHex: [UInt8] = Array("0123456789ABCDEF".utf8)
}

/// An automaton laid out flat for the state-set simulation: each state's edges are one run of
/// three parallel arrays (lowest scalar, highest scalar, target), one entry per label range, so
/// the matching loop reads plain integers and touches no reference count. Used where the
/// deterministic table would be too large (hundreds of `$(lang)` alternatives after a `*`).
final class AASAFlatNFA: Sendable {
    let first: [Int32]      // state s's edges are first[s]..<first[s + 1]
    let low: [UInt32]
    let high: [UInt32]
    let target: [Int32]
    let accepting: [Bool]

    init(_ a: AASAAutomaton) {
        var first: [Int32] = [0], low: [UInt32] = [], high: [UInt32] = [], target: [Int32] = []
        let ranges = a.labelRangeCount
        first.reserveCapacity(a.stateCount + 1)
        low.reserveCapacity(ranges)
        high.reserveCapacity(ranges)
        target.reserveCapacity(ranges)
        for edges in a.transitions {
            for t in edges {
                for r in t.label.ranges {
                    low.append(r.lowerBound)
                    high.append(r.upperBound)
                    target.append(Int32(t.target))
                }
            }
            first.append(Int32(low.count))
        }
        self.first = first
        self.low = low
        self.high = high
        self.target = target
        accepting = a.accepting
    }

    /// The same answer and the same step count as ``AASAAutomaton/accepts(_:steps:)``.
    func accepts(_ input: [UInt32], steps: inout Int) -> Bool {
        let n = accepting.count
        return withUnsafeTemporaryAllocation(of: Int32.self, capacity: 3 * n) { buffer -> Bool in
            let base = buffer.baseAddress!
            var current = base, next = base + n
            let mark = base + 2 * n
            mark.initialize(repeating: -1, count: n)
            current[0] = 0
            var count = 1
            return first.withUnsafeBufferPointer { first in
                low.withUnsafeBufferPointer { low in
                    high.withUnsafeBufferPointer { high in
                        target.withUnsafeBufferPointer { target in
                            var position: Int32 = 0
                            for c in input {
                                steps += count
                                var nextCount = 0
                                for i in 0..<count {
                                    let s = Int(current[i])
                                    for e in Int(first[s])..<Int(first[s + 1]) where c >= low[e] && c <= high[e] {
                                        let t = Int(target[e])
                                        if mark[t] != position {
                                            mark[t] = position
                                            next[nextCount] = Int32(t)
                                            nextCount += 1
                                        }
                                    }
                                }
                                if nextCount == 0 { return false }
                                swap(&current, &next)
                                count = nextCount
                                position += 1
                            }
                            steps += count
                            for i in 0..<count where accepting[Int(current[i])] { return true }
                            return false
                        }
                    }
                }
            }
        }
    }
}

/// A pattern ready to match: its automaton, and the fastest way to run it (decided once).
public struct AASAPatternMatcher: Sendable {
    public let automaton: AASAAutomaton
    enum Way: Sendable {
        /// The pattern accepts every input (`*`): nothing to read.
        case everything
        case table(AASADFA)
        case simulation(AASAFlatNFA)
        /// Nothing prepared: each input is simulated on the automaton as it is. For rules only
        /// analysed, never matched (``AASAFile/compiledRulesByEntry(prepared:)``).
        case unprepared
    }
    let way: Way

    public init(_ automaton: AASAAutomaton) {
        self.init(automaton, prepared: true)
    }

    /// With `prepared` false, decides nothing ahead: matching then simulates the automaton on
    /// each input (the same answers, more steps).
    init(_ automaton: AASAAutomaton, prepared: Bool) {
        self.automaton = automaton
        if !prepared {
            way = .unprepared
        } else if Self.acceptsEverything(automaton) {
            way = .everything
        } else if automaton.stateCount <= AASADFA.stateBudget, let dfa = AASADFA(automaton) {
            // (A pattern of more states than the budget, hundreds of `$(lang)` codes, hardly
            // ever fits in fewer: not tried.)
            way = .table(dfa)
        } else {
            way = .simulation(AASAFlatNFA(automaton))
        }
    }

    /// A start state that accepts and loops on every scalar: what `*` compiles to.
    static func acceptsEverything(_ a: AASAAutomaton) -> Bool {
        a.accepting[0] && a.transitions[0].contains { $0.target == 0 && $0.label == .any }
    }

    public func accepts(_ input: [UInt32], steps: inout Int) -> Bool {
        switch way {
        case .everything:
            steps += 1
            return true
        case .table(let dfa):
            return dfa.accepts(input, steps: &steps)
        case .simulation(let flat):
            return flat.accepts(input, steps: &steps)
        case .unprepared:
            return automaton.accepts(input, steps: &steps)
        }
    }
}
