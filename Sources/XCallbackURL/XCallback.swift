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
        // Written as one of the four, the name is compared as machine words (bytes 0-7 and,
        // for x-success, its last byte; x-error as bytes 0-3 and 3-6).
        if first == UInt8(ascii: "x"), name.count <= 9 {
            let at = UnsafeRawPointer(bytes.baseAddress! + name.lowerBound)
            func word(_ s: StaticString, _ offset: Int = 0) -> UInt64 { UnsafeRawPointer(s.utf8Start).loadUnaligned(fromByteOffset: offset, as: UInt64.self) }
            func half(_ s: StaticString, _ offset: Int) -> UInt32 { UnsafeRawPointer(s.utf8Start).loadUnaligned(fromByteOffset: offset, as: UInt32.self) }
            switch name.count {
            case 9:
                if at.loadUnaligned(as: UInt64.self) == word("x-success"), at.load(fromByteOffset: 8, as: UInt8.self) == UInt8(ascii: "s") { return .success }
            case 8:
                let w = at.loadUnaligned(as: UInt64.self)
                if w == word("x-cancel") { return .cancel }
                if w == word("x-source") { return .source }
            default:
                if at.loadUnaligned(as: UInt32.self) == half("x-error", 0), at.loadUnaligned(fromByteOffset: 3, as: UInt32.self) == half("x-error", 3) { return .error }
            }
        }
        // Without an escape, a name is its own decoding: not one of the four, as compared above.
        if ByteSearch.first(UInt8(ascii: "%"), in: bytes, from: name.lowerBound, to: name.upperBound) == name.upperBound { return nil }
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
