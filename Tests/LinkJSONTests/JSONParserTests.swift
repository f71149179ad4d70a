import LinkJSON
import Testing

/// What the parser accepts, and the values it builds (RFC 8259).
struct JSONParserTests {
    @Test func parsesEveryKindOfValue() throws {
        let value = try JSONParser.parse(#"{"n": null, "t": true, "f": false, "i": 12, "s": "x", "a": [1, "b"], "o": {}}"#)
        #expect(value == [
            "n": nil, "t": true, "f": false, "i": 12, "s": "x", "a": [1, "b"], "o": [:],
        ])
    }

    @Test(arguments: [("1", 1.0), ("\"x\"", nil), ("null", nil), ("true", nil)] as [(String, Double?)])
    func anyValueMayBeTheWholeText(text: String, number: Double?) throws {
        // RFC 8259 section 2: JSON-text = ws value ws (not only objects and arrays).
        let value = try JSONParser.parse(text)
        if let number { #expect(value == .number(number)) }
    }

    @Test func insignificantWhitespaceIsSpaceTabLineFeedAndCarriageReturn() throws {
        #expect(try JSONParser.parse(" \t\r\n[ 1 ,\n\t2 ]\r\n ") == [1, 2])
    }

    @Test(arguments: ["\u{0C}1", "\u{A0}1", "\u{0B}1", "1\u{0C}"])
    func otherSpacesAreNotWhitespace(text: String) {
        #expect(parseError(text) != nil)
    }

    @Test func keepsMemberOrder() throws {
        let object = try #require(try JSONParser.parse(#"{"b": 1, "a": 2, "c": 3}"#).objectValue)
        #expect(object.keys == ["b", "a", "c"])
    }

    @Test func emptyContainers() throws {
        #expect(try JSONParser.parse("[ ]") == [])
        #expect(try JSONParser.parse("{ }") == [:])
        #expect(try JSONParser.parse("[[],{}]") == [[], [:]])
    }

    // MARK: numbers (section 6)

    @Test(arguments: [
        ("0", 0.0), ("-0", -0.0), ("7", 7), ("-12", -12), ("0.5", 0.5), ("-0.25", -0.25), ("1e2", 100), ("1E2", 100),
        ("1e+2", 100), ("1e-2", 0.01), ("-1.5e+3", -1500), ("1.0", 1), ("123456789", 123_456_789),
        ("9007199254740993", 9_007_199_254_740_992), ("1e308", 1e308), ("4.9e-324", 5e-324),
        ("0e0", 0), ("10E-1", 1),
    ] as [(String, Double)])
    func numbersAreReadAsDoubles(text: String, expected: Double) throws {
        #expect(try JSONParser.parse(text) == .number(expected))
    }

    @Test func negativeZeroKeepsItsSign() throws {
        let d = try #require(try JSONParser.parse("-0").doubleValue)
        #expect(d == 0)
        #expect(d.sign == .minus)
    }

    @Test func underflowingNumberIsZero() throws {
        #expect(try JSONParser.parse("1e-400") == .number(0))
    }

    @Test func intValueIsTheIntegerOfAnIntegralNumber() throws {
        #expect(try JSONParser.parse("42").intValue == 42)
        #expect(try JSONParser.parse("4.2e1").intValue == 42)
        #expect(try JSONParser.parse("4.5").intValue == nil)
    }

    // MARK: strings (section 7)

    @Test func everyShortEscapeIsDecoded() throws {
        #expect(try JSONParser.parse(#""\"\\\/\b\f\n\r\t""#) == .string("\"\\/\u{8}\u{C}\n\r\t"))
    }

    @Test func unicodeEscapesInEitherCase() throws {
        #expect(try JSONParser.parse(#""\u00e9\u00C9\u0041""#) == .string("éÉA"))
    }

    @Test func surrogatePairEscapeIsOneScalar() throws {
        let s = try #require(try JSONParser.parse(#""\ud83d\ude00""#).stringValue)
        #expect(s.unicodeScalars.map(\.value) == [0x1F600])
        #expect(try JSONParser.parse(#""\uD834\uDD1E""#) == .string("\u{1D11E}"))
    }

    @Test func escapedNulIsAllowed() throws {
        #expect(try JSONParser.parse(#""a\u0000b""#) == .string("a\u{0}b"))
    }

    @Test func rawNonASCIIAndDeleteAreAllowedInStrings() throws {
        #expect(try JSONParser.parse("\"é€😀\u{7F}\u{2028}\"") == .string("é€😀\u{7F}\u{2028}"))
    }

    @Test func escapesAndRawTextMix() throws {
        #expect(try JSONParser.parse(#""abc\ndéf\u0021""#) == .string("abc\ndéf!"))
    }

    @Test func memberNamesAreUnescaped() throws {
        let value = try JSONParser.parse(#"{"a\/b\u0021": 1}"#)
        #expect(value["a/b!"] == 1)
    }

    // MARK: byte order mark (section 8.1: parsers MAY ignore it)

    @Test func leadingByteOrderMarkIsIgnored() throws {
        #expect(try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array(#"{"a": 1}"#.utf8)) == ["a": 1])
    }

    @Test func byteOrderMarkElsewhereIsAnError() {
        #expect(place([0x20, 0xEF, 0xBB, 0xBF, 0x31]) == Place(.unexpectedCharacter, offset: 1, line: 1, column: 2))
        #expect(place([0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF, 0x31]) == Place(.unexpectedCharacter, offset: 3, line: 1, column: 4))
        #expect(place(Array("1".utf8) + [0xEF, 0xBB, 0xBF])?.code == .trailingContent)
    }

    @Test func byteOrderMarkAloneIsAnEmptyText() {
        #expect(place([0xEF, 0xBB, 0xBF])?.code == .unexpectedEnd)
    }

    @Test func byteOrderMarkInsideAStringIsData() throws {
        #expect(try JSONParser.parse("\"\u{FEFF}\"") == .string("\u{FEFF}"))
    }

    // MARK: accessors

    @Test func accessorsReturnNilForOtherKinds() throws {
        let value = try JSONParser.parse(#"{"s": "x"}"#)
        #expect(value["s"]?.stringValue == "x")
        #expect(value["s"]?.doubleValue == nil)
        #expect(value["s"]?.arrayValue == nil)
        #expect(value["missing"] == nil)
        #expect(value.objectValue?.count == 1)
        #expect(try JSONParser.parse("null").isNull)
        #expect(try JSONParser.parse("true").boolValue == true)
        #expect(try JSONParser.parse("[1]")["x"] == nil)
    }
}
