import Foundation
import LinkURL

/// `LinkURL` query items against Foundation's `URLComponents.percentEncodedQueryItems`, on inputs
/// both accept: valid UTF-8, no RFC 3986 syntax diagnostic of ours, and a URL Foundation parses.
/// Every disagreement is a listed, explained difference (below) or a finding. On every input,
/// each query value also goes through the codec (decode(encode(v)) == v) and the nested-URL
/// reading (the same bytes as the codec).
enum QueryDifferential {
    /// Known, explained differences: when one applies, the input is not compared.
    static let explained: [(name: String, applies: @Sendable (LinkURL) -> Bool, why: String)] = [
        ("empty query", { url in url.query?.isEmpty == true },
         "Foundation reports no items for '?', where RFC 3986 reading gives one empty item"),
    ]

    static func check(_ input: UnsafeBufferPointer<UInt8>, _ p: inout Problems) {
        let bytes = Array(input)
        let url = LinkURL(parsing: bytes)
        checkValues(url, &p)
        guard !url.isOverLimit, url.scan.firstSyntaxDiagnostic == nil, url.query != nil,
              UTF8Validation.isValid(input) else { return }
        guard let components = URLComponents(string: String(decoding: bytes, as: UTF8.self)) else { return }
        guard !explained.contains(where: { $0.applies(url) }) else { return }
        let theirs = (components.percentEncodedQueryItems ?? []).map { [$0.name, $0.value] }
        let items = url.queryItems
        let ours: [[String?]] = items.map { [items.rawName($0), items.rawValue($0)] }
        p.check(ours == theirs, "query items agree with Foundation's percentEncodedQueryItems", "ours \(ours), Foundation's \(theirs)")
    }

    /// decode(encode(v)) == v for each value, and the nested-URL reading decodes the same bytes.
    static func checkValues(_ url: LinkURL, _ p: inout Problems) {
        url.bytes.withUnsafeBufferPointer { b in
            url.forEachQueryItem { item in
                guard let value = item.value else { return }
                let decoded = PercentCodec.decode(b[value])
                let encoded = PercentCodec.encodeComponent(decoded)
                p.check(PercentCodec.decode(Array(encoded.utf8)) == decoded, "decoding an encoded value gives the value back")
                p.check(isEncodedComponent(Array(encoded.utf8)), "an encoded value holds only unreserved characters and %XX escapes")
                let nested = NestedURL(in: url.bytes, value: value)
                p.check(nested.decodedBytes == decoded, "a nested value decodes to the same bytes as the codec")
            }
        }
    }

    /// Only unreserved characters (RFC 3986 section 2.3) and `%` with two upper-case hex digits.
    static func isEncodedComponent(_ bytes: [UInt8]) -> Bool {
        var k = 0
        while k < bytes.count {
            let c = bytes[k]
            if c == UInt8(ascii: "%") {
                guard k + 2 < bytes.count, isUpperHex(bytes[k + 1]), isUpperHex(bytes[k + 2]) else { return false }
                k += 3
                continue
            }
            let unreserved = (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A)
                || c == UInt8(ascii: "-") || c == UInt8(ascii: ".") || c == UInt8(ascii: "_") || c == UInt8(ascii: "~")
            guard unreserved else { return false }
            k += 1
        }
        return true
    }

    static func isUpperHex(_ c: UInt8) -> Bool { (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) }
}
