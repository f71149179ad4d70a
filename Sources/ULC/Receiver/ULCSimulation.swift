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
}

/// Runs the reference receiver through a scenario on a ``VirtualClock``.
public enum ULCSimulation {
    public static func run(_ scenario: ULCScenario, policy: ULCReceiver<VirtualClock>.Policy = .init()) async -> ULCScenarioReport {
        let clock = VirtualClock()
        let backend = ScriptedBackend(clock: clock, script: scenario.backend, sessionOpen: scenario.signedIn)
        let store = MemorySessionStore()
        let opener = RecordingOpener(clock: clock, succeeds: scenario.openSucceeds)
        let device = DeviceState(signedIn: scenario.signedIn)
        func makeReceiver() -> ULCReceiver<VirtualClock> {
            ULCReceiver(logoutAction: scenario.logoutAction, clock: clock, backend: backend, store: store,
                        opener: opener, policy: policy, clearLocalData: { device.signOut() })
        }
        var receiver = makeReceiver()
        if scenario.signedIn { await receiver.signedIn(token: "session-1") }
        if scenario.forceQuitBeforeLink { receiver = makeReceiver() }   // memory is gone; storage stays

        var attempts = 0
        var elapsed: [Double] = []
        for link in scenario.links {
            let report = await receiver.handle(link)
            attempts += report.backendAttempts
            elapsed.append(report.elapsed.seconds)
        }
        return ULCScenarioReport(opened: opener.opened, prompts: 0, backendAttempts: attempts,
                                 userSignedIn: device.signedIn, backendSessionOpen: backend.sessionOpen,
                                 elapsedSeconds: elapsed)
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    public var seconds: Double {
        let (s, atto) = components
        return Double(s) + Double(atto) / 1e18
    }
}

/// A back end whose answers follow a script, taking virtual time.
final class ScriptedBackend: ULCBackend, @unchecked Sendable {
    private let lock = NSLock()
    private let clock: VirtualClock
    private let script: [ULCScenario.Attempt]
    private var next = 0
    private var open: Bool

    init(clock: VirtualClock, script: [ULCScenario.Attempt], sessionOpen: Bool) {
        self.clock = clock
        self.script = script
        self.open = sessionOpen
    }

    var sessionOpen: Bool { lock.withLock { open } }

    func closeSession(token: String) async throws -> ULCBackendAnswer {
        let attempt: ULCScenario.Attempt = lock.withLock {
            defer { next += 1 }
            return script.isEmpty ? .init(.closed) : script[min(next, script.count - 1)]
        }
        try await clock.sleep(for: attempt.answer == .hang ? .seconds(3600) : .seconds(attempt.seconds))
        switch attempt.answer {
        case .closed:
            let wasOpen = lock.withLock { defer { open = false }; return open }
            return wasOpen ? .closed : .alreadyClosed
        case .alreadyClosed:
            lock.withLock { open = false }
            return .alreadyClosed
        case .transient: return .transientFailure("503 Service Unavailable")
        case .permanent: return .permanentFailure("403 Forbidden")
        case .hang: return .transientFailure("unreachable")
        }
    }
}

/// Storage that survives a simulated force-quit (it outlives receiver instances).
final class MemorySessionStore: ULCSessionStore, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: ULCStoredSession?
    func load() async -> ULCStoredSession? { lock.withLock { stored } }
    func save(_ session: ULCStoredSession?) async { lock.withLock { stored = session } }
}

/// Records every open request with its options and virtual time.
final class RecordingOpener: ULCURLOpener, @unchecked Sendable {
    private let lock = NSLock()
    private let clock: VirtualClock
    private let succeeds: Bool
    private var log: [ULCScenarioReport.Opened] = []

    init(clock: VirtualClock, succeeds: Bool) {
        self.clock = clock
        self.succeeds = succeeds
    }

    var opened: [ULCScenarioReport.Opened] { lock.withLock { log } }

    func open(_ url: String, universalLinksOnly: Bool) async -> Bool {
        let at = clock.now.seconds
        lock.withLock { log.append(.init(url: url, universalLinksOnly: universalLinksOnly, atSeconds: at)) }
        return succeeds
    }
}

/// Whether a user is signed in on the simulated device.
final class DeviceState: @unchecked Sendable {
    private let lock = NSLock()
    private var signed: Bool
    init(signedIn: Bool) { signed = signedIn }
    var signedIn: Bool { lock.withLock { signed } }
    func signOut() { lock.withLock { signed = false } }
}
