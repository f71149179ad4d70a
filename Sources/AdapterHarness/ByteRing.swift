import Foundation

/// The last bytes written to it (an adapter's stderr tail), whatever the volume.
final class ByteRing: @unchecked Sendable {
    private let lock = NSLock()
    private let capacity: Int
    private var bytes: [UInt8] = []
    private var total = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
    }

    func append(_ chunk: ArraySlice<UInt8>) {
        lock.lock(); defer { lock.unlock() }
        total += chunk.count
        bytes.append(contentsOf: chunk.suffix(capacity))
        if bytes.count > capacity { bytes.removeFirst(bytes.count - capacity) }
    }

    /// The tail as text, with how much came before it.
    var text: String {
        lock.lock(); defer { lock.unlock() }
        guard total > 0 else { return "" }
        let shown = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return total > bytes.count ? "(\(total - bytes.count) earlier bytes dropped) ..." + shown : shown
    }
}
