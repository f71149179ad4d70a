import ChildProcess
import Conformance
import Foundation
import LinkURL

/// One launch of an adapter: the child process, a thread reading its stdout line by line (with
/// a length limit), a thread keeping the tail of its stderr, and writes to its stdin.
///
/// Every callback carries the launch's generation, so that events from a process the harness
/// has already replaced are recognised and ignored.
/// Why an adapter could not be launched at all.
struct AdapterLaunchError: Error, CustomStringConvertible, LocalizedError {
    let description: String
    var errorDescription: String? { description }
}

final class AdapterProcess: @unchecked Sendable {
    enum LineEvent {
        /// A line's bytes, valid only while the handler runs (see ``readLines(fd:maxLine:_:)``).
        case line(ArraySlice<UInt8>)
        /// A line that passed the length limit (its length when it did); its bytes are dropped.
        case tooLong(Int)
    }

    let generation: Int
    private let process: SpawnedProcess
    private let writeLock = NSLock()
    private var inputClosed = false
    private var writeFailed = false
    private var writing = false
    private var queued: [UInt8] = []
    /// The buffer the last flush wrote from, emptied with its capacity kept: the next flush
    /// swaps it in for the queue, so that neither buffer grows again from nothing for each
    /// burst (a window of requests with large inputs is hundreds of kilobytes).
    private var spare: [UInt8] = []
    /// Watchdog ticks in a row that found requests queued and no flush writing them
    /// (``flushIfStalled()``).
    private var stalledTicks = 0
    /// Where a flush that may wait for the adapter to read runs: a thread of its own (per
    /// process; flushes are serial anyway), not Swift's cooperative pool, whose threads are as
    /// many as the cores. A flush waits in `poll` for as long as an adapter does not read its
    /// input (until its timeout kills it): as many such adapters as cores held every thread of
    /// the pool, and every other task (other runs, other tests) waited with them.
    private let writer = DispatchQueue(label: "adapter input")
    let stderrTail: ByteRing

    /// How long an adapter whose output ended may take to exit before it is reported as having
    /// closed its output while running (``init(configuration:generation:onLines:onExit:onOutputClosed:)``).
    static let exitAfterOutputGrace: DispatchTimeInterval = .milliseconds(500)

    /// `onOutputClosed` is called when the adapter's stdout ended and the process had not exited
    /// ``exitAfterOutputGrace`` later: it can answer nothing more, and waiting for its requests'
    /// deadlines would only turn that into timeouts, one per request sent again alone.
    init(configuration: AdapterConfiguration, generation: Int,
         onLines: @escaping @Sendable (Int, [LineEvent]) -> Void,
         onExit: @escaping @Sendable (Int, String) -> Void,
         onOutputClosed: @escaping @Sendable (Int) -> Void) throws {
        self.generation = generation
        stderrTail = ByteRing(capacity: configuration.stderrTailBytes)
        // Spawned with an empty signal mask and default dispositions (SpawnedProcess), whatever
        // this thread blocks or the harness ignores.
        do {
            process = try SpawnedProcess(arguments: configuration.arguments, workingDirectory: configuration.workingDirectory,
                                         environment: configuration.environment)
        } catch let error as SpawnedProcess.SpawnError {
            throw AdapterLaunchError(description: error.description)
        }

        // Our end of the adapter's input does not block: a burst of completions writes the
        // requests it sent without waiting (``flushWithoutWaiting()``); other writers wait for
        // the pipe with poll. The adapter's end is a file description of its own, unchanged.
        _ = fcntl(process.input, F_SETFL, fcntl(process.input, F_GETFL) | O_NONBLOCK)
        #if os(Linux)
        // The pipe holds 1 MiB (the most an unprivileged process may ask by default), not 64
        // KiB: a window of requests with inputs of a few kilobytes overflowed 64 KiB, and the
        // rest of every burst's write waited for a task. When the kernel refuses (a user over
        // its pipe quota), the pipe keeps its size and the writes go as before.
        _ = fcntl(process.input, 1031 /* F_SETPIPE_SZ */, Int32(1 << 20))
        #endif
        let maxLine = configuration.maxLineBytes
        let out = process.output
        let err = process.error
        let tail = stderrTail
        let process = self.process
        let stdoutDone = DispatchSemaphore(value: 0)
        let stderrDone = DispatchSemaphore(value: 0)
        let exitSeen = DispatchSemaphore(value: 0)
        let grace = Self.exitAfterOutputGrace
        let reader = Thread {
            AdapterProcess.readLines(fd: out, maxLine: maxLine) { onLines(generation, $0) }
            stdoutDone.signal()
            // An adapter that is dying closes its output as it goes; one still running half a
            // second later closed it on purpose or by mistake (a child of its group that still
            // held the pipe would have kept the output from ending at all).
            if exitSeen.wait(timeout: .now() + grace) == .timedOut {
                onOutputClosed(generation)
            }
            withExtendedLifetime(process) {}
        }
        reader.name = "adapter stdout"
        reader.start()
        // The exit is watched on its own, not inferred from the end of stdout: a process that
        // left a child holding its output open has still died, and says how.
        let watcher = Thread {
            let how = process.waitForExit()
            exitSeen.signal()
            // The answers it wrote before dying are read first, and its last words on stderr
            // come with the exit; a descendant that escaped its group and keeps the pipe open
            // does not hold the exit back for long.
            let closed = stdoutDone.wait(timeout: .now() + .milliseconds(500)) == .success
            _ = stderrDone.wait(timeout: .now() + .milliseconds(300))
            onExit(generation, how + (closed ? "" : ", its output still held open by another process"))
        }
        watcher.name = "adapter exit"
        watcher.start()
        let drainer = Thread {
            // The closure holds the process (see the end), so its descriptors stay open while
            // this thread reads.
            var buffer = [UInt8](repeating: 0, count: 16_384)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(err, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                tail.append(buffer[0..<n])
            }
            stderrDone.signal()
            withExtendedLifetime(process) {}
        }
        drainer.name = "adapter stderr"
        drainer.start()
    }

    var pid: Int32 { process.pid }

    /// Writes one message now (with anything queued before it). False when the adapter no
    /// longer reads its input (a write failed, or the input was closed).
    func send(_ bytes: [UInt8]) -> Bool {
        guard writeLock.withLock({ () -> Bool in
            guard !inputClosed && !writeFailed else { return false }
            queued.append(contentsOf: bytes)
            return true
        }) else { return false }
        return flush()
    }

    /// Queues the `run` request `request` with `seq`, written straight into the queue. Nil when
    /// the adapter no longer reads its input; otherwise whether this message found the queue
    /// empty and so owes the flush (``arrangeFlush()``, called once the caller's lock is let
    /// go). The caller holds the lock under which it registered `seq`: the requests go out in
    /// the order they were registered, which is the order their deadlines run from. The
    /// request is only borrowed (written under the lock taken by hand: a closure would copy
    /// it, retaining each of its references).
    func enqueue(seq: Int, _ request: borrowing Request) -> Bool? {
        writeLock.lock()
        guard !inputClosed && !writeFailed else {
            writeLock.unlock()
            return nil
        }
        let owed = queued.isEmpty && !writing
        AdapterProtocol.writeRunRequest(seq: seq, request, to: &queued)
        writeLock.unlock()
        return owed
    }

    /// Sees that what ``enqueue(seq:_:)`` queued is written soon, in one system call with the
    /// messages queued meanwhile. In a burst of completions (answers sending the next
    /// requests, ``CompletionBurst``) the burst's thread flushes when it ends, without waiting
    /// (``flushWithoutWaiting()``): the requests a read of answers woke go out in one write,
    /// and no other thread is woken for it. Elsewhere a task writes what the pipe takes, after
    /// the requests already woken have queued theirs; what the pipe does not take then is left
    /// to the process's ``writer``, which may wait.
    func arrangeFlush() {
        if !CompletionBurst.deferOnce(ObjectIdentifier(self), flushWithoutWaiting) {
            // If the pool is too busy to run the task, the watchdog hands the queue to the
            // writer (``flushIfStalled()``).
            Task { self.flushWithoutWaiting() }
        }
    }

    /// Writes what the pipe takes now (our end of it does not block) and leaves the rest, if
    /// any, to the ``writer``. The thread of a burst of completions must not wait here: it may be the
    /// reader, and an adapter blocked on a full output pipe reads no input until the reader
    /// drains it.
    private func flushWithoutWaiting() {
        writeLock.lock()
        // Another flush in progress takes what was queued.
        guard !writing && !writeFailed && !queued.isEmpty else { return writeLock.unlock() }
        writing = true
        var batch = takeQueue()
        writeLock.unlock()
        let written = AdapterProcess.writeSome(process.input, batch)
        writeLock.lock()
        writing = false
        let rest: Bool
        if let written {
            if written < batch.count {
                // What could not be written goes first, before what was queued meanwhile.
                batch.removeFirst(written)
                batch.append(contentsOf: queued)
                swap(&batch, &queued)
            }
            batch.removeAll(keepingCapacity: true)
            spare = batch
            rest = !queued.isEmpty
        } else {
            writeFailed = true
            queued.removeAll()
            rest = false
        }
        writeLock.unlock()
        if rest { writer.async { self.flush() } }
    }

    /// Writes everything queued, including what others queue while this writes; a flush that
    /// finds another one in progress leaves the work to it. False when a write failed.
    @discardableResult
    func flush() -> Bool {
        writeLock.lock()
        if writing { writeLock.unlock(); return !writeFailed }
        writing = true
        let fd = process.input
        while !queued.isEmpty && !writeFailed {
            var batch = takeQueue()
            writeLock.unlock()
            let ok = AdapterProcess.writeAll(fd, batch)
            batch.removeAll(keepingCapacity: true)
            writeLock.lock()
            spare = batch
            if !ok { writeFailed = true; queued.removeAll() }
        }
        writing = false
        let ok = !writeFailed
        writeLock.unlock()
        return ok
    }

    /// The watchdog's safety net for the flush that ``enqueue(seq:_:)`` leaves to a task: while
    /// every thread of the cooperative pool is busy (long work in the same process, other
    /// tests), that task does not run, the requests are never written, and their deadlines,
    /// which run from the moment they were queued, blamed the adapter for the harness's own
    /// delay. Requests found queued, with no flush writing them, on two ticks in a row (10 to
    /// 20 ms) go to the ``writer`` thread instead. Called from the watchdog: does not wait.
    func flushIfStalled() {
        let stalled = writeLock.withLock {
            guard !queued.isEmpty && !writing && !writeFailed && !inputClosed else {
                stalledTicks = 0
                return false
            }
            stalledTicks += 1
            return stalledTicks >= 2
        }
        if stalled { writer.async { self.flush() } }
    }

    /// Under the write lock: what is queued, leaving the spare buffer (empty) as the queue.
    private func takeQueue() -> [UInt8] {
        stalledTicks = 0
        var batch: [UInt8] = []
        swap(&batch, &spare)
        swap(&batch, &queued)
        return batch
    }

    /// Writes all of `bytes`, waiting for the pipe to take them (its end does not block: see
    /// ``writeSome(_:_:from:)``).
    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while true {
            guard let written = writeSome(fd, bytes, from: offset) else { return false }
            offset = written
            if offset == bytes.count { return true }
            var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            _ = poll(&ready, 1, -1)
        }
    }

    /// Writes what the pipe takes now of `bytes` from `offset` on: the offset reached, or nil
    /// when the adapter no longer reads.
    private static func writeSome(_ fd: Int32, _ bytes: [UInt8], from start: Int = 0) -> Int? {
        var offset = start
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { break }
                return nil
            }
            offset += n
        }
        return offset
    }

    /// Closes the adapter's input (after what is queued has been written), waiting for a
    /// writer in progress until `deadline` at most. False when the writer was still waiting for
    /// the adapter to read then: the input is left open (closing a descriptor another thread
    /// writes to is a race), and the caller ends the process, which ends the write.
    @discardableResult
    func closeInput(before deadline: ContinuousClock.Instant) -> Bool {
        writeLock.lock()
        // A writer in progress empties the queue first; wait for it (it never holds the lock
        // while writing).
        while writing {
            writeLock.unlock()
            if ContinuousClock.now >= deadline { return false }
            usleep(1_000)
            writeLock.lock()
        }
        defer { writeLock.unlock() }
        guard !inputClosed else { return true }
        inputClosed = true
        process.closeInput()
        return true
    }

    /// Whether the adapter has closed its end of its input while the harness still writes to
    /// it: a write failed, or the pipe reports that nobody reads it any more (`POLLERR` on our
    /// end). Asked when requests time out, so that the message says why they were never read.
    var adapterClosedItsInput: Bool {
        writeLock.withLock {
            if writeFailed { return true }
            guard !inputClosed else { return false }
            var state = pollfd(fd: process.input, events: Int16(POLLOUT), revents: 0)
            return poll(&state, 1, 0) == 1 && state.revents & Int16(POLLERR) != 0
        }
    }

    /// Kills the process at once (SIGKILL): used when it misbehaved or hangs.
    func kill() {
        process.terminate(SIGKILL)
    }

    /// Asks politely (input closed), then insists: used at the end of a run. An adapter that
    /// stopped reading its input with a write to it pending does not see its input closed:
    /// waiting for that write used to wait for ever; it is ended like one that does not exit.
    func finish(grace: Duration) {
        let deadline = ContinuousClock.now + grace
        let closed = closeInput(before: deadline)
        while closed && process.isRunning && ContinuousClock.now < deadline { usleep(5_000) }
        if process.isRunning { process.terminate(SIGTERM) }
        let hard = ContinuousClock.now + .seconds(1)
        while process.isRunning && ContinuousClock.now < hard { usleep(5_000) }
        kill()
        // The pending write fails now that nobody reads the pipe; then the input can close.
        if !closed { closeInput(before: ContinuousClock.now + .seconds(5)) }
    }

    /// Reads `fd` to its end, handing over the lines (without their newlines) completed by each
    /// read, in order. A line longer than `maxLine` is reported as soon as it passes the limit
    /// (with the length it reached then), not when it ends: an adapter that writes without end
    /// is caught at once. The rest of that line is dropped.
    ///
    /// A line that one read brought whole is handed over as a slice of the read buffer, not
    /// copied; only a line that a read left unfinished is gathered on the side. The slices are
    /// valid while `handle` runs (it must not keep them: the next read reuses the buffer).
    static func readLines(fd: Int32, maxLine: Int, _ handle: ([LineEvent]) -> Void) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var pending: [UInt8] = []   // the start of a line a read left unfinished
        var skipping = false        // while dropping the rest of a too-long line
        var events: [LineEvent] = []
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            var start = 0
            while start < n {
                let newline = buffer.withUnsafeBufferPointer { ByteSearch.first(0x0A, in: $0, from: start, to: n) }
                let piece = start..<newline
                if skipping {
                    // dropped
                } else if pending.count + piece.count > maxLine {
                    events.append(.tooLong(pending.count + piece.count))
                    pending.removeAll(keepingCapacity: true)
                    skipping = true
                } else if newline < n && pending.isEmpty {
                    events.append(.line(buffer[piece]))
                } else {
                    pending.append(contentsOf: buffer[piece])
                    if newline < n {
                        // The event takes the gathered line's storage; the next one gathers anew.
                        events.append(.line(pending[...]))
                        pending = []
                    }
                }
                guard newline < n else { break }
                skipping = false
                start = newline + 1
            }
            if !events.isEmpty {
                handle(events)
                // Let go of the slices before the next read writes into the buffer.
                events.removeAll(keepingCapacity: true)
            }
        }
        if !skipping && !pending.isEmpty { handle([.line(pending[...])]) }
    }
}
