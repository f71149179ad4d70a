import SeededRandom
import LinkURL
import Testing

/// UTF-8 validation per RFC 3629 (no overlong forms, no surrogates, nothing above U+10FFFF).
struct UTF8ValidationTests {
    func isValid(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { UTF8Validation.isValid($0) }
    }

    /// Swift's own UTF-8 decoder, as the reference.
    func swiftAccepts(_ bytes: [UInt8]) -> Bool {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    @Test(arguments: [
        [], [0x00], [0x41, 0x7F],
        [0xC2, 0x80],                 // U+0080, smallest two-byte
        [0xDF, 0xBF],                 // U+07FF
        [0xE0, 0xA0, 0x80],           // U+0800, smallest three-byte
        [0xED, 0x9F, 0xBF],           // U+D7FF, just below the surrogates
        [0xEE, 0x80, 0x80],           // U+E000, just above the surrogates
        [0xEF, 0xBF, 0xBF],           // U+FFFF
        [0xF0, 0x90, 0x80, 0x80],     // U+10000, smallest four-byte
        [0xF4, 0x8F, 0xBF, 0xBF],     // U+10FFFF, the last scalar
        [0xC3, 0xA9, 0x41, 0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0x98, 0x80],
    ] as [[UInt8]])
    func validSequencesAreAccepted(bytes: [UInt8]) {
        #expect(isValid(bytes))
    }

    @Test(arguments: [
        [0x80], [0xBF],                          // lone continuation bytes
        [0xC0, 0x80], [0xC1, 0xBF],              // overlong two-byte
        [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF],  // overlong three-byte
        [0xF0, 0x80, 0x80, 0x80], [0xF0, 0x8F, 0xBF, 0xBF],  // overlong four-byte
        [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF],  // surrogates U+D800, U+DFFF
        [0xF4, 0x90, 0x80, 0x80],                // U+110000
        [0xF5, 0x80, 0x80, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80], [0xFE], [0xFF],
        [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98], // truncated at the end
        [0x41, 0xC3],                            // truncated after valid text
        [0xC3, 0x41], [0xE2, 0x82, 0x41], [0xF0, 0x9F, 0x98, 0x41], [0xE2, 0x41, 0x82],  // bad continuation
        [0xC3, 0xA9, 0xA9],                      // one continuation too many
    ] as [[UInt8]])
    func invalidSequencesAreRejected(bytes: [UInt8]) {
        #expect(!isValid(bytes))
    }

    @Test func agreesWithSwiftOnUniformlyRandomBytes() {
        var rng = SeededGenerator(seed: 3629)
        for _ in 0..<5_000 {
            let bytes = rng.anyBytes(maxLength: 12)
            #expect(isValid(bytes) == swiftAccepts(bytes), "bytes \(bytes)")
        }
    }

    @Test func agreesWithSwiftOnMutatedValidText() {
        var rng = SeededGenerator(seed: 0xF4_8F_BF_BF)
        let ranges: [ClosedRange<UInt32>] = [0x00...0x7F, 0x80...0x7FF, 0x800...0xD7FF, 0xE000...0xFFFF, 0x10000...0x10FFFF]
        var sawValid = 0, sawInvalid = 0
        for _ in 0..<5_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...6, using: &rng) {
                let range = ranges.randomElement(using: &rng)!
                let scalar = Unicode.Scalar(UInt32.random(in: range, using: &rng))!
                bytes += Array(String(Character(scalar)).utf8)
            }
            // Half the time, damage one byte: replace it, drop it, or insert a stray one.
            if !bytes.isEmpty, Bool.random(using: &rng) {
                let at = Int.random(in: 0..<bytes.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: bytes[at] = UInt8.random(in: 0x80...0xFF, using: &rng)
                case 1: bytes.remove(at: at)
                default: bytes.insert(UInt8.random(in: 0x80...0xFF, using: &rng), at: at)
                }
            }
            let expected = swiftAccepts(bytes)
            if expected { sawValid += 1 } else { sawInvalid += 1 }
            #expect(isValid(bytes) == expected, "bytes \(bytes)")
        }
        // The generator must produce both kinds, or the comparison says little.
        #expect(sawValid > 1_000)
        #expect(sawInvalid > 1_000)
    }

    @Test func validatesBufferSlicesOnly() {
        let bytes: [UInt8] = [0xC3, 0xA9, 0xC3]
        #expect(bytes[0..<2].withUnsafeBufferPointer { UTF8Validation.isValid($0) })
        #expect(!bytes.withUnsafeBufferPointer { UTF8Validation.isValid($0) })
    }
}
