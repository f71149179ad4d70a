/// The search behind ``AASAAutomaton/includes(_:budget:meter:workLimit:)``: pairs (state of the
/// included automaton, set of states of the including one), explored breadth first.
///
/// What makes it cheaper than the plain search it replaced, with the same answer and the same
/// work metered at every point (`InclusionSearchTests` compares the two on generated automata):
/// - the including automaton's state sets are numbered once, so a pair is two integers, hashed
///   as one;
/// - a set's step on an atom is made once, then looked up (a set comes back with many states of
///   the included automaton);
/// - each state of the included automaton lists, once, the atoms its edges take and where to,
///   in the order the search visits them (atoms in order, then edges in order), instead of
///   testing every edge's label against every atom at every pair.
struct InclusionSearch {
    let atoms: [UInt32]
    let included: AASAAutomaton
    /// The including automaton, its edges flat.
    let including: AASAFlatNFA

    /// The including automaton's state sets met so far, and whether a state of each accepts.
    var sets = StateSetTable()
    var setAccepts: [Bool] = []
    /// Steps made: `set * atoms.count + atom` -> the set reached.
    var steps = IntTable()
    /// Scratch for one step.
    var mark: [Int32]
    var generation: Int32 = 0
    /// Room for every state of the including automaton.
    var reached: [Int32]

    /// For each state of the included automaton (made when the search first leaves it): the
    /// atoms its edges take, each with the edge's target, ordered by atom then by edge.
    var movesOf: [Range<Int>?]
    var moveAtom: [Int32] = [], moveTarget: [Int32] = []
    var order: [UInt64] = []

    init(including a: AASAAutomaton, included b: AASAAutomaton, atoms: [UInt32]) {
        self.atoms = atoms
        included = b
        including = AASAFlatNFA(a)
        mark = Array(repeating: -1, count: a.stateCount)
        reached = Array(repeating: 0, count: a.stateCount)
        movesOf = Array(repeating: nil, count: b.stateCount)
    }

    /// The number of the set in `reached[..<count]` (sorted, each state once), numbering it if new.
    mutating func number(_ count: Int) -> Int32 {
        let before = sets.count
        let n = reached.withUnsafeBufferPointer { sets.number(UnsafeBufferPointer(rebasing: $0[..<count]))! }
        if sets.count > before {
            setAccepts.append(reached[..<count].contains { including.accepting[Int($0)] })
        }
        return n
    }

    /// The set `set` steps to on atom `k`.
    mutating func step(_ set: Int32, _ k: Int) -> Int32 {
        let key = Int(set) &* atoms.count &+ k
        if let known = steps[key] { return known }
        let c = atoms[k]
        generation &+= 1
        let generation = generation
        var count = 0
        // Plain pointers: this loop is most of an inclusion's time, and the indices come from
        // the flat automaton's edges (every target is a state, every state has its `first`).
        let including = including
        sets.withStates(of: Int(set)) { states in
            including.first.withUnsafeBufferPointer { first in
                including.low.withUnsafeBufferPointer { low in
                    including.high.withUnsafeBufferPointer { high in
                        including.target.withUnsafeBufferPointer { target in
                            mark.withUnsafeMutableBufferPointer { mark in
                                reached.withUnsafeMutableBufferPointer { reached in
                                    for s in states {
                                        for e in Int(first[Int(s)])..<Int(first[Int(s) &+ 1]) where c >= low[e] && c <= high[e] {
                                            let t = target[e]
                                            if mark[Int(t)] != generation {
                                                mark[Int(t)] = generation
                                                reached[count] = t
                                                count &+= 1
                                            }
                                        }
                                    }
                                    var written = UnsafeMutableBufferPointer(rebasing: reached[..<count])
                                    written.sort()
                                }
                            }
                        }
                    }
                }
            }
        }
        let n = number(count)
        steps[key] = n
        return n
    }

    /// The moves of the included automaton's state `s`: the atom index and target of each edge
    /// whose label holds the atom, by atom, then by edge.
    mutating func moves(_ s: Int) -> Range<Int> {
        if let known = movesOf[s] { return known }
        order.removeAll(keepingCapacity: true)
        let edges = included.transitions[s]
        for (index, t) in edges.enumerated() {
            for r in t.label.ranges {
                // Atoms are the label bounds (and one past each upper bound): the atoms a range
                // holds run from its lower bound's to the last atom not above its upper bound.
                // A label's ranges are disjoint, so an edge takes an atom once.
                var k = AASAAutomaton.atomIndex(of: r.lowerBound, in: atoms)
                while k < atoms.count && atoms[k] <= r.upperBound {
                    order.append(UInt64(k) << 32 | UInt64(index))
                    k += 1
                }
            }
        }
        order.sort()
        let start = moveAtom.count
        for o in order {
            moveAtom.append(Int32(truncatingIfNeeded: o >> 32))
            moveTarget.append(Int32(edges[Int(truncatingIfNeeded: o & 0xFFFF_FFFF)].target))
        }
        movesOf[s] = start..<moveAtom.count
        return start..<moveAtom.count
    }

    mutating func run(budget: Int, meter: inout AASAWorkMeter, workLimit: Int) -> Bool? {
        // The first pair: both automata in their start state, 0.
        reached[0] = 0
        let start = number(1)
        var seen = IntTable()
        _ = seen.insert(Self.key(0, start))
        var queue: [(a: Int32, b: Int32)] = [(0, start)], head = 0
        while head < queue.count {
            let (a, b) = queue[head]; head += 1
            if included.accepting[Int(a)] && !setAccepts[Int(b)] { return false }
            let moves = moves(Int(a))
            var i = moves.lowerBound
            while i < moves.upperBound {
                let k = Int(moveAtom[i])
                let next = step(b, k)
                meter.work += sets.size(of: Int(b)) + 1
                meter.peak = meter.work
                if meter.work > workLimit { return nil }
                while i < moves.upperBound && Int(moveAtom[i]) == k {
                    let t = moveTarget[i]
                    i += 1
                    if seen.insert(Self.key(t, next)) {
                        if seen.count > budget { return nil }
                        queue.append((t, next))
                    }
                }
            }
        }
        return true
    }

    static func key(_ a: Int32, _ b: Int32) -> Int { Int(a) << 32 | Int(b) }
}

/// State sets numbered in the order they are first met, stored one after another in one array
/// (no array per set): what the table construction (``AASADFA``) and the inclusion search
/// (``InclusionSearch``) number the sets of states they reach by. A set is hashed as one block of
/// bytes with the standard library's seeded hash (a file's patterns decide which sets occur).
struct StateSetTable {
    private var arena: [Int32] = []
    private var starts: [Int] = [0]
    private var hashes: [Int] = []
    /// Open addressing: a set's number, or -1.
    private var buckets = [Int32](repeating: -1, count: 64)

    var count: Int { starts.count - 1 }

    /// The states of set `n`, sorted.
    func states(of n: Int) -> [Int32] { Array(arena[starts[n]..<starts[n + 1]]) }

    func size(of n: Int) -> Int { starts[n + 1] - starts[n] }

    func withStates<R>(of n: Int, _ body: (UnsafeBufferPointer<Int32>) -> R) -> R {
        arena.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[starts[n]..<starts[n + 1]])) }
    }

    static func hash(_ set: UnsafeBufferPointer<Int32>) -> Int {
        var hasher = Hasher()
        hasher.combine(set.count)
        hasher.combine(bytes: UnsafeRawBufferPointer(set))
        return hasher.finalize()
    }

    /// The number of `set` (sorted, each state once); a new set is numbered next unless
    /// `limit` sets are numbered already (nil then).
    mutating func number(_ set: UnsafeBufferPointer<Int32>, limit: Int = .max) -> Int32? {
        let h = Self.hash(set)
        let mask = buckets.count - 1
        var i = h & mask
        while true {
            let n = Int(buckets[i])
            if n < 0 { break }
            if hashes[n] == h && size(of: n) == set.count && withStates(of: n, { $0.elementsEqual(set) }) { return Int32(n) }
            i = (i + 1) & mask
        }
        if count >= limit { return nil }
        let n = Int32(count)
        buckets[i] = n
        hashes.append(h)
        arena.append(contentsOf: set)
        starts.append(arena.count)
        if count * 2 > buckets.count { grow() }
        return n
    }

    private mutating func grow() {
        buckets = [Int32](repeating: -1, count: buckets.count * 2)
        let mask = buckets.count - 1
        for (n, h) in hashes.enumerated() {
            var i = h & mask
            while buckets[i] >= 0 { i = (i + 1) & mask }
            buckets[i] = Int32(n)
        }
    }
}

/// A map from non-negative integers to `Int32`, open addressing with linear probing. The keys
/// are numbers the search hands out itself (a state, a set's number, an atom's index), not
/// text from the file, so a multiplicative hash spreads them and nothing can aim collisions.
struct IntTable {
    private var keys: [Int] = Array(repeating: -1, count: 64)
    private var values: [Int32] = Array(repeating: 0, count: 64)
    private(set) var count = 0

    /// The table's size is `1 << (64 - shift)`: a key's slot is the top bits of its product
    /// with the golden ratio (Fibonacci hashing).
    private var shift = 58

    @inline(__always)
    private func slot(_ key: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(truncatingIfNeeded: key) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(shift))
    }

    subscript(key: Int) -> Int32? {
        get {
            let mask = keys.count - 1
            var i = slot(key)
            while true {
                let k = keys[i]
                if k == key { return values[i] }
                if k < 0 { return nil }
                i = (i + 1) & mask
            }
        }
        set {
            guard let value = newValue else { preconditionFailure("IntTable does not remove") }
            let mask = keys.count - 1
            var i = slot(key)
            while keys[i] >= 0 && keys[i] != key { i = (i + 1) & mask }
            if keys[i] < 0 {
                keys[i] = key
                count += 1
            }
            values[i] = value
            if count * 2 > keys.count { grow() }
        }
    }

    /// Adds `key` (with value 0); whether it was new.
    mutating func insert(_ key: Int) -> Bool {
        let mask = keys.count - 1
        var i = slot(key)
        while true {
            let k = keys[i]
            if k == key { return false }
            if k < 0 { break }
            i = (i + 1) & mask
        }
        keys[i] = key
        count += 1
        if count * 2 > keys.count { grow() }
        return true
    }

    private mutating func grow() {
        let (oldKeys, oldValues) = (keys, values)
        keys = Array(repeating: -1, count: oldKeys.count * 2)
        values = Array(repeating: 0, count: oldKeys.count * 2)
        shift -= 1
        let mask = keys.count - 1
        for (k, v) in zip(oldKeys, oldValues) where k >= 0 {
            var i = slot(k)
            while keys[i] >= 0 { i = (i + 1) & mask }
            keys[i] = k
            values[i] = v
        }
    }
}

extension AASAAutomaton {
    /// The index of the atom whose interval holds `c`: the last of `atoms` (sorted, starting
    /// at 0, as ``alphabetAtoms(_:)`` makes them) at or below it.
    static func atomIndex(of c: UInt32, in atoms: [UInt32]) -> Int {
        var lo = 0, hi = atoms.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if atoms[mid] <= c { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }
}

extension Array where Element: Equatable {
    /// Keeps the first of each run of equal elements (in a sorted array: each value once), in place.
    mutating func removeAdjacentDuplicates() {
        var kept = 0
        for i in indices where kept == 0 || self[kept - 1] != self[i] {
            self[kept] = self[i]
            kept += 1
        }
        removeLast(count - kept)
    }
}
