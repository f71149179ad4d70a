#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Finding one byte value in a buffer with the C library's `memchr`, which looks at many bytes
/// per step: the query splitter's separators are far apart.
public enum ByteSearch {
    /// The index of the first `byte` in `b[from..<to]`, or `to` when there is none.
    @inlinable
    public static func first(_ byte: UInt8, in b: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int {
        guard from < to, let base = b.baseAddress else { return to }
        guard let found = memchr(base + from, Int32(byte), to - from) else { return to }
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }
}
