import LinkURL

/// x-callback-url: reading action URLs, building them, and answering them.
///
/// Source: the x-callback-url 1.0 draft (revisions R1 to R3). The form is
/// `[scheme]://x-callback-url/[action]?[x-callback parameters]&[action parameters]`. Parameter
/// names are compared after percent-decoding, case-sensitively; each value is decoded exactly
/// once (`+` is data, not a space); callbacks must then be absolute URLs.
public enum XCallback {
    /// Reads a URL as an x-callback-url.
    public static func parse(_ url: [UInt8], limits: URLLimits = .default) -> XCallbackLink {
        var parser = XCallbackParser()
        return parser.run(LinkURL(parsing: url, limits: limits))
    }

    /// Reads a URL given as a string.
    public static func parse(_ url: String, limits: URLLimits = .default) -> XCallbackLink {
        parse(Array(url.utf8), limits: limits)
    }

    /// Which of the four x-callback parameters an item is, by its decoded name.
    @inlinable
    static func parameter(named item: QueryItem, in bytes: UnsafeBufferPointer<UInt8>) -> XCallbackParameter? {
        // Every name starts with "x-" (or its escape): a cheap test rules most items out.
        let name = item.name
        guard name.count >= 7 else { return nil }
        let first = bytes[name.lowerBound]
        guard first == UInt8(ascii: "x") || first == UInt8(ascii: "%") else { return nil }
        // Written without an escape, the name is its own decoding: its length and third letter
        // pick the one candidate, compared byte for byte. An escaped name is decoded by the
        // general comparisons below.
        if first == UInt8(ascii: "x"), name.count <= 9, bytes[name.lowerBound &+ 1] == UInt8(ascii: "-"),
           ByteSearch.first(UInt8(ascii: "%"), in: bytes, from: name.lowerBound &+ 2, to: name.upperBound) == name.upperBound {
            let candidate: XCallbackParameter
            switch (name.count, bytes[name.lowerBound &+ 2]) {
            case (9, UInt8(ascii: "s")): candidate = .success
            case (7, UInt8(ascii: "e")): candidate = .error
            case (8, UInt8(ascii: "c")): candidate = .cancel
            case (8, UInt8(ascii: "s")): candidate = .source
            default: return nil
            }
            let want = candidate.name.utf8Start
            var i = 3
            while i < name.count, bytes[name.lowerBound &+ i] == want[i] { i &+= 1 }
            return i == name.count ? candidate : nil
        }
        if item.name(in: bytes, equals: "x-success") { return .success }
        if item.name(in: bytes, equals: "x-error") { return .error }
        if item.name(in: bytes, equals: "x-cancel") { return .cancel }
        if item.name(in: bytes, equals: "x-source") { return .source }
        return nil
    }

    /// Bytes decoded once, as text (invalid UTF-8 replaced by U+FFFD).
    static func decodedText(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        PercentCodec.decodedText(UnsafeBufferPointer(rebasing: bytes[range]))
    }

    /// The same, from an array.
    static func decodedText(_ bytes: [UInt8], _ range: Range<Int>) -> String {
        PercentCodec.decodedText(bytes, in: range)
    }

    /// Whether a scheme's text is RFC 3986 scheme syntax: a letter, then letters, digits, `+`,
    /// `-` or `.`.
    public static func isValidScheme(_ scheme: String) -> Bool {
        func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z") }
        var bytes = scheme.utf8.makeIterator()
        guard let first = bytes.next(), isLetter(first) else { return false }
        while let b = bytes.next() {
            guard isLetter(b) || (b >= 0x30 && b <= 0x39) || b == 0x2B || b == 0x2D || b == 0x2E else { return false }
        }
        return true
    }
}
