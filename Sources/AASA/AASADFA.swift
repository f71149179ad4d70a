/// An automaton made deterministic for matching: one table lookup per input scalar, no
/// allocation, whatever the pattern. Built from an ``AASAAutomaton`` when compiling a rule, by
/// the subset construction over the classes of scalars no label tells apart, within a budget of
/// states; past the budget (or for an alphabet too fine to tabulate) there is none, and the
/// automaton's own state-set simulation matches instead. Both are linear in the input.
///
/// ```swift
/// let a = AASAPatternCompiler.compile("/buy/*", as: .path, options: .init())
/// AASADFA(a)!.accepts(Array("/buy/42".unicodeScalars.map(\.value)))   // true
/// ```
///
/// A class, not a struct: the matcher reaches it once per rule tried, and a reference is one
/// retain where a struct of six arrays would be six.
public final class AASADFA: Sendable {
    /// Class of each ASCII scalar.
    let asciiClass: [UInt8]
    /// Classes of the scalars from 128 up: each range's lower bound and class, sorted.
    let highBounds: [UInt32]
    let highClasses: [UInt8]
    let classCount: Int
    /// `next[state * classCount + class]`: the next state, or -1 when no input can be accepted
    /// from there.
    let next: [Int32]
    let accepting: [Bool]

    /// States the construction may make before it gives up.
    public static let stateBudget = 512

    public init?(_ automaton: AASAAutomaton, budget: Int = AASADFA.stateBudget) {
        let atoms = AASAAutomaton.alphabetAtoms([automaton])
        guard atoms.count <= 250 else { return nil }
        classCount = atoms.count
        // Class of a scalar: the index of the last atom at or below it.
        func classOf(_ c: UInt32) -> Int {
            var lo = 0, hi = atoms.count - 1
            while lo < hi {
                let mid = (lo + hi + 1) / 2
                if atoms[mid] <= c { lo = mid } else { hi = mid - 1 }
            }
            return lo
        }
        asciiClass = (0..<128).map { UInt8(classOf(UInt32($0))) }
        let high = atoms.enumerated().filter { $0.element >= 128 }
        var bounds: [UInt32] = [128], classes: [UInt8] = [UInt8(classOf(128))]
        for (i, a) in high where a > 128 {
            bounds.append(a)
            classes.append(UInt8(i))
        }
        highBounds = bounds
        highClasses = classes

        var index: [[Int]: Int] = [[0]: 0]
        var sets: [[Int]] = [[0]]
        var table: [Int32] = []
        var accept: [Bool] = []
        var head = 0
        while head < sets.count {
            let set = sets[head]; head += 1
            accept.append(automaton.anyAccepting(set))
            for atom in atoms {
                let target = automaton.step(set, atom)
                if target.isEmpty {
                    table.append(-1)
                    continue
                }
                if let known = index[target] {
                    table.append(Int32(known))
                } else {
                    if sets.count >= budget { return nil }
                    index[target] = sets.count
                    table.append(Int32(sets.count))
                    sets.append(target)
                }
            }
        }
        next = table
        accepting = accept
    }

    @inline(__always)
    func classOf(_ c: UInt32) -> Int {
        if c < 128 { return Int(asciiClass[Int(c)]) }
        var lo = 0, hi = highBounds.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if highBounds[mid] <= c { lo = mid } else { hi = mid - 1 }
        }
        return Int(highClasses[lo])
    }

    /// Whether the automaton accepts `input`: one step per scalar, stopping early when no
    /// input can be accepted any more.
    public func accepts(_ input: [UInt32], steps: inout Int) -> Bool {
        var state = 0
        for c in input {
            steps += 1
            let n = next[state &* classCount &+ classOf(c)]
            if n < 0 { return false }
            state = Int(n)
        }
        steps += 1
        return accepting[state]
    }
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
    }
    let way: Way

    public init(_ automaton: AASAAutomaton) {
        self.automaton = automaton
        if Self.acceptsEverything(automaton) {
            way = .everything
        } else if let dfa = AASADFA(automaton) {
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
        }
    }
}
