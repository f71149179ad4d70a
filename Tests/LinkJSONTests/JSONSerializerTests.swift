import SeededRandom
import LinkJSON
import Testing

/// The text the serializer writes.
struct JSONSerializerTests {
    /// Characters JSON allows raw but no file or terminal should carry raw (C1 controls, bidi
    /// controls, line separators, U+FFFE/F) are written as `\u` escapes: the value read back is
    /// the same. Their neighbours in UTF-8 (same first byte) stay as they are.
    @Test func hiddenCharactersAreWrittenAsEscapes() throws {
        let hidden: [Unicode.Scalar] = ["\u{7F}", "\u{80}", "\u{9B}", "\u{9F}", "\u{61C}", "\u{200E}", "\u{200F}", "\u{2028}",
                                        "\u{2029}", "\u{202A}", "\u{202E}", "\u{2066}", "\u{2069}", "\u{FFFE}", "\u{FFFF}",
                                        "\u{200B}", "\u{2060}", "\u{FEFF}"]
        for scalar in hidden {
            let text = "a" + String(Character(scalar)) + "b"
            let json = JSONValue.string(text).serialized()
            let hex = String(scalar.value, radix: 16)
            #expect(json == "\"a\\u" + String(repeating: "0", count: 4 - hex.count) + hex + "b\"", "\(json)")
            #expect(try JSONParser.parse(json) == .string(text))
        }
        let kept = "° é ؛ — ’ € \u{2030} \u{206A} \u{FFFD} \u{FEFE} \u{200C} \u{200D} ✓ 🏳️‍🌈 \u{C2}\u{A0}"
        let json = JSONValue.string(kept + String(repeating: " plain ascii text", count: 3)).serialized()
        #expect(json.contains(kept) && !json.contains("\\u"), "\(json)")
        // Inside long runs, found by the eight-byte scan too.
        let long = String(repeating: "x", count: 13) + "\u{202E}" + String(repeating: "y", count: 13) + "\u{85}"
        #expect(JSONValue.string(long).serialized() == "\"" + String(repeating: "x", count: 13) + "\\u202e" + String(repeating: "y", count: 13) + "\\u0085\"")
    }

    @Test func compactOutputHasNoWhitespace() {
        let value: JSONValue = ["seq": 7, "output": ["kind": "ulc", "list": [1, true, nil]]]
        #expect(value.serialized() == #"{"seq":7,"output":{"kind":"ulc","list":[1,true,null]}}"#)
    }

    @Test func membersKeepTheirOrder() {
        let value: JSONValue = ["b": 1, "a": 2, "c": 3]
        #expect(value.serialized() == #"{"b":1,"a":2,"c":3}"#)
    }

    @Test func sortKeysOrdersMembersAtEveryLevel() {
        let value: JSONValue = ["b": ["z": 1, "y": 2], "a": [["d": 1, "c": 2]]]
        #expect(value.serialized(sortKeys: true) == #"{"a":[{"c":2,"d":1}],"b":{"y":2,"z":1}}"#)
    }

    @Test func prettyOutputPutsEachElementOnItsOwnIndentedLine() {
        let value: JSONValue = ["a": [1, 2], "b": [:], "c": []]
        let lines = value.serialized(pretty: true).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines == ["{", #"  "a": ["#, "    1,", "    2", "  ],", #"  "b": {},"#, #"  "c": []"#, "}"])
    }

    /// Integral numbers are written digit by digit in place: every magnitude up to the bound
    /// where the fraction-free form stops, both signs, and the single-digit fast path.
    @Test func integralNumbersAreWrittenAsTheirDecimalDigits() {
        let samples: [Int64] = [0, 7, -7, 9, 10, -10, 99, 100, 4096, -65_536, 123_456_789, 999_999_999_999_999, -999_999_999_999_999]
        for n in samples {
            #expect(JSONValue.number(Double(n)).serialized() == String(n), "\(n)")
        }
        #expect(JSONValue.number(-0.0).serialized() == "0")
        #expect(JSONValue.number(1e15).serialized() == (1e15).description, "past the bound the number keeps its Double form")
        #expect(JSONValue.array([.number(12), .number(-3)]).serialized() == "[12,-3]")
    }

    @Test func emptyContainers() {
        #expect(JSONValue.array([]).serialized() == "[]")
        #expect(JSONValue.object(JSONObject()).serialized() == "{}")
        #expect(JSONValue.array([]).serialized(pretty: true) == "[]")
    }

    @Test func scalars() {
        #expect(JSONValue.null.serialized() == "null")
        #expect(JSONValue.bool(true).serialized() == "true")
        #expect(JSONValue.bool(false).serialized() == "false")
        #expect(JSONValue.string("x").serialized() == #""x""#)
        #expect(JSONValue.string(nil).serialized() == "null")
        #expect(JSONValue.string("y" as String?).serialized() == #""y""#)
    }

    @Test func writeAppendsToExistingBytes() {
        var out = Array("x=".utf8)
        JSONSerializer.write([1, 2], to: &out)
        #expect(out == Array("x=[1,2]".utf8))
    }

    // MARK: numbers

    @Test(arguments: [(1.0, "1"), (-3.0, "-3"), (0.0, "0"), (123_456_789.0, "123456789"), (1e15 - 1, "999999999999999")]
        as [(Double, String)])
    func integralNumbersHaveNoFraction(number: Double, text: String) {
        #expect(JSONValue.number(number).serialized() == text)
        #expect(JSONValue.int(Int(number)).serialized() == text)
    }

    @Test(arguments: [0.5, -0.25, 1.5e-7, 1e300, -1e300, 5e-324, 1.7976931348623157e308, 1e15, 1e21, 0.1, 1.0 / 3.0])
    func otherNumbersAreWrittenAsJSONNumbersThatReadBackExactly(number: Double) throws {
        let text = JSONValue.number(number).serialized()
        #expect(isJSONNumber(text), "\(text)")
        #expect(try JSONParser.parse(text).doubleValue?.bitPattern == number.bitPattern)
    }

    @Test(arguments: [Double.infinity, -Double.infinity, Double.nan])
    func nonFiniteNumbersAreWrittenAsNull(number: Double) {
        #expect(JSONValue.number(number).serialized() == "null")
    }

    @Test func generatedNumbersAreValidJSONAndReadBackExactly() throws {
        var gen = JSONGenerator(rng: SeededGenerator(seed: 8259))
        for _ in 0..<5_000 {
            let d = gen.number()
            let text = JSONValue.number(d).serialized()
            #expect(isJSONNumber(text), "\(d) -> \(text)")
            let back = try #require(try JSONParser.parse(text).doubleValue)
            #expect(back == d, "\(d) -> \(text)")
            if d != 0 { #expect(back.bitPattern == d.bitPattern, "\(d) -> \(text)") }
        }
    }

    // MARK: strings (RFC 8259 section 7)

    @Test func quoteAndBackslashAreEscaped() {
        #expect(JSONValue.string(#"a"b\c"#).serialized() == #""a\"b\\c""#)
    }

    @Test func commonControlCharactersUseShortEscapes() {
        #expect(JSONValue.string("\n\r\t").serialized() == #""\n\r\t""#)
    }

    @Test func everyControlCharacterIsEscaped() throws {
        for code in UInt8(0)..<0x20 {
            let text = JSONValue.string(String(UnicodeScalar(code))).serialized()
            let bytes = Array(text.utf8)
            #expect(!bytes.contains { $0 < 0x20 }, "U+00\(String(code, radix: 16))")
            #expect(try JSONParser.parse(text) == .string(String(UnicodeScalar(code))))
        }
    }

    @Test func controlCharacterWithoutShortEscapeIsWrittenAsUnicodeEscape() {
        // \u followed by four hex digits, in either case (section 7).
        #expect(JSONValue.string("\u{1}").serialized().lowercased() == #""\u0001""#)
        #expect(JSONValue.string("\u{1F}").serialized().lowercased() == #""\u001f""#)
        #expect(JSONValue.string("\u{0}").serialized().lowercased() == #""\u0000""#)
    }

    @Test func nonASCIIReadsBackTheSame() throws {
        for s in ["é", "€", "😀", "\u{10FFFF}", "\u{2028}", "\u{FEFF}", "\u{7F}", "e\u{301}"] {
            let text = JSONValue.string(s).serialized()
            let back = try #require(try JSONParser.parse(text).stringValue)
            #expect(back.unicodeScalars.elementsEqual(s.unicodeScalars), "\(text)")
        }
    }

    @Test func keysAreEscapedLikeStrings() throws {
        let value: JSONValue = ["a\"\n\u{1}": 1]
        let text = value.serialized()
        #expect(!text.utf8.contains { $0 < 0x20 })
        #expect(try JSONParser.parse(text) == value)
    }

    /// Strings are scanned eight bytes at a time; an escape must be found wherever it falls in
    /// a word, and plain runs of any length must come through untouched. Compared with a
    /// byte-by-byte escaper written here from RFC 8259 section 7.
    @Test func escapesAreFoundAtEveryPositionOfAWord() throws {
        func reference(_ s: String) -> String {
            var out = "\""
            for b in s.utf8 {
                switch b {
                case 0x22: out += "\\\""
                case 0x5C: out += "\\\\"
                case 0x0A: out += "\\n"
                case 0x0D: out += "\\r"
                case 0x09: out += "\\t"
                case 0..<0x20, 0x7F: out += "\\u00" + String(b >> 4, radix: 16) + String(b & 0xF, radix: 16)
                default: out += String(decoding: [b], as: UTF8.self)
                }
            }
            return out + "\""
        }
        var random = SeededGenerator(seed: 0x5EED_0008)
        let specials: [Character] = ["\"", "\\", "\n", "\u{1}", "\u{1F}", "\u{7F}", "\t", "é", "😀", " ", "~", "\u{80}"]
        for _ in 0..<3_000 {
            let length = Int.random(in: 0...40, using: &random)
            var s = ""
            for _ in 0..<length {
                s.append(Int.random(in: 0..<4, using: &random) == 0 ? specials.randomElement(using: &random)!
                                                                        : Character(Unicode.Scalar(UInt8.random(in: 0x20...0x7E, using: &random))))
            }
            let text = JSONValue.string(s).serialized()
            let ascii = s.unicodeScalars.allSatisfy { $0.value < 0x80 }
            if ascii { #expect(text == reference(s), "\(Array(s.utf8))") }
            #expect(try JSONParser.parse(text).stringValue.map { Array($0.utf8) } == Array(s.utf8), "\(text)")
        }
    }
}
