import SeededRandom
import LinkURL
import Testing

/// Percent-decoding per octet (RFC 3986 section 2.1) and the form-style `+` reading.
struct PercentDecodingTests {
    @Test func escapesDecodeToTheirOctets() {
        #expect(PercentCodec.decode(Array("%41%2f%2F".utf8)) == Array("A//".utf8))
    }

    @Test func multiByteUTF8IsDecodedOctetByOctet() {
        #expect(PercentCodec.decode(Array("%C3%A9".utf8)) == [0xC3, 0xA9])
        #expect(PercentCodec.decodeString("%C3%A9") == "é")
        #expect(PercentCodec.decodeString("%F0%9F%98%80") == "😀")
        #expect(PercentCodec.decodeString("%e2%82%ac") == "€")
    }

    @Test func escapesMixWithRawText() {
        #expect(PercentCodec.decodeString("https%3A%2F%2Fa.example%2Fs") == "https://a.example/s")
    }

    @Test(arguments: [
        ("%", "%"), ("%4", "%4"), ("%zz", "%zz"), ("%4g", "%4g"), ("%g4", "%g4"), ("100%", "100%"),
        ("%%41", "%A"), ("%41%", "A%"), ("%41%4", "A%4"), ("a%", "a%"), ("% 20", "% 20"),
    ])
    func invalidEscapeIsKeptLiterally(encoded: String, decoded: String) {
        #expect(PercentCodec.decodeString(encoded) == decoded)
        #expect(PercentCodec.decode(Array(encoded.utf8)) == Array(decoded.utf8))
    }

    @Test func plusIsDataNotSpace() {
        #expect(PercentCodec.decodeString("a+b") == "a+b")
    }

    @Test func plusIsASpaceOnlyWhenAsked() {
        #expect(PercentCodec.decodeString("a+b", plusAsSpace: true) == "a b")
        #expect(PercentCodec.decode(Array("++".utf8), plusAsSpace: true) == [0x20, 0x20])
    }

    @Test func escapedPlusStaysPlusEvenInFormReading() {
        #expect(PercentCodec.decodeString("a%2Bb", plusAsSpace: true) == "a+b")
    }

    @Test func decodesSlicesWithNonZeroStartIndex() {
        let bytes = Array("xx%41%42yy".utf8)
        #expect(PercentCodec.decode(bytes[2..<8]) == Array("AB".utf8))
        #expect(PercentCodec.decodeString(bytes[2..<7]) == "A%4")
    }

    @Test(arguments: [
        "%FF",            // never valid in UTF-8
        "%C3",            // lead byte without its continuation
        "a%C3b",          // lead byte followed by ASCII
        "%80",            // lone continuation byte
        "%C0%AF",         // overlong encoding of '/'
        "%E0%80%AF",      // overlong three-byte '/'
        "%ED%A0%80",      // UTF-16 surrogate U+D800
        "%F4%90%80%80",   // above U+10FFFF
        "%E2%82",         // truncated three-byte sequence
    ])
    func decodeStringIsNilForInvalidUTF8(encoded: String) {
        #expect(PercentCodec.decodeString(encoded) == nil)
    }

    @Test func decodeStillReturnsTheOctetsOfInvalidUTF8() {
        #expect(PercentCodec.decode(Array("%FF%C0%AF".utf8)) == [0xFF, 0xC0, 0xAF])
    }

    @Test func containsEscapeFindsOnlyValidEscapes() {
        #expect(PercentCodec.containsEscape(Array("a%41".utf8)))
        #expect(PercentCodec.containsEscape(Array("%%41".utf8)))
        #expect(!PercentCodec.containsEscape(Array("a%4".utf8)))
        #expect(!PercentCodec.containsEscape(Array("a%zz%".utf8)))
        #expect(!PercentCodec.containsEscape([UInt8]()))
    }

    @Test func invalidEscapeOffsetsListsEveryBadPercent() {
        #expect(PercentCodec.invalidEscapeOffsets(Array("%%41%4".utf8)) == [0, 4])
        #expect(PercentCodec.invalidEscapeOffsets(Array("%41%42".utf8)) == [])
        #expect(PercentCodec.invalidEscapeOffsets(Array("a%".utf8)) == [1])
    }

    @Test func invalidEscapeOffsetsUseTheSliceIndices() {
        let bytes = Array("xx%zz".utf8)
        #expect(PercentCodec.invalidEscapeOffsets(bytes[2...]) == [2])
    }

    @Test func utf8StringIsNilExactlyForInvalidUTF8() {
        #expect(PercentCodec.utf8String([0x61, 0xC3, 0xA9]) == "aé")
        #expect(PercentCodec.utf8String([0x61, 0xC3]) == nil)
    }
}

/// `encodeComponent`: everything but the unreserved characters (section 2.3) as `%XX`.
struct PercentEncodingTests {
    @Test func delimitersAreEscaped() {
        #expect(PercentCodec.encodeComponent("https://a.example/?x=1&y=2")
            == "https%3A%2F%2Fa.example%2F%3Fx%3D1%26y%3D2")
    }

    @Test func unreservedCharactersAreKept() {
        let unreserved = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
        #expect(PercentCodec.encodeComponent(unreserved) == unreserved)
    }

    @Test func spacePlusAndPercentAreEscaped() {
        #expect(PercentCodec.encodeComponent("a b+c%") == "a%20b%2Bc%25")
        // Bytes that are not one buffer (a lazy sequence), and none at all.
        #expect(PercentCodec.encodeComponent("a b+c%".utf8.lazy.map { $0 }) == "a%20b%2Bc%25")
        #expect(PercentCodec.encodeComponent([UInt8]()) == "")
        #expect(PercentCodec.encodeComponent([0x00, 0xFF, 0x7E]) == "%00%FF~")
    }

    @Test func subDelimsAndGenDelimsAreAllEscaped() {
        #expect(PercentCodec.encodeComponent(":/?#[]@!$&'()*+,;=")
            == "%3A%2F%3F%23%5B%5D%40%21%24%26%27%28%29%2A%2B%2C%3B%3D")
    }

    @Test func nonASCIIIsEscapedPerUTF8Octet() {
        #expect(PercentCodec.encodeComponent("é") == "%C3%A9")
        #expect(PercentCodec.encodeComponent("😀") == "%F0%9F%98%80")
    }

    @Test func arbitraryBytesAreEscapedWithUpperCaseHex() {
        #expect(PercentCodec.encodeComponent([0x00, 0x0A, 0x7F, 0xAB, 0xFF]) == "%00%0A%7F%AB%FF")
    }

    @Test func decodingAnEncodedComponentGivesBackTheBytes() {
        var rng = SeededGenerator(seed: 213_986)
        for _ in 0..<3_000 {
            let bytes = rng.anyBytes(maxLength: 48)
            let encoded = Array(PercentCodec.encodeComponent(bytes).utf8)
            #expect(PercentCodec.decode(encoded) == bytes, "bytes \(bytes)")
            // Every '+' was escaped, so the form-style reading agrees.
            #expect(PercentCodec.decode(encoded, plusAsSpace: true) == bytes, "bytes \(bytes)")
        }
    }

    @Test func encodedOutputHoldsOnlyUnreservedCharactersAndUpperCaseEscapes() {
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
        let upperHex = Set("0123456789ABCDEF".utf8)
        var rng = SeededGenerator(seed: 7)
        for _ in 0..<3_000 {
            let bytes = rng.anyBytes(maxLength: 48)
            let encoded = Array(PercentCodec.encodeComponent(bytes).utf8)
            var k = 0
            var sourceIndex = 0
            while k < encoded.count {
                if encoded[k] == UInt8(ascii: "%") {
                    #expect(k + 2 < encoded.count && upperHex.contains(encoded[k + 1]) && upperHex.contains(encoded[k + 2]),
                            "bytes \(bytes)")
                    // Only bytes that are not unreserved get escaped.
                    #expect(!unreserved.contains(bytes[sourceIndex]), "bytes \(bytes)")
                    k += 3
                } else {
                    #expect(unreserved.contains(encoded[k]), "bytes \(bytes)")
                    k += 1
                }
                sourceIndex += 1
            }
            #expect(sourceIndex == bytes.count)
        }
    }

    @Test func encodedOutputParsesAsAQueryValueWithoutDiagnostics() {
        var rng = SeededGenerator(seed: 99)
        for _ in 0..<500 {
            let bytes = rng.anyBytes(maxLength: 32)
            let url = LinkURL(parsing: "https://a/?v=" + PercentCodec.encodeComponent(bytes))
            #expect(url.diagnostics.isEmpty)
            #expect(url.queryItems.count == 1)
            #expect(url.queryItems.first.flatMap(\.value).map { PercentCodec.decode(url.bytes[$0]) } == bytes)
        }
    }
}
