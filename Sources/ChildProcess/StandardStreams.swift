#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writing to a descriptor whose reader may have gone: `linkconform run | head -2`, an adapter
/// whose harness stopped reading its stderr, a child that stopped reading its input.
///
/// Foundation's `FileHandle.write(_:)` traps when the write fails (with SIGPIPE ignored, as
/// the harness must, a closed pipe is an EPIPE error), and the default SIGPIPE ends the process
/// mid-way. Here a write that cannot go through is dropped and the caller goes on, so a run
/// whose output is cut short still finishes and stores its results.
public enum StandardStreams {
    /// Writes all of `bytes` to `fd`, again after a signal; stops, quietly, at the first other
    /// failure (a reader that has gone). Returns whether every byte was written.
    @discardableResult
    public static func write(_ bytes: [UInt8], to fd: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { systemWrite(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else { return false }
        }
        return true
    }

    /// The same for text, as UTF-8.
    @discardableResult
    public static func write(_ text: String, to fd: Int32) -> Bool {
        write(Array(text.utf8), to: fd)
    }

    /// Makes a write to a pipe nobody reads fail with EPIPE instead of ending the process.
    public static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }
}

/// The system's `write` (named apart from ``StandardStreams/write(_:to:)``).
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, bytes, count)
}
