import AASA
import Foundation

/// The reference's store of compiled AASA rules (``AASAMemoStore``): files read for
/// `aasa.match` by their bytes, rules compiled by what they compile from, and what the rule
/// analysis found about rules and pairs of rules, each family in a least-recently-used list of
/// its own bounded by count and by weight (``AASAMemo/Value/weight``: bytes of text, states and
/// transitions), so that a stream of new files (a fuzzer's) cannot push out the rules every
/// file shares, nor grow without end. Safe to use from any number of tasks: each look-up and
/// each insertion holds a lock, compiling does not.
///
/// The answers are those without a store (``AASAMemoStore`` says how); a rule past the compile
/// budget is still reported `pattern-too-complex` and matches nothing.
public final class AASACompileCache: AASAMemoStore, @unchecked Sendable {
    public struct Limits: Sendable {
        public var count: Int
        public var weight: Int
        public init(count: Int, weight: Int) {
            self.count = count
            self.weight = weight
        }
    }

    /// The one the reference's aasa operations use, in `run`, `fuzz` and `adapter` alike.
    public static let shared = AASACompileCache()

    /// Files (`aasa.match`'s, by their bytes, with their compiled rules).
    public static let fileLimits = Limits(count: 512, weight: 1_000_000)
    /// Rules compiled and their facts: a rule at the compile budget weighs about 200,000. A
    /// unit of weight of a compiled rule is about 75 bytes (measured: 20 rules at the budget,
    /// 3.9 million, held 290 MB), so each of these two families holds at most about 75 MB.
    public static let ruleLimits = Limits(count: 8_192, weight: 1_000_000)
    /// Pairs of rules the analysis compared.
    public static let pairLimits = Limits(count: 32_768, weight: 8 << 20)

    private let lock = NSLock()
    private var files: LRUList<AASAMemo.Key, AASAMemo.Value>
    private var rules: LRUList<AASAMemo.Key, AASAMemo.Value>
    private var pairs: LRUList<AASAMemo.Key, AASAMemo.Value>

    public init(files: Limits = fileLimits, rules: Limits = ruleLimits, pairs: Limits = pairLimits) {
        self.files = LRUList(files)
        self.rules = LRUList(rules)
        self.pairs = LRUList(pairs)
    }

    public func value(for key: AASAMemo.Key) -> AASAMemo.Value? {
        withList(for: key) { $0.value(for: key) }
    }

    public func keep(_ value: AASAMemo.Value, for key: AASAMemo.Key) {
        withList(for: key) { $0.keep(value, for: key, weight: value.weight) }
    }

    /// Runs `body` under the lock on the list `key`'s family is kept in (rules and their facts
    /// share one).
    private func withList<R>(for key: AASAMemo.Key, _ body: (inout LRUList<AASAMemo.Key, AASAMemo.Value>) -> R) -> R {
        lock.withLock {
            switch key.family {
            case .file: body(&files)
            case .covers: body(&pairs)
            case .rule, .facts: body(&rules)
            }
        }
    }

    /// What each family holds now: entries and their weight.
    public var holding: (files: Held, rules: Held, pairs: Held) {
        lock.withLock { (Held(count: files.count, weight: files.weight), Held(count: rules.count, weight: rules.weight),
                         Held(count: pairs.count, weight: pairs.weight)) }
    }

    public struct Held: Sendable, Equatable {
        public let count: Int
        public let weight: Int
    }

    /// Look-ups answered from the store, and entries dropped to stay within the limits, since it was made.
    public var counters: (hits: Int, misses: Int, evictions: Int) {
        lock.withLock {
            (files.hits + rules.hits + pairs.hits, files.misses + rules.misses + pairs.misses,
             files.evictions + rules.evictions + pairs.evictions)
        }
    }
}

/// A map that keeps at most `limits.count` entries of at most `limits.weight` in all, dropping
/// the least recently used first (a doubly linked list over an array: every operation O(1)).
/// Not thread-safe: its owner locks.
struct LRUList<Key: Hashable, Value> {
    struct Node {
        var key: Key?
        var value: Value?
        var weight = 0
        var newer = -1
        var older = -1
    }

    let limits: AASACompileCache.Limits
    private var nodes: [Node] = []
    private var unused: [Int] = []
    private var index: [Key: Int] = [:]
    /// Most and least recently used.
    private var newest = -1, oldest = -1
    private(set) var weight = 0
    private(set) var hits = 0, misses = 0, evictions = 0

    init(_ limits: AASACompileCache.Limits) {
        self.limits = limits
    }

    var count: Int { index.count }

    mutating func value(for key: Key) -> Value? {
        guard let i = index[key] else {
            misses += 1
            return nil
        }
        hits += 1
        unlink(i)
        pushNewest(i)
        return nodes[i].value
    }

    /// Keeps `value` as the newest entry; one heavier than the whole limit is not kept.
    mutating func keep(_ value: Value, for key: Key, weight w: Int) {
        if let i = index[key] { remove(i) }
        guard limits.count > 0, w <= limits.weight else { return }
        let node = Node(key: key, value: value, weight: w)
        let i: Int
        if let free = unused.popLast() {
            nodes[free] = node
            i = free
        } else {
            nodes.append(node)
            i = nodes.count - 1
        }
        index[key] = i
        weight += w
        pushNewest(i)
        while index.count > limits.count || weight > limits.weight, oldest >= 0 {
            remove(oldest)
            evictions += 1
        }
    }

    private mutating func remove(_ i: Int) {
        unlink(i)
        index[nodes[i].key!] = nil
        weight -= nodes[i].weight
        nodes[i] = Node()
        unused.append(i)
    }

    private mutating func unlink(_ i: Int) {
        let (newer, older) = (nodes[i].newer, nodes[i].older)
        if newer >= 0 { nodes[newer].older = older } else { newest = older }
        if older >= 0 { nodes[older].newer = newer } else { oldest = newer }
        nodes[i].newer = -1
        nodes[i].older = -1
    }

    private mutating func pushNewest(_ i: Int) {
        nodes[i].older = newest
        nodes[i].newer = -1
        if newest >= 0 { nodes[newest].newer = i }
        newest = i
        if oldest < 0 { oldest = i }
    }
}
