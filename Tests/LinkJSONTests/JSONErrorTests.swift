import LinkJSON
import Testing

/// Every error code, with its byte offset and 1-based line and column.
struct JSONErrorTests {
    // MARK: unexpected-end

    @Test func emptyTextEndsUnexpectedly() {
        #expect(place("") == Place(.unexpectedEnd, offset: 0, line: 1, column: 1))
        #expect(place(" \n ") == Place(.unexpectedEnd, offset: 3, line: 2, column: 2))
    }

    @Test func unclosedArrayEndsUnexpectedly() {
        #expect(place("[1, 2") == Place(.unexpectedEnd, offset: 5, line: 1, column: 6))
        #expect(place("[\n1,\n") == Place(.unexpectedEnd, offset: 5, line: 3, column: 1))
    }

    @Test func objectCutAfterTheColonEndsUnexpectedly() {
        #expect(place(#"{"a":"#) == Place(.unexpectedEnd, offset: 5, line: 1, column: 6))
        #expect(place(#"{"a""#)?.code == .unexpectedEnd)
        #expect(place(#"{"#)?.code == .unexpectedEnd)
    }

    @Test func unterminatedStringIsReportedAtItsOpeningQuote() {
        #expect(place(#"["abc"#) == Place(.unexpectedEnd, offset: 1, line: 1, column: 2))
        #expect(place(#"["a\n"#)?.code == .unexpectedEnd)
        #expect(place(#""\"#)?.code == .unexpectedEnd)
    }

    @Test func truncatedLiteralEndsUnexpectedly() {
        #expect(place("tru") == Place(.unexpectedEnd, offset: 0, line: 1, column: 1))
    }

    // MARK: unexpected-character

    @Test func trailingCommaInAnArrayIsRejected() {
        #expect(place("[1,]") == Place(.unexpectedCharacter, offset: 3, line: 1, column: 4))
    }

    @Test func trailingCommaInAnObjectIsRejected() {
        #expect(place(#"{"a":1,}"#) == Place(.unexpectedCharacter, offset: 7, line: 1, column: 8))
        #expect(place("{\n  \"a\": 1,\n}") == Place(.unexpectedCharacter, offset: 12, line: 3, column: 1))
    }

    @Test(arguments: ["// c\n1", "/* c */ 1", "# c\n1"])
    func commentsAreRejected(text: String) {
        #expect(place(text) == Place(.unexpectedCharacter, offset: 0, line: 1, column: 1))
    }

    @Test func commentAfterAValueIsTrailingContent() {
        #expect(place("1 // c")?.code == .trailingContent)
    }

    @Test(arguments: ["NaN", "Infinity", "'a'", ".5", "+1", "True", "undefined", "[,1]", "{,}"])
    func nonJSONTokensAreUnexpectedCharacters(text: String) {
        #expect(place(text)?.code == .unexpectedCharacter)
    }

    @Test func missingColonIsReportedWhereTheColonShouldBe() {
        #expect(place(#"{"a" 1}"#) == Place(.unexpectedCharacter, offset: 5, line: 1, column: 6))
    }

    @Test func unquotedMemberNameIsRejected() {
        #expect(place("{a:1}") == Place(.unexpectedCharacter, offset: 1, line: 1, column: 2))
        #expect(place("{'a':1}") == Place(.unexpectedCharacter, offset: 1, line: 1, column: 2))
    }

    @Test func missingCommaIsRejected() {
        #expect(place("[1 2]") == Place(.unexpectedCharacter, offset: 3, line: 1, column: 4))
        #expect(place(#"{"a":1 "b":2}"#) == Place(.unexpectedCharacter, offset: 7, line: 1, column: 8))
    }

    @Test func misspelledLiteralIsRejectedAtItsStart() {
        #expect(place("[truth]") == Place(.unexpectedCharacter, offset: 1, line: 1, column: 2))
        #expect(place("nulL") == Place(.unexpectedCharacter, offset: 0, line: 1, column: 1))
    }

    @Test func rawNonASCIIOutsideAStringIsUnexpected() {
        #expect(place([0xFF]) == Place(.unexpectedCharacter, offset: 0, line: 1, column: 1))
        #expect(place("[é]")?.code == .unexpectedCharacter)
    }

    @Test func mismatchedBracketsAreRejected() {
        #expect(place("[1}") == Place(.unexpectedCharacter, offset: 2, line: 1, column: 3))
        #expect(place(#"{"a":1]"#) == Place(.unexpectedCharacter, offset: 6, line: 1, column: 7))
    }

    // MARK: invalid-number

    @Test(arguments: ["01", "-01", "-", "-a", "1.", "1.e5", "1e", "1e+", "1E-", "-.5", "00"])
    func malformedNumberIsReportedAtItsStart(text: String) {
        #expect(place(text) == Place(.invalidNumber, offset: 0, line: 1, column: 1))
    }

    @Test func malformedNumberInsideAnArray() {
        #expect(place("[1, 2.]") == Place(.invalidNumber, offset: 4, line: 1, column: 5))
        #expect(place("[\n  -\n]") == Place(.invalidNumber, offset: 4, line: 2, column: 3))
    }

    @Test func numberTooLargeForADoubleIsRejected() {
        // Section 9: a parser may limit the range of numbers; infinity is not a JSON number.
        #expect(place("1e400") == Place(.invalidNumber, offset: 0, line: 1, column: 1))
        #expect(place("[-1e400]") == Place(.invalidNumber, offset: 1, line: 1, column: 2))
    }

    @Test func hexadecimalNumberIsZeroThenTrailingContent() {
        #expect(place("0x10") == Place(.trailingContent, offset: 1, line: 1, column: 2))
    }

    // MARK: invalid-escape

    @Test func unknownEscapeIsReportedAtItsBackslash() {
        #expect(place(#""\x""#) == Place(.invalidEscape, offset: 1, line: 1, column: 2))
        #expect(place(#""ab\'""#) == Place(.invalidEscape, offset: 3, line: 1, column: 4))
        #expect(place(#""\U0041""#)?.code == .invalidEscape)
    }

    @Test func nonHexDigitInAUnicodeEscapeIsReportedAtThatDigit() {
        #expect(place(#""\u12G4""#) == Place(.invalidEscape, offset: 5, line: 1, column: 6))
    }

    @Test func loneHighSurrogateIsAnInvalidEscape() {
        #expect(place(#""\ud800""#)?.code == .invalidEscape)
        #expect(place(#""\ud800x""#)?.code == .invalidEscape)
    }

    @Test func highSurrogateFollowedByANonLowSurrogateIsAnInvalidEscape() {
        #expect(place(#""\ud800\u0041""#)?.code == .invalidEscape)
        #expect(place(#""\ud800\ud800""#)?.code == .invalidEscape)
        #expect(place(#""\ud800\n""#)?.code == .invalidEscape)
    }

    @Test func loneLowSurrogateIsAnInvalidEscape() {
        #expect(place(#""\udc00""#)?.code == .invalidEscape)
        #expect(place(#""\uDFFF""#)?.code == .invalidEscape)
    }

    @Test func invalidEscapeOnALaterLine() {
        #expect(place("[\n\"\\q\"]") == Place(.invalidEscape, offset: 3, line: 2, column: 2))
    }

    // MARK: invalid-utf8 (section 8.1)

    @Test(arguments: [
        [0xFF], [0x80], [0xC3], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC3, 0x41],
    ] as [[UInt8]])
    func invalidUTF8InAStringIsRejected(bytes: [UInt8]) {
        #expect(place([0x22] + bytes + [0x22]) == Place(.invalidUTF8, offset: 1, line: 1, column: 2))
    }

    @Test func invalidUTF8InAStringWithEscapesIsRejected() {
        #expect(place([0x22, 0xFF] + Array(#"\n""#.utf8))?.code == .invalidUTF8)
    }

    @Test func invalidUTF8InAMemberNameIsRejected() {
        #expect(place([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D]) == Place(.invalidUTF8, offset: 2, line: 1, column: 3))
    }

    // MARK: control-character-in-string (section 7: U+0000 through U+001F must be escaped)

    @Test func rawControlCharacterInAStringIsRejectedAtThatByte() {
        #expect(place("\"a\u{1}b\"") == Place(.controlCharacterInString, offset: 2, line: 1, column: 3))
        #expect(place("\"\t\"") == Place(.controlCharacterInString, offset: 1, line: 1, column: 2))
    }

    @Test func rawLineFeedInAStringIsRejectedAndDoesNotStartALine() {
        #expect(place("\"a\nb\"") == Place(.controlCharacterInString, offset: 2, line: 1, column: 3))
    }

    @Test func rawControlCharacterAfterAnEscapeIsRejected() {
        #expect(place("\"\\n\u{1F}\"") == Place(.controlCharacterInString, offset: 3, line: 1, column: 4))
    }

    @Test func rawControlCharacterAfterARunThatFollowsAnEscapeIsRejectedAtThatByte() {
        #expect(place("\"\\nabcdefghijk\u{1}\"") == Place(.controlCharacterInString, offset: 14, line: 1, column: 15))
    }

    @Test func runsBetweenEscapesAreKeptWhole() throws {
        let text = #""ab\"cdefghijklmnopq\\rstuvwxyz0123456789\n\u00e9tail""#
        #expect(try JSONParser.parse(text) == .string("ab\"cdefghijklmnopq\\rstuvwxyz0123456789\nétail"))
    }

    @Test func rawNulInAStringIsRejected() {
        #expect(place([0x22, 0x00, 0x22]) == Place(.controlCharacterInString, offset: 1, line: 1, column: 2))
    }

    // MARK: trailing-content

    @Test func secondValueIsTrailingContent() {
        #expect(place("1 2") == Place(.trailingContent, offset: 2, line: 1, column: 3))
        #expect(place("{} x") == Place(.trailingContent, offset: 3, line: 1, column: 4))
        #expect(place("[1]]") == Place(.trailingContent, offset: 3, line: 1, column: 4))
        #expect(place("1\n\n  x") == Place(.trailingContent, offset: 5, line: 3, column: 3))
    }

    @Test func trailingWhitespaceIsFine() {
        #expect(parseError("1 \n\t\r") == nil)
    }

    // MARK: lines and columns

    @Test func columnsCountBytesNotCharacters() {
        // "é" is two bytes, so the error after it is at column 7, although it is the 6th character.
        #expect(place("[\"é\" x]") == Place(.unexpectedCharacter, offset: 6, line: 1, column: 7))
    }

    @Test func carriageReturnLineFeedCountsAsOneLine() {
        #expect(place("[\r\n1,\r\n]") == Place(.unexpectedCharacter, offset: 7, line: 3, column: 1))
    }

    @Test func descriptionIsLineColonColumnColonMessage() throws {
        let error = try #require(parseError("[\n  x]"))
        #expect(error.description == "2:3: \(error.message)")
        #expect(!error.message.isEmpty)
    }

    @Test func errorCodeRawValuesAreStable() {
        let codes: [JSONError.Code] = [
            .unexpectedEnd, .unexpectedCharacter, .invalidNumber, .invalidEscape, .invalidUTF8,
            .controlCharacterInString, .duplicateKey, .tooDeep, .trailingContent,
        ]
        #expect(codes.map(\.rawValue) == [
            "unexpected-end", "unexpected-character", "invalid-number", "invalid-escape", "invalid-utf8",
            "control-character-in-string", "duplicate-key", "too-deep", "trailing-content",
        ])
    }
}
