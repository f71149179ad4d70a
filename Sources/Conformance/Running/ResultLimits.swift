import LinkJSON

/// How much of what an implementation says a result keeps: its output up to ``outputBytes`` of
/// JSON text, its message up to ``messageBytes``, an implementation's notes up to
/// ``noteBytes`` each and ``maxNotes`` in all. Judging always sees the whole answer; the limits
/// apply to what is kept, stored and reported, and the runner applies them as soon as a case is
/// judged, so results waiting to be written never hold more than this.
///
/// An output over the limit is kept as an object that says so, with the length and SHA-256 of
/// the output's compact JSON text (the same text the store would have written) and its first
/// ``headBytes`` bytes:
///
/// ```json
/// {"$linkconform": "output-cut", "limitBytes": 262144, "bytes": 1000043,
///  "sha256": "9f2c...", "head": "{\"echo\":\"ulc/a\",\"text\":\"ulc/a aaaa..."}
/// ```
public enum ResultLimits {
    /// The most of one output a result keeps: 256 KiB of compact JSON text. The largest output
    /// the reference gives for today's corpus is 172 KB (`xignqr/pid-protobuf/fields-4096`, every
    /// protocol-buffers field listed), so no faithful answer is cut, while an adapter that answers
    /// with megabytes (its line limit is 1 MiB by default) costs a quarter of that per result
    /// waiting to be written and in the database.
    public static let outputBytes = 262_144
    /// How much of a cut output's JSON text is kept to show what it was.
    public static let headBytes = 1_024
    /// The most of a result's message kept (mismatches quote the values they compare, and a skip
    /// reason or error message comes from the implementation): a screenful.
    public static let messageBytes = 8_192
    /// The most of one note on an implementation kept (its restarts and what it said then).
    public static let noteBytes = 8_192
    /// How many notes on an implementation are kept; the last one kept says how many were left out.
    public static let maxNotes = 100

    /// `output` as a result keeps it: itself when its compact JSON text is at most
    /// ``outputBytes`` long, otherwise an object that says it was cut (see the type's comment).
    public static func kept(_ output: JSONValue) -> JSONValue {
        // Most outputs are far below the limit: a bound on their text, found without writing it,
        // settles them; only an output that might be over is serialized to measure it.
        var budget = outputBytes
        guard !exceedsBound(output, &budget) else { return kept(output, text: output.serialized()) }
        return output
    }

    /// `output` as a result keeps it, given its compact JSON text.
    static func kept(_ output: JSONValue, text: String) -> JSONValue {
        let bytes = text.utf8.count
        guard bytes > outputBytes else { return output }
        return ["$linkconform": "output-cut", "limitBytes": .int(outputBytes), "bytes": .int(bytes),
                "sha256": .string(SHA256.hex(utf8: text)), "head": .string(prefix(text, bytes: headBytes))]
    }

    /// `message` cut to at most ``messageBytes`` bytes, saying so when it is.
    public static func kept(message: String) -> String {
        cut(message, toBytes: messageBytes)
    }

    /// `notes` cut to ``maxNotes`` notes of at most ``noteBytes`` bytes each.
    public static func kept(notes: [String]) -> [String] {
        var kept = notes.prefix(maxNotes).map { cut($0, toBytes: noteBytes) }
        if notes.count > maxNotes {
            kept[maxNotes - 1] = "\(notes.count - maxNotes + 1) more notes left out (at most \(maxNotes) are kept)"
        }
        return kept
    }

    /// `text` when it has at most `limit` UTF-8 bytes; otherwise its beginning and a note of the
    /// length it had, `limit` bytes in all at most.
    public static func cut(_ text: String, toBytes limit: Int) -> String {
        let bytes = text.utf8.count
        guard bytes > limit else { return text }
        let note = " [cut: \(bytes) bytes in all]"
        return prefix(text, bytes: max(0, limit - note.utf8.count)) + note
    }

    /// The longest beginning of `text` of at most `bytes` UTF-8 bytes that ends between two
    /// Unicode scalars.
    static func prefix(_ text: String, bytes: Int) -> String {
        let utf8 = text.utf8
        guard bytes < utf8.count else { return text }
        var end = utf8.index(utf8.startIndex, offsetBy: bytes)
        while end > utf8.startIndex, end.samePosition(in: text.unicodeScalars) == nil { end = utf8.index(before: end) }
        return String(text.unicodeScalars[..<end])
    }

    /// Takes from `budget` an upper bound of the bytes `value`'s compact JSON text takes, and
    /// says whether the budget ran out (then it stops counting). A string byte is written as at
    /// most 6 (`\u00XX`), a number in at most 32.
    static func exceedsBound(_ value: JSONValue, _ budget: inout Int) -> Bool {
        switch value {
        case .null, .bool: budget -= 5
        case .number: budget -= 32
        case .string(let s): budget -= 2 + 6 * s.utf8.count
        case .array(let elements):
            budget -= 2 + elements.count
            for element in elements where budget >= 0 {
                if exceedsBound(element, &budget) { return true }
            }
        case .object(let object):
            budget -= 2 + object.count
            for member in object.members where budget >= 0 {
                budget -= 3 + 6 * member.key.utf8.count
                if exceedsBound(member.value, &budget) { return true }
            }
        }
        return budget < 0
    }
}
