import LinkJSON

/// Delta debugging (Zeller's ddmin) over an input's parts, keeping whatever a test says must
/// stay (for fuzzing: the disagreement's signature, judged through the adapter).
///
/// Each top-level member of the input is minimised in turn, the heaviest (most text) first: a
/// list of strings over its items, then every string (again the heaviest first) over its parts
/// (the pieces between the delimiters `/ ? # & = ; , : { } [ ]` and `%`: components, query
/// items, escapes, JSON members) and then over its characters. The candidates of one ddmin
/// step are tested together (``parallel`` at a time), lightest first, and the first that keeps
/// the property, in that order, is taken, so the result does not depend on answer timing.
///
/// Two budgets bound the work: candidates (``maxTrials``) and the bytes of text they carry
/// (``maxBytes``), since an implementation's cost per candidate grows with its size. A 64 KiB
/// link that only keeps its signature above the length limit would otherwise send 2,000
/// candidates of 64 KiB each, 128 MB, through the implementation for nothing.
///
/// ```swift
/// let small = await Minimiser(maxTrials: 2_000).minimise(input) { candidates in
///     candidates.map { still fails?($0) }
/// }
/// ```
public struct Minimiser: Sendable {
    /// Candidates tested in all, at most; the input reached when they run out is the result.
    public var maxTrials: Int
    /// Bytes of text (every string of every candidate, UTF-8) tested in all, at most; once spent,
    /// the input reached is the result.
    public var maxBytes: Int
    /// Candidates tested at once.
    public var parallel: Int
    /// Polled before each group of candidates: once true, the input reached so far is the result.
    public var shouldStop: @Sendable () -> Bool = { false }

    public init(maxTrials: Int = 2_000, maxBytes: Int = Int.max, parallel: Int = 32) {
        self.maxTrials = maxTrials
        self.maxBytes = maxBytes
        self.parallel = max(1, parallel)
    }

    /// Whether each candidate still has the property.
    public typealias Test = @Sendable ([JSONValue]) async -> [Bool]

    /// What is left to spend; a class, so that the test wrapper charges bytes while `ddmin`
    /// counts candidates (one minimisation, one task: never shared).
    final class Budget {
        /// Candidates left to test.
        var trials: Int
        let maxBytes: Int
        /// Bytes of text tested so far.
        var spentBytes = 0
        init(trials: Int, maxBytes: Int) {
            self.trials = trials
            self.maxBytes = maxBytes
        }
        var isLeft: Bool { trials > 0 && spentBytes < maxBytes }
    }

    /// The smallest input found that keeps the property, the candidates tested, and the bytes of
    /// text they carried.
    public func minimise(_ input: JSONValue, test check: Test) async -> (input: JSONValue, trials: Int, bytes: Int) {
        guard case .object(let object) = input else { return (input, 0, 0) }
        var members = object.members
        let budget = Budget(trials: maxTrials, maxBytes: maxBytes)
        func test(_ candidates: [JSONValue]) async -> [Bool] {
            budget.spentBytes += candidates.reduce(0) { $0 + Self.textBytes($1) }
            return await check(candidates)
        }
        // The heaviest member first: while a large one is still whole, every candidate of another
        // member carries it too.
        for index in Self.heaviestFirst(members.map(\.value)) {
            func candidate(_ value: JSONValue) -> JSONValue {
                var copy = members
                copy[index].value = value
                return .object(JSONObject(copy))
            }
            if let items = members[index].value.arrayValue, items.allSatisfy({ $0.stringValue != nil }) {
                let kept = await ddmin(items, weight: Self.textBytes, budget: budget) { lists in await test(lists.map { candidate(.array($0)) }) }
                members[index].value = .array(kept)
                for item in Self.heaviestFirst(kept) {
                    let current = members[index].value.arrayValue!
                    let smaller = await minimiseString(current[item].stringValue!, budget: budget) { strings in
                        await test(strings.map { s in
                            var list = current
                            list[item] = .string(s)
                            return candidate(.array(list))
                        })
                    }
                    var list = current
                    list[item] = .string(smaller)
                    members[index].value = .array(list)
                }
            } else if let text = members[index].value.stringValue {
                let smaller = await minimiseString(text, budget: budget) { strings in await test(strings.map { candidate(.string($0)) }) }
                members[index].value = .string(smaller)
            }
        }
        return (.object(JSONObject(members)), maxTrials - budget.trials, budget.spentBytes)
    }

    /// The indices of `values`, the most text first (ties in their order).
    static func heaviestFirst(_ values: [JSONValue]) -> [Int] {
        let weights = values.map(textBytes)
        return values.indices.sorted { weights[$0] > weights[$1] || (weights[$0] == weights[$1] && $0 < $1) }
    }

    /// The UTF-8 bytes of every string in a value, member names included.
    static func textBytes(_ value: JSONValue) -> Int {
        switch value {
        case .string(let s): s.utf8.count
        case .array(let items): items.reduce(0) { $0 + textBytes($1) }
        case .object(let object): object.members.reduce(0) { $0 + $1.key.utf8.count + textBytes($1.value) }
        default: 0
        }
    }

    static let delimiters: Set<Unicode.Scalar> = ["/", "?", "#", "&", "=", ";", ",", ":", "{", "}", "[", "]", "%"]

    /// The text cut before each delimiter: `https://a/b?x=1` is `https`, `:`, `/`, `/a`, `/b`, `?x`, `=1`.
    static func parts(_ text: String) -> [[Unicode.Scalar]] {
        var parts: [[Unicode.Scalar]] = []
        var current: [Unicode.Scalar] = []
        for scalar in text.unicodeScalars {
            if delimiters.contains(scalar), !current.isEmpty {
                parts.append(current)
                current = []
            }
            current.append(scalar)
        }
        if !current.isEmpty { parts.append(current) }
        return parts
    }

    func minimiseString(_ text: String, budget: Budget, test: ([String]) async -> [Bool]) async -> String {
        func string(_ scalars: some Sequence<Unicode.Scalar>) -> String {
            var s = String.UnicodeScalarView()
            s.append(contentsOf: scalars)
            return String(s)
        }
        let parts = await ddmin(Self.parts(text), weight: { $0.reduce(0) { $0 + UTF8.width($1) } }, budget: budget) { lists in await test(lists.map { string($0.joined()) }) }
        let scalars = await ddmin(Array(parts.joined()), weight: { UTF8.width($0) }, budget: budget) { lists in await test(lists.map { string($0) }) }
        return string(scalars)
    }

    /// ddmin: tries each of n chunks alone, then each complement; keeps the first candidate that
    /// has the property and starts again, else doubles n, until chunks are single items. The
    /// empty list is tried at the end. Candidates are built only when their group is tested.
    ///
    /// The candidates of a step go lightest first (by `weight`, the bytes of text an item
    /// carries; ties in ddmin's order), and a group holds no more than the bytes left: a list
    /// whose one large item does not matter loses it at the first light candidate that keeps
    /// the property, before any of the heavy ones is sent.
    func ddmin<T>(_ items: [T], weight: (T) -> Int, budget: Budget, test: ([[T]]) async -> [Bool]) async -> [T] {
        var current = items
        var n = 2
        while current.count >= 2 && budget.isLeft && !shouldStop() {
            let size = (current.count + n - 1) / n
            let chunks = stride(from: 0, to: current.count, by: size).map { $0..<min($0 + size, current.count) }
            let all = current
            // Chunk k alone for k < chunks.count, then (with more than two chunks) everything but chunk k.
            let count = chunks.count > 2 ? chunks.count * 2 : chunks.count
            let candidate = { (k: Int) -> [T] in
                if k < chunks.count { return Array(all[chunks[k]]) }
                let skip = chunks[k - chunks.count]
                return Array(all[..<skip.lowerBound]) + Array(all[skip.upperBound...])
            }
            var prefix = [0]
            prefix.reserveCapacity(all.count + 1)
            for item in all { prefix.append(prefix[prefix.count - 1] + weight(item)) }
            let total = prefix[all.count]
            let weights = (0..<count).map { k in
                let chunk = chunks[k < chunks.count ? k : k - chunks.count]
                let alone = prefix[chunk.upperBound] - prefix[chunk.lowerBound]
                return k < chunks.count ? alone : total - alone
            }
            // Stable: equal weights keep ddmin's order (chunks before complements).
            let order = (0..<count).sorted { weights[$0] < weights[$1] || (weights[$0] == weights[$1] && $0 < $1) }
            guard let found = await firstKept(order: order, weights: weights, candidate, budget: budget, test: test) else {
                if n >= current.count { break }
                n = min(current.count, n * 2)
                continue
            }
            current = candidate(found)
            n = found < chunks.count ? 2 : max(n - 1, 2)
        }
        if !current.isEmpty, budget.isLeft, await firstKept(order: [0], weights: [0], { _ in [] }, budget: budget, test: test) != nil {
            return []
        }
        return current
    }

    /// Tests the candidates in `order`, in groups of at most ``parallel`` that fit the bytes left
    /// (at least one); the index of the first in that order that keeps the property, or nil
    /// (also when the budget runs out or ``shouldStop`` says so).
    func firstKept<T>(order: [Int], weights: [Int], _ candidate: (Int) -> [T], budget: Budget,
                      test: ([[T]]) async -> [Bool]) async -> Int? {
        var start = 0
        while start < order.count && budget.isLeft && !shouldStop() {
            let room = budget.maxBytes - budget.spentBytes, most = min(parallel, budget.trials)
            var end = start + 1, bytes = weights[order[start]]
            while end < order.count && end - start < most && bytes + weights[order[end]] <= room {
                bytes += weights[order[end]]
                end += 1
            }
            let kept = await test(order[start..<end].map(candidate))
            budget.trials -= end - start
            if let i = kept.firstIndex(of: true) { return order[start + i] }
            start = end
        }
        return nil
    }
}
