/// The byte tables that drive ``URLScan``: one row of byte kinds per component.
enum URLScanner {
    /// What a byte means in a component (the entries of ``kinds``). Single bits, tested with
    /// `&`, so the hot loop is a few predictable branches rather than a jump table.
    enum Kind {
        static let plain: UInt8 = 0
        static let percent: UInt8 = 0x01
        /// Ends the component (`?` or `#` in a path, `#` in a query).
        static let end: UInt8 = 0x08
        static let nonASCII: UInt8 = 0x10
        static let space: UInt8 = 0x20
        static let control: UInt8 = 0x40
        static let invalid: UInt8 = 0x80
    }

    /// Row offsets into ``kinds``.
    enum Row {
        static let userinfo = 0
        static let host = 256
        static let path = 512
        static let query = 768
        static let fragment = 1024
        static let scheme = 1280
        /// Bytes in all the rows.
        static let end = 1536
    }

    /// All tables in one block, built once and never freed, so a scan reads them through
    /// plain pointers after a single lazy-initialisation check: the kind rows, then the hex
    /// values, then ``NestedURL``'s byte kinds, then the ``Delimiter`` bits.
    nonisolated(unsafe) static let block: UnsafePointer<UInt8> = pointer(to: kinds + hex + NestedURL.kindTable + delimiters)

    /// What the split looks for while it finds the scheme and the authority (the entries of
    /// ``delimiters``): one table lookup per byte rather than four or five comparisons, which
    /// libFuzzer's comparison tracing also made a call each.
    enum Delimiter {
        /// `/`, `?` or `#`: ends the scheme search and the authority.
        static let ends: UInt8 = 1
        static let colon: UInt8 = 2
        static let at: UInt8 = 4
    }

    static let delimiters: [UInt8] = (0..<256).map { b -> UInt8 in
        switch UInt8(b) {
        case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"): Delimiter.ends
        case UInt8(ascii: ":"): Delimiter.colon
        case UInt8(ascii: "@"): Delimiter.at
        default: 0
        }
    }
    static var kindsPointer: UnsafePointer<UInt8> { block }

    /// The pointers, fetched once per scan and handed down.
    struct Tables {
        let kinds: UnsafePointer<UInt8>
        let hex: UnsafePointer<UInt8>
        let nested: UnsafePointer<UInt8>
        let delimiters: UnsafePointer<UInt8>
        static var current: Tables {
            let b = block
            return Tables(kinds: b, hex: b + Row.end, nested: b + Row.end + 256, delimiters: b + Row.end + 512)
        }
    }

    static func pointer(to table: [UInt8]) -> UnsafePointer<UInt8> {
        let p = UnsafeMutablePointer<UInt8>.allocate(capacity: table.count)
        p.initialize(from: table, count: table.count)
        return UnsafePointer(p)
    }

    static let kinds: [UInt8] = {
        var t = [UInt8](repeating: 0, count: Row.end)
        for row in [Row.userinfo, Row.host, Row.path, Row.query, Row.fragment] {
            let component: URLComponent = switch row {
            case Row.userinfo: .userinfo
            case Row.host: .host
            case Row.path: .path
            case Row.query: .query
            default: .fragment
            }
            for b in 0..<256 {
                let byte = UInt8(b)
                let kind: UInt8
                if byte >= 0x80 { kind = Kind.nonASCII }
                else if byte == 0x20 { kind = Kind.space }
                else if byte < 0x20 || byte == 0x7F { kind = Kind.control }
                else if byte == UInt8(ascii: "%") { kind = Kind.percent }
                else if ByteClass.isAllowed(byte, in: component) { kind = Kind.plain }
                else { kind = Kind.invalid }
                t[row + b] = kind
            }
        }
        for b in 0..<256 { t[Row.scheme + b] = ByteClass.table[b] & ByteClass.scheme != 0 ? Kind.plain : Kind.invalid }
        t[Row.path + Int(UInt8(ascii: "?"))] = Kind.end
        t[Row.path + Int(UInt8(ascii: "#"))] = Kind.end
        t[Row.query + Int(UInt8(ascii: "#"))] = Kind.end
        return t
    }()

    /// Hexadecimal digit values; 0xFF for other bytes.
    static let hex: [UInt8] = (0..<256).map { ByteClass.hexValue(UInt8($0)) ?? 0xFF }
}

/// The splitting and checking core: one pass per component, driven by the byte tables, writing
/// straight into the scan (no intermediate struct to copy).
extension URLScan {
    typealias Kind = URLScanner.Kind
    typealias Row = URLScanner.Row

    mutating func run(_ b: UnsafeBufferPointer<UInt8>) {
        let t = URLScanner.Tables.current
        let n = b.count
        var pos = 0

        // Scheme: the text before the first ':' if no '/', '?' or '#' comes first.
        let delimiters = t.delimiters
        var i = 0
        while i < n {
            let d = delimiters[Int(b[i])]
            if d & (URLScanner.Delimiter.ends | URLScanner.Delimiter.colon) == 0 {
                i += 1
                continue
            }
            if d == URLScanner.Delimiter.colon {
                if i > 0 {
                    spans.scheme = Span(0..<i)
                    pos = i + 1
                } else {
                    // Neither a URI (no scheme before ':') nor a relative reference (whose first
                    // segment may not hold ':', RFC 3986 section 4.2).
                    add(.invalidScheme, 0, .scheme)
                }
            }
            break
        }
        // Components are read through `spans` (plain integers) inside the scan: reading them
        // through the scan's own getters from a mutating method made the compiler copy the
        // whole scan, diagnostics array included, and release the copy, on every link.
        if let scheme = spans.scheme.range { checkScheme(b, scheme, t) }

        // Authority: after "//", up to the next '/', '?' or '#'. One pass also finds the last
        // '@' (the host starts after it: an earlier '@' is an invalid userinfo byte, and the host
        // is then what a WHATWG reader would connect to, the safe reading) and the first ':' after it.
        if pos + 1 < n, b[pos] == UInt8(ascii: "/"), b[pos + 1] == UInt8(ascii: "/") {
            var end = pos + 2
            var lastAt = -1
            var colon = -1
            while end < n {
                let d = delimiters[Int(b[end])]
                if d != 0 {
                    if d == URLScanner.Delimiter.ends { break }
                    if d == URLScanner.Delimiter.at { lastAt = end; colon = -1 } else if colon < 0 { colon = end }
                }
                end &+= 1
            }
            spans.authority = Span((pos + 2)..<end)
            splitAuthority(b, (pos + 2)..<end, lastAt: lastAt, colon: colon, t)
            pos = end
        }

        let pathEnd = scan(b, from: pos, row: Row.path, component: .path, t)
        spans.path = Span(pos..<pathEnd)
        pos = pathEnd
        if pos < n, b[pos] == UInt8(ascii: "?") {
            let queryEnd = scan(b, from: pos + 1, row: Row.query, component: .query, t)
            spans.query = Span((pos + 1)..<queryEnd)
            pos = queryEnd
        }
        if pos < n, b[pos] == UInt8(ascii: "#") {
            spans.fragment = Span((pos + 1)..<n)
            _ = scan(b, from: pos + 1, row: Row.fragment, component: .fragment, t)
        }
    }

    static func isFileScheme(_ b: UnsafeBufferPointer<UInt8>, _ scheme: Span) -> Bool {
        guard scheme.lower == 0, scheme.upper == 4 else { return false }
        return (b[0] | 0x20) == UInt8(ascii: "f") && (b[1] | 0x20) == UInt8(ascii: "i")
            && (b[2] | 0x20) == UInt8(ascii: "l") && (b[3] | 0x20) == UInt8(ascii: "e")
    }

    /// Checks bytes from `start` until a byte of kind ``Kind/end`` (or the end of input) and
    /// returns where the component ends. With `splitting`, records query items on the way.
    mutating func scan(_ b: UnsafeBufferPointer<UInt8>, from start: Int, to limit: Int? = nil, row: Int,
                       component: URLComponent, _ t: URLScanner.Tables) -> Int {
        let n = limit ?? b.count
        let kinds = t.kinds
        let hex = t.hex
        var j = start
        // Plain bytes and valid escapes are the hot path: bit tests, no switch, so the loop
        // compiles to a few predictable branches per byte.
        while j < n {
            // Four plain bytes at a time: one test for the common run of letters and digits.
            // When the four are not all plain, step to the first that is not: going back a
            // byte at a time tried the same four-byte test again before each plain byte.
            while j &+ 4 <= n {
                let k0 = kinds[row &+ Int(b[j])], k1 = kinds[row &+ Int(b[j &+ 1])]
                let k2 = kinds[row &+ Int(b[j &+ 2])], k3 = kinds[row &+ Int(b[j &+ 3])]
                if k0 | k1 | k2 | k3 == 0 {
                    j &+= 4
                    continue
                }
                if k0 == 0 { j &+= k1 != 0 ? 1 : k2 != 0 ? 2 : 3 }
                break
            }
            guard j < n else { break }
            let kind = kinds[row &+ Int(b[j])]
            if kind == 0 { j &+= 1; continue }
            if kind & Kind.percent != 0 {
                if j &+ 2 < n, hex[Int(b[j &+ 1])] != 0xFF, hex[Int(b[j &+ 2])] != 0xFF {
                    j &+= 3
                } else {
                    add(.invalidPercentEscape, j, component)
                    j &+= 1
                }
                continue
            }
            if kind & Kind.end != 0 { return j }
            j = unusual(b, kind, at: j, end: n, component: component)
        }
        return n
    }

    /// Records a diagnostic for a byte that does not belong in the component; returns where to go on.
    @inline(never)
    mutating func unusual(_ b: UnsafeBufferPointer<UInt8>, _ kind: UInt8, at j: Int, end n: Int, component: URLComponent) -> Int {
        switch kind {
        case Kind.nonASCII:
            add(.nonASCII, j, component)
            // One diagnostic per run of non-ASCII bytes (one character is 2 to 4 bytes).
            var k = j
            while k < n, b[k] >= 0x80 { k += 1 }
            return k
        case Kind.space: add(.space, j, component)
        case Kind.control: add(.controlCharacter, j, component)
        default: add(.invalidCharacter, j, component)
        }
        return j + 1
    }

    mutating func checkScheme(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>, _ t: URLScanner.Tables) {
        let s = r.lowerBound
        if r.count == 5 {
            isHTTPS = (b[s] | 0x20) == UInt8(ascii: "h") && (b[s &+ 1] | 0x20) == UInt8(ascii: "t")
                && (b[s &+ 2] | 0x20) == UInt8(ascii: "t") && (b[s &+ 3] | 0x20) == UInt8(ascii: "p")
                && (b[s &+ 4] | 0x20) == UInt8(ascii: "s")
            if isHTTPS {   // a valid scheme: nothing more to check
                hasValidScheme = true
                return
            }
        }
        let first = b[s] | 0x20
        if first < UInt8(ascii: "a") || first > UInt8(ascii: "z") {
            add(.invalidScheme, s, .scheme)
            return
        }
        var k = s &+ 1
        while k < r.upperBound {
            if t.kinds[Row.scheme &+ Int(b[k])] != Kind.plain {
                add(.invalidScheme, k, .scheme)
                return
            }
            k &+= 1
        }
        hasValidScheme = true
    }

    mutating func splitAuthority(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>, lastAt: Int, colon: Int, _ t: URLScanner.Tables) {
        var hostStart = r.lowerBound
        if lastAt >= 0 {
            spans.userinfo = Span(r.lowerBound..<lastAt)
            hostStart = lastAt + 1
            _ = scan(b, from: r.lowerBound, to: lastAt, row: Row.userinfo, component: .userinfo, t)
        }

        if hostStart < r.upperBound, b[hostStart] == UInt8(ascii: "[") {
            var close = hostStart + 1
            while close < r.upperBound, b[close] != UInt8(ascii: "]") { close += 1 }
            var hostEnd = r.upperBound
            if close < r.upperBound {
                hostEnd = close + 1
                if !IPLiteral.isValid(b, (hostStart + 1)..<close) { add(.invalidIPLiteral, hostStart, .host) }
            } else {
                add(.invalidIPLiteral, hostStart, .host)
            }
            spans.host = Span(hostStart..<hostEnd)
            if hostEnd < r.upperBound {
                if b[hostEnd] == UInt8(ascii: ":") {
                    spans.port = Span((hostEnd + 1)..<r.upperBound)
                } else {
                    add(.invalidCharacter, hostEnd, .host)
                }
            }
        } else {
            let hostEnd = colon >= 0 ? colon : r.upperBound
            spans.host = Span(hostStart..<hostEnd)
            _ = scan(b, from: hostStart, to: hostEnd, row: Row.host, component: .host, t)
            if colon >= 0 { spans.port = Span((colon + 1)..<r.upperBound) }
        }
        if let host = spans.host.range, host.isEmpty, !Self.isFileScheme(b, spans.scheme) { add(.emptyHost, host.lowerBound, .host) }
        if let port = spans.port.range {
            var value = 0
            for j in port {
                let c = b[j]
                guard c >= 0x30 && c <= 0x39 else {
                    add(.invalidPort, j, .port)
                    return
                }
                value = min(value * 10 + Int(c - 0x30), 100_000)
            }
            if value > 65_535 { add(.invalidPort, port.lowerBound, .port) }
        }
    }
}
