import Crypto

/// SHA-256 digests as lower-case hexadecimal, computed by swift-crypto: the corpus fingerprint
/// recorded with every run, and the names of reproducer files.
///
/// ```swift
/// SHA256.hex(Array("abc".utf8))
/// // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
/// ```
public enum SHA256 {
    /// The digest of `bytes` as 64 lower-case hexadecimal digits.
    public static func hex(_ bytes: some Sequence<UInt8>) -> String {
        hex(digest: Crypto.SHA256.hash(data: Array(bytes)))
    }

    /// The digest of a text's UTF-8 bytes, read in place (no copy of a large text).
    public static func hex(utf8 text: String) -> String {
        var text = text
        return text.withUTF8 { hex(digest: Crypto.SHA256.hash(data: UnsafeRawBufferPointer($0))) }
    }

    /// A finished digest as 64 lower-case hexadecimal digits.
    public static func hex(digest: Crypto.SHA256.Digest) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(Crypto.SHA256.Digest.byteCount * 2)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
