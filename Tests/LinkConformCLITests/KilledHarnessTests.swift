import Foundation
import Testing

/// `kill -9` of the harness itself (a CI job's timeout, the OOM killer): what is left of each
/// adapter's process group is ended with it, by the harness's group reaper, for `run` and
/// `fuzz` alike. Before it, the adapter was orphaned and one that does not read its input (the
/// audit's aasa-regex adapter, busy in a backtracking regex) ran on for as long as its work.
struct KilledHarnessTests {
    /// Whether `pid` has ended: no such process, or one that has exited and waits to be reaped
    /// (an orphan is reaped by pid 1, which in some containers never reaps).
    static func hasEnded(_ pid: pid_t) -> Bool {
        #if os(Linux)
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
        // The state follows the command name, which is in parentheses and may hold any character.
        let state = stat[(stat.lastIndex(of: ")") ?? stat.startIndex)...].dropFirst(2).first
        return state == "Z" || state == "X"
        #else
        return kill(pid, 0) != 0 && errno == ESRCH
        #endif
    }

    /// Waits, on a thread of its own (a loop that sleeps, not a timed task), until every one of
    /// `pids` has ended or `bound` has passed; returns those still there.
    static func remaining(_ pids: [pid_t], within bound: TimeInterval) async -> [pid_t] {
        await withCheckedContinuation { continuation in
            Thread {
                let deadline = Date().addingTimeInterval(bound)
                var left = pids.filter { !hasEnded($0) }
                while !left.isEmpty && Date() < deadline {
                    usleep(100_000)
                    left = left.filter { !hasEnded($0) }
                }
                continuation.resume(returning: left)
            }.start()
        }
    }

    static func pid(in file: String) -> pid_t? {
        (try? String(contentsOfFile: file, encoding: .utf8)).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    @Test(arguments: ["run", "fuzz"])
    func theAdaptersOfAHarnessKilledOutrightAreEnded(command: String) async throws {
        let dir = CLI.temporaryDirectory()
        let adapterFile = dir + "/adapter.pid", childFile = dir + "/child.pid"
        // The adapter never reads its input (so the end of it, when the harness dies, is not
        // seen), leaves a child in its group, and spins; it never exits on its own. Its pid is
        // written last, through a rename, so that both are there once it is.
        let adapter = "sh -c 'sleep 100000 & echo $! > \(childFile); echo $$ > \(adapterFile).new; mv \(adapterFile).new \(adapterFile); while :; do :; done'"
        let process = try CLI.launch([command, "--corpus", CLI.repository.appendingPathComponent("Corpus").path,
                                      "--db", dir + "/r.sqlite", "--reports", dir + "/reports", "--no-progress",
                                      "--adapter", adapter, "--start-timeout", "600"])
        let started = Date().addingTimeInterval(300)
        while Self.pid(in: adapterFile) == nil && Date() < started && process.isRunning {
            try await Task.sleep(for: .milliseconds(50))
        }
        let adapterPID = try #require(Self.pid(in: adapterFile), "the adapter did not start")
        let childPID = try #require(Self.pid(in: childFile))
        let stop = await CLI.signal(process, [SIGKILL], when: { true }, within: 0)
        try #require(stop.wasRunning, "the harness ended before the kill (status \(stop.status))")

        let killed = Date()
        let left = await Self.remaining([adapterPID, childPID], within: 15)
        #expect(left.isEmpty, "still running 15 s after the harness was killed: \(left) (adapter \(adapterPID), its child \(childPID))")
        if left.isEmpty { print("\(command): the adapter's group ended \(String(format: "%.2f", Date().timeIntervalSince(killed))) s after the harness was killed") }
        // Not left spinning by a failure (only a group still there: its number is not free).
        if !left.isEmpty { kill(-adapterPID, SIGKILL) }
    }
}
