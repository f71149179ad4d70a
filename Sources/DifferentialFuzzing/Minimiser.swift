import LinkJSON

/// Delta debugging (Zeller's ddmin) over an input's parts, keeping whatever a test says must
/// stay (for fuzzing: the disagreement's signature, judged through the adapter).
///
/// Each top-level member of the input is minimised in turn: a list of strings over its items,
/// then every string over its parts (the pieces between the delimiters `/ ? # & = ; , : { } [ ]`
/// and `%`: components, query items, escapes, JSON members) and then over its characters. The
/// candidates of one ddmin step are tested together (``parallel`` at a time), and the first that
/// keeps the property, in order, is taken, so the result does not depend on answer timing.
///
/// ```swift
/// let small = await Minimiser(maxTrials: 2_000).minimise(input) { candidates in
///     candidates.map { still fails?($0) }
/// }
/// ```
public struct Minimiser: Sendable {
    /// Candidates tested in all, at most; the input reached when they run out is the result.
    public var maxTrials: Int
    /// Candidates tested at once.
    public var parallel: Int
    /// Polled before each group of candidates: once true, the input reached so far is the result.
    public var shouldStop: @Sendable () -> Bool = { false }

    public init(maxTrials: Int = 2_000, parallel: Int = 32) {
        self.maxTrials = maxTrials
        self.parallel = max(1, parallel)
    }

    /// Whether each candidate still has the property.
    public typealias Test = @Sendable ([JSONValue]) async -> [Bool]

    /// The smallest input found that keeps the property, and the candidates tested.
    public func minimise(_ input: JSONValue, test: Test) async -> (input: JSONValue, trials: Int) {
        guard case .object(let object) = input else { return (input, 0) }
        var members = object.members
        var budget = maxTrials
        for index in members.indices {
            func candidate(_ value: JSONValue) -> JSONValue {
                var copy = members
                copy[index].value = value
                return .object(JSONObject(copy))
            }
            if let items = members[index].value.arrayValue, items.allSatisfy({ $0.stringValue != nil }) {
                let kept = await ddmin(items, budget: &budget) { lists in await test(lists.map { candidate(.array($0)) }) }
                members[index].value = .array(kept)
                for item in kept.indices {
                    let current = members[index].value.arrayValue!
                    let smaller = await minimiseString(current[item].stringValue!, budget: &budget) { strings in
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
                let smaller = await minimiseString(text, budget: &budget) { strings in await test(strings.map { candidate(.string($0)) }) }
                members[index].value = .string(smaller)
            }
        }
        return (.object(JSONObject(members)), maxTrials - budget)
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

    func minimiseString(_ text: String, budget: inout Int, test: ([String]) async -> [Bool]) async -> String {
        func string(_ scalars: some Sequence<Unicode.Scalar>) -> String {
            var s = String.UnicodeScalarView()
            s.append(contentsOf: scalars)
            return String(s)
        }
        let parts = await ddmin(Self.parts(text), budget: &budget) { lists in await test(lists.map { string($0.joined()) }) }
        let scalars = await ddmin(Array(parts.joined()), budget: &budget) { lists in await test(lists.map { string($0) }) }
        return string(scalars)
    }

    /// ddmin: tries each of n chunks alone, then each complement; keeps the first candidate that
    /// has the property and starts again, else doubles n, until chunks are single items. The
    /// empty list is tried at the end. Candidates are built only when their group is tested.
    func ddmin<T>(_ items: [T], budget: inout Int, test: ([[T]]) async -> [Bool]) async -> [T] {
        var current = items
        var n = 2
        while current.count >= 2 && budget > 0 && !shouldStop() {
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
            guard let found = await firstKept(count: count, candidate, budget: &budget, test: test) else {
                if n >= current.count { break }
                n = min(current.count, n * 2)
                continue
            }
            current = candidate(found)
            n = found < chunks.count ? 2 : max(n - 1, 2)
        }
        if !current.isEmpty, budget > 0, await firstKept(count: 1, { _ in [] }, budget: &budget, test: test) != nil { return [] }
        return current
    }

    /// Tests the candidates in groups of ``parallel``; the index of the first that keeps the
    /// property, or nil (also when the budget runs out or ``shouldStop`` says so).
    func firstKept<T>(count: Int, _ candidate: (Int) -> [T], budget: inout Int, test: ([[T]]) async -> [Bool]) async -> Int? {
        var start = 0
        while start < count && budget > 0 && !shouldStop() {
            let end = min(count, start + min(parallel, budget))
            let kept = await test((start..<end).map(candidate))
            budget -= end - start
            if let i = kept.firstIndex(of: true) { return start + i }
            start = end
        }
        return nil
    }
}
