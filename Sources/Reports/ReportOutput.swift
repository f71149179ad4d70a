import Foundation

/// Where a report's text goes while it is written: a file (or stdout), through a buffer that is
/// written out every 64 KiB, or memory (``text``, for tests and callers that want a string).
/// Reports write line by line into it, so a report of any size needs only the buffer.
public final class ReportOutput {
    /// Bytes gathered before a write to the file.
    static let bufferBytes = 1 << 16

    private var buffer: [UInt8] = []
    private let handle: FileHandle?

    /// Text for `handle`; call ``flush()`` at the end.
    public init(handle: FileHandle) {
        self.handle = handle
        buffer.reserveCapacity(Self.bufferBytes)
    }

    /// Text kept in memory, read back with ``text``.
    public init() {
        handle = nil
    }

    /// Appends `text` (written out once the buffer is full).
    public func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if handle != nil, buffer.count >= Self.bufferBytes { try flush() }
    }

    /// Appends UTF-8 `bytes`.
    public func write(utf8 bytes: [UInt8]) throws {
        buffer.append(contentsOf: bytes)
        if handle != nil, buffer.count >= Self.bufferBytes { try flush() }
    }

    /// Appends `text` and a line feed.
    public func line(_ text: String = "") throws {
        try write(text)
        try write("\n")
    }

    /// Writes out what the buffer holds (nothing to do in memory).
    public func flush() throws {
        guard let handle, !buffer.isEmpty else { return }
        try handle.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    /// What was written, when in memory.
    public var text: String {
        String(decoding: buffer, as: UTF8.self)
    }

    /// Runs `write` into memory and returns the text.
    static func string(_ write: (ReportOutput) throws -> Void) rethrows -> String {
        let output = ReportOutput()
        try write(output)
        return output.text
    }
}
