import SeededRandom
import LinkURL
import Testing

/// `recomposed()` (RFC 3986 section 5.3) gives back the input: splitting loses nothing.
struct RecompositionTests {
    @Test(arguments: [
        "", "a", ":", "::", "/", "//", "///", "////", "?", "#", "?#", "#?", "##", "??", "a:", "a://", "a://@", "a://@:",
        "a://:", "http://[::1]:80/p?q#f", "http://u@h@i:1/?#", "%", "%%", "%4", "http://a b/", "é", "\u{0}", " ",
        "a:b:c", "//[", "//]", "//[]", "//[::1", "http:#", "http:?", "http://a?b#c#d", "HTTP://X", "mailto:a@b",
        "?a&b=c;d", "1abc:x", ":foo", "://x", "http:///", "file:///etc", "//u@", "//@@@", "http://a:/", "http://a:b:c@d:e/",
        "https://[v1.x]:", "x://[::1]junk/", "a:/b//c?d//e#f//g",
    ])
    func recomposedEqualsTrickyInput(text: String) {
        let bytes = Array(text.utf8)
        #expect(LinkURL(parsing: bytes).recomposed() == bytes)
    }

    @Test func recomposedEqualsInputWithInvalidUTF8() {
        let bytes: [UInt8] = [0x68, 0x3A, 0x2F, 0x2F, 0xFF, 0x2F, 0xC0, 0x3F, 0x80, 0x23, 0xFE]
        #expect(LinkURL(parsing: bytes).recomposed() == bytes)
    }

    /// Bytes biased towards the delimiters, so that most random strings exercise the split.
    static let alphabet: [UInt8] = Array(":/?#@[]%.aAz09-+ ~!=&;".utf8) + [0x00, 0x09, 0x7F, 0x80, 0xC3, 0xA9, 0xFF]

    @Test func recomposedEqualsInputForManyGeneratedByteStrings() {
        var rng = SeededGenerator(seed: 0x5EED_3986)
        for _ in 0..<5_000 {
            let bytes = rng.bytes(from: Self.alphabet, maxLength: 40)
            let url = LinkURL(parsing: bytes)
            #expect(url.recomposed() == bytes, "input \(bytes)")
        }
    }

    @Test func recomposedEqualsInputForUniformlyRandomBytes() {
        var rng = SeededGenerator(seed: 42)
        for _ in 0..<2_000 {
            let bytes = rng.anyBytes(maxLength: 64)
            #expect(LinkURL(parsing: bytes).recomposed() == bytes, "input \(bytes)")
        }
    }

    @Test func splitMatchesTheAppendixBRegularExpression() {
        var rng = SeededGenerator(seed: 0xB)
        for _ in 0..<5_000 {
            let bytes = rng.bytes(from: Self.alphabet, maxLength: 40)
            let url = LinkURL(parsing: bytes)
            let expected = AppendixBSplit(bytes)
            let actual = AppendixBSplit.Parts(
                scheme: url.scheme, authority: url.authority, path: url.path, query: url.query, fragment: url.fragment)
            #expect(actual == expected.parts, "input \(bytes)")
        }
    }

    @Test func authorityIsUserinfoHostAndPortWithTheirDelimiters() throws {
        var rng = SeededGenerator(seed: 0xA07)
        for _ in 0..<5_000 {
            let bytes = rng.bytes(from: Self.alphabet, maxLength: 40)
            let url = LinkURL(parsing: bytes)
            guard let authority = url.authority else {
                #expect(url.userinfo == nil && url.host == nil && url.portRange == nil, "input \(bytes)")
                continue
            }
            // authority = [ userinfo "@" ] host [ ":" port ], in that order and covering every byte
            // (except garbage after a closing ']', which is reported).
            var rebuilt: [UInt8] = []
            if let userinfo = url.userinfo { rebuilt += bytes[userinfo] + [UInt8(ascii: "@")] }
            let host = try #require(url.host)
            rebuilt += bytes[host]
            if let port = url.portRange { rebuilt += [UInt8(ascii: ":")] + bytes[port] }
            if rebuilt != Array(bytes[authority]) {
                #expect(url.diagnostics.contains { $0.code == .invalidCharacter && $0.component == .host }, "input \(bytes)")
            } else {
                #expect(host.lowerBound == (url.userinfo.map { $0.upperBound + 1 } ?? authority.lowerBound), "input \(bytes)")
            }
            // The host starts after the last '@' of the authority.
            if let lastAt = bytes[authority].lastIndex(of: UInt8(ascii: "@")) {
                #expect(url.userinfo == authority.lowerBound..<lastAt, "input \(bytes)")
            } else {
                #expect(url.userinfo == nil, "input \(bytes)")
            }
        }
    }

    @Test func byteDiagnosticsPointAtTheByteTheyNameInsideTheirComponent() throws {
        var rng = SeededGenerator(seed: 0xD1A6)
        var checked = 0
        for _ in 0..<5_000 {
            let bytes = rng.bytes(from: Self.alphabet, maxLength: 40)
            let url = LinkURL(parsing: bytes)
            for d in url.diagnostics {
                checked += 1
                let byte = bytes[d.offset]
                switch d.code {
                case .space: #expect(byte == 0x20, "input \(bytes)")
                case .controlCharacter: #expect(byte < 0x20 || byte == 0x7F, "input \(bytes)")
                case .nonASCII:
                    #expect(byte >= 0x80, "input \(bytes)")
                    #expect(d.offset == 0 || bytes[d.offset - 1] < 0x80 || url.range(of: d.component!)?.lowerBound == d.offset,
                            "non-ASCII not reported at the start of its run: input \(bytes)")
                case .invalidPercentEscape: #expect(byte == UInt8(ascii: "%"), "input \(bytes)")
                default: continue
                }
                let range = try #require(url.range(of: d.component!))
                #expect(range.contains(d.offset), "input \(bytes)")
            }
        }
        #expect(checked >= 1_000, "the inputs produce diagnostics to check")
    }
}

extension AppendixBSplit {
    struct Parts: Equatable {
        var scheme: Range<Int>?
        var authority: Range<Int>?
        var path: Range<Int>
        var query: Range<Int>?
        var fragment: Range<Int>?
    }

    var parts: Parts { Parts(scheme: scheme, authority: authority, path: path, query: query, fragment: fragment) }
}
