import LinkJSON

/// Expands the string generators a case input may use (`{"$repeat": "a", "count": 70000}`,
/// `{"$concat": [...]}`), so long inputs need not be written out.
enum StringGenerators {
    /// Largest string a generator may produce.
    static let maxLength = 16 << 20

    struct Failure: Error {
        let pointer: String
        let message: String
    }

    /// The value with every generator replaced by the string it produces.
    static func expand(_ value: JSONValue, at pointer: String = "") throws(Failure) -> JSONValue {
        switch value {
        case .array(let items):
            var out: [JSONValue] = []
            for (i, item) in items.enumerated() { out.append(try expand(item, at: pointer + "/\(i)")) }
            return .array(out)
        case .object(let object):
            if isGenerator(object) { return .string(try string(object, at: pointer)) }
            var out = JSONObject()
            for member in object {
                out.append(member.key, try expand(member.value, at: pointer + "/" + jsonPointerToken(member.key)))
            }
            return .object(out)
        default:
            return value
        }
    }

    static func isGenerator(_ object: JSONObject) -> Bool {
        object.keys.contains { $0.hasPrefix("$") }
    }

    static func string(_ object: JSONObject, at pointer: String) throws(Failure) -> String {
        if let unit = object["$repeat"] {
            guard object.count == 2, let text = unit.stringValue, let count = object["count"]?.intValue, count >= 0 else {
                throw Failure(pointer: pointer, message: "a $repeat generator is {\"$repeat\": \"<text>\", \"count\": <n >= 0>}")
            }
            guard text.utf8.count * count <= maxLength else {
                throw Failure(pointer: pointer, message: "$repeat would produce \(text.utf8.count * count) bytes; the limit is \(maxLength)")
            }
            return String(repeating: text, count: count)
        }
        if let parts = object["$concat"] {
            guard object.count == 1, let items = parts.arrayValue else {
                throw Failure(pointer: pointer, message: "a $concat generator is {\"$concat\": [<strings or generators>]}")
            }
            var out = ""
            for (i, item) in items.enumerated() {
                let child = pointer + "/$concat/\(i)"
                switch item {
                case .string(let s): out += s
                case .object(let o) where isGenerator(o): out += try string(o, at: child)
                default: throw Failure(pointer: child, message: "a $concat part must be a string or a generator")
                }
                guard out.utf8.count <= maxLength else {
                    throw Failure(pointer: pointer, message: "$concat produces more than \(maxLength) bytes")
                }
            }
            return out
        }
        throw Failure(pointer: pointer, message: "unknown generator; use $repeat or $concat")
    }
}
