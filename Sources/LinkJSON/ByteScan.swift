/// Finding the bytes that end a run of plain string content, eight bytes at a time.
///
/// JSON strings are mostly plain text; reading and writing them byte by byte costs more than
/// anything else in a protocol line with a long link in it. A word of eight bytes is tested at
/// once for the bytes that matter (SWAR: "SIMD within a register"), and only a word that has
/// one is looked at byte by byte.
enum ByteScan {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// Whether some byte of `x` is zero (exact).
    @inline(__always)
    private static func hasZero(_ x: UInt64) -> Bool {
        (x &- ones) & ~x & highs != 0
    }

    /// The index of the first byte in `start..<end` that is a control character (below 0x20),
    /// `"` or `\`; when `forWriting`, also DEL (0x7F) and the first byte of every UTF-8
    /// sequence that may spell a hidden character the writer escapes (0xC2: C1 controls, 0xD8:
    /// U+061C, 0xE2: bidirectional controls, line separators, U+200B and U+2060, 0xEF: U+FEFF,
    /// U+FFFE and U+FFFF).
    /// `end` when there is none.
    @inline(__always)
    static func firstSpecial(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int, forWriting: Bool) -> Int {
        var i = start
        let raw = UnsafeRawPointer(base)
        while i &+ 8 <= end {
            let x = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            // Below 0x20 (exact for a bound of at most 0x80), a quote, a backslash.
            var special = (x &- ones &* 0x20) & ~x & highs != 0
            special = special || hasZero(x ^ (ones &* 0x22)) || hasZero(x ^ (ones &* 0x5C))
            if forWriting {
                special = special || hasZero(x ^ (ones &* 0x7F))
                // Any byte of 0x80 or more, then the four lead bytes: plain ASCII words skip the four tests.
                if x & highs != 0 {
                    special = special || hasZero(x ^ (ones &* 0xC2)) || hasZero(x ^ (ones &* 0xD8))
                        || hasZero(x ^ (ones &* 0xE2)) || hasZero(x ^ (ones &* 0xEF))
                }
            }
            if special { break }
            i &+= 8
        }
        while i < end {
            let b = base[i]
            if b < 0x20 || b == 0x22 || b == 0x5C { return i }
            if forWriting && (b == 0x7F || b == 0xC2 || b == 0xD8 || b == 0xE2 || b == 0xEF) { return i }
            i &+= 1
        }
        return end
    }
}
