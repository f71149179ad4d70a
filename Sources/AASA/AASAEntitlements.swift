/// Associated Domains entitlement entries for `applinks` (contract, "Entitlements").
///
/// ```swift
/// AASAEntitlements.entry(for: "www.example.com",
///                        in: ["applinks:*.example.com", "applinks:www.example.com?mode=developer"])
/// // "applinks:www.example.com?mode=developer"
/// ```
public enum AASAEntitlements {
    /// What one entry says, when it is a well-formed `applinks:` entry.
    public struct Entry: Sendable, Hashable {
        /// The host as written, without `*.`.
        public let host: String
        public let isWildcard: Bool
        /// `developer`, `managed`, `developer+managed`, or nil.
        public let mode: String?

        /// The length that ranks entries: the host as written, `*.` included.
        public var length: Int { host.utf8.count + (isWildcard ? 2 : 0) }

        /// Whether the entry applies to `host`: exactly (ASCII case-insensitively), or for a
        /// wildcard, to subdomains at any depth but not the host itself.
        public func applies(to host: String) -> Bool {
            if !isWildcard { return asciiLowercasedEqual(host, self.host) }
            let target = asciiLowercased(host), mine = asciiLowercased(self.host)
            return target.utf8.count > mine.utf8.count + 1 && target.utf8.hasSuffix("." + mine)
        }
    }

    /// Reads `applinks:<host>[?mode=developer|managed|developer+managed]`; nil for any other
    /// service, and for entries that apply to nothing: an empty host, a path or trailing slash,
    /// a port, another query, a `*` other than a leading `*.`.
    public static func read(_ entry: String) -> Entry? {
        guard entry.utf8.starts(with: "applinks:".utf8) else { return nil }
        var rest = Substring(entry.dropFirst("applinks:".count))
        var mode: String?
        // In ASCII text every byte is a character of its own but for CR LF, so the first '?'
        // byte is the first "?" character; a search by characters costs grapheme breaking at
        // every step (most of this function's time on a long entry).
        let ascii = rest.utf8.allSatisfy { $0 < 0x80 }
        if let q = ascii ? rest.utf8.firstIndex(of: UInt8(ascii: "?")) : rest.firstIndex(of: "?") {
            let query = rest[rest.index(after: q)...]
            guard ["mode=developer", "mode=managed", "mode=developer+managed"].contains(String(query)) else { return nil }
            mode = String(query.dropFirst(5))
            rest = rest[..<q]
        }
        var wildcard = false
        if rest.hasPrefix("*.") {
            wildcard = true
            rest = rest.dropFirst(2)
        }
        guard !rest.isEmpty, !rest.utf8.contains(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "*")
            || $0 == UInt8(ascii: "#") || $0 == UInt8(ascii: "@") || $0 <= 0x20 }) else { return nil }
        return Entry(host: String(rest), isWildcard: wildcard, mode: mode)
    }

    /// The entry that applies to `host`: the one whose host, as written, is longest (a
    /// wildcard's `*.` counts); between entries of the same length, the first listed (decided).
    public static func entry(for host: String, in entries: [String]) -> String? {
        var best: (entry: String, length: Int)?
        for entry in entries {
            guard let e = read(entry), e.applies(to: host) else { continue }
            if best == nil || e.length > best!.length { best = (entry, e.length) }
        }
        return best?.entry
    }
}

extension String.UTF8View {
    func hasSuffix(_ suffix: String) -> Bool {
        let s = Array(suffix.utf8), me = Array(self)
        return me.count >= s.count && Array(me[(me.count - s.count)...]) == s
    }
}
