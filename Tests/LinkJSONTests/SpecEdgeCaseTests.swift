import LinkJSON
import Testing

/// Edge cases where an earlier version disagreed with RFC 8259 / RFC 6901 or with Swift's
/// `Equatable` contract (found by these tests, fixed in the module).
struct SpecEdgeCaseTests {
    /// RFC 6901 section 3: every '~' of a reference token is written "~0" and every '/' "~1".
    /// `jsonPointerToken` works on `Character`s (grapheme clusters), so a '/' or '~' followed by a
    /// combining mark is one Character, is not matched, and stays raw: the pointer then has a raw
    /// '/' that splits the token in two (or a '~' not followed by 0 or 1, which is not a valid pointer).
    @Test func pointerTokenEscapesSlashAndTildeBeforeCombiningMarks() {
        #expect(jsonPointerToken("a/\u{301}b") == "a~1\u{301}b")
        #expect(jsonPointerToken("a~\u{301}b") == "a~0\u{301}b")
    }

    @Test func locationOfAKeyWithASlashBeforeACombiningMark() throws {
        let doc = try JSONDocument(parsing: Array("{\"a/\u{301}\": 1}".utf8))
        #expect(doc.locations.location(of: "/a~1\u{301}") != nil)
    }

    /// RFC 8259 section 8.3: names compared code unit by code unit are what implementations agree
    /// on. "\u00e9" (é, one scalar) and "e\u0301" (e + combining acute) are different names, but the
    /// duplicate check uses Swift `String` equality (canonical equivalence) and rejects the text.
    @Test func canonicallyEquivalentButDifferentNamesAreNotDuplicates() throws {
        let value = try JSONParser.parse(#"{"\u00e9": 1, "e\u0301": 2}"#)
        #expect(value.objectValue?.count == 2)
    }

    /// `JSONObject.==` only looks up the left side's keys in the right side, so with a repeated key
    /// (which `append` allows) equality is not symmetric, and equal objects hash differently.
    @Test func objectEqualityIsSymmetricWithRepeatedKeys() {
        var repeated = JSONObject()
        repeated.append("a", 1)
        repeated.append("a", 1)
        let distinct = JSONObject([.init(key: "a", value: 1), .init(key: "b", value: 2)])
        #expect((repeated == distinct) == (distinct == repeated))
        if repeated == distinct { #expect(repeated.hashValue == distinct.hashValue) }
    }
}
