#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Finding one byte value in a buffer: short ranges byte by byte, long ones with the C
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
            while k < to, base[k] != byte { k &+= 1 }
            return k
        }
        guard let found = memchr(base + from, Int32(byte), to - from) else { return to }
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }
}
