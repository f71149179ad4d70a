/// The characters no human output shows raw (the list is in the Reports module's `Escaping`,
/// which writes them as visible escapes): defined here, below Reports, so that the corpus linter
/// can refuse them in corpus text and a promoted finding can write them visibly.
public enum HiddenCharacters {
    /// C0 controls, DEL, C1 controls, the bidirectional controls, the line and paragraph
    /// separators, the noncharacters U+FFFE and U+FFFF, and the invisible spaces that join or
    /// split a name without showing (zero-width space U+200B, word joiner U+2060, zero-width
    /// no-break space / byte order mark U+FEFF). The zero-width joiner and non-joiner are not:
    /// emoji sequences and several scripts need them.
    public static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        case 0x2028, 0x2029, 0xFFFE, 0xFFFF: true
        case 0x200B, 0x2060, 0xFEFF: true
        default: false
        }
    }

    /// The visible escape of a hidden character: `\n`, `\r`, `\t`, `\x1b`, `\u{202E}`.
    public static func visible(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        default:
            let hex = String(scalar.value, radix: 16)
            if scalar.value < 0x80 { return "\\x" + (hex.count < 2 ? "0" : "") + hex }
            return "\\u{" + hex.uppercased() + "}"
        }
    }

    /// The text with every hidden character written as its visible escape.
    public static func visibleText(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isHidden) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if isHidden(scalar) { out += visible(scalar) } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }
}
