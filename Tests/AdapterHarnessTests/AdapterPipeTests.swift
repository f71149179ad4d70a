import Conformance
import Foundation
import LinkJSON
import Testing
@testable import AdapterHarness

/// How bytes cross the pipes, below the zoo's behaviours: lines that reads cut anywhere, and
/// requests larger than the adapter's input pipe holds, sent by completions as a pipelined run
/// sends them.
@Suite(.serialized)
struct AdapterPipeTests {
    /// What ``AdapterProcess/readLines(fd:maxLine:_:)`` hands over when `pieces` are written
    /// one at a time with a pause between them (so that reads end inside lines).
    func lines(_ pieces: [String], maxLine: Int = 1 << 20) -> [String] {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            Issue.record("no pipe")
            return []
        }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        let writer = Thread {
            for piece in pieces {
                let bytes = Array(piece.utf8)
                _ = bytes.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
                usleep(30_000)
            }
            close(writeEnd)
        }
        writer.start()
        var seen: [String] = []
        AdapterProcess.readLines(fd: readEnd, maxLine: maxLine) { events in
            for event in events {
                switch event {
                case .line(let bytes): seen.append(String(decoding: bytes, as: UTF8.self))
                case .tooLong(let n): seen.append("too long: \(n)")
                }
            }
        }
        close(readEnd)
        return seen
    }

    @Test func linesAreTheSameWhereverAReadEnds() {
        #expect(lines(["ab", "c\nx\ny\nde", "f\n\ng", "h"]) == ["abc", "x", "y", "def", "", "gh"])
        #expect(lines(["one\ntwo\n", "three\n"]) == ["one", "two", "three"])
    }

    @Test func aLineOverTheLimitIsReportedAsItPassesItEvenAcrossReads() {
        let x50 = String(repeating: "x", count: 50)
        #expect(lines([x50, x50 + "\nok\n", String(repeating: "y", count: 70) + "\nend"], maxLine: 64)
                == ["too long: 100", "ok", "too long: 70", "end"])
        // The rest of a dropped line is dropped up to its newline, across reads too (the length
        // reported is where the read that passed the limit ended).
        let dropped = lines([String(repeating: "z", count: 80), "zzz", "z\nafter\n"], maxLine: 64)
        #expect(dropped.count == 2 && dropped.first?.hasPrefix("too long: ") == true && dropped.last == "after", "\(dropped)")
    }

    /// Requests sent one after another by the completions of earlier ones (on the thread that
    /// read their answers), each 400 KB: a few fill the adapter's input pipe, which the
    /// adapter empties slowly, so the completions' writes stop part-way and the rest follows.
    @Test func requestsLargerThanThePipeFromCompletionsArriveWhole() async throws {
        let zoo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/zoo.py").path
        let adapter = AdapterImplementation(AdapterConfiguration(arguments: ["python3", zoo, "slow", "5"], timeout: .seconds(30),
                                                                 startTimeout: .seconds(10), window: 4))
        _ = try await adapter.start()
        let chain = Chain(adapter: adapter, total: 12)
        let answers = await withCheckedContinuation { chain.start(window: 4, $0) }
        #expect(answers.count == 12)
        for (id, answer) in answers { #expect(answer == .output(["echo": .string(id)]), "\(id)") }
        await adapter.stop()
    }

    /// Adapters that stop reading their input while requests larger than the pipe wait to be
    /// written: the writes wait for them on threads of their own, not on Swift's cooperative
    /// pool (as many threads as cores), which would otherwise be held by them until their
    /// timeout, and every other task with it.
    @Test func adaptersThatStopReadingDoNotHoldTheTaskPool() async throws {
        let zoo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/zoo.py").path
        let count = ProcessInfo.processInfo.activeProcessorCount + 1
        var adapters: [AdapterImplementation] = []
        for _ in 0..<count {
            let adapter = AdapterImplementation(AdapterConfiguration(arguments: ["python3", zoo, "hang-all"], timeout: .seconds(30),
                                                                     startTimeout: .seconds(10), window: 8))
            _ = try await adapter.start()
            adapters.append(adapter)
        }
        // Five requests of 400 KB each: the adapter reads the first and sleeps, the rest fill
        // its 1 MiB input pipe and the write waits.
        let padding = String(repeating: "a", count: 400_000)
        for adapter in adapters {
            for n in 0..<5 {
                adapter.run(Request(caseID: "big-\(n)", operation: "ulc.parse", input: ["link": .string("https://a.example/" + padding)])) { _ in }
            }
        }
        // Half a second for the writes to start waiting; then this task and a new one need a
        // thread of the pool (with the writes waiting on it, both waited for the adapters'
        // 30-second timeout).
        let started = ContinuousClock.now
        try await Task.sleep(for: .milliseconds(500))
        let answered = await Task.detached { 42 }.value
        let waited = started.duration(to: .now)
        #expect(answered == 42)
        // The failure this guards against waits for the 30 s timeout; under a full test run
        // on two cores, a free pool can still take seconds to give this task a turn.
        #expect(waited < .seconds(20), "tasks waited \(waited) for a thread of the pool")
        for adapter in adapters { await adapter.stop() }
    }

    /// Sends `total` requests, `window` at a time, each completion sending the next.
    final class Chain: @unchecked Sendable {
        let adapter: AdapterImplementation
        let total: Int
        let padding = String(repeating: "a", count: 400_000)
        let lock = NSLock()
        var sent = 0
        var answers: [String: Answer] = [:]
        var done: CheckedContinuation<[String: Answer], Never>?

        init(adapter: AdapterImplementation, total: Int) {
            self.adapter = adapter
            self.total = total
        }

        func start(window: Int, _ c: CheckedContinuation<[String: Answer], Never>) {
            lock.withLock { done = c }
            for _ in 0..<window { sendNext() }
        }

        func sendNext() {
            let n: Int? = lock.withLock {
                guard sent < total else { return nil }
                sent += 1
                return sent
            }
            guard let n else { return }
            let id = "big-\(n)"
            adapter.run(Request(caseID: id, operation: "ulc.parse", input: ["link": .string("https://a.example/" + padding)])) { answer in
                let finished: (CheckedContinuation<[String: Answer], Never>, [String: Answer])? = self.lock.withLock {
                    self.answers[id] = answer
                    guard self.answers.count == self.total, let c = self.done else { return nil }
                    self.done = nil
                    return (c, self.answers)
                }
                if let (c, answers) = finished { c.resume(returning: answers) }
                self.sendNext()
            }
        }
    }
}
