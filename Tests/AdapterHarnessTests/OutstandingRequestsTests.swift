import Conformance
import Testing
@testable import AdapterHarness

/// Whose fault an event is, decided on the bookkeeping alone (no processes): the rules the zoo
/// tests see from outside.
struct OutstandingRequestsTests {
    typealias Requests = OutstandingRequests<String>
    let later = ContinuousClock.now + .seconds(60)

    func answer(_ attempt: AdapterAttempt) -> Answer? {
        if case .answer(let a) = attempt { return a }
        return nil
    }

    func isRetryAlone(_ attempt: AdapterAttempt) -> Bool {
        if case .retryAlone = attempt { return true }
        return false
    }

    @Test func anAnswerWakesTheRequestItNames() {
        var requests = Requests()
        let a = requests.add(caseID: "a", waiter: "A", deadline: later, generation: 1)
        let b = requests.add(caseID: "b", waiter: "B", deadline: later, generation: 1)
        #expect(a != b)
        guard case .wake(let waiter, let attempt) = requests.settle(seq: b, with: .answer(.skipped(reason: "no")), duplicateNote: "") else {
            Issue.record("not settled")
            return
        }
        #expect(waiter == "B")
        #expect(answer(attempt) == .skipped(reason: "no"))
        #expect(requests.pending.count == 1)
    }

    @Test func aSecondAnswerAmendsTheCaseAndAnUnknownSeqIsReported() {
        var requests = Requests()
        let a = requests.add(caseID: "a", waiter: "A", deadline: later, generation: 1)
        _ = requests.settle(seq: a, with: .answer(.output(.null)), duplicateNote: "")
        guard case .amended = requests.settle(seq: a, with: .answer(.output(.null)), duplicateNote: "{\"seq\":1}") else {
            Issue.record("a duplicate was not noticed")
            return
        }
        let amendments = requests.takeAmendments()
        #expect(amendments.map(\.caseID) == ["a"])
        if case .protocolError(let message) = amendments.first?.answer {
            #expect(message.contains("answered twice"))
        } else {
            Issue.record("the amendment is not a protocol error")
        }
        #expect(requests.takeAmendments().isEmpty, "amendments are handed over once")
        guard case .unknown = requests.settle(seq: 99, with: .answer(.output(.null)), duplicateNote: "") else {
            Issue.record("a seq never asked was accepted")
            return
        }
    }

    @Test func anEventWithOneRequestOutstandingIsThatRequestsFault() {
        var requests = Requests()
        _ = requests.add(caseID: "a", waiter: "A", deadline: later, generation: 1)
        let wake = requests.endAll(generation: 1, alone: { .crashed(message: "died running \($0)") }, shared: { _ in "shared" })
        #expect(wake.count == 1)
        #expect(answer(wake[0].1) == .crashed(message: "died running a"))
        #expect(requests.isEmpty)
    }

    @Test func anEventWithSeveralOutstandingSendsEachAgainAlone() {
        var requests = Requests()
        for id in ["a", "b", "c"] { _ = requests.add(caseID: id, waiter: id, deadline: later, generation: 2) }
        _ = requests.add(caseID: "old", waiter: "old", deadline: later, generation: 1)
        let wake = requests.endAll(generation: 2, alone: { _ in .crashed(message: "") }, shared: { "died with \($0) outstanding" })
        #expect(Set(wake.map(\.0)) == ["a", "b", "c"])
        #expect(wake.allSatisfy { isRetryAlone($0.1) })
        #expect(requests.pending.count == 1, "a replaced process's request is left to its own generation")
    }

    @Test func oneExpiredRequestTimesOutAndTheOnesQueuedBehindItRunAgainAlone() {
        var requests = Requests()
        let now = ContinuousClock.now
        _ = requests.add(caseID: "hangs", waiter: "hangs", deadline: now - .seconds(1), generation: 1)
        _ = requests.add(caseID: "queued", waiter: "queued", deadline: now + .seconds(5), generation: 1)
        #expect(requests.endExpired(now: now - .seconds(2), generation: 1, timedOut: { "t" }, shared: { "\($0)" }).isEmpty,
                "nothing expires before its deadline")
        let wake = requests.endExpired(now: now, generation: 1, timedOut: { "no answer" }, shared: { "\($0) expired" })
        let byWaiter = Dictionary(uniqueKeysWithValues: wake.map { ($0.0, $0.1) })
        #expect(answer(byWaiter["hangs"]!) == .timedOut(message: "no answer"))
        #expect(isRetryAlone(byWaiter["queued"]!))
    }

    @Test func severalExpiredTogetherAreEachSentAgainAlone() {
        var requests = Requests()
        let now = ContinuousClock.now
        _ = requests.add(caseID: "a", waiter: "a", deadline: now - .seconds(1), generation: 1)
        _ = requests.add(caseID: "b", waiter: "b", deadline: now - .seconds(1), generation: 1)
        let wake = requests.endExpired(now: now, generation: 1, timedOut: { "t" }, shared: { "\($0) expired" })
        #expect(wake.count == 2 && wake.allSatisfy { isRetryAlone($0.1) })
        if case .retryAlone(let why) = wake[0].1 { #expect(why == "2 expired") }
    }
}

/// An adapter known only by its command is named by what it runs.
struct AdapterNameTests {
    @Test(arguments: [
        (["python3", "-u", "adapters/my_adapter.py"], "my_adapter.py"),
        (["python3.11", "x/y.py", "--flag"], "y.py"),
        (["node", "adapter.mjs"], "adapter.mjs"),
        ([".build/release/foundation-adapter"], "foundation-adapter"),
        (["/usr/bin/bash"], "bash"),
        ([String](), "adapter"),
    ])
    func anAdapterIsNamedByItsScriptOrProgram(arguments: [String], name: String) {
        #expect(AdapterConfiguration(arguments: arguments).name == name)
        #expect(AdapterConfiguration(name: "given", arguments: arguments).name == "given")
    }
}
