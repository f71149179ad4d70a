/// The languages of rules over URLs **as written**, and the product exploration behind
/// ``AASAReach`` and ``AASADiff``.
///
/// A compiled rule's automata read a *view* of the URL (decoded or not, folded or not, path slash
/// rules applied), and two rules with different flags read different views. To compare rules
/// exactly, every pattern automaton is turned into one that reads the raw component, one ASCII
/// character of the URL at a time:
///
/// - `percentEncoded: true`: the raw characters are the view (folded on input when
///   case-insensitive).
/// - `percentEncoded: false`: a shared lexer reads `%XX` escapes and hands decoded bytes to the
///   rule; the rule's automaton is first made to accept every input whose case fold it accepts
///   (``prefolded(_:)``), then turned into an automaton over UTF-8 bytes (``utf8Bytes(_:)``).
/// - Paths: ``slashRuled(_:)`` accepts a view exactly when its slash-normalised form is accepted.
///
/// The URL space explored (decided, docs/aasa-reach.md): `https://<domain>` with a path, query
/// and fragment made of the characters RFC 3986 allows there (`%` only as an escape with two hex
/// digits, either case). When a rule with `percentEncoded: false` takes part, escapes must spell
/// well-formed UTF-8 (a URL whose escapes decode to malformed UTF-8 is outside the model).
/// An absent query or fragment reads like an empty one, so the model writes neither.
///
/// Exploring a component is a breadth-first walk of the product of the lexer and every rule's
/// (lazily determinised) automaton, over classes of raw characters that no automaton tells apart.
/// Each product state where the component may end gives a *signature*: the set of rules whose
/// pattern for that component accepts. The walk stops at a budget of product states; then the
/// signatures found are real but others may exist.

// MARK: character classes

extension AASACharacterClass {
    var isEmptyClass: Bool { ranges.isEmpty }

    /// The scalars of this class not in `other`.
    func subtracting(_ other: AASACharacterClass) -> AASACharacterClass {
        var out: [ClosedRange<UInt32>] = []
        for r in ranges {
            var lo = r.lowerBound
            var done = false
            for o in other.ranges where !done {
                if o.upperBound < lo { continue }
                if o.lowerBound > r.upperBound { break }
                if o.lowerBound > lo { out.append(lo...(o.lowerBound - 1)) }
                if o.upperBound >= r.upperBound { done = true } else { lo = o.upperBound + 1 }
            }
            if !done { out.append(lo...r.upperBound) }
        }
        return AASACharacterClass(uncheckedRanges: out)
    }
}

// MARK: UTF-8

enum AASAUTF8 {
    static func encode(_ c: UInt32) -> [UInt8] {
        switch c {
        case 0..<0x80: return [UInt8(c)]
        case 0x80..<0x800: return [UInt8(0xC0 | (c >> 6)), UInt8(0x80 | (c & 0x3F))]
        case 0x800..<0x10000:
            return [UInt8(0xE0 | (c >> 12)), UInt8(0x80 | ((c >> 6) & 0x3F)), UInt8(0x80 | (c & 0x3F))]
        default:
            return [UInt8(0xF0 | (c >> 18)), UInt8(0x80 | ((c >> 12) & 0x3F)), UInt8(0x80 | ((c >> 6) & 0x3F)), UInt8(0x80 | (c & 0x3F))]
        }
    }

    /// The UTF-8 encodings of the scalars `lo...hi` (surrogates left out) as sequences of byte
    /// ranges: every byte string a sequence spells encodes a scalar of the range, and back.
    static func sequences(_ lo: UInt32, _ hi: UInt32) -> [[ClosedRange<UInt8>]] {
        var out: [[ClosedRange<UInt8>]] = []
        let pieces: [ClosedRange<UInt32>] = [0...0x7F, 0x80...0x7FF, 0x800...0xD7FF, 0xE000...0xFFFF, 0x10000...0x10FFFF]
        for p in pieces {
            let a = max(lo, p.lowerBound), b = min(min(hi, 0x10FFFF), p.upperBound)
            if a <= b { split(a, b, into: &out) }
        }
        return out
    }

    /// `lo` and `hi` encode to the same length. Splits until each piece is a product of byte
    /// ranges (the method of the Rust `regex-syntax` UTF-8 compiler).
    private static func split(_ lo: UInt32, _ hi: UInt32, into out: inout [[ClosedRange<UInt8>]]) {
        let n = encode(lo).count
        if n > 1 {
            for i in 1..<n {
                let m: UInt32 = (1 << (6 * UInt32(i))) - 1
                if lo & ~m != hi & ~m {
                    if lo & m != 0 {
                        split(lo, lo | m, into: &out)
                        split((lo | m) + 1, hi, into: &out)
                        return
                    }
                    if hi & m != m {
                        split(lo, (hi & ~m) - 1, into: &out)
                        split(hi & ~m, hi, into: &out)
                        return
                    }
                }
            }
        }
        let a = encode(lo), b = encode(hi)
        out.append(zip(a, b).map { $0...$1 })
    }

    /// The well-formedness automaton of UTF-8 (RFC 3629): 0 between scalars, other states inside
    /// one; nil for a byte that cannot come next.
    static func next(_ state: Int, _ b: UInt8) -> Int? {
        switch state {
        case 0:
            switch b {
            case 0x00...0x7F: return 0
            case 0xC2...0xDF: return 1
            case 0xE0: return 3
            case 0xE1...0xEC, 0xEE...0xEF: return 2
            case 0xED: return 4
            case 0xF0: return 6
            case 0xF1...0xF3: return 5
            case 0xF4: return 7
            default: return nil
            }
        case 1: return (0x80...0xBF).contains(b) ? 0 : nil
        case 2: return (0x80...0xBF).contains(b) ? 1 : nil
        case 3: return (0xA0...0xBF).contains(b) ? 1 : nil
        case 4: return (0x80...0x9F).contains(b) ? 1 : nil
        case 5: return (0x80...0xBF).contains(b) ? 2 : nil
        case 6: return (0x90...0xBF).contains(b) ? 2 : nil
        case 7: return (0x80...0x8F).contains(b) ? 2 : nil
        default: return nil
        }
    }
}

// MARK: automaton transforms

/// The scalars whose case fold (`caseSensitive: false`, `percentEncoded: false`) is not
/// themselves, with their folds. Unicode has no cased letter above U+1FFFF, so the scan stops
/// there.
let aasaFoldChanging: [(scalar: UInt32, fold: [UInt32])] = {
    let options = AASACompareOptions(caseSensitive: false, percentEncoded: false)
    var out: [(UInt32, [UInt32])] = []
    var folded: [UInt32] = []
    for c in UInt32(0)...0x1FFFF where c < 0xD800 || c > 0xDFFF {
        folded.removeAll(keepingCapacity: true)
        options.fold(c, into: &folded)
        if folded != [c] { out.append((c, folded)) }
    }
    return out
}()

let aasaFoldChangingClass = AASACharacterClass(ranges: aasaFoldChanging.map { $0.scalar...$0.scalar })

extension AASAAutomaton {
    /// The states reached from `states` on the scalars of `input`, in order.
    func steps(_ states: [Int], _ input: [UInt32]) -> [Int] {
        var s = states
        for c in input where !s.isEmpty { s = step(s, c) }
        return s
    }

    /// An automaton accepting `v` exactly when this one accepts the case fold of `v` (Unicode
    /// lowercase mapping, as `percentEncoded: false, caseSensitive: false` folds a decoded
    /// component): labels lose the scalars that fold to something else, and each such scalar
    /// gets an edge to wherever its fold leads.
    func prefolded() -> AASAAutomaton {
        var out: [[Transition]] = []
        for s in 0..<stateCount {
            var list: [Transition] = []
            for t in transitions[s] {
                let label = t.label.subtracting(aasaFoldChangingClass)
                if !label.isEmptyClass { list.append(Transition(label: label, target: t.target)) }
            }
            if !transitions[s].isEmpty {
                var byTarget: [Int: [ClosedRange<UInt32>]] = [:]
                for (c, fold) in aasaFoldChanging {
                    for target in steps([s], fold) { byTarget[target, default: []].append(c...c) }
                }
                for (target, ranges) in byTarget.sorted(by: { $0.key < $1.key }) {
                    list.append(Transition(label: AASACharacterClass(ranges: ranges), target: target))
                }
            }
            out.append(list)
        }
        return AASAAutomaton(transitions: out, accepting: accepting)
    }

    /// The same language over UTF-8 bytes: each scalar edge becomes chains of byte-range edges.
    func utf8Bytes() -> AASAAutomaton {
        var out: [[Transition]] = Array(repeating: [], count: stateCount)
        var acc = accepting
        for s in 0..<stateCount {
            for t in transitions[s] {
                for r in t.label.ranges {
                    for sequence in AASAUTF8.sequences(r.lowerBound, r.upperBound) {
                        var from = s
                        for (k, bytes) in sequence.enumerated() {
                            let label = AASACharacterClass(ranges: [UInt32(bytes.lowerBound)...UInt32(bytes.upperBound)])
                            if k == sequence.count - 1 {
                                out[from].append(Transition(label: label, target: t.target))
                            } else {
                                out.append([])
                                acc.append(false)
                                out[from].append(Transition(label: label, target: out.count - 1))
                                from = out.count - 1
                            }
                        }
                    }
                }
            }
        }
        return AASAAutomaton(transitions: out, accepting: acc)
    }

    /// For a path automaton: accepts a view `w` that starts with `/` exactly when this one
    /// accepts the slash-normalised `w` (leading run of slashes as one, trailing run dropped, a
    /// lone `/` kept; contract rule 6). States: 0 before the first slash, 1 in the leading run,
    /// `2 + s` in `s` after a non-slash, `2 + n + s` in `s` after a slash guessed inside the path
    /// (a non-slash must still come), `2 + 2n + s` in a trailing run entered from `s`.
    func slashRuled() -> AASAAutomaton {
        let n = stateCount
        let slash: UInt32 = 0x2F
        let slashClass = AASACharacterClass(scalar: slash)
        var out: [[Transition]] = Array(repeating: [], count: 2 + 3 * n)
        var acc = [Bool](repeating: false, count: 2 + 3 * n)
        out[0] = [Transition(label: slashClass, target: 1)]
        let afterSlash = step([0], slash)
        out[1].append(Transition(label: slashClass, target: 1))
        acc[1] = anyAccepting(afterSlash)
        func moves(from s: Int) -> [Transition] {
            var list: [Transition] = []
            for t in transitions[s] {
                let label = t.label.subtracting(slashClass)
                if !label.isEmptyClass { list.append(Transition(label: label, target: 2 + t.target)) }
                if t.label.contains(slash) { list.append(Transition(label: slashClass, target: 2 + n + t.target)) }
            }
            return list
        }
        for s in afterSlash { out[1] += moves(from: s).filter { !$0.label.contains(slash) } }
        for s in 0..<n {
            out[2 + s] = moves(from: s) + [Transition(label: slashClass, target: 2 + 2 * n + s)]
            out[2 + n + s] = moves(from: s)
            out[2 + 2 * n + s] = [Transition(label: slashClass, target: 2 + 2 * n + s)]
            acc[2 + s] = accepting[s]
            acc[2 + 2 * n + s] = accepting[s]
        }
        return AASAAutomaton(transitions: out, accepting: acc)
    }

    /// The automaton of one literal text.
    static func literal(_ text: [UInt32]) -> AASAAutomaton {
        var out: [[Transition]] = []
        for (i, c) in text.enumerated() { out.append([Transition(label: AASACharacterClass(scalar: c), target: i + 1)]) }
        out.append([])
        return AASAAutomaton(transitions: out, accepting: Array(repeating: false, count: text.count) + [true])
    }
}

// MARK: lazy determinisation

/// The subset construction of an automaton over input symbols 0...255, built as it is walked.
/// State ids are `Int32`; the empty set (no input can be accepted any more) is ``dead``.
final class AASALazyDFA {
    let nfa: AASAAutomaton
    /// Fold ASCII upper-case letters on input (`percentEncoded: true, caseSensitive: false`).
    let foldASCII: Bool
    private(set) var sets: [[Int]] = []
    private var index: [[Int]: Int32] = [:]
    private var table: [[Int32]] = []
    private(set) var accepting: [Bool] = []
    static let dead: Int32 = -1

    /// For a union of automata: the member each NFA state belongs to, and the member count.
    private let owner: [Int]?
    private let memberCount: Int
    private var acceptedCache: [[Bool]?] = []
    private var mark: [UInt32] = []
    private var stamp: UInt32 = 0

    init(_ nfa: AASAAutomaton, foldASCII: Bool) {
        self.nfa = nfa
        self.foldASCII = foldASCII
        owner = nil
        memberCount = 1
        _ = id(of: [nfa.start])
    }

    /// The union of `members` (disjoint copies side by side, started together), to walk many
    /// patterns of the same flags as one automaton.
    init(union members: [AASAAutomaton], foldASCII: Bool) {
        var transitions: [[AASAAutomaton.Transition]] = [], accepting: [Bool] = [], owner: [Int] = [], starts: [Int] = []
        for (m, a) in members.enumerated() {
            let base = transitions.count
            starts.append(base + a.start)
            for list in a.transitions { transitions.append(list.map { .init(label: $0.label, target: base + $0.target) }) }
            accepting += a.accepting
            owner += Array(repeating: m, count: a.stateCount)
        }
        nfa = AASAAutomaton(transitions: transitions.isEmpty ? [[]] : transitions, accepting: accepting.isEmpty ? [false] : accepting)
        self.foldASCII = foldASCII
        self.owner = owner
        memberCount = members.count
        _ = id(of: starts)
    }

    /// Which members accept in `state` (for a union).
    func acceptedMembers(_ state: Int32) -> [Bool] {
        guard state >= 0, let owner else { return Array(repeating: false, count: memberCount) }
        if let known = acceptedCache[Int(state)] { return known }
        var out = [Bool](repeating: false, count: memberCount)
        for s in sets[Int(state)] where nfa.accepting[s] { out[owner[s]] = true }
        acceptedCache[Int(state)] = out
        return out
    }

    private func id(of set: [Int]) -> Int32 {
        if set.isEmpty { return Self.dead }
        if let known = index[set] { return known }
        let n = Int32(sets.count)
        sets.append(set)
        index[set] = n
        table.append([Int32](repeating: -2, count: 256))
        accepting.append(nfa.anyAccepting(set))
        acceptedCache.append(nil)
        return n
    }

    func step(_ state: Int32, _ symbol: UInt8) -> Int32 {
        if state < 0 { return Self.dead }
        let known = table[Int(state)][Int(symbol)]
        if known != -2 { return known }
        var c = UInt32(symbol)
        if foldASCII && c >= 0x41 && c <= 0x5A { c += 0x20 }
        // The NFA step with a reused mark array (no set allocated per step).
        if mark.count != nfa.stateCount { mark = Array(repeating: 0, count: nfa.stateCount) }
        stamp &+= 1
        var targets: [Int] = []
        for s in sets[Int(state)] {
            for t in nfa.transitions[s] where mark[t.target] != stamp && t.label.contains(c) {
                mark[t.target] = stamp
                targets.append(t.target)
            }
        }
        targets.sort()
        let next = id(of: targets)
        table[Int(state)][Int(symbol)] = next
        return next
    }

    func accepts(_ state: Int32) -> Bool { state >= 0 && accepting[Int(state)] }

    /// Whether the empty input is accepted (not for a union).
    var acceptsEmpty: Bool { accepting[0] }
}

// MARK: the product of a component

/// Which part of the URL a product explores.
enum AASAComponentKind: Sendable { case path, query, fragment }

/// A set of rule indices as a bit set.
struct AASARuleSet: Hashable, Sendable {
    var words: [UInt64]

    init(count: Int) { words = Array(repeating: 0, count: (count + 63) / 64) }

    mutating func insert(_ i: Int) { words[i >> 6] |= 1 << UInt64(i & 63) }
    func contains(_ i: Int) -> Bool { words[i >> 6] & (1 << UInt64(i & 63)) != 0 }

    func intersection(_ a: AASARuleSet, _ b: AASARuleSet) -> AASARuleSet {
        var out = self
        for i in out.words.indices { out.words[i] &= a.words[i] & b.words[i] }
        return out
    }

    /// The smallest member in `range`, or nil.
    func first(in range: Range<Int>) -> Int? {
        var i = range.lowerBound
        while i < range.upperBound {
            let word = words[i >> 6] >> UInt64(i & 63)
            if word == 0 { i = (i | 63) + 1; continue }
            let j = i + word.trailingZeroBitCount
            return j < range.upperBound ? j : nil
        }
        return nil
    }
}

/// What one rule's pattern for one component is, as a tracker of the product (identical ones are
/// shared between rules).
struct AASATrackerKey: Hashable {
    enum Shape: Hashable {
        case universal
        case whole(AASAAutomaton)
        case items([Item])
    }
    struct Item: Hashable {
        let name: [UInt32]
        let value: AASAAutomaton
    }
    let shape: Shape
    let options: AASACompareOptions
}

final class AASATracker {
    struct Item {
        let name: AASALazyDFA
        let value: AASALazyDFA
        let emptyValueMatches: Bool
    }
    enum Shape {
        case universal
        case whole(AASALazyDFA)
        case items([Item])
        /// Several whole-component patterns of the same flags, walked as one union.
        case group(AASALazyDFA, members: Int)
    }
    let shape: Shape
    /// Reads decoded bytes (`percentEncoded: false`) rather than raw characters.
    let decoded: Bool

    /// Whole-component patterns `members`, all with `options`, as one tracker.
    init(group members: [AASAAutomaton], options: AASACompareOptions) {
        decoded = !options.percentEncoded
        if decoded {
            let bytes = members.map { (options.caseSensitive ? $0 : $0.prefolded()).utf8Bytes() }
            shape = .group(AASALazyDFA(union: bytes, foldASCII: false), members: members.count)
        } else {
            shape = .group(AASALazyDFA(union: members, foldASCII: !options.caseSensitive), members: members.count)
        }
    }

    init(_ key: AASATrackerKey) {
        decoded = !key.options.percentEncoded
        let fold = key.options.percentEncoded && !key.options.caseSensitive
        let prepare: (AASAAutomaton) -> AASALazyDFA = { [decoded] a in
            if !decoded { return AASALazyDFA(a, foldASCII: fold) }
            let folded = key.options.caseSensitive ? a : a.prefolded()
            return AASALazyDFA(folded.utf8Bytes(), foldASCII: false)
        }
        switch key.shape {
        case .universal: shape = .universal
        case .whole(let a): shape = .whole(prepare(a))
        case .items(let items):
            shape = .items(items.map { item in
                let value = prepare(item.value)
                return Item(name: prepare(.literal(item.name)), value: value, emptyValueMatches: value.acceptsEmpty)
            })
        }
    }

    /// Slots in a product state: none, one DFA state, or a phase and three per item.
    var slotCount: Int {
        switch shape {
        case .universal: 0
        case .whole, .group: 1
        case .items(let items): 1 + 3 * items.count
        }
    }

    var automata: [AASALazyDFA] {
        switch shape {
        case .universal: []
        case .whole(let d), .group(let d, _): [d]
        case .items(let items): items.flatMap { [$0.name, $0.value] }
        }
    }

    func initial(into state: inout [Int32]) {
        switch shape {
        case .universal: break
        case .whole, .group: state.append(0)
        case .items(let items):
            state.append(0)   // phase: 0 reading a name, 1 reading a value
            for _ in items { state.append(contentsOf: [0, Self.notNamed, 0]) }   // name, value, flags
        }
    }

    static let found: Int32 = 1, failed: Int32 = 2
    /// The value slot of an item whose name the current query item does not have.
    static let notNamed: Int32 = -3

    /// Moves the slots at `o` on one raw character `raw`; `byte` is the decoded byte it completes
    /// (nil inside an escape).
    func step(_ s: inout [Int32], at o: Int, raw: UInt8, byte: UInt8?) {
        switch shape {
        case .universal: return
        case .whole(let d), .group(let d, _):
            if decoded {
                if let byte { s[o] = d.step(s[o], byte) }
            } else {
                s[o] = d.step(s[o], raw)
            }
        case .items(let items):
            if raw == UInt8(ascii: "&") {
                finishItem(&s, at: o, items)
                return
            }
            if raw == UInt8(ascii: "=") && s[o] == 0 {
                s[o] = 1
                for (k, item) in items.enumerated() where s[o + 3 * k + 3] & Self.failed == 0 {
                    s[o + 3 * k + 2] = item.name.accepts(s[o + 3 * k + 1]) ? 0 : Self.notNamed
                    s[o + 3 * k + 1] = AASALazyDFA.dead
                }
                return
            }
            let symbol: UInt8
            if decoded {
                guard let byte else { return }
                symbol = byte
            } else {
                symbol = raw
            }
            for (k, item) in items.enumerated() {
                let slot = o + 3 * k + 1 + Int(s[o])
                if s[slot] == Self.notNamed { continue }
                s[slot] = (s[o] == 0 ? item.name : item.value).step(s[slot], symbol)
            }
        }
    }

    /// The end of a query item (at `&` or the end of the query): records which items were found
    /// and which failed, and starts the next item.
    private func finishItem(_ s: inout [Int32], at o: Int, _ items: [Item]) {
        for (k, item) in items.enumerated() where s[o + 3 * k + 3] & Self.failed == 0 {
            let nameSlot = o + 3 * k + 1, valueSlot = o + 3 * k + 2, flags = o + 3 * k + 3
            if s[o] == 0 {
                if item.name.accepts(s[nameSlot]) {
                    s[flags] |= Self.found
                    if !item.emptyValueMatches { s[flags] |= Self.failed }
                }
            } else if s[valueSlot] != Self.notNamed {
                s[flags] |= Self.found
                if !item.value.accepts(s[valueSlot]) { s[flags] |= Self.failed }
            }
            s[nameSlot] = s[flags] & Self.failed != 0 ? AASALazyDFA.dead : 0
            s[valueSlot] = Self.notNamed
        }
        s[o] = 0
        // A failed item fails the rule for good: one canonical state for all of those.
        if items.indices.contains(where: { s[o + 3 * $0 + 3] & Self.failed != 0 }) {
            for k in items.indices {
                s[o + 3 * k + 1] = AASALazyDFA.dead
                s[o + 3 * k + 2] = Self.notNamed
                s[o + 3 * k + 3] = Self.failed
            }
        }
    }

    /// Which members accept when the component ends in `s` (one member unless a group).
    func accepted(_ s: [Int32], at o: Int) -> [Bool] {
        if case .group(let d, _) = shape { return d.acceptedMembers(s[o]) }
        return [accepts(s, at: o)]
    }

    func accepts(_ s: [Int32], at o: Int) -> Bool {
        switch shape {
        case .universal: return true
        case .group: return accepted(s, at: o).contains(true)
        case .whole(let d): return d.accepts(s[o])
        case .items(let items):
            var copy = s
            finishItem(&copy, at: o, items)
            for (k, item) in items.enumerated() {
                let flags = copy[o + 3 * k + 3]
                if flags & Self.failed != 0 { return false }
                if flags & Self.found == 0 && !item.emptyValueMatches { return false }
            }
            return true
        }
    }
}

/// Every rule's pattern for one component, walked together (see the top of this file).
struct AASAComponentProduct {
    struct Result {
        /// Each signature reached, with a shortest raw word giving it (in order of length).
        var signatures: [(rules: AASARuleSet, word: [UInt8])] = []
        /// False when the walk stopped at the budget.
        var complete = true
        var states = 0
    }

    let kind: AASAComponentKind
    let trackers: [AASATracker]
    let offsets: [Int]
    /// Each rule's tracker and its member in it.
    let ruleRef: [(tracker: Int, member: Int)]
    let decodedTracking: Bool

    init(kind: AASAComponentKind, rules: [AASACompiledRule]) {
        self.kind = kind
        // Whole-component patterns are grouped by flags into unions; others are trackers of
        // their own. Identical patterns are shared.
        var keys: [AASATrackerKey: (tracker: Int, member: Int)] = [:]
        var groups: [AASACompareOptions: Int] = [:]
        var groupMembers: [[AASAAutomaton]] = []
        var pending: [(key: AASATrackerKey, group: Int?)] = []   // trackers to build, in order
        var ruleRef: [(tracker: Int, member: Int)] = []
        for compiled in rules {
            let key = Self.key(compiled, kind)
            if let known = keys[key] {
                ruleRef.append(known)
                continue
            }
            let ref: (Int, Int)
            if case .whole(let a) = key.shape {
                let g: Int
                if let known = groups[key.options] {
                    g = known
                } else {
                    g = groupMembers.count
                    groups[key.options] = g
                    groupMembers.append([])
                    pending.append((key, g))
                }
                groupMembers[g].append(a)
                ref = (pending.firstIndex { $0.group == g }!, groupMembers[g].count - 1)
            } else {
                pending.append((key, nil))
                ref = (pending.count - 1, 0)
            }
            keys[key] = ref
            ruleRef.append(ref)
        }
        var trackers: [AASATracker] = [], offsets: [Int] = []
        var next = 1   // slot 0: the lexer
        for p in pending {
            let tracker = p.group.map { AASATracker(group: groupMembers[$0], options: p.key.options) } ?? AASATracker(p.key)
            trackers.append(tracker)
            offsets.append(next)
            next += tracker.slotCount
        }
        self.trackers = trackers
        self.offsets = offsets
        self.ruleRef = ruleRef
        decodedTracking = trackers.contains { $0.decoded && $0.slotCount > 0 }
    }

    static func key(_ compiled: AASACompiledRule, _ kind: AASAComponentKind) -> AASATrackerKey {
        let options = compiled.rule.options
        switch kind {
        case .path:
            return AASATrackerKey(shape: .whole(compiled.path.slashRuled()), options: options)
        case .fragment:
            return AASATrackerKey(shape: .whole(compiled.fragment), options: options)
        case .query:
            switch compiled.query {
            case .ignored:
                return AASATrackerKey(shape: .universal, options: AASACompareOptions())
            case .whole(let a):
                return AASATrackerKey(shape: .whole(a), options: options)
            case .items(let items):
                if items.isEmpty { return AASATrackerKey(shape: .universal, options: AASACompareOptions()) }
                return AASATrackerKey(shape: .items(items.map { .init(name: $0.comparedName, value: $0.value) }), options: options)
            }
        }
    }

    /// The characters RFC 3986 allows in the component, nicest first (`%` starts an escape).
    var alphabet: [UInt8] {
        var s = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-._~/!$&'()*+,;=:@%"
        if kind != .path { s += "?" }
        return Array(s.utf8)
    }

    /// One character of each class of `alphabet` that neither the lexer nor any automaton tells
    /// apart: the first in `alphabet` order, or with `upperHexFirst` (inside an escape) the
    /// upper-case hex digits before the rest, so that witnesses write `%C3%A9`.
    func representatives(upperHexFirst: Bool = false) -> [UInt8] {
        var labels = Set<AASACharacterClass>(), foldedLabels = Set<AASACharacterClass>()
        for tracker in trackers {
            for dfa in tracker.automata {
                for list in dfa.nfa.transitions {
                    for t in list {
                        if dfa.foldASCII { foldedLabels.insert(t.label) } else { labels.insert(t.label) }
                    }
                }
            }
        }
        let plain = Array(labels), folded = Array(foldedLabels)
        var seen = Set<[Int]>(), out: [UInt8] = []
        let order = upperHexFirst ? Array("0123456789ABCDEF".utf8) + alphabet : alphabet
        for c in order {
            var key: [Int] = [c == 0x25 ? 1 : 0, c == 0x26 ? 1 : 0, c == 0x3D ? 1 : 0]
            if let h = hexValue(c) { key.append(decodedTracking ? h : 1) } else { key.append(-1) }
            let lower = UInt32(c >= 0x41 && c <= 0x5A ? c + 0x20 : c)
            for l in plain { key.append(l.contains(UInt32(c)) ? 1 : 0) }
            for l in folded { key.append(l.contains(lower) ? 1 : 0) }
            if seen.insert(key).inserted { out.append(c) }
        }
        return out
    }

    func hexValue(_ c: UInt8) -> Int? { AASAInputText.hexValue(c).map(Int.init) }

    func initial() -> [Int32] {
        var s: [Int32] = [0]
        for t in trackers { t.initial(into: &s) }
        if kind == .path { s = step(s, UInt8(ascii: "/"))! }
        return s
    }

    /// The product state after raw character `c`, or nil when `c` cannot come next in the model
    /// (a `%` not followed by two hex digits, malformed UTF-8 under a decoding rule).
    func step(_ s: [Int32], _ c: UInt8) -> [Int32]? {
        var esc = Int(s[0]) % 18, utf = Int(s[0]) / 18
        var byte: UInt8?
        if esc == 0 {
            if c == 0x25 {
                esc = 1
            } else {
                if decodedTracking && utf != 0 { return nil }
                byte = c
            }
        } else if esc == 1 {
            guard let h = hexValue(c) else { return nil }
            esc = 2 + h
        } else {
            guard let l = hexValue(c) else { return nil }
            let b = UInt8((esc - 2) * 16 + l)
            esc = 0
            if decodedTracking {
                guard let u = AASAUTF8.next(utf, b) else { return nil }
                utf = u
            }
            byte = b
        }
        var n = s
        n[0] = Int32(esc + 18 * utf)
        for t in trackers.indices { trackers[t].step(&n, at: offsets[t], raw: c, byte: byte) }
        return n
    }

    /// The rules (by index) whose pattern accepts when the component ends in `s`; nil when it
    /// cannot end there (inside an escape or a UTF-8 sequence).
    func signature(_ s: [Int32]) -> AASARuleSet? {
        if s[0] != 0 { return nil }
        let accepted = trackers.indices.map { trackers[$0].accepted(s, at: offsets[$0]) }
        var out = AASARuleSet(count: ruleRef.count)
        for (r, ref) in ruleRef.enumerated() where accepted[ref.tracker][ref.member] { out.insert(r) }
        return out
    }

    /// Breadth-first walk of at most `budget` product states holding at most `cellBudget`
    /// cells (the `Int32`s of every product state kept: a state has a slot per rule, so with
    /// 2,000 rules the 60,000 states of the default budget held 1.9 GB and took six minutes to
    /// walk, `aasa reach` on a 78 KB file; the default 16 million cells are 64 MB, kept twice,
    /// the states and their index).
    func explore(budget: Int, cellBudget: Int) -> Result {
        var result = Result()
        let reps = representatives(), escapeReps = representatives(upperHexFirst: true)
        let root = initial()
        var states: [[Int32]] = [root], parent: [Int] = [-1], via: [UInt8] = [0]
        var index: [[Int32]: Int] = [root: 0]
        var found = Set<AASARuleSet>()
        var head = 0
        var cells = root.count
        while head < states.count {
            let s = states[head]
            if let sig = signature(s), found.insert(sig).inserted {
                var word: [UInt8] = [], at = head
                while at > 0 { word.append(via[at]); at = parent[at] }
                if kind == .path { word.append(UInt8(ascii: "/")) }
                result.signatures.append((sig, word.reversed()))
            }
            for c in s[0] % 18 == 0 ? reps : escapeReps {
                guard let n = step(s, c), index[n] == nil else { continue }
                if states.count >= budget || cells + n.count > cellBudget { result.complete = false; continue }
                cells += n.count
                index[n] = states.count
                states.append(n)
                parent.append(head)
                via.append(c)
            }
            head += 1
        }
        result.states = states.count
        return result
    }
}

/// The three components explored for one list of rules, and their combinations: every URL of
/// the model gives one (path, query, fragment) signature triple, and every triple is given by
/// some URL (the components are independent), so the rules a URL matches are the intersection
/// of its triple.
struct AASADecisionSpace {
    let path: AASAComponentProduct.Result
    let query: AASAComponentProduct.Result
    let fragment: AASAComponentProduct.Result
    let ruleCount: Int
    let combinationBudget: Int

    init(rules: [AASACompiledRule], budget: AASAReach.Budget) {
        ruleCount = rules.count
        path = AASAComponentProduct(kind: .path, rules: rules).explore(budget: budget.states, cellBudget: budget.cells)
        query = AASAComponentProduct(kind: .query, rules: rules).explore(budget: budget.states, cellBudget: budget.cells)
        fragment = AASAComponentProduct(kind: .fragment, rules: rules).explore(budget: budget.states, cellBudget: budget.cells)
        combinationBudget = budget.combinations
    }

    var combinations: Int { path.signatures.count * query.signatures.count * fragment.signatures.count }

    /// Whether every URL of the model is represented: each walk complete and the combinations
    /// within their budget.
    var complete: Bool { path.complete && query.complete && fragment.complete && combinations <= combinationBudget }

    var statesExplored: Int { path.states + query.states + fragment.states }

    /// Calls `body` with each triple's matching rules and its URL parts (path, query, fragment
    /// raw words), shortest paths first; stops after the combination budget.
    func forEach(_ body: (AASARuleSet, [UInt8], [UInt8], [UInt8]) -> Void) {
        var n = 0
        for p in path.signatures {
            for q in query.signatures {
                for f in fragment.signatures {
                    n += 1
                    if n > combinationBudget { return }
                    body(p.rules.intersection(q.rules, f.rules), p.word, q.word, f.word)
                }
            }
        }
    }

    static func url(domain: String, path: [UInt8], query: [UInt8], fragment: [UInt8]) -> String {
        var out = "https://" + domain + String(decoding: path, as: UTF8.self)
        if !query.isEmpty { out += "?" + String(decoding: query, as: UTF8.self) }
        if !fragment.isEmpty { out += "#" + String(decoding: fragment, as: UTF8.self) }
        return out
    }
}
