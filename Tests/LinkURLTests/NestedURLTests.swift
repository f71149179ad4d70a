import SeededRandom
import LinkURL
import Testing

/// A query value that holds a whole URL: decoded once, then split on its own.
struct NestedURLTests {
    func nested(_ link: String) throws -> NestedURL {
        try nested(Array(link.utf8))
    }

    func nested(_ bytes: [UInt8]) throws -> NestedURL {
        let url = LinkURL(parsing: bytes)
        let item = try #require(url.queryItems.first(named: "cb"))
        return NestedURL(in: url.bytes, value: try #require(item.value))
    }

    // MARK: a correctly encoded value

    @Test func encodedValueIsDecodedOnceWithNoFindings() throws {
        let n = try nested("https://a/?cb=https%3A%2F%2Fb.example%2Fp%3Fx%3D1%26y%3D2#f")
        #expect(n.findings == [])
        #expect(n.decoded == "https://b.example/p?x=1&y=2")
        #expect(n.raw == 14..<57)
    }

    @Test func decodedValueIsSplitAsAURL() throws {
        let n = try nested("https://a/?cb=https%3A%2F%2Fb.example%2Fp%3Fx%3D1%26y%3D2#f")
        let url = n.url
        #expect(url.text(of: .host) == "b.example")
        #expect(url.text(of: .path) == "/p")
        #expect(url.text(of: .query) == "x=1&y=2")
        #expect(url.fragment == nil)
        #expect(url.queryItems.count == 2)
        #expect(n.scan.isHTTPS)
        #expect(n.scan.host == 8..<17)
        #expect(n.scan.diagnostics.isEmpty)
    }

    @Test func scanOfTheNestedURLReportsItsOwnProblems() throws {
        // Decoded once, "%25zz" is "%zz": an invalid escape in the nested URL, at byte 10 of it.
        let n = try nested("https://a/?cb=https%3A%2F%2Fb%2F%25zz")
        #expect(n.findings == [])
        #expect(n.decoded == "https://b/%zz")
        #expect(n.scan.diagnostics == [diag(.invalidPercentEscape, 10, .path)])
    }

    @Test func scanEqualsASplitOfTheDecodedBytes() {
        var rng = SeededGenerator(seed: 0x4E57)
        let alphabet = Array("h:/?=+%3AaF2#5".utf8) + [0xC3, 0xA9, 0xFF]
        for _ in 0..<2_000 {
            let value = rng.bytes(from: alphabet, maxLength: 30).filter { $0 != UInt8(ascii: "#") }
            let outer = Array("https://a/?cb=".utf8) + value
            let n = NestedURL(in: outer, value: 14..<outer.count)
            #expect(n.decodedBytes == PercentCodec.decode(value), "value \(value)")
            #expect(n.scan == LinkURL(parsing: n.decodedBytes).scan, "value \(value)")
            #expect(n.decoded == PercentCodec.decodeString(value), "value \(value)")
        }
    }

    @Test func emptyValueDecodesToEmptyText() throws {
        let n = try nested("https://a/?cb=")
        #expect(n.decoded == "")
        #expect(n.findings == [])
        #expect(n.scan.path == 0..<0)
    }

    // MARK: findings

    @Test func rawQuestionMarkAndEqualsAreRawDelimiters() throws {
        let n = try nested("https://a/?cb=https://b/p?x=1")
        #expect(n.findings == [
            .rawDelimiter(offset: 25, byte: UInt8(ascii: "?")),
            .rawDelimiter(offset: 27, byte: UInt8(ascii: "=")),
        ])
        #expect(n.decoded == "https://b/p?x=1")
    }

    @Test func rawPlusIsAFindingAndStaysAPlus() throws {
        let n = try nested("https://a/?cb=x+y")
        #expect(n.findings == [.plusSign(offset: 15)])
        #expect(n.decoded == "x+y")
    }

    @Test func encodedPlusIsNotAFinding() throws {
        let n = try nested("https://a/?cb=x%2By")
        #expect(n.findings == [])
        #expect(n.decoded == "x+y")
    }

    @Test func invalidEscapesAreFindingsAndKeptLiterally() throws {
        let n = try nested("https://a/?cb=a%zz%4")
        #expect(n.findings == [.invalidEscape(offset: 15), .invalidEscape(offset: 18)])
        #expect(n.decoded == "a%zz%4")
    }

    @Test func findingsFollowTheInputOrder() throws {
        let n = try nested("https://a/?cb=a+%z?")
        #expect(n.findings == [.plusSign(offset: 15), .invalidEscape(offset: 16), .rawDelimiter(offset: 18, byte: UInt8(ascii: "?"))])
    }

    @Test func doubleEncodedValueIsDetected() throws {
        let n = try nested("https://a/?cb=https%253A%252F%252Fb.example")
        #expect(n.findings == [.doubleEncoded])
        #expect(n.isDoubleEncoded)
        #expect(n.decoded == "https%3A%2F%2Fb.example")
        #expect(n.scan.scheme == nil)
    }

    @Test func doubleEncodedValueWithLowerCaseHexIsDetected() throws {
        let n = try nested("https://a/?cb=https%253a%252f%252fb")
        #expect(n.findings == [.doubleEncoded])
    }

    @Test(arguments: ["https%3A%2F%2Fb", "%253A", "1x%253A", "https%253Bx", "https%2525", "https"])
    func valueThatIsNotEncodedTwiceIsNotDoubleEncoded(value: String) throws {
        let n = try nested("https://a/?cb=" + value)
        #expect(!n.isDoubleEncoded)
    }

    @Test func looksEncodedWantsASchemeThenPercent3A() {
        #expect(NestedURL.looksEncoded("https%3A%2F%2Fa"))
        #expect(NestedURL.looksEncoded("h%3a"))
        #expect(NestedURL.looksEncoded("a+b.c-d%3A"))
        #expect(!NestedURL.looksEncoded("https://a"))
        #expect(!NestedURL.looksEncoded("%3A"))
        #expect(!NestedURL.looksEncoded("9a%3A"))
        #expect(!NestedURL.looksEncoded("https%3"))
        #expect(!NestedURL.looksEncoded("https%3B"))
        #expect(!NestedURL.looksEncoded(""))
    }

    @Test func decodedOctetsThatAreNotUTF8AreAFinding() throws {
        let n = try nested("https://a/?cb=https%3A%2F%2Fb%2F%FF")
        #expect(n.findings == [.notUTF8])
        #expect(n.decoded == nil)
        #expect(n.decodedBytes == Array("https://b/".utf8) + [0xFF])
        #expect(n.scan.host == 8..<9)
        #expect(n.scan.diagnostics == [diag(.nonASCII, 10, .path)])
    }

    @Test(arguments: ["%C0%AF", "%ED%A0%80", "%C3", "%F4%90%80%80"])
    func invalidUTF8SequencesAreNotUTF8(value: String) throws {
        #expect(try nested("https://a/?cb=" + value).findings == [.notUTF8])
    }

    @Test func encodedValidUTF8IsDecoded() throws {
        let n = try nested("https://a/?cb=caf%C3%A9")
        #expect(n.findings == [])
        #expect(n.decoded == "café")
    }

    @Test func rawNonASCIIBytesAreCheckedAsUTF8Too() throws {
        let valid = try nested(Array("https://a/?cb=caf".utf8) + [0xC3, 0xA9])
        #expect(valid.findings == [])
        #expect(valid.decoded == "café")
        let invalid = try nested(Array("https://a/?cb=caf".utf8) + [0xC3])
        #expect(invalid.findings == [.notUTF8])
    }

    @Test func rawAndEncodedBytesCombineIntoOneCharacter() throws {
        // A raw lead byte followed by an encoded continuation byte is one valid "é" after decoding.
        let n = try nested(Array("https://a/?cb=".utf8) + [0xC3] + Array("%A9".utf8))
        #expect(n.findings == [])
        #expect(n.decoded == "é")
    }

    @Test func withDecodedBytesSeesTheDecodedOctets() throws {
        let good = try nested("https://a/?cb=a%41")
        #expect(good.withDecodedBytes { Array($0) } == Array("aA".utf8))
        let bad = try nested("https://a/?cb=a%FF")
        #expect(bad.withDecodedBytes { Array($0) } == [0x61, 0xFF])
    }

    @Test func nestedLimitsApplyToTheDecodedURL() {
        let outer = Array("https://a/?cb=https%3A%2F%2Fbbbb".utf8)
        let n = NestedURL(in: outer, value: 14..<outer.count, limits: URLLimits(maxLength: 8))
        #expect(n.scan.isOverLimit)
        #expect(n.url.isOverLimit)
    }
}
