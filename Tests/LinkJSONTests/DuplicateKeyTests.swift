import LinkJSON
import Testing

/// Duplicate member names (RFC 8259 section 4: names SHOULD be unique; behaviour with
/// duplicates is unpredictable across parsers, so they are rejected unless allowed).
struct DuplicateKeyTests {
    @Test func duplicateKeyIsRejectedAtTheSecondName() {
        #expect(place(#"{"a":1,"a":2}"#) == Place(.duplicateKey, offset: 7, line: 1, column: 8))
    }

    @Test func duplicateKeyOnALaterLine() {
        #expect(place("{\n\"a\": 1,\n\"a\": 2\n}") == Place(.duplicateKey, offset: 10, line: 3, column: 1))
    }

    @Test func duplicateAfterUnescapingIsADuplicate() {
        // "\u0061" is "a": names are compared after unescaping (section 8.3).
        #expect(place(#"{"a":1,"\u0061":2}"#)?.code == .duplicateKey)
    }

    @Test func sameNameInDifferentObjectsIsFine() {
        #expect(parseError(#"{"a":{"a":1},"b":{"a":2}}"#) == nil)
    }

    @Test func namesDifferingInCaseAreDistinct() {
        #expect(parseError(#"{"a":1,"A":2}"#) == nil)
    }

    @Test func allowedDuplicateLetsTheLastValueWin() throws {
        let value = try JSONParser.parse(#"{"a":1,"b":2,"a":3}"#, options: .init(allowDuplicateKeys: true))
        let object = try #require(value.objectValue)
        #expect(object.count == 2)
        #expect(object["a"] == 3)
        #expect(object["b"] == 2)
    }

    /// Past a handful of members the parser finds earlier keys in a dictionary: the same
    /// answers as the member-by-member search, at either side of the switch, with names
    /// still compared by code units.
    @Test(arguments: [3, 15, 16, 17, 40_000])
    func largeObjectsFindDuplicatesAsSmallOnesDo(members: Int) throws {
        let names = (0..<members).map { "\"k\($0)\":\($0)" }
        let unique = "{" + names.joined(separator: ",") + "}"
        let parsed = try #require(try JSONParser.parse(unique).objectValue)
        #expect(parsed.count == members && parsed["k\(members - 1)"] == .number(Double(members - 1)))
        // A repeat of the first key at the end, written with an escape.
        let repeated = "{" + names.joined(separator: ",") + #","\u006b0":-1}"#
        let offset = repeated.utf8.count - #""\u006b0":-1}"#.utf8.count
        #expect(place(repeated) == Place(.duplicateKey, offset: offset, line: 1, column: offset + 1))
        let lastWins = try #require(try JSONParser.parse(repeated, options: .init(allowDuplicateKeys: true)).objectValue)
        #expect(lastWins.count == members && lastWins["k0"] == -1 && lastWins.first?.key == "k0")
        // Canonically equivalent names stay two members however large the object.
        let accents = "{" + names.joined(separator: ",") + #","\u00e9":1,"e\u0301":2}"#
        #expect(try JSONParser.parse(accents).objectValue?.count == members + 2)
    }

    @Test func allowedDuplicatesOnlyKeepOneMember() throws {
        let value = try JSONParser.parse(#"{"a":1,"a":2,"a":3}"#, options: .init(allowDuplicateKeys: true))
        #expect(value == ["a": 3])
    }
}

/// The nesting limit (RFC 8259 section 9: a parser may limit the depth of nesting).
struct DepthLimitTests {
    func nestedArrays(_ depth: Int) -> String {
        String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    }

    @Test func defaultLimitIs256() {
        #expect(JSONParser.Options().maxDepth == 256)
        #expect(parseError(nestedArrays(256)) == nil)
        #expect(place(nestedArrays(257)) == Place(.tooDeep, offset: 256, line: 1, column: 257))
    }

    @Test func customLimitCountsArraysAndObjects() {
        let options = JSONParser.Options(maxDepth: 2)
        #expect(parseError(#"[{"a":1}]"#, options: options) == nil)
        #expect(place(#"[{"a":[]}]"#, options: options) == Place(.tooDeep, offset: 6, line: 1, column: 7))
        #expect(place(#"{"a":{"b":{}}}"#, options: options) == Place(.tooDeep, offset: 10, line: 1, column: 11))
    }

    @Test func siblingsDoNotAddDepth() {
        let options = JSONParser.Options(maxDepth: 2)
        #expect(parseError("[[],[],[[]]]", options: options) != nil)
        #expect(parseError("[[],[],[],[]]", options: options) == nil)
    }

    @Test func zeroDepthAllowsOnlyScalars() {
        let options = JSONParser.Options(maxDepth: 0)
        #expect(parseError("1", options: options) == nil)
        #expect(parseError(#""x""#, options: options) == nil)
        #expect(place("[]", options: options)?.code == .tooDeep)
        #expect(place("{}", options: options)?.code == .tooDeep)
    }

    @Test func hostileNestingIsRejectedWithoutExhaustingTheStack() {
        let text = String(repeating: "[", count: 1_000_000)
        #expect(place(text)?.code == .tooDeep)
    }
}
