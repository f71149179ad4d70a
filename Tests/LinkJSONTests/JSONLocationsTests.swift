import SeededRandom
import LinkJSON
import Testing

/// Positions of parsed values, addressed by JSON Pointer (RFC 6901).
struct JSONLocationsTests {
    // The root starts on line 2, so its location cannot be mistaken for the (1, 1) fallback.
    static let text = """

        {
          "a/b": [1, {"c~d": true}],
          "": null,
          "x": {"y": [10, 20]}
        }
        """

    func document() throws -> JSONDocument {
        try JSONDocument(parsing: Array(Self.text.utf8))
    }

    @Test func rootIsTheEmptyPointer() throws {
        let loc = try #require(try document().locations.location(of: ""))
        #expect(loc == (2, 1))
    }

    @Test func slashInAKeyIsEscapedAsTilde1() throws {
        let locations = try document().locations
        #expect(try #require(locations.location(of: "/a~1b")) == (3, 10))
        #expect(locations.location(of: "/a/b") == nil)
    }

    @Test func tildeInAKeyIsEscapedAsTilde0() throws {
        let locations = try document().locations
        #expect(try #require(locations.location(of: "/a~1b/1/c~0d")) == (3, 22))
        #expect(locations.location(of: "/a~1b/1/c~d") == nil)
        #expect(locations.location(of: "/a~1b/1/c~01d") == nil)
    }

    @Test func arrayElementsAreAddressedByIndex() throws {
        let locations = try document().locations
        #expect(try #require(locations.location(of: "/a~1b/0")) == (3, 11))
        #expect(try #require(locations.location(of: "/a~1b/1")) == (3, 14))
        #expect(try #require(locations.location(of: "/x/y/1")) == (5, 19))
        #expect(locations.location(of: "/x/y/2") == nil)
    }

    @Test func emptyKeyIsASlashAlone() throws {
        #expect(try #require(try document().locations.location(of: "/")) == (4, 7))
    }

    @Test func documentValueEqualsTheParsedValue() throws {
        #expect(try document().value == JSONParser.parse(Self.text))
    }

    @Test func nearestLocationFallsBackToTheClosestAncestor() throws {
        let locations = try document().locations
        #expect(locations.nearestLocation(of: "/a~1b/1/missing/deeper") == (3, 14))
        #expect(locations.nearestLocation(of: "/x/y/7") == (5, 14))
        #expect(locations.nearestLocation(of: "/nothing") == (2, 1))
        #expect(locations.nearestLocation(of: "/x/y/1") == (5, 19))
    }

    @Test func nearestLocationDoesNotSplitEscapedSlashes() throws {
        // "/a~1b/9" falls back to "/a~1b" (the array), not to "/a".
        #expect(try document().locations.nearestLocation(of: "/a~1b/9") == (3, 10))
    }

    @Test func emptyLocationsFallBackToTheFirstLine() {
        let locations = JSONLocations()
        #expect(locations.location(of: "") == nil)
        #expect(locations.nearestLocation(of: "/a/b") == (1, 1))
    }

    @Test func columnsCountBytes() throws {
        let doc = try JSONDocument(parsing: Array(#"{"é": 1}"#.utf8))
        #expect(try #require(doc.locations.location(of: "/é")) == (1, 8))
    }

    @Test func carriageReturnLineFeedLines() throws {
        let doc = try JSONDocument(parsing: Array("{\r\n\"a\": 1}".utf8))
        #expect(try #require(doc.locations.location(of: "/a")) == (2, 6))
    }

    @Test func byteOrderMarkCountsInTheFirstLineColumns() throws {
        let doc = try JSONDocument(parsing: [0xEF, 0xBB, 0xBF] + Array("[1]".utf8))
        #expect(try #require(doc.locations.location(of: "/0")) == (1, 5))
    }

    @Test func allowedDuplicateKeyIsLocatedAtTheValueThatWon() throws {
        let doc = try JSONDocument(parsing: Array(#"{"a": 1, "a": 2}"#.utf8), options: .init(allowDuplicateKeys: true))
        #expect(doc.value == ["a": 2])
        #expect(try #require(doc.locations.location(of: "/a")) == (1, 15))
    }

    @Test func documentParseErrorsMatchParserErrors() {
        let text = Array("{\n \"a\": [1,]\n}".utf8)
        var documentError: JSONError?
        do { _ = try JSONDocument(parsing: text) } catch { documentError = error }
        #expect(documentError == parseError(text))
        #expect(documentError?.line == 2)
    }

    @Test func pointerTokenEscapesTildeBeforeSlash() {
        #expect(jsonPointerToken("a/b") == "a~1b")
        #expect(jsonPointerToken("c~d") == "c~0d")
        #expect(jsonPointerToken("~1") == "~01")
        #expect(jsonPointerToken("/~") == "~1~0")
        #expect(jsonPointerToken("plain") == "plain")
        #expect(jsonPointerToken("") == "")
    }

    @Test func everyGeneratedValueHasALocationForEveryPointer() throws {
        var gen = JSONGenerator(rng: SeededGenerator(seed: 6901))
        for _ in 0..<300 {
            let value = gen.value()
            let text = value.serialized(pretty: true)
            let doc = try JSONDocument(parsing: Array(text.utf8))
            for pointer in pointers(in: value) {
                #expect(doc.locations.location(of: pointer) != nil, "\(pointer) in \(text)")
            }
        }
    }

    /// Every JSON Pointer of a value, built per RFC 6901 section 3.
    func pointers(in value: JSONValue, prefix: String = "") -> [String] {
        var out = [prefix]
        switch value {
        case .array(let elements):
            for (i, e) in elements.enumerated() { out += pointers(in: e, prefix: prefix + "/" + String(i)) }
        case .object(let object):
            for member in object {
                var token = ""
                for scalar in member.key.unicodeScalars {
                    switch scalar {
                    case "~": token += "~0"
                    case "/": token += "~1"
                    default: token.unicodeScalars.append(scalar)
                    }
                }
                out += pointers(in: member.value, prefix: prefix + "/" + token)
            }
        default: break
        }
        return out
    }
}
