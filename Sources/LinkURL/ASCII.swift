/// ASCII helpers over bytes, with no Foundation.
enum ASCII {
    @inlinable
    static func lower(_ b: UInt8) -> UInt8 {
        b >= 0x41 && b <= 0x5A ? b | 0x20 : b
    }

    /// RFC 3986 section 6.2.2.1 case normalisation of a host: letters lower-cased, the hex
    /// digits of percent escapes upper-cased.
    static func normalizedHost(_ bytes: ArraySlice<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var escape = 0
        for b in bytes {
            if escape > 0 {
                out.append(b >= 0x61 && b <= 0x66 ? b - 0x20 : b)
                escape -= 1
            } else {
                if b == UInt8(ascii: "%") { escape = 2 }
                out.append(lower(b))
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// Validation of bracketed hosts: IPv6 addresses (RFC 3986 section 3.2.2) and IPvFuture.
enum IPLiteral {
    static func isValid(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Bool {
        guard !r.isEmpty else { return false }
        if b[r.lowerBound] | 0x20 == UInt8(ascii: "v") { return isValidFuture(b, r) }
        return isValidIPv6(Array(b[r]))
    }

    /// "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
    static func isValidFuture(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Bool {
        var k = r.lowerBound + 1
        let hexStart = k
        while k < r.upperBound, ByteClass.hexValue(b[k]) != nil { k += 1 }
        guard k > hexStart, k < r.upperBound, b[k] == UInt8(ascii: ".") else { return false }
        k += 1
        guard k < r.upperBound else { return false }
        while k < r.upperBound {
            let c = b[k]
            guard ByteClass.table[Int(c)] & (ByteClass.unreserved | ByteClass.subDelim) != 0 || c == UInt8(ascii: ":") else { return false }
            k += 1
        }
        return true
    }

    static func isValidIPv6(_ s: [UInt8]) -> Bool {
        // Split on "::" at most once; count 16-bit groups; an IPv4 tail counts as two groups.
        var groups = 0
        var sawDoubleColon = false
        var k = 0
        let n = s.count
        if n >= 2, s[0] == UInt8(ascii: ":"), s[1] == UInt8(ascii: ":") {
            sawDoubleColon = true
            k = 2
            if k == n { return true }
        } else if n > 0, s[0] == UInt8(ascii: ":") {
            return false
        }
        while k < n {
            // Read a group: up to 4 hex digits, or an IPv4 address at the end.
            let start = k
            while k < n, ByteClass.hexValue(s[k]) != nil { k += 1 }
            if k < n, s[k] == UInt8(ascii: ".") {
                guard isValidIPv4(s[start..<n]) else { return false }
                groups += 2
                k = n
                break
            }
            let len = k - start
            guard len >= 1 && len <= 4 else { return false }
            groups += 1
            if k == n { break }
            guard s[k] == UInt8(ascii: ":") else { return false }
            k += 1
            if k < n, s[k] == UInt8(ascii: ":") {
                guard !sawDoubleColon else { return false }
                sawDoubleColon = true
                k += 1
                if k == n { break }
            } else if k == n {
                return false
            }
        }
        return sawDoubleColon ? groups <= 7 : groups == 8
    }

    static func isValidIPv4(_ s: ArraySlice<UInt8>) -> Bool {
        var parts = 0
        var value = 0
        var digits = 0
        for c in s {
            if c == UInt8(ascii: ".") {
                guard digits > 0 else { return false }
                parts += 1
                value = 0
                digits = 0
                continue
            }
            guard c >= 0x30 && c <= 0x39 else { return false }
            if digits > 0 && value == 0 { return false }   // no leading zeros
            value = value * 10 + Int(c - 0x30)
            digits += 1
            guard value <= 255 else { return false }
        }
        return digits > 0 && parts == 3
    }
}
