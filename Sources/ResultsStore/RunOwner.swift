#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Whether the process that began a run left `running` is still there to finish it.
///
/// A run records the host and pid of its process. A pid that answers `kill(pid, 0)` is not
/// enough: on a runner with a fixed hostname and predictable pids (containers), another process,
/// even the next night's `linkconform`, can hold a dead run's pid, and the run then stayed
/// `running` instead of `interrupted`. Where the system says when a process started (Linux:
/// `/proc`), a process that started after the run did is not the run's, and one that has exited
/// (a zombie nobody reaped) runs nothing. The process that began a run started before it, so a
/// process that opens the store again for its own reports keeps its run `running`. Where the
/// start time cannot be read, a live pid on the same host is taken as the run's, as before.
struct RunOwner: Sendable {
    /// What the system says of a process that exists.
    struct ProcessFacts: Equatable, Sendable {
        /// When it started, to within the resolution of the clocks it is read from.
        let started: Date
        /// It has exited and waits to be reaped.
        let exited: Bool
    }

    /// Whether a process of that pid exists (on this host).
    var exists: @Sendable (pid_t) -> Bool
    /// What the system says of it; nil when it cannot tell (no `/proc`, or it has just gone).
    var facts: @Sendable (pid_t) -> ProcessFacts?

    /// How much later than the run's recorded start its process may seem to have started: the
    /// run's start is stored in whole seconds, the boot time a process's start is counted from is
    /// given in whole seconds, and the wall clock may have been slewed meanwhile. A process that
    /// holds a dead run's pid this soon after the run began is not a concern: the run would have
    /// had to die, and its pid be given out again, within these seconds.
    static let slack: TimeInterval = 5

    /// Whether the run recorded with `host`, `pid` and `startedAt` may still be running.
    func isAlive(host: String, pid: Int, startedAt: String, thisHost: String) -> Bool {
        guard host == thisHost, let pid = pid_t(exactly: pid), pid > 0, exists(pid) else { return false }
        guard let facts = facts(pid), let runStart = try? Date(startedAt, strategy: .iso8601) else { return true }
        return !facts.exited && facts.started.timeIntervalSince(runStart) <= Self.slack
    }

    /// The system's answers.
    static let system = RunOwner(exists: { kill($0, 0) == 0 || errno == EPERM }, facts: processFacts)

    /// Linux: the process's state and start (field 22 of `/proc/PID/stat`, in clock ticks since
    /// boot) with the boot time (`btime` in `/proc/stat`, seconds since 1970).
    static func processFacts(_ pid: pid_t) -> ProcessFacts? {
        let ticksPerSecond = sysconf(Int32(_SC_CLK_TCK))
        guard ticksPerSecond > 0, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let boot = bootTime() else { return nil }
        return facts(stat: stat, bootTime: boot, ticksPerSecond: Double(ticksPerSecond))
    }

    /// Reads a `/proc/PID/stat` line. The command name (field 2) is in parentheses and may hold
    /// spaces and parentheses itself: the fields are counted from the last `)`, after which
    /// come the state (field 3) and, 19 fields on, the start time (field 22).
    static func facts(stat: String, bootTime: Double, ticksPerSecond: Double) -> ProcessFacts? {
        guard let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count > 19, let ticks = Double(fields[19]) else { return nil }
        return ProcessFacts(started: Date(timeIntervalSince1970: bootTime + ticks / ticksPerSecond),
                            exited: fields[0] == "Z" || fields[0] == "X")
    }

    /// `btime` of `/proc/stat`: when the system booted, in seconds since 1970.
    static func bootTime() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("btime ") {
            return Double(line.dropFirst(6).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }
}
