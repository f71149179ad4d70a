import ChildProcess
import Foundation
import TestScratch

/// Runs the built `linkconform` binary, as a user or a CI job would.
enum CLI {
    struct Result: Sendable {
        let status: Int32
        let stdout: String
        let stderr: String
        /// From the command's start to its exit (not counting the wait for a slot).
        let elapsed: Duration
        var output: String { stdout + stderr }
    }

    /// How many commands run at once. Unbounded, a full test run on two cores had dozens of
    /// `linkconform` processes at a time, each took minutes of wall time, and tests that only
    /// check that a command returned saw over 120 s. A command waits for a slot on a dispatch
    /// thread (never one of Swift concurrency's), and its ``Result/elapsed`` leaves the wait out.
    static let slots = DispatchSemaphore(value: max(2, ProcessInfo.processInfo.activeProcessorCount * 2))

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The binary built with the tests (the test target depends on it), next to the test bundle.
    static let binary: String = {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("linkconform").path,
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("linkconform").path,
            repository.appendingPathComponent(".build/debug/linkconform").path,
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates.last!
    }()

    /// Runs the binary on a dispatch queue, so that waiting for it never blocks the threads that
    /// Swift concurrency (and the other tests) run on.
    static func run(_ arguments: [String], stdin: Data? = nil, in directory: String? = nil) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Swift.Result { try runBlocking(arguments, stdin: stdin, in: directory) })
            }
        }
    }

    /// Runs another program (looked up in PATH) the same way.
    static func runTool(_ command: [String]) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Swift.Result { try runBlocking(command, stdin: nil, in: nil, program: "/usr/bin/env") })
            }
        }
    }

    /// Started through ``CapturedCommand`` (posix_spawn, close-on-exec pipes, no inherited
    /// descriptors): with Foundation's `Process`, a long-lived child another test starts at the
    /// same moment inherits this command's output pipe, and reading it to its end waits for
    /// that other child (seen in CI: a 60 s poll of `report --list` that never returned).
    static func runBlocking(_ arguments: [String], stdin: Data? = nil, in directory: String?, program: String = binary) throws -> Result {
        let command = program == "/usr/bin/env" ? arguments : [program] + arguments
        slots.wait()
        defer { slots.signal() }
        let started = ContinuousClock.now
        let result = try CapturedCommand.run(command, input: Array(stdin ?? Data()), workingDirectory: directory ?? repository.path)
        return Result(status: result.status, stdout: String(decoding: result.stdout, as: UTF8.self),
                      stderr: String(decoding: result.stderr, as: UTF8.self), elapsed: started.duration(to: .now))
    }

    /// Starts the binary without waiting for it (a run a test interrupts or kills), its output
    /// discarded: nothing to read, so no pipe to leak into other tests' children.
    static func launch(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.currentDirectoryURL = repository
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// What ``signal(_:_:when:within:settle:watchdog:)`` saw.
    struct Stop: Sendable {
        /// Whether the process was still running when the signals were sent.
        let wasRunning: Bool
        /// When they were sent.
        let signalled: Date
        /// From the signals to the process's end, in seconds.
        let seconds: Double
        let status: Int32
        let reason: Process.TerminationReason
    }

    /// Sends `signals` to `process` once `ready` holds (polled every 20 ms, for at most `within`
    /// seconds) and `settle` seconds more have passed, then waits for it to end; one that has
    /// not ended `watchdog` seconds later is killed, so a test fails rather than hangs.
    ///
    /// All of it runs on a thread of its own. Polling from a task, or waiting in
    /// `waitUntilExit` on one, depends on (or holds) one of Swift concurrency's few threads: two
    /// on a two-core machine, which other tests blocked in such waits kept busy for minutes in a
    /// loaded CI run, so that a signal meant for the middle of a run came after its end.
    static func signal(_ process: Process, _ signals: [Int32], when ready: @escaping @Sendable () -> Bool, within: TimeInterval,
                       settle: TimeInterval = 0, watchdog: TimeInterval = 120) async -> Stop {
        nonisolated(unsafe) let process = process
        return await withCheckedContinuation { continuation in
            let thread = Thread {
                let deadline = Date().addingTimeInterval(within)
                while process.isRunning && !ready() && Date() < deadline { usleep(20_000) }
                if settle > 0 { usleep(useconds_t(settle * 1_000_000)) }
                let wasRunning = process.isRunning
                let signalled = Date()
                for signal in signals { kill(process.processIdentifier, signal) }
                let guardian = DispatchWorkItem { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
                DispatchQueue.global().asyncAfter(deadline: .now() + watchdog, execute: guardian)
                process.waitUntilExit()
                guardian.cancel()
                continuation.resume(returning: Stop(wasRunning: wasRunning, signalled: signalled, seconds: Date().timeIntervalSince(signalled),
                                                    status: process.terminationStatus, reason: process.terminationReason))
            }
            thread.start()
        }
    }

    static func temporaryDirectory() -> String {
        TestScratch.folder("cli")
    }
}
