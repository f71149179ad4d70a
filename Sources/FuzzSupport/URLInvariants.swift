import LinkURL

/// `LinkURL` on arbitrary bytes: ranges inside the input and in order, nothing lost in the
/// split (recomposing gives the input back), diagnostics inside the input and in order, query
/// items that tile the query. (The codec checks of each value are in the query-diff target.)
enum URLInvariants {
    static func check(_ input: UnsafeBufferPointer<UInt8>, _ p: inout Problems) {
        let bytes = Array(input)
        let url = LinkURL(parsing: bytes)
        if url.isOverLimit {
            p.check(url.diagnostics.map(\.code) == [.tooLong], "an over-long input has only the too-long diagnostic")
            return
        }
        checkRanges(url, &p)
        // Nothing lost: the components and their delimiters tile the input (what recomposing
        // them, RFC 3986 section 5.3, would rebuild), checked without building it.
        if !tiles(url) {
            let recomposed = url.recomposed()
            p.check(recomposed == bytes, "recomposing the components gives the input back")
            p.check(LinkURL(parsing: recomposed).scan == url.scan, "splitting the recomposed input again gives the same components")
        }
        checkDiagnostics(url, &p)
        checkQuery(url, &p)
    }

    static func checkRanges(_ url: LinkURL, _ p: inout Problems) {
        let n = url.bytes.count
        var previousEnd = 0
        for component in [url.scheme, url.authority, Optional(url.path), url.query, url.fragment] {
            guard let r = component else { continue }
            p.check(r.lowerBound >= previousEnd && r.upperBound <= n, "components are inside the input and in order", "\(r) after \(previousEnd)")
            previousEnd = r.upperBound
        }
        if let authority = url.authority {
            for part in [url.userinfo, url.host, url.portRange] {
                guard let r = part else { continue }
                p.check(r.lowerBound >= authority.lowerBound && r.upperBound <= authority.upperBound, "userinfo, host and port are inside the authority")
            }
        } else {
            p.check(url.userinfo == nil && url.host == nil && url.portRange == nil, "no userinfo, host or port without an authority")
        }
    }

    static func checkDiagnostics(_ url: LinkURL, _ p: inout Problems) {
        var previous = -1
        for d in url.diagnostics {
            p.check(d.offset >= 0 && d.offset <= url.bytes.count, "diagnostic offsets are inside the input (or at its end, for what is missing)")
            p.check(d.offset >= previous, "diagnostics come in input order")
            previous = d.offset
        }
        p.check(url.diagnostics.count <= URLLimits.default.maxDiagnostics, "at most the limit of diagnostics is kept")
        // The scheme is checked first, so its diagnostic is never the one dropped.
        p.check(url.hasValidScheme == (url.isAbsolute && !url.diagnostics.contains { $0.code == .invalidScheme }),
                "a valid scheme is a scheme without an invalid-scheme diagnostic")
    }

    static func checkQuery(_ url: LinkURL, _ p: inout Problems) {
        guard let query = url.query else {
            var any = false
            url.forEachQueryItem { _ in any = true }
            p.check(!any, "no query items without a query")
            return
        }
        // Items tile the query: each starts one byte after the previous one ended.
        var expectedStart = query.lowerBound
        var items = 0
        url.bytes.withUnsafeBufferPointer { b in
            url.forEachQueryItem { item in
                items += 1
                p.check(item.range.lowerBound == expectedStart, "query items follow each other, separated by one '&'")
                p.check(item.range.upperBound <= query.upperBound, "query items end inside the query")
                if let value = item.value {
                    p.check(value.lowerBound == item.name.upperBound + 1 && b[item.name.upperBound] == UInt8(ascii: "="), "a value starts after the first '='")
                    p.check(!b[item.name].contains(UInt8(ascii: "=")), "a name holds no '='")
                }
                expectedStart = item.range.upperBound + 1
            }
        }
        p.check(items >= 1 && expectedStart == query.upperBound + 1, "the items cover the whole query")
    }

    /// Whether scheme ":", "//" authority, path, "?" query and "#" fragment follow each other
    /// from the first byte to the last.
    static func tiles(_ url: LinkURL) -> Bool {
        let b = url.bytes
        var k = 0
        if let scheme = url.scheme {
            guard scheme.lowerBound == 0, scheme.upperBound < b.count, b[scheme.upperBound] == UInt8(ascii: ":") else { return false }
            k = scheme.upperBound + 1
        }
        if let authority = url.authority {
            guard authority.lowerBound == k + 2, b[k] == UInt8(ascii: "/"), b[k + 1] == UInt8(ascii: "/") else { return false }
            k = authority.upperBound
        }
        guard url.path.lowerBound == k || (url.path.isEmpty && url.path.lowerBound == 0) else { return false }
        k = max(k, url.path.upperBound)
        if let query = url.query {
            guard query.lowerBound == k + 1, b[k] == UInt8(ascii: "?") else { return false }
            k = query.upperBound
        }
        if let fragment = url.fragment {
            guard fragment.lowerBound == k + 1, b[k] == UInt8(ascii: "#") else { return false }
            k = fragment.upperBound
        }
        return k == b.count
    }
}
