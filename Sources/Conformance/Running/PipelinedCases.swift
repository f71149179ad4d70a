import Foundation

/// A pipelined run (an adapter with a window): sends the cases, and keeps the next case to
/// send, the answers come back and not yet judged, and whether the runner waits for them.
///
/// ``Runner`` keeps `slots` requests outstanding (the window). A slot is not a task: when an
/// answer comes, the completion that receives it (``Implementation/run(_:then:)``, on the
/// thread that read the answer) delivers it here, claims the next case and sends it. The
/// runner's own task takes what has been delivered, as a batch, judges it and hands it to the
/// sink. A task per case, and the wake of the runner per case, cost more than the adapter
/// protocol itself (an adapter that answers at once is held to the harness's speed). Nothing
/// is held back: a delivery wakes the runner if it waits, so while an adapter is silent every
/// answer it already gave has reached the sink.
///
/// Not generic over the implementation: the runner's module cannot specialize it for an
/// adapter's type, and unspecialized, every delivery looked up the metadata of its generic
/// types at run time.
final class PipelinedCases: @unchecked Sendable {
    struct Answered {
        let index: Int
        let answer: Answer
        let nanos: Int64
    }

    private let implementation: any Implementation
    private let work: [(SuiteCorpus, ConformanceCase)]
    private let shouldStop: @Sendable () -> Bool
    private let lock = NSLock()
    private var next = 0
    private var stopped = false
    /// Set by ``abandon()``: the runner takes what is ready and no more.
    private var abandoned = false
    private var slots: Int
    private var ready: [Answered] = []
    /// A batch the runner has judged, emptied with its capacity kept (``recycle(_:)``): the next
    /// take leaves it as `ready`, so that answers are delivered into memory already in use, not
    /// into a new array (whose fresh pages the reader thread would fault in, burst after burst).
    private var spare: [Answered] = []
    private var waiter: CheckedContinuation<[Answered]?, Never>?

    init(_ implementation: any Implementation, work: [(SuiteCorpus, ConformanceCase)], shouldStop: @escaping @Sendable () -> Bool) {
        self.implementation = implementation
        self.work = work
        self.shouldStop = shouldStop
        slots = min(implementation.window, work.count)
    }

    /// Opens every slot: sends the first `window` cases.
    func start() {
        for _ in 0..<slots { send(from: claim()) }
    }

    /// Sends the case `first` (a skipped one is delivered at once, and the next claimed); the
    /// completion of its answer sends the next. With none left to send, the slot closes.
    /// The completion holds this object and two numbers, nothing else that must be retained.
    private func send(from first: Int?) {
        var next = first
        while let index = next {
            let c = work[index].1
            if let skipped = Runner.unsupported(implementation, c) {
                deliver(Answered(index: index, answer: skipped, nanos: 0))
                next = claim()
                continue
            }
            let started = ContinuousClock.now
            implementation.run(Request(caseID: c.id, operation: c.operation, input: c.input, encodedInput: c.encodedInput)) { [self] answer in
                deliver(Answered(index: index, answer: answer, nanos: started.duration(to: ContinuousClock.now).nanoseconds))
                send(from: claim())
            }
            return
        }
        slotEnded()
    }

    /// The next case to run, or nil when there is none left or the run was stopped.
    private func claim() -> Int? {
        // Polled before the lock: `shouldStop` is the caller's and may take its own.
        let stop = shouldStop()
        return lock.withLock {
            if stop { stopped = true }
            guard !stopped, next < work.count else { return nil }
            defer { next += 1 }
            return next
        }
    }

    /// No case is claimed after this (the sink failed); the cases outstanding still finish.
    func stop() {
        lock.withLock { stopped = true }
    }

    /// No case is claimed after this, and the runner stops waiting for the cases outstanding:
    /// what was delivered is still taken, then ``take()`` returns nil. An answer that comes
    /// later is dropped with this object.
    func abandon() {
        lock.withLock {
            stopped = true
            abandoned = true
        }
        wakeRunner()
    }

    /// Hands over an answer. The runner, if it waits, is woken at once, or at the end of the
    /// burst of completions this one runs in (``CompletionBurst``): one wake for the burst.
    private func deliver(_ answered: Answered) {
        let waiting = lock.withLock {
            ready.append(answered)
            return waiter != nil
        }
        if waiting && !CompletionBurst.deferOnce(ObjectIdentifier(self), wakeRunner) { wakeRunner() }
    }

    /// A slot found no case left to claim: it is closed.
    private func slotEnded() {
        lock.withLock { slots -= 1 }
        wakeRunner()
    }

    /// Resumes the runner, if it waits and something is there to take.
    private func wakeRunner() {
        let woken: (CheckedContinuation<[Answered]?, Never>, [Answered]?)? = lock.withLock {
            guard let waiter, let now = takeNow() else { return nil }
            self.waiter = nil
            return (waiter, now)
        }
        if let (c, now) = woken { c.resume(returning: now) }
    }

    /// Under the lock: what a take gets now (the answers ready, or nil inside when every slot
    /// closed, or the rest was abandoned, and none is left); nil when it has to wait.
    private func takeNow() -> [Answered]?? {
        if !ready.isEmpty {
            var batch: [Answered] = []
            swap(&batch, &spare)
            swap(&batch, &ready)
            return .some(batch)
        }
        return slots == 0 || abandoned ? .some(nil) : .none
    }

    /// Hands back a batch that ``take()`` gave and that has been judged, for its storage.
    func recycle(_ batch: inout [Answered]) {
        batch.removeAll(keepingCapacity: true)
        lock.withLock { if batch.capacity > spare.capacity { swap(&batch, &spare) } }
    }

    /// Every answer delivered since the last call, waiting for one if there is none; nil once
    /// every slot has closed and every answer was taken. One caller at a time.
    func take() async -> [Answered]? {
        // Resumed inside the closure when there is something (or nothing more) to take: the
        // task then does not suspend.
        await withCheckedContinuation { (c: CheckedContinuation<[Answered]?, Never>) in
            let now: [Answered]?? = lock.withLock {
                let now = takeNow()
                if now == nil { waiter = c }
                return now
            }
            if let now { c.resume(returning: now) }
        }
    }
}
