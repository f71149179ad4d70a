import LinkURL

/// SHA-256 certificate fingerprints as statement lists write them: 32 octets, each two
/// upper-case hexadecimal digits, joined by `:` (95 characters). The official compatibility
/// tests refuse lower case, 31 octets, characters that are not hex and the empty string.
///
/// ```swift
/// AssetLinksFingerprint.problem(in: "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5")   // nil
/// AssetLinksFingerprint.canonical("146de983c5730650d8eeb9952f34fc6416a08342e61dbea88a0496b23fcf44e5")   // "14:6D:E9:...:E5"
/// ```
public enum AssetLinksFingerprint {
    /// Why `text` is not a fingerprint as a statement must write it, or nil when it is one.
    public static func problem(in text: String) -> String? {
        let b = Array(text.utf8)
        if b.isEmpty { return "the fingerprint is empty" }
        let groups = b.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        if let bad = b.first(where: { !isHex($0) && $0 != UInt8(ascii: ":") }) {
            let shown = bad < 0x80 && bad >= 0x20 ? "'\(Character(Unicode.Scalar(bad)))'" : hexByte(bad)
            return "it contains \(shown), which is neither a hexadecimal digit nor ':'"
        }
        if groups.contains(where: { $0.count != 2 }) {
            return "every octet must be two hexadecimal digits separated by ':'"
                + (groups.count == 1 && b.count == 64 ? " (it is written without colons)" : "")
        }
        if groups.count != 32 {
            return "it has \(groups.count) octets; a SHA-256 fingerprint has 32" + (groups.count == 20 ? " (20 octets is a SHA-1 fingerprint)" : "")
        }
        if b.contains(where: { $0 >= 0x61 && $0 <= 0x66 }) {
            return "it has lower-case hexadecimal digits; statements write them in upper case"
        }
        return nil
    }

    /// A fingerprint given by a caller (the app's signing certificate) in canonical form:
    /// colons optional, either case; nil when it is not 32 octets of hex.
    public static func canonical(_ text: String) -> String? {
        // Stops at the first byte that rules the text out (a hostile text can be megabytes).
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for c in text.utf8 where c != UInt8(ascii: ":") {
            guard hex.count < 64, isHex(c) else { return nil }
            hex.append(c)
        }
        guard hex.count == 64 else { return nil }
        var out = ""
        for (i, c) in hex.enumerated() {
            if i > 0 && i % 2 == 0 { out.append(":") }
            out.unicodeScalars.append(Unicode.Scalar(c >= 0x61 ? c - 0x20 : c))
        }
        return out
    }

    static func isHex(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66)
    }

    static func hexByte(_ byte: UInt8) -> String {
        let hex = Array("0123456789ABCDEF".unicodeScalars)
        return "the byte 0x" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0xF)])
    }
}

/// Relation strings: `<kind>/<detail>`, each part one or more of `a-z`, `0-9`, `_`, `.`.
public enum AssetLinksRelationFormat {
    /// What is wrong with `relation` as a relation string, or nil.
    public static func problem(in relation: String) -> String? {
        let parts = relation.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            return parts.count == 1 ? "it has no '/' between kind and detail" : "it has more than one '/'"
        }
        func allowed(_ c: UInt8) -> Bool { (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39) || c == 0x5F || c == 0x2E }
        if parts[0].isEmpty || !parts[0].allSatisfy(allowed) {
            return "its kind \"\(String(decoding: parts[0], as: UTF8.self))\" is not one or more of a-z, 0-9, '_' and '.'"
        }
        if parts[1].isEmpty || !parts[1].allSatisfy(allowed) {
            return "its detail \"\(String(decoding: parts[1], as: UTF8.self))\" is not one or more of a-z, 0-9, '_' and '.'"
        }
        return nil
    }
}

/// Package names (application IDs).
enum AssetLinksPackageName {
    /// MUST level: empty, or a character outside ASCII letters, digits, `_` and `.`.
    static func invalid(_ name: String) -> String? {
        if name.isEmpty { return "the package name is empty" }
        if let bad = name.unicodeScalars.first(where: { !($0.isASCII && (isLetter($0) || isDigit($0) || $0 == "_" || $0 == ".")) }) {
            return "it contains \(bad == " " ? "a space" : "'\(bad)'"), which a package name cannot hold"
        }
        return nil
    }

    /// SHOULD level: a shape Android does not install (one segment, an empty segment, or a
    /// segment that does not start with a letter), so no app can match the statement.
    static func unusual(_ name: String) -> String? {
        let segments = name.unicodeScalars.split(separator: ".", omittingEmptySubsequences: false)
        if segments.count < 2 { return "it has a single segment; Android application IDs have at least two, like com.example" }
        if segments.contains(where: \.isEmpty) { return "it has an empty segment" }
        if let s = segments.first(where: { !isLetter($0.first!) }) {
            return "the segment \"\(String(String.UnicodeScalarView(s)))\" does not start with a letter"
        }
        return nil
    }

    static func isLetter(_ c: Unicode.Scalar) -> Bool { (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") }
    static func isDigit(_ c: Unicode.Scalar) -> Bool { c >= "0" && c <= "9" }
}

/// An http(s) URL split by LinkURL, for sites, includes and matched URLs.
struct AssetLinksWebURL {
    let url: LinkURL
    let scheme: String
    let host: String

    /// The URL when it is absolute http or https with a host and valid RFC 3986 syntax.
    init?(_ text: String) {
        let url = LinkURL(parsing: text)
        guard url.isAbsolute, let schemeText = url.text(of: .scheme)?.lowercased(), schemeText == "http" || schemeText == "https",
              let host = url.normalizedHost, !host.isEmpty, url.diagnostics.isEmpty else { return nil }
        self.url = url
        scheme = schemeText
        self.host = host.hasSuffix(".") ? String(host.dropLast()) : host
    }

    /// Why `text` is not such a URL.
    static func problem(_ text: String) -> String {
        let url = LinkURL(parsing: text)
        guard url.isAbsolute, let scheme = url.text(of: .scheme) else { return "it is not an absolute URL (no scheme)" }
        if !["http", "https"].contains(scheme.lowercased()) { return "its scheme \"\(scheme)\" is not http or https" }
        if let d = url.diagnostics.first { return d.message }
        return "it has no host"
    }

    var defaultPort: Int { scheme == "https" ? 443 : 80 }

    /// `scheme://host[:port]`, the port only when it is not the scheme's default.
    var origin: String {
        if let port = url.port, port != defaultPort { return "\(scheme)://\(host):\(port)" }
        return "\(scheme)://\(host)"
    }
}
