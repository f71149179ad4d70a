import SeededRandom
@testable import LinkJSON
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

    /// Stronger than the test above: each pointer's position is the start of that value (its
    /// first byte says its kind) and no two values share one, so a position found under a wrong
    /// pointer (a hash collision taken for a match, an index written wrong) would show.
    @Test func everyGeneratedValueIsLocatedAtItsOwnFirstByte() throws {
        var gen = JSONGenerator(rng: SeededGenerator(seed: 6902))
        for _ in 0..<300 {
            let value = gen.value()
            let text = value.serialized(pretty: true)
            let lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
            let doc = try JSONDocument(parsing: Array(text.utf8))
            var seen: Set<[Int]> = []
            for pointer in pointers(in: value) {
                let (line, column) = try #require(doc.locations.location(of: pointer), "\(pointer) in \(text)")
                #expect(seen.insert([line, column]).inserted, "\(pointer) shares its position in \(text)")
                let first = lines[line - 1][column - 1]
                let expected: [UInt8] = switch try #require(Self.value(at: pointer, in: value)) {
                case .object: [UInt8(ascii: "{")]
                case .array: [UInt8(ascii: "[")]
                case .string: [UInt8(ascii: "\"")]
                case .bool(let b): [UInt8(ascii: b ? "t" : "f")]
                case .null: [UInt8(ascii: "n")]
                case .number: Array("-0123456789".utf8)
                }
                #expect(expected.contains(first), "\(pointer) at \(line):\(column) in \(text)")
            }
        }
    }

    /// The value a pointer of ``pointers(in:prefix:)`` names.
    static func value(at pointer: String, in root: JSONValue) -> JSONValue? {
        var value: JSONValue? = root
        // By scalars: a `/` or `~` may carry a combining mark, as the keys' tokens did.
        for token in pointer.unicodeScalars.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            var key = String.UnicodeScalarView(), tilde = false
            for c in token {
                if tilde { key.append(c == "1" ? "/" : "~"); tilde = false } else if c == "~" { tilde = true } else { key.append(c) }
            }
            let name = String(key)
            switch value {
            case .array(let elements)?: value = Int(name).flatMap { elements.indices.contains($0) ? elements[$0] : nil }
            case .object(let object)?: value = object.first { $0.key.utf8.elementsEqual(name.utf8) }?.value
            default: return nil
            }
        }
        return value
    }

    @Test func elementIndicesOfSeveralDigits() throws {
        let text = "[" + (0..<1_234).map(String.init).joined(separator: ",") + "]"
        let locations = try JSONDocument(parsing: Array(text.utf8)).locations
        for index in [0, 9, 10, 99, 100, 1_000, 1_233] {
            let column = 2 + (0..<index).reduce(0) { $0 + String($1).utf8.count + 1 }
            let found = locations.location(of: "/\(index)")
            #expect(found?.line == 1 && found?.column == column, "element \(index): \(String(describing: found))")
        }
        #expect(locations.location(of: "/1234") == nil)
        #expect(locations.location(of: "/01") == nil)
    }

    /// A deep document with many values at the bottom: each value keeps only its last token,
    /// so what positions hold grows with the text (whole pointers would be depth times values:
    /// 3 MB here, and hundreds of MB for a hostile file of a few MB).
    @Test func positionsGrowWithTheTextNotWithDepthTimesValues() throws {
        let depth = 300, leaves = 5_000
        let text = String(repeating: "[", count: depth) + Array(repeating: "7", count: leaves).joined(separator: ",") + String(repeating: "]", count: depth)
        let locations = try JSONDocument(parsing: Array(text.utf8), options: .init(maxDepth: 512)).locations
        // An element's token is `/` and its index: a few bytes for each two of the text.
        #expect(locations.tokens.count <= 4 * text.utf8.count)
        let prefix = String(repeating: "/0", count: depth - 1)
        for leaf in [0, 1, 999, leaves - 1] {
            let found = locations.location(of: prefix + "/\(leaf)")
            #expect(found?.line == 1 && found?.column == depth + 1 + 2 * leaf, "leaf \(leaf): \(String(describing: found))")
        }
        #expect(locations.location(of: prefix + "/\(leaves)") == nil)
        #expect(locations.location(of: String(prefix.dropLast(2)) + "/1") == nil)
    }

    /// Pointers compare by code units, as member names do (RFC 8259 section 8.3): a key written
    /// with a precomposed letter is not found under its decomposed form, and the reverse.
    @Test func pointersCompareByCodeUnits() throws {
        let doc = try JSONDocument(parsing: Array(#"{"caf\#u{E9}": 1, "cafe\#u{301}": 2}"#.utf8))
        #expect(try #require(doc.locations.location(of: "/caf\u{E9}")) == (1, 11))
        #expect(try #require(doc.locations.location(of: "/cafe\u{301}")) == (1, 24))
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
