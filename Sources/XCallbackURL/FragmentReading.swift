import LinkURL

/// Why a link of a protocol whose form has no fragment has one, and what the fragment hid: the
/// same question for every callback protocol (ULC-7, XCB-4, XQR-D14), answered once.
///
/// A `#` ends the query, so whatever follows it is invisible to every query reader. When the
/// last value before it is a URL written raw, the `#` is most likely that URL's own, left
/// unencoded; when that value is encoded, its own `#` would have been encoded too, so the
/// fragment belongs to the link. Parameters after the `#` (`x-error=...`) are lost either way.
///
/// ```swift
/// let url = LinkURL(parsing: "s://x-callback-url/a?x-success=b://c#top&x-error=e%3A%2F%2Ff")
/// let reading = FragmentReading(url, parameters: ["x-success", "x-error"])!
/// reading.cut           // "x-success": its raw URL's own '#' cut it short
/// reading.swallowed     // [("x-error", "e%3A%2F%2Ff")]
/// ```
public struct FragmentReading: Sendable, Hashable {
    /// Offset of the `#` in the link.
    public let hash: Int
    /// The name (decoded once) of the last query parameter before the `#`, when its value is a
    /// URL written raw (a raw `:` or `/`, no escapes): the parameter most likely cut short.
    public let cut: String?
    /// Whether the last value before the `#` is percent-encoded, so its own `#` would have been
    /// encoded: then the fragment is the link's own.
    public let afterEncodedValue: Bool
    /// The protocol's parameters found in the fragment, in order, with their values as written.
    public let swallowed: [Swallowed]

    public struct Swallowed: Sendable, Hashable {
        public let name: String
        public let value: String
    }

    /// Reads `url`'s fragment, looking for the names in `parameters`; nil when there is none.
    public init?(_ url: borrowing LinkURL, parameters: [String]) {
        guard let fragment = url.fragment else { return nil }
        hash = fragment.lowerBound - 1
        var last: QueryItem?
        url.forEachQueryItem { if !$0.range.isEmpty { last = $0 } }
        var cut: String?
        var encoded = false
        if let last, let value = last.value, !value.isEmpty {
            let bytes = url.bytes[value]
            let raw = bytes.contains(UInt8(ascii: ":")) || bytes.contains(UInt8(ascii: "/"))
            encoded = bytes.contains(UInt8(ascii: "%"))
            if raw && !Self.hasEncodedDelimiter(bytes) {
                cut = PercentCodec.decodedText(url.bytes, in: last.name)
                encoded = false
            }
        }
        self.cut = cut
        afterEncodedValue = cut == nil && encoded
        var found: [Swallowed] = []
        for piece in url.bytes[fragment].split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let equals = piece.firstIndex(of: UInt8(ascii: "=")) ?? piece.endIndex
            let written = piece[piece.startIndex..<equals]
            // A name without escapes is compared as written; only one with escapes is decoded
            // (a fragment of a hostile link may hold thousands of pieces).
            let name: String
            if written.contains(UInt8(ascii: "%")) {
                name = String(decoding: PercentCodec.decode(written), as: UTF8.self)
                guard parameters.contains(name) else { continue }
            } else {
                guard let known = parameters.first(where: { $0.utf8.elementsEqual(written) }) else { continue }
                name = known
            }
            let value = equals < piece.endIndex ? String(decoding: piece[(equals + 1)...], as: UTF8.self) : ""
            found.append(Swallowed(name: name, value: value))
        }
        swallowed = found
    }

    /// `%3A`, `%2F` or `%23` (any letter case): a URL that was percent-encoded.
    static func hasEncodedDelimiter(_ bytes: ArraySlice<UInt8>) -> Bool {
        var i = bytes.startIndex
        while i + 2 < bytes.endIndex {
            if bytes[i] == UInt8(ascii: "%") {
                let pair = (bytes[i + 1], bytes[i + 2] | 0x20)
                if pair == (UInt8(ascii: "3"), UInt8(ascii: "a")) || pair == (UInt8(ascii: "2"), UInt8(ascii: "f"))
                    || pair == (UInt8(ascii: "2"), UInt8(ascii: "3")) { return true }
            }
            i += 1
        }
        return false
    }

    /// The fragment in words, for a protocol whose form (`form`: "the ULC form") has none.
    ///
    /// ```swift
    /// reading.message(form: "the x-callback-url form")
    /// // "the URL has a fragment ('#' at byte 36); the x-callback-url form has none: most likely
    /// //  x-success's own '#' left unencoded, which cut x-success short; ..."
    /// ```
    public func message(form: String, subject: String = "link") -> String {
        var text = "the \(subject) has a fragment ('#' at byte \(hash)); \(form) has none"
        if let cut {
            text += ": most likely \(cut)'s own '#' left unencoded (its URL is written raw), which cut \(cut) short"
        } else if afterEncodedValue {
            text += ", and receivers drop it: the value before it is percent-encoded, so a '#' of its own would have been encoded too; this is most likely the \(subject)'s own fragment"
        } else {
            text += ", and receivers drop it"
        }
        if !swallowed.isEmpty {
            let names = swallowed.map(\.name)
            text += "; the fragment swallowed \(names.joined(separator: " and ")) (" + swallowed.map { "\($0.name)=\(CallbackInspection.shortened($0.value))" }.joined(separator: ", ")
                + "), which no reader sees as a parameter: encode the '#' as %23 so that \(names.count == 1 ? "it is" : "they are") read"
        }
        return text
    }

    /// A note for a parameter that is absent from the query but sits in the fragment.
    public func note(for name: String) -> String? {
        swallowed.first { $0.name == name }.map {
            "absent from the query: it is in the fragment after the '#' at byte \(hash) ('\(CallbackInspection.shortened($0.value))'), where no reader sees it"
        }
    }
}
