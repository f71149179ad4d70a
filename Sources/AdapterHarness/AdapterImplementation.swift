import Conformance
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

    /// One lock over both parts of the state: a request is registered against the process it
    /// is written to in one step, so an exit can never miss it.
    private let lock = NSLock()
    private let supervision: ProcessSupervision
    private var requests = OutstandingRequests<Waiter>()
    /// Requests that must run alone (after an event that could not be pinned) wait here.
    private let gate = AsyncGate()

    /// The timeout as messages say it (`5 s` is written `5`).
    private let timeoutText: String

    public init(_ configuration: AdapterConfiguration) {
        self.configuration = configuration
        timeoutText = configuration.timeout.seconds.formattedCompactly
        supervision = ProcessSupervision(maxRestarts: configuration.maxRestarts)
        signal(SIGPIPE, SIG_IGN)   // a dead adapter must not take the harness with it
        AdapterWatchdog.start { [weak self] in
            guard let self else { return false }
            return self.checkDeadlines()
        }
    }

    deinit {
        supervision.process?.kill()
    }

    public var displayName: String { lock.withLock { supervision.identity?.name ?? configuration.name } }
    public var window: Int { configuration.window }
    public var notes: [String] { lock.withLock { supervision.notes } }

    /// Why the adapter was given up, when it was (the cases after that are `notRun`).
    public var givenUp: String? { lock.withLock { supervision.gaveUp } }

    public var status: ImplementationStatus { givenUp == nil ? .ok : .gaveUp }

    /// The operations the adapter declared at its first start. They have their own lock: every
    /// case asks, and the main lock is busy with answers.
    private let operationsLock = NSLock()
    private var declaredOperations: Set<String> = []

    public func supports(_ operation: String) -> Bool { operationsLock.withLock { declaredOperations.contains(operation) } }

    /// Cases re-judged after their first answer (answered twice).
    public func takeAmendments() -> [Amendment] {
        lock.withLock { requests.takeAmendments() }
    }

    // MARK: lifecycle

    public func start() async throws(ImplementationError) -> ImplementationInfo {
        lock.withLock { supervision.beginFirstLaunch() }
        let result = await launch()
        let waiters = lock.withLock { supervision.endLaunch(result, first: true) }
        for w in waiters { w.resume() }
        return try result.get()
    }

    /// Stops for good. The requests outstanding are answered at once, `notRun` ("the run was
    /// stopped"), and so is every request after this: a caller that stops the adapter while it
    /// holds requests (a stopped run's grace is over) does not wait for their timeouts. Then
    /// the process is asked to stop, and killed if it has not left within two seconds.
    public func stop() async {
        var wake: Wake = []
        var starting: ProcessSupervision.StartWaiter?
        let process = lock.withLock {
            wake = requests.endEvery(with: .notRun(reason: ProcessSupervision.stoppedReason))
            starting = supervision.startWaiter
            supervision.startWaiter = nil
            return supervision.stop()
        }
        CompletionBurst.run { for (w, a) in wake { resume(w, a) } }
        starting?.continuation.resume(returning: .failure(ImplementationError(ProcessSupervision.stoppedReason)))
        guard let current = process else { return }
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
        let g = lock.withLock { supervision.nextGeneration() }
        let child: AdapterProcess
        do {
            child = try AdapterProcess(configuration: configuration, generation: g,
                                       onLines: { [weak self] in self?.handleLines($0, $1) },
                                       onExit: { [weak self] in self?.handleExit($0, $1) },
                                       onOutputClosed: { [weak self] in self?.handleOutputClosed($0) })
        } catch {
            // The spawner's error names neither: a missing working directory fails the same way
            // as a missing program.
            var isDirectory: ObjCBool = false
            let folder = configuration.workingDirectory
            let missing = folder.map { !FileManager.default.fileExists(atPath: $0, isDirectory: &isDirectory) || !isDirectory.boolValue } ?? false
            return .failure(ImplementationError("cannot launch \(configuration.arguments.joined(separator: " ")): \(error.localizedDescription)"
                + (missing ? " (the working directory \(folder ?? "") is not a folder that exists)" : "")))
        }
        lock.withLock { supervision.adopt(child) }
        let deadline = ContinuousClock.now + configuration.startTimeout
        let answer = await withCheckedContinuation { c in
            // Stopped meanwhile: no handshake (stop() answers the waiters it finds, not this one).
            let stopped = lock.withLock {
                if supervision.stopped { return true }
                supervision.startWaiter = .init(continuation: c, generation: g, deadline: deadline)
                return false
            }
            if stopped { return c.resume(returning: .failure(ImplementationError(ProcessSupervision.stoppedReason))) }
            _ = child.send(Array(AdapterProtocol.startRequest().serialized().utf8) + [0x0A])
        }
        switch answer {
        case .success(let (info, ops)):
            lock.withLock {
                if supervision.identify(info) {
                    operationsLock.withLock { declaredOperations = ops }
                    if let note = Self.unknownOperationsNote(ops) { supervision.note(note) }
                    if configuration.nameIsGiven && info.name != configuration.name {
                        // Reports, baselines, history and statements go by the answer's name; a
                        // night the adapter does not start is filed under the manifest's.
                        supervision.note("its manifest names it '\(Self.clip(configuration.name, characters: 80))' but it calls itself '"
                                         + "\(Self.clip(info.name, characters: 80))' in its answer to start: its results are stored under the latter, "
                                         + "and a night it does not start under the former; give both the same name")
                    }
                }
            }
            return .success(info)
        case .failure(let error):
            child.kill()
            lock.withLock { supervision.forget(generation: g) }
            let tail = child.stderrTail.text
            return .failure(ImplementationError(error.message + (tail.isEmpty ? "" : "; stderr: " + Self.clip(tail))))
        }
    }

    /// The operations every suite defines: what a declared name is checked against.
    static let knownOperations = Set(SuiteRegistry.all.flatMap { $0.operations.map(\.name) })

    /// A note naming the declared operations no suite defines (a misspelt `ulc.Parse` would
    /// otherwise leave every case of `ulc.parse` skipped without a word), nil when there are
    /// none; at most ten names, each cut to 80 characters.
    static func unknownOperationsNote(_ declared: Set<String>) -> String? {
        let unknown = declared.subtracting(knownOperations).sorted()
        guard !unknown.isEmpty else { return nil }
        let names = unknown.prefix(10).map { "'" + clip($0, characters: 80) + "'" }.joined(separator: ", ")
        return "declares \(unknown.count) operation\(unknown.count == 1 ? "" : "s") no suite defines, ignored: \(names)"
            + (unknown.count > 10 ? " and \(unknown.count - 10) more" : "")
            + " (the operations are \(knownOperations.sorted().joined(separator: ", ")))"
    }

    /// Makes sure a process is running, restarting it if needed. Nil when running; otherwise why
    /// the case cannot be run.
    private func ensureRunning() async -> String? {
        while true {
            switch lock.withLock({ supervision.nextStep() }) {
            case .ready: return nil
            case .fail(let why): return why
            case .wait:
                await withCheckedContinuation { c in
                    let waiting = lock.withLock { supervision.waitForLaunch(c) }
                    if !waiting { c.resume() }
                }
            case .launch:
                let result = await launch()
                let waiters = lock.withLock { supervision.endLaunch(result, first: false) }
                for w in waiters { w.resume() }
            }
        }
    }

    // MARK: requests

    /// Who waits for a request: a task (``run(_:)``) or a completion (``run(_:then:)``, which
    /// holds the shared gate until its request is answered).
    private enum Waiter {
        case task(CheckedContinuation<AdapterAttempt, Never>)
        case completion(Completion)
    }

    /// A completion with its request (kept to run it again on the task path). A reference: a
    /// waiter is copied in and out of the outstanding requests, and the request's five
    /// references would be retained and released each time.
    private final class Completion: Sendable {
        let request: Request
        let handler: @Sendable (Answer) -> Void

        init(_ request: Request, _ handler: @escaping @Sendable (Answer) -> Void) {
            self.request = request
            self.handler = handler
        }
    }

    /// Hands `attempt` to whoever waits for it. An attempt that did not answer a completion's
    /// request is left to the task path, which runs the request again (alone, when asked).
    private func resume(_ waiter: Waiter, _ attempt: AdapterAttempt) {
        switch waiter {
        case .task(let c):
            c.resume(returning: attempt)
        case .completion(let completion):
            gate.leave(exclusive: false)
            switch attempt {
            case .answer(let answer): completion.handler(answer)
            case .retryAlone: runInTask(completion.request, alone: true, then: completion.handler)
            case .retry: runInTask(completion.request, alone: false, then: completion.handler)
            }
        }
    }

    private func runInTask(_ request: Request, alone: Bool, then completion: @escaping @Sendable (Answer) -> Void) {
        Task { completion(await run(request, alone: alone)) }
    }

    public func run(_ request: Request) async -> Answer {
        await run(request, alone: false)
    }

    private func run(_ request: Request, alone startsAlone: Bool) async -> Answer {
        var alone = startsAlone
        while true {
            // Sent again alone after an event it shared: not if the caller has withdrawn it,
            // asked before waiting for the adapter to itself and again once it has it.
            if alone, request.withdrawn?() == true { return .notRun(reason: Request.withdrawnReason) }
            await gate.enter(exclusive: alone)
            if alone, request.withdrawn?() == true {
                gate.leave(exclusive: alone)
                return .notRun(reason: Request.withdrawnReason)
            }
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

    /// The common case without a task: a process is ready and no request runs alone, so the
    /// request is queued at once and its answer handed to `completion` by the thread that
    /// reads it (or the watchdog, or the exit). Anything else (no process yet, a restart, a
    /// request running alone, an event that sends this one again alone) is left to the task
    /// path, ``run(_:)``, which handles it in full.
    public func run(_ request: Request, then completion: @escaping @Sendable (Answer) -> Void) {
        guard gate.enterSharedNow() else { return runInTask(request, alone: false, then: completion) }
        if !queue(request, for: .completion(Completion(request, completion)), writeAtOnce: false) {
            gate.leave(exclusive: false)
            runInTask(request, alone: false, then: completion)
        }
    }

    private func send(_ request: Request) async -> AdapterAttempt {
        while true {
            let attempt = await sendToRunningProcess(request)
            guard case .retry = attempt else { return attempt }
            // No process (not started yet, crashed, replaced, given up, stopped): start one, or
            // learn why the case cannot run.
            if let why = await ensureRunning() { return .answer(.notRun(reason: why)) }
        }
    }

    /// Sends the request to the current process; `.retry` when there is no process to send it to.
    private func sendToRunningProcess(_ request: Request) async -> AdapterAttempt {
        await withCheckedContinuation { (c: CheckedContinuation<AdapterAttempt, Never>) in
            if !queue(request, for: .task(c), writeAtOnce: configuration.window <= 1) { c.resume(returning: .retry) }
        }
    }

    /// Registers the request against the current process (taking the lock once) and writes its
    /// line: at once, or queued to go out with others (``AdapterProcess/enqueue(seq:_:)``). False,
    /// with nothing registered, when there is no process to send it to.
    ///
    /// A queued request is queued under the lock it was registered under, so requests reach
    /// the adapter in the order their deadlines run from. Registered and then queued in two
    /// steps, two threads wrote them the other way round (in bursts of 3,000 requests from as
    /// many tasks, 82 to 238 arrived after one registered later): a request waiting behind one
    /// that hangs could then expire first, alone, and be blamed for the hang.
    private func queue(_ request: Request, for waiter: Waiter, writeAtOnce: Bool) -> Bool {
        lock.lock()
        guard let child = supervision.processTakingRequests else {
            lock.unlock()
            return false
        }
        let seq = requests.add(caseID: request.caseID, waiter: waiter, deadline: ContinuousClock.now + configuration.timeout,
                               generation: supervision.generation)
        // A failed write means the process is gone: its exit event resolves this request.
        if writeAtOnce {
            // With a window of 1 its callers keep one request outstanding: no order to keep.
            lock.unlock()
            var line: [UInt8] = []
            line.reserveCapacity(96 + request.caseID.utf8.count + (request.encodedInput?.count ?? 256))
            AdapterProtocol.writeRunRequest(seq: seq, request, to: &line)
            _ = child.send(line)
        } else {
            let owed = child.enqueue(seq: seq, request)
            lock.unlock()
            if owed == true { child.arrangeFlush() }
        }
        return true
    }

    // MARK: events (reader thread, watchdog)

    private typealias Wake = OutstandingRequests<Waiter>.Wake
    private typealias StartWake = (ProcessSupervision.StartWaiter, ProcessSupervision.StartResult)

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
                do throws(JSONError) { return .value(try JSONParser.parse(bytes)) } catch { return .notJSON(error, Array(bytes.prefix(200))) }
            }
        }
        var wake: Wake = []
        var startWake: StartWake?
        lock.lock()
        for reading in readings {
            handle(reading, g, &wake, &startWake)
        }
        lock.unlock()
        CompletionBurst.run { for (w, a) in wake { resume(w, a) } }
        if let (w, r) = startWake { w.continuation.resume(returning: r) }
    }

    /// One line's effect, under the lock.
    private func handle(_ reading: Reading, _ g: Int, _ wake: inout Wake, _ startWake: inout StartWake?) {
        guard supervision.isCurrent(g) else { return }
        if let waiter = supervision.startWaiter, waiter.generation == g {
            supervision.startWaiter = nil
            switch reading {
            case .tooLong(let n):
                startWake = (waiter, .failure(ImplementationError("the answer to start is a line over the \(configuration.maxLineBytes)-byte limit (\(n) bytes without a newline)")))
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
            return unattributable("a line over the \(configuration.maxLineBytes)-byte limit (\(n) bytes without a newline)", &wake)
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
        let attempt: AdapterAttempt
        switch answer {
        case .success(let a): attempt = .answer(a)
        case .failure(let violation): attempt = .answer(.protocolError(message: violation.message))
        }
        switch requests.settle(seq: seq, with: attempt, duplicateNote: Self.clip(value.serialized())) {
        case .wake(let c, let a): wake.append((c, a))
        case .amended: break
        case .unknown: unattributable("an answer for seq \(seq), which was never asked", &wake)
        }
    }

    /// Something went wrong that no seq pins down. With one request outstanding it is that
    /// request's fault; with several, each is sent again alone. The process is replaced.
    private func unattributable(_ message: String, _ wake: inout Wake) {
        let g = supervision.generation
        guard requests.hasOutstanding(generation: g) else {
            supervision.note("ignored, no case outstanding: \(message)")
            return
        }
        let tail = supervision.process?.stderrTail.text ?? ""
        // Kept in the notes with the stderr tail: when every case then passes alone, the notes
        // are the only evidence left.
        let withTail = message + Self.stderrNote(tail)
        supervision.replace(because: withTail)
        wake += requests.endAll(generation: g, alone: { _ in .protocolError(message: withTail) }, shared: { _ in message })
    }

    private func handleExit(_ g: Int, _ how: String) {
        var wake: Wake = []
        var startWake: ProcessSupervision.StartWaiter?
        lock.lock()
        defer {
            lock.unlock()
            CompletionBurst.run { for (w, a) in wake { resume(w, a) } }
            if let w = startWake {
                w.continuation.resume(returning: .failure(ImplementationError("the adapter exited during start (\(how))")))
            }
        }
        guard g == supervision.generation, !supervision.stopped else { return }
        let tail = supervision.process?.stderrTail.text ?? ""
        supervision.exited()
        if let waiter = supervision.startWaiter, waiter.generation == g {
            supervision.startWaiter = nil
            startWake = waiter
            return
        }
        guard requests.hasOutstanding(generation: g) else {
            supervision.note("the adapter exited (\(how)) between cases")
            return
        }
        // Not pinned yet: each outstanding case runs again alone. If none of them fails alone
        // (a crash that depends on load, or a kill from outside), this note with the stderr
        // tail is what the reports keep of it.
        let note = Self.stderrNote(tail)
        supervision.note("the adapter died (\(how))" + note)
        wake = requests.endAll(generation: g,
                               alone: { _ in .crashed(message: "the adapter died (\(how)) while running this case" + note) },
                               shared: { "the adapter died (\(how)) with \($0) cases outstanding" })
    }

    /// The adapter's stdout ended and it kept running (``AdapterProcess``): it can answer
    /// nothing more. Treated like a line no seq pins down: the process is replaced, and the
    /// requests outstanding are sent again alone (a request alone when it happens is blamed,
    /// as a protocol error). Before the handshake's answer, the launch fails.
    private func handleOutputClosed(_ g: Int) {
        let message = "the adapter closed its standard output and kept running"
        var wake: Wake = []
        var startWake: StartWake?
        lock.lock()
        if supervision.isCurrent(g) {
            if let waiter = supervision.startWaiter, waiter.generation == g {
                supervision.startWaiter = nil
                let tail = supervision.process?.stderrTail.text ?? ""
                startWake = (waiter, .failure(ImplementationError(message + " before answering start" + Self.stderrNote(tail))))
                supervision.process?.kill()
                supervision.exited()
            } else if requests.hasOutstanding(generation: g) {
                unattributable(message, &wake)
            } else {
                supervision.replace(because: message + " (between cases)")
            }
        }
        lock.unlock()
        CompletionBurst.run { for (w, a) in wake { resume(w, a) } }
        if let (w, r) = startWake { w.continuation.resume(returning: r) }
    }

    /// The watchdog's tick: a handshake or requests past their deadline. False once stopped.
    private func checkDeadlines() -> Bool {
        var wake: Wake = []
        var startWake: ProcessSupervision.StartWaiter?
        let now = ContinuousClock.now
        lock.lock()
        if supervision.stopped {
            lock.unlock()
            return false
        }
        if let waiter = supervision.startWaiter, now > waiter.deadline {
            supervision.startWaiter = nil
            startWake = waiter
            supervision.process?.kill()
            supervision.exited()
        }
        let seconds = timeoutText
        let process = supervision.process
        // Asked only when something expired: an adapter that closed its input never read what
        // it was sent, and the messages say so.
        var closedInput: Bool?
        let why = { (what: String) -> String in
            if closedInput == nil { closedInput = process?.adapterClosedItsInput ?? false }
            return what + (closedInput == true ? " (the adapter had closed its standard input)" : "")
        }
        wake = requests.endExpired(now: now, generation: supervision.generation,
                                   timedOut: { why("no answer within \(seconds) s") + Self.stderrNote(process?.stderrTail.text ?? "") },
                                   shared: { why("no answer within \(seconds) s with \($0) cases outstanding") })
        // The request that hangs (or the one behind which others waited) takes the process with it.
        if !wake.isEmpty { supervision.replace(because: why("no answer within \(seconds) s")) }
        lock.unlock()
        process?.flushIfStalled()
        CompletionBurst.run { for (w, a) in wake { resume(w, a) } }
        if let w = startWake {
            w.continuation.resume(returning: .failure(ImplementationError("no answer to start within \(configuration.startTimeout.seconds.formattedCompactly) s")))
        }
        return true
    }

    static func clip(_ bytes: [UInt8]) -> String { clip(String(decoding: bytes.prefix(200), as: UTF8.self)) }

    /// The text cut to `limit` characters, ending in `...` when cut (counting stops at the
    /// limit: a line may be a megabyte).
    static func clip(_ text: String, characters limit: Int = 200) -> String {
        guard let end = text.index(text.startIndex, offsetBy: limit, limitedBy: text.endIndex), end != text.endIndex else { return text }
        return String(text.prefix(limit - 3)) + "..."
    }

    static func stderrNote(_ tail: String) -> String {
        tail.isEmpty ? "" : "; stderr: " + (tail.count <= 500 ? tail : "..." + String(tail.suffix(497)))
    }
}
