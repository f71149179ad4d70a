#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A child process started with `posix_spawn` the way an adapter expects a fresh process: an
/// empty signal mask and every signal at its default disposition, whatever the harness's
/// threads block or ignore (Dispatch's threads block HUP, INT, TERM, ALRM, USR1/2 and more;
/// `linkconform run` ignores INT and TERM while it stops gracefully). Foundation's `Process`
/// passes both on, so an adapter that bounds its work with `alarm`, or a child of it that should
/// die on SIGTERM, would not behave as it does on its own.
///
/// Its standard input, output and error are pipes whose harness ends ``input``, ``output`` and
/// ``error`` are; the command runs through `/usr/bin/env`, so the first argument is looked up
/// in PATH.
///
/// ```swift
/// let child = try SpawnedProcess(arguments: ["python3", "adapter.py"], workingDirectory: nil, environment: [:])
/// child.terminate(SIGKILL)
/// child.waitForExit()   // "killed by signal 9"
/// ```
public final class SpawnedProcess: @unchecked Sendable {
    public struct SpawnError: Error, CustomStringConvertible {
        public let description: String
    }

    public let pid: pid_t
    /// Our ends of the child's standard input (write), output and error (read).
    public let input: Int32
    public let output: Int32
    public let error: Int32

    /// How a child ended: an exit status, or the signal that killed it.
    public struct Termination: Sendable, Equatable, CustomStringConvertible {
        public let exitStatus: Int32?
        public let signal: Int32?
        /// The child's peak resident memory in bytes and its CPU time (user + system) in seconds,
        /// as the kernel counted them (`wait4`).
        public var peakResidentBytes: Int = 0
        public var cpuSeconds: Double = 0
        /// `exit status 3`, `killed by signal 9`.
        public var description: String {
            if let exitStatus { return "exit status \(exitStatus)" }
            return "killed by signal \(signal ?? 0)"
        }
    }

    private let lock = NSLock()
    private var exit: Termination?
    private var inputOpen = true
    /// Whether the child's group is announced to the ``GroupReaper`` (every child but the
    /// reaper's own watcher), so that it is killed if this process dies first.
    private let watched: Bool

    public convenience init(arguments: [String], workingDirectory: String?, environment overrides: [String: String] = [:]) throws {
        try self.init(arguments: arguments, workingDirectory: workingDirectory, environment: overrides, watched: true)
    }

    init(arguments: [String], workingDirectory: String?, environment overrides: [String: String], watched: Bool) throws {
        self.watched = watched
        // Through `env`, no arguments would run `env` itself (printing the environment).
        guard !arguments.isEmpty else { throw SpawnError(description: "no program to run: the command is empty") }
        // Pipes: the child's ends are dup2'ed onto 0, 1 and 2 (dup2 clears close-on-exec on the
        // copy); every original end is close-on-exec, so no child keeps a stray copy.
        var fds: [[Int32]] = []
        for _ in 0..<3 {
            var pair: [Int32] = [0, 0]
            // Close-on-exec from the start (pipe2): a process another thread starts meanwhile
            // (Foundation's Process closes nothing) must not inherit an end and hold it open.
            guard Self.makePipe(&pair) == 0 else {
                let why = String(cString: strerror(errno))
                for p in fds { close(p[0]); close(p[1]) }
                throw SpawnError(description: "cannot make a pipe: \(why)")
            }
            for i in 0..<2 {
                if pair[i] < 3 {
                    // A harness started without a standard stream gets pipe ends numbered 0 to
                    // 2: move them up, so that dup2 onto 0, 1 and 2 never meets its own source.
                    let moved = fcntl(pair[i], F_DUPFD_CLOEXEC, 3)
                    close(pair[i])
                    pair[i] = moved
                } else {
                    _ = fcntl(pair[i], F_SETFD, FD_CLOEXEC)
                }
            }
            fds.append(pair)
        }
        let (stdinPipe, stdoutPipe, stderrPipe) = (fds[0], fds[1], fds[2])
        defer {
            close(stdinPipe[0]); close(stdoutPipe[1]); close(stderrPipe[1])   // the child's ends, ours no more
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdinPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, stdoutPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, stderrPipe[1], 2)
        // Nothing else the harness holds goes to the adapter: a descriptor inherited without
        // close-on-exec (a socket a parent process watches the harness's life by, a database
        // file) kept open by an adapter, or by a child it leaves behind, would outlive the
        // harness and fool whoever waits for it to end.
        Self.closeTheRest(&actions)

        var command = ["/usr/bin/env"]
        if let workingDirectory {
            if let addChdir = Self.addChdir {
                _ = workingDirectory.withCString { addChdir(&actions, $0) }
            } else {
                command += ["-C", workingDirectory]   // GNU env changes directory itself
            }
        }
        command += arguments

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var every = sigset_t()
        sigfillset(&every)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &every)
        // Its own process group (numbered by its pid), so that whatever it starts can be ended
        // with it: see ``waitForExit()``, and ``GroupReaper`` for when this process dies first.
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let environment = ProcessInfo.processInfo.environment.merging(overrides) { _, new in new }
            .map { "\($0.key)=\($0.value)" }
        if watched { GroupReaper.shared.standBy() }
        var child: pid_t = 0
        let status = Self.withCStrings(command) { argv in
            Self.withCStrings(environment) { envp in
                posix_spawn(&child, "/usr/bin/env", &actions, &attributes, argv, envp)
            }
        }
        guard status == 0 else {
            for p in fds { close(p[0]); close(p[1]) }
            throw SpawnError(description: "posix_spawn failed: \(String(cString: strerror(status)))")
        }
        pid = child
        if watched { GroupReaper.shared.announce(child) }
        input = stdinPipe[1]
        output = stdoutPipe[0]
        error = stderrPipe[0]
    }

    deinit {
        closeInput()
        close(output)
        close(error)
    }

    /// Closes the child's standard input (it reads end of file), once.
    public func closeInput() {
        let open = lock.withLock { () -> Bool in
            defer { inputOpen = false }
            return inputOpen
        }
        if open { close(input) }
    }

    /// Whether the child has not ended yet (it is not reaped here: ``waitForExit()`` does that).
    public var isRunning: Bool {
        if lock.withLock({ exit != nil }) { return false }
        var info = siginfo_t()
        let found = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT)
        // With WNOHANG, a child still running leaves si_pid at 0.
        return found == 0 && info._sifields._sigchld.si_pid == 0
    }

    /// Sends a signal to the child, unless it is already reaped (its pid may belong to another).
    /// SIGKILL goes to its whole process group: a child of the adapter that holds its output
    /// open must not outlive it.
    public func terminate(_ signal: Int32) {
        lock.withLock {
            if exit == nil { _ = kill(signal == SIGKILL ? -pid : pid, signal) }
        }
    }

    /// Waits for the child to end, ends what is left of its process group, reaps it, and says
    /// how it ended (`exit status 3`, `killed by signal 9`). Call it from one thread only.
    ///
    /// The group is killed while the child is a zombie, not yet reaped: its pid, which is the
    /// group's number, cannot have been given to another process then. The group is withdrawn
    /// from the ``GroupReaper`` at that moment too, before the number is free.
    @discardableResult
    public func waitForExit() -> String {
        waitForTermination().description
    }

    /// ``waitForExit()``, as a value.
    @discardableResult
    public func waitForTermination() -> Termination {
        if let done = lock.withLock({ exit }) { return done }
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
        _ = kill(-pid, SIGKILL)
        if watched { GroupReaper.shared.withdraw(pid) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let low = status & 0x7F
        var how = low == 0 ? Termination(exitStatus: (status >> 8) & 0xFF, signal: nil) : Termination(exitStatus: nil, signal: low)
        #if os(Linux)
        how.peakResidentBytes = Int(usage.ru_maxrss) * 1024   // kilobytes on Linux
        #else
        how.peakResidentBytes = Int(usage.ru_maxrss)          // bytes on macOS
        #endif
        how.cpuSeconds = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        lock.withLock { exit = how }
        return how
    }

    /// Adds the closing of every descriptor from 3 up to the file actions (after the dup2s onto
    /// 0 to 2): glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later) when it is
    /// there, otherwise one close per descriptor open now (as /proc/self/fd lists them) that is
    /// not close-on-exec already.
    private static func closeTheRest(_ actions: inout posix_spawn_file_actions_t) {
        if let closeFrom = Self.addCloseFrom, closeFrom(&actions, 3) == 0 { return }
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for name in open {
            guard let fd = Int32(name), fd >= 3 else { continue }
            let flags = fcntl(fd, F_GETFD)
            if flags >= 0 && flags & FD_CLOEXEC == 0 { posix_spawn_file_actions_addclose(&actions, fd) }
        }
    }

    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private static let addCloseFrom: AddCloseFrom? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: AddCloseFrom.self)
    }()

    /// glibc's `posix_spawn_file_actions_addchdir_np` (2.29 and later), looked up at run time:
    /// the C module does not declare it.
    private typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    private static let addChdir: AddChdir? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np") else { return nil }
        return unsafeBitCast(symbol, to: AddChdir.self)
    }()

    /// `pipe2(O_CLOEXEC)` where the C library has it (looked up at run time: Glibc's module does
    /// not declare it), else `pipe`, whose ends the caller marks close-on-exec.
    private static func makePipe(_ pair: inout [Int32]) -> Int32 {
        pair.withUnsafeMutableBufferPointer { buffer in
            if let pipe2 = Self.pipe2 { return pipe2(buffer.baseAddress!, O_CLOEXEC) }
            return pipe(buffer.baseAddress!)
        }
    }

    private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
    private static let pipe2: Pipe2? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pipe2") else { return nil }
        return unsafeBitCast(symbol, to: Pipe2.self)
    }()

    /// A NULL-terminated array of C strings for the duration of `body`.
    private static func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        pointers.append(nil)
        defer { for p in pointers { free(p) } }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
