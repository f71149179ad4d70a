import Foundation

/// Runs the built `linkconform` binary, as a user or a CI job would.
enum CLI {
    struct Result: Sendable {
        let status: Int32
        let stdout: String
        let stderr: String
        var output: String { stdout + stderr }
    }

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

    static func runBlocking(_ arguments: [String], stdin: Data? = nil, in directory: String?, program: String = binary) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory ?? repository.path)
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        // Read both pipes concurrently so a full pipe never blocks the child.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data(), errData = Data()
        group.enter()
        DispatchQueue.global().async { outData = out.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        errData = err.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    static func temporaryDirectory() -> String {
        let path = NSTemporaryDirectory() + "linkconform-cli-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
