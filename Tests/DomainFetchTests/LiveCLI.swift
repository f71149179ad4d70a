import ChildProcess
import Foundation
import LinkJSON

/// `linkconform` as a user runs it, in a process of its own: a live check's timeouts then count
/// its own work, not the threads the rest of the test run keeps busy.
enum LiveCLI {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
        /// From the process's start to its end: not the wait for a thread to start it on, which
        /// a full test run can make long.
        var elapsed: Duration = .zero

        /// The standard output as JSON (for `--json` runs).
        func json() throws -> JSONValue { try JSONParser.parse(Array(stdout.utf8)) }
    }

    /// The binary built with the tests (this target depends on it), next to the test bundle.
    static let binary: String = {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("linkconform").path,
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("linkconform").path,
            repository.appendingPathComponent(".build/debug/linkconform").path,
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates.last!
    }()

    static func run(_ arguments: [String]) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Swift.Result {
                    let started = ContinuousClock.now
                    let r = try CapturedCommand.run([binary] + arguments)
                    return Result(status: r.status, stdout: String(decoding: r.stdout, as: UTF8.self), stderr: String(decoding: r.stderr, as: UTF8.self),
                                  elapsed: started.duration(to: .now))
                })
            }
        }
    }

    /// Short timeouts, so that the slow cases end in seconds (connect 5 s, read 3 s, total 6 s).
    static let timeouts = ["--connect-timeout", "5", "--read-timeout", "3", "--total-timeout", "6"]

    /// `check --domain HOST.lc.test` against one of the fixture's servers (port 1 of the
    /// loopback, where nothing listens, for `.nothing`).
    static func check(_ host: String, on server: LiveServers.Server = .nginx, _ extra: [String] = []) async throws -> Result {
        let servers = try await LiveServers.shared()
        let domain = "\(host).\(servers.domain)"
        return try await run(["check", "--domain", domain, "--resolve", "\(domain):127.0.0.1", "--port", String(servers.port(server)),
                              "--ca-file", servers.caFile] + timeouts + extra)
    }
}
