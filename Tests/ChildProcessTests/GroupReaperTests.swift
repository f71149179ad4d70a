#if canImport(Glibc)
import Glibc
#endif
@testable import ChildProcess
import Foundation
import Testing

/// The watcher that ends children's groups when this process dies. Each test has a reaper of
/// its own (every child is also announced to the shared one, which these tests leave alone).
@Suite struct GroupReaperTests {
    /// Waits (sleeping, on this thread) until `done` holds or `seconds` have passed.
    static func wait(seconds: Double, until done: () -> Bool) {
        let deadline = Date().addingTimeInterval(seconds)
        while !done() && Date() < deadline { usleep(20_000) }
    }

    /// Whether `pid`, a child this process has reaped, is gone.
    static func gone(_ pid: pid_t) -> Bool { kill(pid, 0) != 0 && errno == ESRCH }

    static func sleeper() throws -> SpawnedProcess {
        try SpawnedProcess(arguments: ["sleep", "100000"], workingDirectory: nil)
    }

    @Test func theGroupsStillAnnouncedAreKilledWhenItsPipeEnds() throws {
        let reaper = GroupReaper()
        let left = try Self.sleeper(), withdrawn = try Self.sleeper()
        defer {
            for child in [left, withdrawn] { child.terminate(SIGKILL); child.waitForExit() }
        }
        reaper.announce(left.pid)
        reaper.announce(withdrawn.pid)
        reaper.withdraw(withdrawn.pid)
        let watcher = try #require(reaper.watcherPID)
        reaper.closePipeAsIfThisProcessDied()
        Self.wait(seconds: 60) { Self.gone(watcher) }
        #expect(Self.gone(watcher), "the watcher exits at the end of its input")
        // A SIGKILL is sent at once but takes effect when the victim next runs.
        Self.wait(seconds: 60) { !left.isRunning }
        #expect(!left.isRunning)
        #expect(left.waitForTermination().signal == SIGKILL)
        #expect(withdrawn.isRunning, "a group withdrawn is not killed")
    }

    @Test func aWatcherThatDiesIsSwitchedOff() throws {
        let reaper = GroupReaper()
        let child = try Self.sleeper()
        defer { child.terminate(SIGKILL); child.waitForExit() }
        reaper.announce(child.pid)
        kill(try #require(reaper.watcherPID), SIGKILL)
        Self.wait(seconds: 60) { reaper.watcherPID == nil }
        #expect(reaper.watcherPID == nil)
        // Nothing more is written, nothing fails, and no watcher is started again.
        reaper.announce(child.pid)
        reaper.withdraw(child.pid)
        #expect(reaper.watcherPID == nil)
        #expect(child.isRunning)
    }

    /// A watcher that stops reading (here, stopped) fills its pipe: the write that finds it full
    /// waits ``GroupReaper/stalledWrite`` at most, then the watcher is killed (it must not act on
    /// a list no longer kept) and switched off.
    @Test func aWatcherThatStopsReadingIsKilledAndSwitchedOff() throws {
        let reaper = GroupReaper()
        let child = try Self.sleeper()
        defer { child.terminate(SIGKILL); child.waitForExit() }
        reaper.announce(child.pid)
        let watcher = try #require(reaper.watcherPID)
        kill(watcher, SIGSTOP)
        var sent = 0
        while reaper.watcherPID != nil && sent < 1_000_000 {
            reaper.announce(child.pid)
            sent += 1
        }
        #expect(reaper.watcherPID == nil, "switched off after \(sent) messages")
        Self.wait(seconds: 60) { Self.gone(watcher) }
        #expect(Self.gone(watcher))
        #expect(child.isRunning, "the killed watcher killed nothing")
    }
}
