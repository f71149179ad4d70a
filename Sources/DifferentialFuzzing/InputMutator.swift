import Conformance
import LinkJSON
import SeededRandom

/// Makes new inputs of one operation from its corpus inputs: picks a string of the input (a
/// top-level member, or an item of a top-level list of strings) and mutates it as a JSON
/// document when it holds one (an AASA file) or as a link otherwise (links, URLs, patterns,
/// hosts), a few mutations stacked; lists of strings also lose, repeat or swap items. What
/// comes out must still read as the operation's input (``OperationDefinition/prepare``): a
/// mutation of a member the operation reads as an enumeration is tried again.
///
/// Deterministic: the same seeds and the same generator state give the same input.
public struct InputMutator: Sendable {
    public let operation: OperationDefinition
    /// The corpus inputs of the operation, the ones mutated (no repeats, none over ``maxSeedBytes``).
    public let seeds: [JSONValue]
    /// Every string of the seeds, by member name: material for crossover.
    let donors: [String: [[UInt8]]]

    /// Seed inputs larger than this are left out: they slow every mutation down and the corpus
    /// already runs them.
    public static let maxSeedBytes = 16 * 1024
    /// The longest string a mutation may produce (an oversized part stops growing here).
    public static let maxStringBytes = 256 * 1024

    public init(operation: OperationDefinition, seeds: [JSONValue]) {
        self.operation = operation
        var unique: [JSONValue] = []
        var seen = Set<JSONValue>()
        for seed in seeds where seed.objectValue != nil && seed.serialized().utf8.count <= Self.maxSeedBytes {
            if seen.insert(seed).inserted { unique.append(seed) }
        }
        self.seeds = unique
        var donors: [String: [[UInt8]]] = [:]
        for seed in unique {
            for member in seed.objectValue! {
                for s in Self.strings(member.value) { donors[member.key, default: []].append(Array(s.utf8)) }
            }
        }
        self.donors = donors
    }

    static func strings(_ value: JSONValue) -> [String] {
        if let s = value.stringValue { return [s] }
        return value.arrayValue?.compactMap(\.stringValue) ?? []
    }

    /// A new input: a seed with one to four mutations, or nil when no mutation gave an input
    /// the operation reads (or there are no seeds).
    public func next(_ rng: inout SeededGenerator) -> JSONValue? {
        nextPrepared(&rng)?.input
    }

    /// ``next(_:)`` with the input as the operation read it (the check made on the way), so
    /// that the fuzzer does not read it a second time.
    public func nextPrepared(_ rng: inout SeededGenerator) -> (input: JSONValue, prepared: OperationDefinition.PreparedInput)? {
        guard let seed = seeds.randomElement(using: &rng) else { return nil }
        for _ in 0..<8 {
            var input = seed
            for _ in 0..<Int.random(in: 1...4, using: &rng) { input = mutate(input, &rng) }
            if input != seed, let prepared = try? operation.prepare(input) { return (input, prepared) }
        }
        return nil
    }

    /// One mutation of one string (or list) of the input.
    func mutate(_ input: JSONValue, _ rng: inout SeededGenerator) -> JSONValue {
        guard var object = input.objectValue else { return input }
        let slots: [(member: Int, item: Int?)] = object.members.enumerated().flatMap { (i, m) -> [(member: Int, item: Int?)] in
            if m.value.stringValue != nil { return [(i, nil)] }
            guard let items = m.value.arrayValue, items.allSatisfy({ $0.stringValue != nil }) else { return [] }
            return [(i, nil)] + items.indices.map { (i, $0) }
        }
        guard let slot = slots.randomElement(using: &rng) else { return input }
        var members = object.members
        let key = members[slot.member].key
        switch (members[slot.member].value, slot.item) {
        case (.string(let s), _):
            members[slot.member].value = .string(mutateString(s, key: key, &rng))
        case (.array(var items), let index?):
            items[index] = .string(mutateString(items[index].stringValue ?? "", key: key, &rng))
            members[slot.member].value = .array(items)
        case (.array(var items), nil):
            // The list itself: an item dropped, repeated, or two swapped.
            if !items.isEmpty {
                let i = Int.random(in: 0..<items.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: items.remove(at: i)
                case 1: items.insert(items[i], at: Int.random(in: 0...items.count, using: &rng))
                default: items.swapAt(i, Int.random(in: 0..<items.count, using: &rng))
                }
            } else if let donor = donors[key]?.randomElement(using: &rng) {
                items.append(.string(String(decoding: donor, as: UTF8.self)))
            }
            members[slot.member].value = .array(items)
        default:
            return input
        }
        object = JSONObject(members)
        return .object(object)
    }

    func mutateString(_ s: String, key: String, _ rng: inout SeededGenerator) -> String {
        let firstNonSpace = s.utf8.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
        let out: String
        if firstNonSpace == UInt8(ascii: "{") || firstNonSpace == UInt8(ascii: "[") {
            // One donor of the first 16, made a string only once picked.
            let donor = (donors[key] ?? []).prefix(16).randomElement(using: &rng).map { String(decoding: $0, as: UTF8.self) }
            out = JSONTextMutator.mutate(s, donors: donor.map { [$0] } ?? [], rng: &rng)
        } else {
            out = String(decoding: LinkMutator.mutate(Array(s.utf8), donors: donors[key] ?? [], rng: &rng), as: UTF8.self)
        }
        return out.utf8.count <= Self.maxStringBytes ? out : s
    }
}
