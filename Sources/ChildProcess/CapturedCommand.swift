#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A command run to its end with its whole output kept: `git rev-parse`, a plan's `prepare`
/// step, the CLI under test. Started as a ``SpawnedProcess`` (a clean signal state, no stray
/// descriptors in either direction), so that a long-lived process started at the same moment
/// by another thread cannot hold this command's output pipe open and make reading it hang.
public struct CapturedCommand: Sendable {
    public let termination: SpawnedProcess.Termination
    public let stdout: [UInt8]
    public let stderr: [UInt8]

    /// The exit status, or 128 plus the signal number for a killed command (as a shell says it).
    public var status: Int32 { termination.exitStatus ?? 128 + (termination.signal ?? 0) }

    /// Runs `arguments` (the first looked up in PATH), writes `input` to its standard input
    /// and closes it, and reads both outputs to their end at the same time (so neither pipe
    /// fills up and blocks the command).
    public static func run(_ arguments: [String], input: [UInt8] = [], workingDirectory: String? = nil,
                           environment: [String: String] = [:]) throws -> CapturedCommand {
        StandardStreams.ignoreBrokenPipes()   // a command that stops reading its input must not end us
        let child = try SpawnedProcess(arguments: arguments, workingDirectory: workingDirectory, environment: environment)
        let writer = Thread {
            if !input.isEmpty { StandardStreams.write(input, to: child.input) }
            child.closeInput()
        }
        writer.start()
        nonisolated(unsafe) var errorBytes: [UInt8] = []
        let errorRead = DispatchSemaphore(value: 0)
        Thread {
            errorBytes = Self.readAll(child.error)
            errorRead.signal()
        }.start()
        let outputBytes = Self.readAll(child.output)
        errorRead.wait()
        let termination = child.waitForTermination()
        return CapturedCommand(termination: termination, stdout: outputBytes, stderr: errorBytes)
    }

    /// Reads a descriptor to its end of file.
    public static func readAll(_ fd: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 { bytes.append(contentsOf: buffer[0..<n]); continue }
            if n < 0 && errno == EINTR { continue }
            return bytes
        }
    }
}
