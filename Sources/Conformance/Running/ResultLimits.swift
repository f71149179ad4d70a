import LinkJSON

/// How much of what an implementation says is kept: an output up to ``outputBytes`` of JSON
/// text, a result's message up to ``messageBytes``, an implementation's notes up to
/// ``noteBytes`` each and ``maxNotes`` in all. Judging always sees the whole answer; the limits
/// apply to what is stored and reported. The runner cuts a message as it judges; the store cuts
/// an output when it turns the result into a row, which the run session's sink does as soon as
/// the runner hands the result on (the runner holds none back), so results waiting to be written
/// hold at most this much, and measuring an output costs nothing beyond the serialization the
/// store does anyway.
///
/// An output over the limit is stored as an object that says so, with the length and SHA-256 of
/// the output's compact JSON text and its first ``headBytes`` bytes:
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

    /// The compact JSON text of an output as it is stored: `text` itself when it is at most
    /// ``outputBytes`` long, otherwise the text of an object that says it was cut (see the type's
    /// comment).
    public static func kept(serializedOutput text: String) -> String {
        let bytes = text.utf8.count
        guard bytes > outputBytes else { return text }
        let cut: JSONValue = ["$linkconform": "output-cut", "limitBytes": .int(outputBytes), "bytes": .int(bytes),
                              "sha256": .string(SHA256.hex(utf8: text)), "head": .string(prefix(text, bytes: headBytes))]
        return cut.serialized()
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
}
