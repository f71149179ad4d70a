import LinkJSON
import SeededRandom

/// Mutations of a JSON document's structure (an AASA file, say): members dropped, repeated,
/// renamed or retyped, items duplicated or swapped, values wrapped or nested deeper, strings
/// mutated as links (paths, patterns, URLs), and text-level breakage (a trailing comma, a
/// byte order mark, a cut). A text that does not parse gets the text-level mutations only.
///
/// ```swift
/// var rng = SeededGenerator(seed: 1)
/// JSONTextMutator.mutate(#"{"applinks":{"details":[]}}"#, .retype, donors: [], rng: &rng)
/// ```
public enum JSONMutation: String, CaseIterable, Sendable {
    case dropMember, duplicateMember, renameMember, addMember, retype, wrapInArray, duplicateItem, swapItems, dropItem
    case mutateString, deepen, textBreak
}

extension JSONMutation {
    /// Whether the mutation may take material (nodes, keys, strings) from other inputs.
    var readsDonors: Bool {
        [.duplicateMember, .addMember, .duplicateItem, .mutateString].contains(self)
    }
}

public enum JSONTextMutator {
    /// Values a retyped node becomes.
    static let replacements: [JSONValue] = [.null, true, false, 0, -1, 1e300, "", "*", "?", [], [:], ["*"], ["/": "*"]]
    /// Strings an AASA pattern or path is worth trying as.
    static let patterns = ["*", "?", "/*", "*/*", "", "/", "\\*", "$(lang)", "$(region)", "$(lang)_$(region)", "%2F*", "NOT /*", "*?*", "#", "?*"]

    public static func mutate(_ text: String, _ mutation: JSONMutation, donors: [String], rng: inout SeededGenerator) -> String {
        let options = JSONParser.Options(maxDepth: 512, allowDuplicateKeys: true)
        guard mutation != .textBreak, let value = try? JSONParser.parse(text, options: options) else {
            return textBreak(text, rng: &rng)
        }
        // The donors are read only by the mutations that take material from them.
        let donorValues = mutation.readsDonors ? donors.compactMap { try? JSONParser.parse($0, options: options) } : []
        var mutated = value
        let path = randomPath(value, rng: &rng)
        edit(&mutated, at: path[...]) { node in
            node = apply(mutation, to: node, root: value, donors: donorValues, rng: &rng)
        }
        let pretty = Int.random(in: 0..<4, using: &rng) == 0
        let out = mutated.serialized(pretty: pretty)
        return out == text ? textBreak(text, rng: &rng) : out
    }

    public static func mutate(_ text: String, donors: [String], rng: inout SeededGenerator) -> String {
        mutate(text, JSONMutation.allCases.randomElement(using: &rng)!, donors: donors, rng: &rng)
    }

    /// A step down a JSON tree: a member's position in its object, or an item's index.
    enum Step: Equatable { case member(Int), item(Int) }

    /// How many nodes the value has: itself, and every node inside it.
    static func nodeCount(_ value: JSONValue) -> Int {
        var count = 1
        switch value {
        case .object(let o): for member in o.members { count += nodeCount(member.value) }
        case .array(let a): for item in a { count += nodeCount(item) }
        default: break
        }
        return count
    }

    /// The path of the `k`th node, counted in pre-order (a node, then its members or items in
    /// order, each with everything inside it): one walk that stops there, and no path made for
    /// the nodes passed on the way.
    static func path(_ k: Int, in value: JSONValue) -> [Step] {
        var remaining = k
        var path: [Step] = []
        /// Whether the node is `node` or inside it (then `path` leads to it).
        func visit(_ node: JSONValue) -> Bool {
            if remaining == 0 { return true }
            remaining -= 1
            switch node {
            case .object(let o):
                for (i, member) in o.members.enumerated() {
                    path.append(.member(i))
                    if visit(member.value) { return true }
                    path.removeLast()
                }
            case .array(let a):
                for (i, item) in a.enumerated() {
                    path.append(.item(i))
                    if visit(item) { return true }
                    path.removeLast()
                }
            default: break
            }
            return false
        }
        _ = visit(value)
        return path
    }

    /// A node picked at random, every node as likely: one draw of the generator, then the walk
    /// to it (no path is made for the nodes not picked).
    static func randomPath(_ value: JSONValue, rng: inout SeededGenerator) -> [Step] {
        path(Int.random(in: 0..<nodeCount(value), using: &rng), in: value)
    }

    static func node(_ value: JSONValue, at path: ArraySlice<Step>) -> JSONValue {
        switch (path.first, value) {
        case (.member(let i)?, .object(let o)): node(o[i].value, at: path.dropFirst())
        case (.item(let i)?, .array(let a)): node(a[i], at: path.dropFirst())
        default: value
        }
    }

    static func edit(_ value: inout JSONValue, at path: ArraySlice<Step>, _ change: (inout JSONValue) -> Void) {
        guard let step = path.first else { return change(&value) }
        switch (step, value) {
        case (.member(let i), .object(let o)):
            var members = o.members
            edit(&members[i].value, at: path.dropFirst(), change)
            value = .object(JSONObject(members))
        case (.item(let i), .array(var a)):
            edit(&a[i], at: path.dropFirst(), change)
            value = .array(a)
        default: change(&value)
        }
    }

    static func apply(_ mutation: JSONMutation, to node: JSONValue, root: JSONValue, donors: [JSONValue], rng: inout SeededGenerator) -> JSONValue {
        // Any node of the document or of another input: material for added members and items.
        func material() -> JSONValue {
            let source = ([root] + donors).randomElement(using: &rng)!
            return Self.node(source, at: randomPath(source, rng: &rng)[...])
        }
        switch (mutation, node) {
        case (.dropMember, .object(let o)) where !o.isEmpty:
            var members = o.members
            members.remove(at: Int.random(in: 0..<members.count, using: &rng))
            return .object(JSONObject(members))
        case (.duplicateMember, .object(let o)) where !o.isEmpty:
            var members = o.members
            let i = Int.random(in: 0..<members.count, using: &rng)
            var copy = members[i]
            if Bool.random(using: &rng) { copy.value = material() }
            members.insert(copy, at: Int.random(in: 0...members.count, using: &rng))
            return .object(JSONObject(members))
        case (.renameMember, .object(let o)) where !o.isEmpty:
            var members = o.members
            let i = Int.random(in: 0..<members.count, using: &rng)
            var key = Array(members[i].key.utf8)
            key = LinkMutator.mutate(key, [.caseChange, .deleteSpan, .unicode, .insertDelimiter].randomElement(using: &rng)!, donors: [], rng: &rng)
            members[i].key = String(decoding: key, as: UTF8.self)
            return .object(JSONObject(members))
        case (.addMember, .object(let o)):
            var members = o.members
            let keys = keysOf(root) + donors.flatMap(keysOf)
            let key = keys.randomElement(using: &rng) ?? "extra"
            members.insert(.init(key: key, value: material()), at: Int.random(in: 0...members.count, using: &rng))
            return .object(JSONObject(members))
        case (.duplicateItem, .array(var a)) where !a.isEmpty:
            let i = Int.random(in: 0..<a.count, using: &rng)
            a.insert(Bool.random(using: &rng) ? a[i] : material(), at: Int.random(in: 0...a.count, using: &rng))
            return .array(a)
        case (.swapItems, .array(var a)) where a.count >= 2:
            a.swapAt(Int.random(in: 0..<a.count, using: &rng), Int.random(in: 0..<a.count, using: &rng))
            if a == node.arrayValue { a.reverse() }
            return .array(a)
        case (.dropItem, .array(var a)) where !a.isEmpty:
            a.remove(at: Int.random(in: 0..<a.count, using: &rng))
            return .array(a)
        case (.mutateString, .string(let s)):
            if Bool.random(using: &rng) { return .string(patterns.randomElement(using: &rng)!) }
            let donorStrings = donors.flatMap(stringsOf).map { Array($0.utf8) }
            return .string(String(decoding: LinkMutator.mutate(Array(s.utf8), donors: donorStrings, rng: &rng), as: UTF8.self))
        case (.wrapInArray, _):
            return .array([node])
        case (.deepen, _):
            var deep = node
            for _ in 0..<Int.random(in: 2...300, using: &rng) { deep = Bool.random(using: &rng) ? .array([deep]) : ["x": deep] }
            return deep
        case (.retype, _):
            return replacements.randomElement(using: &rng)!
        default:
            // Nothing of that kind here: change the node's type instead.
            return node == .null ? "*" : replacements.filter { $0 != node }.randomElement(using: &rng)!
        }
    }

    static func keysOf(_ value: JSONValue) -> [String] {
        switch value {
        case .object(let o): o.members.flatMap { [$0.key] + keysOf($0.value) }
        case .array(let a): a.flatMap(keysOf)
        default: []
        }
    }

    static func stringsOf(_ value: JSONValue) -> [String] {
        switch value {
        case .string(let s): [s]
        case .object(let o): o.members.flatMap { stringsOf($0.value) }
        case .array(let a): a.flatMap(stringsOf)
        default: []
        }
    }

    /// Breakage JSON parsers disagree on or should refuse: a trailing comma, a comment, a byte
    /// order mark, a cut, single quotes, a lone surrogate escape, a raw control.
    static func textBreak(_ text: String, rng: inout SeededGenerator) -> String {
        var bytes = Array(text.utf8)
        switch Int.random(in: 0..<8, using: &rng) {
        case 0:
            if let close = bytes.lastIndex(where: { $0 == UInt8(ascii: "}") || $0 == UInt8(ascii: "]") }) { bytes.insert(UInt8(ascii: ","), at: close) }
        case 1: bytes = Array("\u{FEFF}".utf8) + bytes
        case 2: bytes = Array("// comment\n".utf8) + bytes
        case 3: if !bytes.isEmpty { bytes = Array(bytes[..<LinkMutator.boundary(bytes, atOrBefore: Int.random(in: 0..<bytes.count, using: &rng))]) }
        case 4: bytes = bytes.map { $0 == UInt8(ascii: "\"") && Int.random(in: 0..<4, using: &rng) == 0 ? UInt8(ascii: "'") : $0 }
        case 5: bytes = LinkMutator.insert(Array("\"\\ud800\"".utf8), into: bytes, rng: &rng)
        case 6: bytes = LinkMutator.insert([0x01], into: bytes, rng: &rng)
        default: bytes = LinkMutator.mutate(bytes, donors: [], rng: &rng)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
