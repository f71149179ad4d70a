import LinkURL
import Testing

/// ByteSearch.first against a plain loop: ranges of every length up to past the inline limit,
/// the byte at every place or absent, among bytes one above and below it, zero and 0x80-0xFF
/// (the eight-byte test's borrows could otherwise report a lane after the match, or a lane
/// that is not one), and the byte just outside the range.
struct ByteSearchTests {
    @Test func findsTheFirstMatchLikeAPlainLoop() {
        for target: UInt8 in [0x00, 0x01, 0x25, 0x26, 0x3D, 0x7F, 0x80, 0xFE, 0xFF] {
            let others: [UInt8] = [target &- 1, target &+ 1, 0x00, 0x80, 0xFF, target ^ 0x80, 0x61]
                .filter { $0 != target }
            for length in 0...40 {
                for place in -1..<length {
                    for other in others {
                        var bytes = [UInt8](repeating: other, count: length + 3)
                        // The byte also just outside the range, where the search must not look.
                        bytes[0] = target; bytes[length + 1] = target; bytes[length + 2] = target
                        if place >= 0 { bytes[place + 1] = target }
                        if place >= 0, place + 3 < length { bytes[place + 4] = target }   // a later match too
                        let from = 1, to = length + 1
                        let want = (from..<to).first { bytes[$0] == target } ?? to
                        let got = bytes.withUnsafeBufferPointer { ByteSearch.first(target, in: $0, from: from, to: to) }
                        #expect(got == want, "target \(target), length \(length), place \(place), other \(other)")
                    }
                }
            }
        }
    }
}
