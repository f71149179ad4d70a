import Foundation
import LinkJSON

/// An implementation in another process, reached through the adapter protocol.
///
/// The harness survives its adapters. Each kind of misbehaviour becomes a recorded outcome and
/// the run carries on:
/// - no answer within the timeout: that case is `timedOut`; the adapter is restarted;
/// - the process dies: the case it was running is `crashed`; the adapter is restarted;
/// - a line that is not JSON, not an object, too long, or carries a seq never asked: the case
///   outstanding is a `protocolError`; the adapter is restarted;
/// - an answer with none or two of output/skipped/errored: that case is a `protocolError`;
/// - a second answer for a case already answered: that case becomes a `protocolError` (an
///   amendment, see ``takeAmendments()``).
/// When several requests are outstanding and an event cannot be pinned on one of them (a crash, a
/// garbled line), each of them is sent again on its own, so that only the culprit is blamed.
/// After `maxRestarts` restarts the adapter is given up and the remaining cases are `notRun`.
public final class AdapterImplementation: Implementation, @unchecked Sendable {
    public let configuration: AdapterConfiguration

    private enum Attempt {
        case answer(Answer)
        /// The outcome could not be pinned on this request: send it again, alone.
        case retryAlone(String)
        /// There was no process to send the request to.
        case retry
    }

    private struct Pending {
        let continuation: CheckedContinuation<Attempt, Never>
        let caseID: String
        let deadline: ContinuousClock.Instant
        let generation: Int
    }

    private struct StartWaiter {
        let continuation: CheckedContinuation<Result<(ImplementationInfo, Set<String>), ImplementationError>, Never>
        let generation: Int
        let deadline: ContinuousClock.Instant
    }

    private let lock = NSLock()
    private let gate = AsyncGate()
    private var process: AdapterProcess?
    private var generation = 0
    private var launches = 0
    private var starting = false
    private var startWaiters: [CheckedContinuation<Void, Never>] = []
    private var startWaiter: StartWaiter?
    private var identity: ImplementationInfo?
    private var pending: [Int: Pending] = [:]
    private var answered: [Int: String] = [:]
    private var nextSeq = 1
    private var gaveUp: String?
    private var notesList: [String] = []
    private var amendments: [Amendment] = []
    private var stopped = false

    public init(_ configuration: AdapterConfiguration) {
        self.configuration = configuration
        signal(SIGPIPE, SIG_IGN)   // a dead adapter must not take the harness with it
        let watchdog = Thread { [weak self] in
            while let self, !self.isStopped {
                self.checkDeadlines()
                usleep(10_000)
            }
        }
        watchdog.name = "adapter watchdog"
        watchdog.start()
    }

    deinit {
        process?.kill()
    }

    public var displayName: String { lock.withLock { identity?.name ?? configuration.name } }
    public var window: Int { configuration.window }
    public var notes: [String] { lock.withLock { notesList } }

    /// Why the adapter was given up, when it was (the cases after that are `notRun`).
    public var givenUp: String? { lock.withLock { gaveUp } }

    public var status: ImplementationStatus { givenUp == nil ? .ok : .gaveUp }

    private var isStopped: Bool { lock.withLock { stopped } }

    /// The operations the adapter declared at its first start. They have their own lock: every
    /// case asks, and the main lock is busy with answers.
    private let operationsLock = NSLock()
    private var declaredOperations: Set<String> = []

    public func supports(_ operation: String) -> Bool { operationsLock.withLock { declaredOperations.contains(operation) } }

    /// Cases re-judged after their first answer (answered twice).
    public func takeAmendments() -> [Amendment] {
        lock.withLock {
            defer { amendments.removeAll() }
            return amendments
        }
    }

    // MARK: lifecycle

    public func start() async throws(ImplementationError) -> ImplementationInfo {
        lock.withLock { launches = 1; starting = true }
        let result = await launch()
        let waiters: [CheckedContinuation<Void, Never>] = lock.withLock {
            starting = false
            if case .failure(let error) = result { gaveUp = "the adapter did not start: \(error.message)" }
            defer { startWaiters.removeAll() }
            return startWaiters
        }
        for w in waiters { w.resume() }
        return try result.get()
    }

    public func stop() async {
        let current: AdapterProcess? = lock.withLock {
            stopped = true
            defer { process = nil }
            return process
        }
        guard let current else { return }
        _ = current.send(Array(AdapterProtocol.stopRequest().serialized().utf8) + [0x0A])
        // Waiting for the process to leave polls and sleeps: on a dispatch queue, not on the
        // threads Swift concurrency runs everything else on.
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                current.finish(grace: .seconds(2))
                c.resume()
            }
        }
    }

    /// Launches a process and shakes hands; on success it becomes the current process.
    private func launch() async -> Result<ImplementationInfo, ImplementationError> {
        let g: Int = lock.withLock { generation += 1; return generation }
        let child: AdapterProcess
        do {
            child = try AdapterProcess(configuration: configuration, generation: g,
                                       onLines: { [weak self] in self?.handleLines($0, $1) },
                                       onExit: { [weak self] in self?.handleExit($0, $1) })
        } catch {
            return .failure(ImplementationError("cannot launch \(configuration.arguments.joined(separator: " ")): \(error.localizedDescription)"))
        }
        lock.withLock { process = child }
        let deadline = ContinuousClock.now + configuration.startTimeout
        let answer = await withCheckedContinuation { c in
            lock.withLock { startWaiter = StartWaiter(continuation: c, generation: g, deadline: deadline) }
            _ = child.send(Array(AdapterProtocol.startRequest().serialized().utf8) + [0x0A])
        }
        switch answer {
        case .success(let (info, ops)):
            lock.withLock {
                if identity == nil {
                    identity = info
                    operationsLock.withLock { declaredOperations = ops }
                }
            }
            return .success(info)
        case .failure(let error):
            child.kill()
            lock.withLock { if generation == g { process = nil } }
            let tail = child.stderrTail.text
            return .failure(ImplementationError(error.message + (tail.isEmpty ? "" : "; stderr: " + Self.clip(tail))))
        }
    }

    /// Makes sure a process is running, restarting it if needed. Nil when running; otherwise why
    /// the case cannot be run.
    private func ensureRunning() async -> String? {
        while true {
            enum Step { case ready, wait, launch, fail(String) }
            let step: Step = lock.withLock {
                if let gaveUp { return .fail(gaveUp) }
                if stopped { return .fail("the run was stopped") }
                if process != nil { return .ready }
                if starting { return .wait }
                if launches > configuration.maxRestarts {
                    gaveUp = "given up after \(configuration.maxRestarts) restart\(configuration.maxRestarts == 1 ? "" : "s")"
                        + (notesList.last.map { "; last: \($0)" } ?? "")
                    return .fail(gaveUp!)
                }
                launches += 1
                starting = true
                return .launch
            }
            switch step {
            case .ready: return nil
            case .fail(let why): return why
            case .wait:
                await withCheckedContinuation { c in
                    lock.lock()
                    if starting { startWaiters.append(c); lock.unlock() } else { lock.unlock(); c.resume() }
                }
            case .launch:
                let result = await launch()
                let waiters: [CheckedContinuation<Void, Never>] = lock.withLock {
                    starting = false
                    if case .failure(let error) = result {
                        gaveUp = "restart failed: \(error.message)"
                    } else {
                        notesList.append("restarted (restart \(launches - 1))")
                    }
                    defer { startWaiters.removeAll() }
                    return startWaiters
                }
                for w in waiters { w.resume() }
            }
        }
    }

    // MARK: requests

    public func run(_ request: Request) async -> Answer {
        var alone = false
        while true {
            await gate.enter(exclusive: alone)
            let attempt = await send(request)
            gate.leave(exclusive: alone)
            switch attempt {
            case .answer(let answer): return answer
            case .retry: return .notRun(reason: "the adapter stopped before this case was sent")   // send() resolves .retry itself
            case .retryAlone(let why):
                // Alone, every event is pinned on this request, so this cannot repeat.
                if alone { return .crashed(message: why) }
                alone = true
            }
        }
    }

    private func send(_ request: Request) async -> Attempt {
        while true {
            let attempt = await sendToRunningProcess(request)
            guard case .retry = attempt else { return attempt }
            // No process (not started yet, crashed, replaced, given up, stopped): start one, or
            // learn why the case cannot run.
            if let why = await ensureRunning() { return .answer(.notRun(reason: why)) }
        }
    }

    /// Sends the request to the current process, taking the lock once; `.retry` when there is
    /// no process to send it to.
    private func sendToRunningProcess(_ request: Request) async -> Attempt {
        await withCheckedContinuation { (c: CheckedContinuation<Attempt, Never>) in
            lock.lock()
            guard let child = process, gaveUp == nil, !stopped else {
                lock.unlock()
                c.resume(returning: .retry)
                return
            }
            let seq = nextSeq
            nextSeq += 1
            pending[seq] = Pending(continuation: c, caseID: request.caseID,
                                   deadline: ContinuousClock.now + configuration.timeout, generation: generation)
            lock.unlock()
            var line: [UInt8] = []
            line.reserveCapacity(96 + request.caseID.utf8.count + (request.encodedInput?.count ?? 256))
            AdapterProtocol.writeRunRequest(seq: seq, request, to: &line)
            // A failed write means the process is gone: its exit event resolves this request.
            if configuration.window <= 1 {
                _ = child.send(line)
            } else if child.enqueue(line) {
                // Answers arrive in bursts and wake a burst of requests: the flush runs after
                // the requests already woken have queued theirs, so the burst is one write.
                Task { child.flush() }
            }
        }
    }

    // MARK: events (reader thread, watchdog)

    private typealias Wake = [(CheckedContinuation<Attempt, Never>, Attempt)]

    /// What one line from the adapter says, read without the lock.
    private enum Reading {
        case tooLong(Int)
        case notJSON(JSONError, [UInt8])
        case value(JSONValue)
    }

    /// The lines one read brought: each is parsed before the lock is taken (parsing needs no
    /// state, and the requests being sent meanwhile need the lock), then the lock is taken once
    /// for all of them, and the requests they answer are woken after it is released.
    private func handleLines(_ g: Int, _ events: [AdapterProcess.LineEvent]) {
        let readings: [Reading] = events.map { event in
            switch event {
            case .tooLong(let n): return .tooLong(n)
            case .line(let bytes):
                do throws(JSONError) { return .value(try JSONParser.parse(bytes)) } catch { return .notJSON(error, bytes) }
            }
        }
        var wake: Wake = []
        var startWake: (StartWaiter, Result<(ImplementationInfo, Set<String>), ImplementationError>)?
        lock.lock()
        for reading in readings {
            handle(reading, g, &wake, &startWake)
        }
        lock.unlock()
        for (c, a) in wake { c.resume(returning: a) }
        if let (w, r) = startWake { w.continuation.resume(returning: r) }
    }

    /// One line's effect, under the lock.
    private func handle(_ reading: Reading, _ g: Int, _ wake: inout Wake,
                        _ startWake: inout (StartWaiter, Result<(ImplementationInfo, Set<String>), ImplementationError>)?) {
        guard g == generation, process != nil, !stopped else { return }
        if let waiter = startWaiter, waiter.generation == g {
            startWaiter = nil
            switch reading {
            case .tooLong(let n):
                startWake = (waiter, .failure(ImplementationError("the answer to start is a line of \(n) bytes, over the limit")))
            case .value(let value):
                startWake = (waiter, AdapterProtocol.readStartResponse(value))
            case .notJSON(let error, let bytes):
                startWake = (waiter, .failure(ImplementationError("the answer to start is not JSON (\(error.message)): \(Self.clip(bytes))")))
            }
            return
        }
        let value: JSONValue
        switch reading {
        case .tooLong(let n):
            return unattributable("a line of \(n) bytes, over the \(configuration.maxLineBytes)-byte limit", &wake)
        case .notJSON(let error, let bytes):
            return unattributable("a line that is not JSON (\(error.message)): \(Self.clip(bytes))", &wake)
        case .value(let v):
            value = v
        }
        let (seqValue, answer) = AdapterProtocol.readRunResponse(value)
        guard let seq = seqValue?.intValue else {
            let what = value.objectValue == nil ? "a line that is a JSON \(value.typeName), not an object"
                                                : "an answer without the integer seq it answers"
            return unattributable(what + ": " + Self.clip(value.serialized()), &wake)
        }
        if let p = pending.removeValue(forKey: seq) {
            remember(seq, p.caseID)
            switch answer {
            case .success(let a): wake.append((p.continuation, .answer(a)))
            case .failure(let violation): wake.append((p.continuation, .answer(.protocolError(message: violation.message))))
            }
        } else if let caseID = answered[seq] {
            amendments.append(Amendment(caseID: caseID, answer: .protocolError(message: "answered twice (seq \(seq)); the second answer: \(Self.clip(value.serialized()))")))
        } else {
            unattributable("an answer for seq \(seq), which was never asked", &wake)
        }
    }

    private func remember(_ seq: Int, _ caseID: String) {
        answered[seq] = caseID
        answered.removeValue(forKey: seq - 20_000)   // duplicates are noticed for recent answers
    }

    /// Something went wrong that no seq pins down. With one request outstanding it is that
    /// request's fault; with several, each is sent again alone. The process is replaced.
    private func unattributable(_ message: String, _ wake: inout Wake) {
        let mine = pending.filter { $0.value.generation == generation }
        guard !mine.isEmpty else {
            notesList.append("ignored, no case outstanding: \(message)")
            return
        }
        let tail = process?.stderrTail.text ?? ""
        replaceProcess(because: message)
        for (seq, p) in mine {
            pending.removeValue(forKey: seq)
            remember(seq, p.caseID)
            wake.append((p.continuation, mine.count == 1
                ? .answer(.protocolError(message: message + Self.stderrNote(tail)))
                : .retryAlone(message)))
        }
    }

    private func handleExit(_ g: Int, _ how: String) {
        var wake: Wake = []
        var startWake: StartWaiter?
        lock.lock()
        defer {
            lock.unlock()
            for (c, a) in wake { c.resume(returning: a) }
            if let w = startWake {
                w.continuation.resume(returning: .failure(ImplementationError("the adapter exited during start (\(how))")))
            }
        }
        guard g == generation, !stopped else { return }
        let tail = process?.stderrTail.text ?? ""
        process = nil
        if let waiter = startWaiter, waiter.generation == g {
            startWaiter = nil
            startWake = waiter
            return
        }
        let mine = pending.filter { $0.value.generation == g }
        guard !mine.isEmpty else {
            notesList.append("the adapter exited (\(how)) between cases")
            return
        }
        notesList.append("the adapter died (\(how))")
        for (seq, p) in mine {
            pending.removeValue(forKey: seq)
            remember(seq, p.caseID)
            wake.append((p.continuation, mine.count == 1
                ? .answer(.crashed(message: "the adapter died (\(how)) while running this case" + Self.stderrNote(tail)))
                : .retryAlone("the adapter died (\(how)) with \(mine.count) cases outstanding")))
        }
    }

    private func checkDeadlines() {
        var wake: Wake = []
        var startWake: StartWaiter?
        let now = ContinuousClock.now
        lock.lock()
        if let waiter = startWaiter, now > waiter.deadline {
            startWaiter = nil
            startWake = waiter
            process?.kill()
            process = nil
        }
        let expired = pending.filter { $0.value.deadline < now && $0.value.generation == generation }
        if !expired.isEmpty {
            // One request past its deadline is the one that hangs. Several at once (requests
            // queued behind a hanging one expire together) are each sent again alone.
            let tail = process?.stderrTail.text ?? ""
            let seconds = configuration.timeout.seconds.formattedCompactly
            replaceProcess(because: "no answer within \(seconds) s")
            for (seq, p) in pending where p.generation == generation {
                pending.removeValue(forKey: seq)
                remember(seq, p.caseID)
                wake.append((p.continuation, expired.count == 1 && expired[seq] != nil
                    ? .answer(.timedOut(message: "no answer within \(seconds) s" + Self.stderrNote(tail)))
                    : .retryAlone("no answer within \(seconds) s with \(expired.count) cases outstanding")))
            }
        }
        lock.unlock()
        for (c, a) in wake { c.resume(returning: a) }
        if let w = startWake {
            w.continuation.resume(returning: .failure(ImplementationError("no answer to start within \(configuration.startTimeout.seconds.formattedCompactly) s")))
        }
    }

    /// Kills the current process (under the lock); the next request starts a new one.
    private func replaceProcess(because reason: String) {
        notesList.append(reason)
        process?.kill()
        process = nil
    }

    static func clip(_ bytes: [UInt8]) -> String { clip(String(decoding: bytes.prefix(200), as: UTF8.self)) }

    static func clip(_ text: String) -> String {
        text.count <= 200 ? text : String(text.prefix(197)) + "..."
    }

    static func stderrNote(_ tail: String) -> String {
        tail.isEmpty ? "" : "; stderr: " + (tail.count <= 500 ? tail : "..." + String(tail.suffix(497)))
    }
}
