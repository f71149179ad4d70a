import Conformance
import LinkJSON
import Testing

/// The hidden characters are one set: what the reports and the terminal show escaped, what corpus
/// lint refuses in human text, and what JSON output writes as `\u` escapes beyond ASCII (the JSON
/// writer has its own byte-level copy of the set, for speed).
struct HiddenCharactersTests {
    @Test func theJSONWriterEscapesExactlyTheHiddenCharactersBeyondASCII() {
        var disagreements: [String] = []
        for value in UInt32(0x80)...0xFFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }   // surrogates
            let escaped = JSONValue.string(String(Character(scalar))).serialized().contains("\\u")
            if escaped != HiddenCharacters.isHidden(scalar) { disagreements.append(String(value, radix: 16)) }
        }
        #expect(disagreements.isEmpty, "U+\(disagreements.prefix(20).joined(separator: ", U+"))")
    }

    @Test func invisibleSpacesAreHiddenAndJoinersAreNot() {
        for scalar: Unicode.Scalar in ["\u{200B}", "\u{2060}", "\u{FEFF}"] { #expect(HiddenCharacters.isHidden(scalar)) }
        // Emoji sequences and several scripts need these.
        for scalar: Unicode.Scalar in ["\u{200C}", "\u{200D}"] { #expect(!HiddenCharacters.isHidden(scalar)) }
    }
}
