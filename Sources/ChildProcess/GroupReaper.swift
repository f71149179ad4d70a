#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Ends what is left of every child's process group when this process dies, however it dies:
/// `exit`, a crash, or SIGKILL (a CI job's timeout, the OOM killer), which no handler of ours
/// ever sees.
///
/// Each ``SpawnedProcess`` starts in a process group of its own, and normally its group is
/// killed when it ends (``SpawnedProcess/waitForTermination()``). When this process is killed
/// first, that never happens: the children are orphaned, and one that does not read its input
/// (an adapter busy in a backtracking regex) keeps running for as long as its work lasts.
///
/// So the first child started brings up a watcher: a small `/bin/sh` in a process group of
/// its own, whose standard input is a pipe only this process writes to. Every child's group is
/// announced to it (`+PGID`) when the child is spawned, and withdrawn (`-PGID`) when this
/// process has killed the group and is about to reap the child: until that reap the number
/// cannot be given to another group, and the withdrawal is in the pipe before it is, so the
/// watcher never kills a group of the same number that someone else made later. When the pipe
/// reaches its end, which the kernel sees to however this process ends, the watcher kills every
/// group still announced and exits. It has nothing else to do: at a normal end the list is
/// empty (or holds what a hurried `exit` left running, which it ends).
///
/// Why not the alternatives: `PR_SET_PDEATHSIG` (Linux only) fires when the *thread* that
/// spawned the child ends, not the process (children are spawned from dispatch and pool threads,
/// which come and go), `posix_spawn` has no hook to set it in the child, and it would reach the
/// adapter only, not the children in its group. `PR_SET_CHILD_SUBREAPER` makes this process
/// the one orphans are given to, which is no help once this process is dead. A forked copy of
/// this process as the watcher could not safely run Swift after `fork` in a threaded process.
/// A shell runs anywhere there is `/bin/sh`, after an `exec`, with nothing of ours in it.
///
/// The watcher can only make things better: when it cannot be started, dies, or stops reading
/// (its pipe stays full for ``stalledWrite``), it is killed if still there and switched off,
/// with a note on stderr, and children are left to today's fate (orphaned if this process is
/// killed). A message is a few bytes written in one `write`, below `PIPE_BUF`, to a pipe end
/// that does not block: it is never cut in two, and a stuck watcher never blocks a spawn for
/// longer than ``stalledWrite``.
///
/// Limits: a child spawned and not yet announced when this process is killed (the moment
/// between `posix_spawn` and the write) is not covered; nor is a process that left its group.
final class GroupReaper: @unchecked Sendable {
    static let shared = GroupReaper()

    /// How long a message may wait for a full pipe before the watcher is given up.
    static let stalledWrite: Duration = .seconds(2)

    private enum State {
        case notStarted
        case watching(SpawnedProcess)
        case off
    }

    private let lock = NSLock()
    private var state = State.notStarted

    /// The watcher's program. Its standard input is the pipe; the groups announced are kept as
    /// a list of numbers between spaces (a handful at a time: each is withdrawn when its child
    /// ends). Only numbers above 1 are killed (`kill -- -1` would mean every process).
    /// Terminal signals are ignored (it is in a group of its own, so a Ctrl-C in the terminal
    /// does not reach it anyway); its own output goes nowhere, so that no write of it can fail.
    static let script = """
        exec >/dev/null 2>&1
        trap '' HUP INT QUIT
        groups=' '
        while IFS= read -r line; do
          n=${line#?}
          case $n in ''|*[!0-9]*) continue ;; esac
          case $line in
            +*) groups="$groups$n " ;;
            -*) case $groups in *" $n "*) groups="${groups%% $n *} ${groups#* $n }" ;; esac ;;
          esac
        done
        for n in $groups; do
          case $n in 0|1) ;; *) kill -s KILL -- "-$n" ;; esac
        done
        """

    /// Starts the watcher if it is not there yet: called before a child is spawned, so that
    /// the first child's announcement does not wait for the watcher's own spawn.
    func standBy() {
        lock.withLock {
            if case .notStarted = state { startWatcher() }
        }
    }

    /// A child's group exists: it is killed if this process dies before ``withdraw(_:)``.
    func announce(_ group: pid_t) {
        guard group > 1 else { return }
        lock.withLock {
            if case .notStarted = state { startWatcher() }
            send("+\(group)\n")
        }
    }

    /// A child's group has been killed by this process, which is about to reap the child.
    func withdraw(_ group: pid_t) {
        guard group > 1 else { return }
        lock.withLock { send("-\(group)\n") }
    }

    /// A reaper of its own, for tests: children are announced to ``shared``.
    init() {}

    /// For tests: closes the watcher's pipe, as this process's death would, without dying.
    /// Nothing is sent to it after that.
    func closePipeAsIfThisProcessDied() {
        lock.withLock {
            if case .watching(let watcher) = state { watcher.closeInput() }
            state = .off
        }
    }

    /// The watcher's pid while it watches (for tests).
    var watcherPID: pid_t? {
        lock.withLock {
            if case .watching(let watcher) = state { return watcher.pid }
            return nil
        }
    }

    /// Under the lock.
    private func startWatcher() {
        StandardStreams.ignoreBrokenPipes()   // a watcher that died must not take us with it
        let watcher: SpawnedProcess
        do {
            watcher = try SpawnedProcess(arguments: ["/bin/sh", "-c", Self.script, "linkconform-group-reaper"],
                                         workingDirectory: "/", environment: [:], watched: false)
        } catch {
            return switchOff("cannot start it: \(error)")
        }
        _ = fcntl(watcher.input, F_SETFL, fcntl(watcher.input, F_GETFL) | O_NONBLOCK)
        state = .watching(watcher)
        // Reaps the watcher if it ends while this process lives (it should not: only the end of
        // its input ends it), and switches it off then.
        let thread = Thread { [weak self] in
            let how = watcher.waitForTermination()
            guard let self else { return }
            self.lock.withLock {
                if case .watching(let current) = self.state, current === watcher { self.switchOff("it ended (\(how))") }
            }
        }
        thread.name = "group reaper"
        thread.start()
    }

    /// Under the lock: writes one message, or gives the watcher up.
    private func send(_ message: String) {
        guard case .watching(let watcher) = state else { return }
        let bytes = Array(message.utf8)
        let deadline = ContinuousClock.now + Self.stalledWrite
        while true {
            let n = bytes.withUnsafeBytes { write(watcher.input, $0.baseAddress, $0.count) }
            if n == bytes.count { return }
            if n < 0 && errno == EINTR { continue }
            guard n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) else {
                return switchOff("it stopped reading (\(n < 0 ? String(cString: strerror(errno)) : "a short write"))")
            }
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return switchOff("its pipe stayed full for \(Self.stalledWrite)") }
            var ready = pollfd(fd: watcher.input, events: Int16(POLLOUT), revents: 0)
            _ = poll(&ready, 1, Int32((left / .milliseconds(1)).rounded(.up)))
        }
    }

    /// Under the lock: no more watching. A watcher still there is killed first, so that it
    /// cannot act on a list this process no longer keeps up to date (closing its pipe would
    /// make it kill every group announced, live children included).
    private func switchOff(_ why: String) {
        if case .watching(let watcher) = state { watcher.terminate(SIGKILL) }
        state = .off
        StandardStreams.write("linkconform: note: the watcher that ends child processes if linkconform is killed is off: \(why); "
                              + "children left running by a killed linkconform will not be ended\n", to: 2)
    }
}
