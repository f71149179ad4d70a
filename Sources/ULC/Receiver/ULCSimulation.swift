import Foundation

/// A receiver scenario: the device's state, a scripted back end, and the links that arrive.
///
/// Used by the conformance operation `ulc.handle`: any implementation runs its receiver logic
/// against the same scenario and reports what it did, in virtual time.
public struct ULCScenario: Sendable, Hashable {
    /// How the scripted back end answers one attempt.
    public struct Attempt: Sendable, Hashable {
        public enum Answer: String, Sendable, Hashable, CaseIterable {
            case closed, alreadyClosed, transient, permanent
            /// Never answers (the attempt takes an hour of virtual time unless cut short).
            case hang
        }
        public var answer: Answer
        /// Virtual seconds the attempt takes before the answer.
        public var seconds: Double

        public init(_ answer: Answer, seconds: Double = 0.2) {
            self.answer = answer
            self.seconds = seconds
        }
    }

    /// The app's registered logout action.
    public var logoutAction: String
    /// Whether a user is signed in (with a back-end session) when the scenario starts.
    public var signedIn: Bool
    /// Whether the app is force-quit after sign-in and before the first link (memory lost).
    public var forceQuitBeforeLink: Bool
    /// Answers for attempt 1, 2, ...; the last one repeats. Empty means always `closed`.
    public var backend: [Attempt]
    /// Links delivered one after another.
    public var links: [String]
    /// Whether opening a universal link succeeds (an app claims it).
    public var openSucceeds: Bool

    public init(logoutAction: String, signedIn: Bool = true, forceQuitBeforeLink: Bool = false,
                backend: [Attempt] = [], links: [String], openSucceeds: Bool = true) {
        self.logoutAction = logoutAction
        self.signedIn = signedIn
        self.forceQuitBeforeLink = forceQuitBeforeLink
        self.backend = backend
        self.links = links
        self.openSucceeds = openSucceeds
    }
}

/// What a receiver did in a scenario.
public struct ULCScenarioReport: Sendable, Hashable {
    /// One URL the receiver opened.
    public struct Opened: Sendable, Hashable {
        public var url: String
        public var universalLinksOnly: Bool
        /// Virtual seconds since the scenario started.
        public var atSeconds: Double
    }
    public var opened: [Opened]
    /// Prompts shown to the user. The reference receiver has no user-interface dependency at
    /// all, so it reports 0 by construction; adapters report what their receiver showed.
    public var prompts: Int
    public var backendAttempts: Int
    /// Whether a user is still signed in on the device at the end.
    public var userSignedIn: Bool
    /// Whether the back-end session is still open at the end.
    public var backendSessionOpen: Bool
    /// Virtual seconds each link took, from arrival to the end of handling.
    public var elapsedSeconds: [Double]
    /// Why the reference receiver did what it did with each link (``ULCReceiver/Report/reason``);
    /// empty from a receiver that does not say.
    public var reasons: [String] = []

    /// Among `reasons`, those of links the receiver left alone (`not-ulc`, `other-scheme`, ...;
    /// a logout's reason holds ": "), each once, sorted.
    public static func leftAlone(_ reasons: [String]) -> [String] {
        Set(reasons.filter { !$0.contains(": ") }).sorted()
    }
}

/// Runs the reference receiver through a scenario on a ``VirtualClock``.
public enum ULCSimulation {
    public static func run(_ scenario: ULCScenario, policy: ULCReceiver<VirtualClock>.Policy = .init()) async -> ULCScenarioReport {
        let clock = VirtualClock()
        let world = SimulatedWorld(clock: clock, scenario: scenario)
        func makeReceiver() -> ULCReceiver<VirtualClock> {
            ULCReceiver(logoutAction: scenario.logoutAction, clock: clock, backend: world, store: world,
                        opener: world, policy: policy, clearLocalData: { world.signOut() })
        }
        var receiver = makeReceiver()
        if scenario.signedIn { await receiver.signedIn(token: "session-1") }
        if scenario.forceQuitBeforeLink { receiver = makeReceiver() }   // memory is gone; storage stays

        var attempts = 0
        var elapsed: [Double] = []
        var reasons: [String] = []
        elapsed.reserveCapacity(scenario.links.count)
        reasons.reserveCapacity(scenario.links.count)
        for link in scenario.links {
            let report = await receiver.handle(link)
            attempts += report.backendAttempts
            elapsed.append(report.elapsed.seconds)
            reasons.append(report.reason)
        }
        let end = world.state
        return ULCScenarioReport(opened: end.opened, prompts: 0, backendAttempts: attempts,
                                 userSignedIn: end.signedIn, backendSessionOpen: end.sessionOpen,
                                 elapsedSeconds: elapsed, reasons: reasons)
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    public var seconds: Double {
        let (s, atto) = components
        return Double(s) + Double(atto) / 1e18
    }
}

/// Everything around the receiver in a simulation, behind one lock: the scripted back end (its
/// answers take virtual time), storage that survives a force-quit (it outlives receiver
/// instances), the URL opener that records each request with its options and virtual time, and
/// whether a user is signed in on the device. One object rather than four keeps a simulation
/// cheap: the conformance run builds one per `ulc.handle` case.
final class SimulatedWorld: ULCBackend, ULCSessionStore, ULCURLOpener, @unchecked Sendable {
    struct State {
        var nextAttempt = 0
        var sessionOpen: Bool
        var stored: ULCStoredSession?
        var opened: [ULCScenarioReport.Opened] = []
        var signedIn: Bool
    }

    private let lock = NSLock()
    private let clock: VirtualClock
    private let script: [ULCScenario.Attempt]
    private let openSucceeds: Bool
    private var current: State

    init(clock: VirtualClock, scenario: ULCScenario) {
        self.clock = clock
        self.script = scenario.backend
        self.openSucceeds = scenario.openSucceeds
        self.current = State(sessionOpen: scenario.signedIn, signedIn: scenario.signedIn)
    }

    var state: State { lock.withLock { current } }

    // The back end.
    func closeSession(token: String) async throws -> ULCBackendAnswer {
        let attempt: ULCScenario.Attempt = lock.withLock {
            defer { current.nextAttempt += 1 }
            return script.isEmpty ? .init(.closed) : script[min(current.nextAttempt, script.count - 1)]
        }
        try await clock.sleep(for: attempt.answer == .hang ? .seconds(3600) : .seconds(attempt.seconds))
        switch attempt.answer {
        case .closed:
            let wasOpen = lock.withLock { defer { current.sessionOpen = false }; return current.sessionOpen }
            return wasOpen ? .closed : .alreadyClosed
        case .alreadyClosed:
            lock.withLock { current.sessionOpen = false }
            return .alreadyClosed
        case .transient: return .transientFailure("503 Service Unavailable")
        case .permanent: return .permanentFailure("403 Forbidden")
        case .hang: return .transientFailure("unreachable")
        }
    }

    // Storage.
    func load() async -> ULCStoredSession? { lock.withLock { current.stored } }
    func save(_ session: ULCStoredSession?) async { lock.withLock { current.stored = session } }

    // The opener.
    func open(_ url: String, universalLinksOnly: Bool) async -> Bool {
        let at = clock.now.seconds
        lock.withLock { current.opened.append(.init(url: url, universalLinksOnly: universalLinksOnly, atSeconds: at)) }
        return openSucceeds
    }

    // The device.
    func signOut() { lock.withLock { current.signedIn = false } }
}
