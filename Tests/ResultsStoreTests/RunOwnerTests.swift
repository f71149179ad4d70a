import Foundation
@testable import ResultsStore
import Testing
import TestScratch

/// Whether a run left `running` still has its process (finding 8 of the store audit: a pid
/// another process holds is not the run's if that process started after the run).
struct RunOwnerTests {
    static let runStart = "2025-03-01T02:00:00Z"
    static let runStartDate = Date(timeIntervalSince1970: 1_740_794_400)

    /// A system where the pid exists and the process started `offset` seconds after the run.
    static func owner(startedAfterRun offset: TimeInterval?, exited: Bool = false, exists: Bool = true) -> RunOwner {
        RunOwner(exists: { _ in exists },
                 facts: { _ in offset.map { RunOwner.ProcessFacts(started: runStartDate.addingTimeInterval($0), exited: exited) } })
    }

    static func alive(_ owner: RunOwner, host: String = "ci", startedAt: String = runStart) -> Bool {
        owner.isAlive(host: host, pid: 4242, startedAt: startedAt, thisHost: "ci")
    }

    @Test func theRunStartDecodesAsExpected() throws {
        #expect(try Date(Self.runStart, strategy: .iso8601) == Self.runStartDate)
    }

    @Test func aProcessThatStartedBeforeItsRunIsTheRuns() {
        // The process that began the run (and opens the store again for its reports).
        #expect(Self.alive(Self.owner(startedAfterRun: -0.4)))
        #expect(Self.alive(Self.owner(startedAfterRun: -86_400)))
    }

    @Test func aProcessThatStartedAfterItsRunHoldsAReusedPid() {
        // The next night's linkconform, or anything else, with the dead run's pid.
        #expect(!Self.alive(Self.owner(startedAfterRun: 86_400)))
        #expect(!Self.alive(Self.owner(startedAfterRun: RunOwner.slack + 1)))
        // Within the clocks' resolution it is taken as the run's.
        #expect(Self.alive(Self.owner(startedAfterRun: 0.99)))
        #expect(Self.alive(Self.owner(startedAfterRun: RunOwner.slack)))
    }

    @Test func anExitedProcessRunsNothing() {
        #expect(!Self.alive(Self.owner(startedAfterRun: -10, exited: true)))
    }

    @Test func withoutAStartTimeALivePidIsTheRunsAsBefore() {
        #expect(Self.alive(Self.owner(startedAfterRun: nil)))
        #expect(Self.alive(Self.owner(startedAfterRun: 86_400), startedAt: "yesterday"), "a start that cannot be read decides nothing")
    }

    @Test func aFreePidOrAnotherHostMeansTheRunIsGone() {
        #expect(!Self.alive(Self.owner(startedAfterRun: -10, exists: false)))
        #expect(!Self.alive(Self.owner(startedAfterRun: -10), host: "elsewhere"))
        #expect(!RunOwner(exists: { _ in true }, facts: { _ in nil }).isAlive(host: "ci", pid: 0, startedAt: Self.runStart, thisHost: "ci"))
    }

    @Test func aStatLineIsReadFromItsLastParenthesis() throws {
        // Fields 3 (state) to 22 (start time, in ticks): a command name with spaces and
        // parentheses must not shift them.
        let tail = (4...21).map(String.init).joined(separator: " ")
        let line = "4242 (a) b (c d) S \(tail) 12345 3 4 5\n"
        let facts = try #require(RunOwner.facts(stat: line, bootTime: 1_000, ticksPerSecond: 100))
        #expect(facts == .init(started: Date(timeIntervalSince1970: 1_123.45), exited: false))
        let zombie = try #require(RunOwner.facts(stat: "4242 (x) Z \(tail) 100", bootTime: 0, ticksPerSecond: 100))
        #expect(zombie.exited && zombie.started == Date(timeIntervalSince1970: 1))
        #expect(RunOwner.facts(stat: "4242 (x) S 1 2", bootTime: 0, ticksPerSecond: 100) == nil)
    }

    #if os(Linux)
    @Test func thisProcessIsSeenAsStartedAlready() throws {
        let facts = try #require(RunOwner.processFacts(getpid()))
        #expect(!facts.exited)
        #expect(facts.started.timeIntervalSinceNow < RunOwner.slack, "\(facts.started)")
    }
    #endif
}
