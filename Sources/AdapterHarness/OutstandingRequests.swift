import Conformance

/// What became of one request sent to an adapter.
enum AdapterAttempt {
    case answer(Answer)
    /// The outcome could not be pinned on this request: send it again, alone.
    case retryAlone(String)
    /// There was no process to send the request to.
    case retry
}

/// The requests sent to an adapter and not answered yet, by `seq`; the recent answers (to
/// notice a second answer to the same request); and the verdicts that second answers amend.
///
/// `Waiter` is whatever resumes the request (a continuation in the adapter, a number in tests).
/// A value guarded by the adapter's lock: every method is a state transition that returns who
/// to wake, and waking happens after the lock is released. Kept apart from the process's life
/// so that attribution (whose fault is an event) can be tested without processes.
///
/// ```swift
/// var requests = OutstandingRequests()
/// let seq = requests.add(caseID: "ulc/a", waiter: c, deadline: .now + .seconds(5), generation: 1)
/// requests.settle(seq: seq, with: .answer(.output(["kind": "valid"])), raw: "...")   // -> .wake
/// ```
struct OutstandingRequests<Waiter> {
    typealias Wake = [(Waiter, AdapterAttempt)]

    struct Pending {
        let waiter: Waiter
        let caseID: String
        let deadline: ContinuousClock.Instant
        let generation: Int
    }

    /// What one answer line did.
    enum Settlement {
        /// It answered an outstanding request.
        case wake(Waiter, AdapterAttempt)
        /// It answered a request already answered: an amendment was recorded.
        case amended
        /// It names a seq that was never asked.
        case unknown
    }

    /// How many recent answers are remembered for noticing duplicates.
    static var remembered: Int { 20_000 }

    private(set) var pending: [Int: Pending] = [:]
    /// The case of each recent answer by seq: seq `s` in slot `s % remembered`, with the seq, so
    /// a later answer that takes the slot forgets it. A ring, not a dictionary: every answer
    /// is remembered, and this costs no hashing and no growth.
    private var answered: [(seq: Int, caseID: String)] = []
    private var amendments: [Amendment] = []
    private var nextSeq = 1

    var isEmpty: Bool { pending.isEmpty }

    /// Registers a request and returns the seq it is sent with.
    mutating func add(caseID: String, waiter: Waiter, deadline: ContinuousClock.Instant, generation: Int) -> Int {
        let seq = nextSeq
        nextSeq += 1
        pending[seq] = Pending(waiter: waiter, caseID: caseID, deadline: deadline, generation: generation)
        return seq
    }

    /// An answer naming `seq`: settles its request, or amends a request answered before.
    mutating func settle(seq: Int, with attempt: AdapterAttempt, duplicateNote: @autoclosure () -> String) -> Settlement {
        if let p = pending.removeValue(forKey: seq) {
            remember(seq, p.caseID)
            return .wake(p.waiter, attempt)
        }
        if let caseID = answeredCase(seq) {
            amendments.append(Amendment(caseID: caseID, answer: .protocolError(message: "answered twice (seq \(seq)); the second answer: \(duplicateNote())")))
            return .amended
        }
        return .unknown
    }

    /// Whether a request of this process generation is outstanding.
    func hasOutstanding(generation: Int) -> Bool {
        pending.values.contains { $0.generation == generation }
    }

    /// Ends every request of `generation` because of one event: with a single request
    /// outstanding the event is its fault (`alone`); with several, each is sent again alone
    /// (`shared` words the event for that many).
    mutating func endAll(generation: Int, alone: (String) -> Answer, shared: (Int) -> String) -> Wake {
        let mine = pending.filter { $0.value.generation == generation }
        var wake: Wake = []
        for (seq, p) in mine {
            pending.removeValue(forKey: seq)
            remember(seq, p.caseID)
            wake.append((p.waiter, mine.count == 1 ? .answer(alone(p.caseID)) : .retryAlone(shared(mine.count))))
        }
        return wake
    }

    /// Ends every request outstanding, of any generation, with `answer` (the adapter was
    /// stopped: nothing outstanding will be answered, or sent again).
    mutating func endEvery(with answer: Answer) -> Wake {
        var wake: Wake = []
        for (seq, p) in pending {
            remember(seq, p.caseID)
            wake.append((p.waiter, .answer(answer)))
        }
        pending.removeAll()
        return wake
    }

    /// The requests of `generation` past their deadline at `now`: one alone is the one that
    /// hangs (`timedOut`); several at once (queued behind a hanging one) are each sent again
    /// alone, together with every other request of that generation. Empty when none expired.
    mutating func endExpired(now: ContinuousClock.Instant, generation: Int, timedOut: () -> String, shared: (Int) -> String) -> Wake {
        let expired = pending.filter { $0.value.deadline < now && $0.value.generation == generation }
        guard !expired.isEmpty else { return [] }
        var wake: Wake = []
        for (seq, p) in pending where p.generation == generation {
            pending.removeValue(forKey: seq)
            remember(seq, p.caseID)
            wake.append((p.waiter, expired.count == 1 && expired[seq] != nil
                ? .answer(.timedOut(message: timedOut())) : .retryAlone(shared(expired.count))))
        }
        return wake
    }

    /// Cases re-judged after their first answer (answered twice), handed over once.
    mutating func takeAmendments() -> [Amendment] {
        defer { amendments.removeAll() }
        return amendments
    }

    private mutating func remember(_ seq: Int, _ caseID: String) {
        // No seq is negative: the empty slots match none.
        if answered.isEmpty { answered = Array(repeating: (-1, ""), count: Self.remembered) }
        answered[seq % Self.remembered] = (seq, caseID)
    }

    private func answeredCase(_ seq: Int) -> String? {
        guard seq >= 0, !answered.isEmpty else { return nil }
        let slot = answered[seq % Self.remembered]
        return slot.seq == seq ? slot.caseID : nil
    }
}
