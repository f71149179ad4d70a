#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Finding one byte value in a buffer: short ranges eight bytes at a time, long ones with the C
/// library's `memchr`, which looks at many bytes per step but costs a call to start.
public enum ByteSearch {
    /// Ranges up to this many bytes are searched inline.
    @usableFromInline static let inlineLimit = 24

    /// The index of the first `byte` in `b[from..<to]`, or `to` when there is none.
    @inlinable
    public static func first(_ byte: UInt8, in b: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int {
        guard from < to, let base = b.baseAddress else { return to }
        if to - from <= inlineLimit {
            var k = from
            // Eight bytes at a time: in the word XORed with the byte in every lane, the first
            // zero lane is the first match (the lowest bit this test sets is always exact; the
            // lanes above a match may be set spuriously, and are not looked at).
            let lanes: UInt64 = 0x0101_0101_0101_0101
            let pattern = UInt64(byte) &* lanes
            while k &+ 8 <= to {
                let v = UInt64(littleEndian: UnsafeRawPointer(base + k).loadUnaligned(as: UInt64.self)) ^ pattern
                let zero = (v &- lanes) & ~v & (lanes &<< 7)
                if zero != 0 { return k &+ zero.trailingZeroBitCount &>> 3 }
                k &+= 8
            }
            while k < to, base[k] != byte { k &+= 1 }
            return k
        }
        guard let found = memchr(base + from, Int32(byte), to - from) else { return to }
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }
}
