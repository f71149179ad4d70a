import LinkURL

/// The reference receiver of Universal Link Callbacks: what an app does when the link arrives.
///
/// - no prompts: nothing in this type can ask the user anything;
/// - logs out (local data, then the back-end session read from persistent storage, so a
///   force-quit loses nothing), retrying transient back-end failures while the budget lasts;
/// - opens the success URL after logging out, and also when nobody was signed in;
/// - opens the error URL only for an unrecoverable failure or an exhausted budget;
/// - opens with the universal-links-only option, and never opens a callback that fails
///   validation (it still logs out: on a shared device a user left signed in is the worse failure);
/// - finishes within the budget (20 s by default) measured on the injected clock.
///
/// ```swift
/// let receiver = ULCReceiver(logoutAction: "https://app.example.com/logout",
///                            clock: SystemULCClock(), backend: api, store: defaultsStore,
///                            opener: uiApplicationOpener, clearLocalData: { await cache.purge() })
/// await receiver.signedIn(token: session.token)          // at login
/// let report = await receiver.handle(incomingLink)       // from the universal-link handler
/// ```
///
/// Calls to ``handle(_:)`` should not overlap; an app delivers links one at a time.
public final class ULCReceiver<Clock: ULCClock>: Sendable {
    /// Timing of the logout.
    public struct Policy: Sendable, Hashable {
        /// The whole logout, from the link's arrival to the callback being opened.
        public var budget: Duration = .seconds(20)
        /// Time kept back at the end of the budget for opening the callback.
        public var openReserve: Duration = .seconds(2)
        /// Longest a single back-end attempt may take.
        public var attemptTimeout: Duration = .seconds(6)
        /// Pauses between attempts; the last one repeats.
        public var backoff: [Duration] = [.milliseconds(500), .seconds(1), .seconds(2), .seconds(4)]

        public init() {}
    }

    /// What happened to one link.
    public struct Report: Sendable, Hashable {
        public enum Outcome: Sendable, Hashable {
            /// Not a ULC, or a ULC for another action: nothing done.
            case ignored(String)
            /// Logged out (or nobody was signed in).
            case loggedOut
            /// The back-end logout failed (unrecoverable, or the budget ran out).
            case failed(String)
        }
        public var outcome: Outcome
        /// Why, in a few stable words (reported beside the scenario's answer, never judged):
        /// `not-ulc`; `action-unreadable` (the configured logout action has no scheme or host) or
        /// `link-action-unreadable`; `other-scheme`, `other-host`, `other-port` or `other-path`
        /// (the first part of the link's action that differs from the logout action); else
        /// `logged-out`, `not-signed-in` or `failed`, then `: success`, `: error` or `: nothing`
        /// for the callback opened.
        public var reason: String
        /// The callback opened, if any.
        public var opened: String?
        /// Whether the system accepted the open.
        public var openAccepted: Bool
        public var backendAttempts: Int
        /// Time from arrival to the end of handling, on the receiver's clock.
        public var elapsed: Duration
        /// What the link's parse found.
        public var violations: [ULCViolation]
    }

    public let logoutAction: String
    let actionKey: ActionKey?
    let clock: Clock
    let backend: any ULCBackend
    let store: any ULCSessionStore
    let opener: any ULCURLOpener
    let clearLocalData: @Sendable () async -> Void
    public let policy: Policy

    public init(logoutAction: String, clock: Clock, backend: any ULCBackend, store: any ULCSessionStore,
                opener: any ULCURLOpener, policy: Policy = Policy(), clearLocalData: @escaping @Sendable () async -> Void) {
        self.logoutAction = logoutAction
        self.actionKey = ActionKey(logoutAction)
        self.clock = clock
        self.backend = backend
        self.store = store
        self.opener = opener
        self.policy = policy
        self.clearLocalData = clearLocalData
    }

    /// Records a sign-in, persistently: call it when the user logs in.
    public func signedIn(token: String) async {
        await store.save(ULCStoredSession(token: token, signedIn: true))
    }

    /// Handles an incoming link (bytes as received).
    public func handle(_ link: [UInt8]) async -> Report {
        let start = clock.now
        let parsed = ULC.parse(link)
        func report(_ outcome: Report.Outcome, _ reason: String, attempts: Int = 0, opened: String? = nil, accepted: Bool = false) -> Report {
            Report(outcome: outcome, reason: reason, opened: opened, openAccepted: accepted, backendAttempts: attempts,
                   elapsed: clock.now - start, violations: parsed.violations)
        }
        guard parsed.kind != .notULC else { return report(.ignored("not a ULC: no ulc-success parameter"), "not-ulc") }
        let another = Report.Outcome.ignored("a ULC for another action than \(logoutAction)")
        guard let actionKey else { return report(another, "action-unreadable") }
        guard let linkKey = parsed.action.flatMap(ActionKey.init) else { return report(another, "link-action-unreadable") }
        guard linkKey == actionKey else { return report(another, linkKey.firstDifference(from: actionKey)) }

        // Log out, whatever the callbacks look like.
        var attempts = 0
        var failure: String? = nil
        let session = await store.load()
        if let session {
            await clearLocalData()
            if session.signedIn { await store.save(ULCStoredSession(token: session.token, signedIn: false)) }
            let deadline = start + policy.budget - policy.openReserve
            (attempts, failure) = await closeBackendSession(session.token, until: deadline)
            if failure == nil { await store.save(nil) }
        }

        // Report through a callback that passed validation, and only through one.
        let target: ULCParameter? = failure == nil && parsed.isUsable(.success) ? .success
            : parsed.isUsable(.error) ? .error : nil
        let outcome: Report.Outcome = failure.map(Report.Outcome.failed) ?? .loggedOut
        let done = failure != nil ? "failed" : session == nil ? "not-signed-in" : "logged-out"
        guard let target, let url = parsed.callback(target)?.decoded else {
            return report(outcome, done + ": nothing", attempts: attempts)
        }
        let accepted = await opener.open(url, universalLinksOnly: true)
        return report(outcome, done + (target == .success ? ": success" : ": error"), attempts: attempts, opened: url, accepted: accepted)
    }

    /// Handles an incoming link given as a string.
    public func handle(_ link: String) async -> Report {
        await handle(Array(link.utf8))
    }

    /// Tries to close the back-end session until it is closed, a failure is permanent, or the
    /// deadline leaves no room for another attempt. Returns the attempts made and the failure.
    func closeBackendSession(_ token: String, until deadline: Duration) async -> (Int, String?) {
        var attempts = 0
        var lastProblem = "no attempt fitted in the budget"
        let backend = self.backend
        while clock.now < deadline {
            attempts += 1
            let attemptDeadline = min(clock.now + policy.attemptTimeout, deadline)
            let answer: ULCBackendAnswer
            do {
                answer = try await clock.withDeadline(attemptDeadline) {
                    try await backend.closeSession(token: token)
                } ?? .transientFailure("no answer within the attempt timeout")
            } catch {
                answer = .transientFailure("request failed: \(error)")
            }
            switch answer {
            case .closed, .alreadyClosed:
                return (attempts, nil)
            case .permanentFailure(let why):
                return (attempts, "the back end refused the logout: \(why)")
            case .transientFailure(let why):
                lastProblem = why
            }
            let pause = policy.backoff.isEmpty ? .zero : policy.backoff[min(attempts - 1, policy.backoff.count - 1)]
            guard clock.now + pause < deadline else { break }
            do { try await clock.sleep(for: pause) } catch { break }
        }
        return (attempts, "the logout budget ran out after \(attempts) attempt\(attempts == 1 ? "" : "s"); last problem: \(lastProblem)")
    }
}

/// What identifies a logout action: scheme and host case-insensitively (RFC 3986 section
/// 6.2.2.1), the default https port dropped, the path as written. The action's own query does
/// not change which action it is.
struct ActionKey: Hashable {
    let scheme: String
    let host: String
    let port: Int?
    let path: String

    init?(_ text: String) {
        let url = LinkURL(parsing: text)
        guard let scheme = url.text(of: .scheme), let host = url.normalizedHost else { return nil }
        self.scheme = scheme.lowercased()
        self.host = host
        port = url.port == 443 ? nil : url.port
        path = url.path.isEmpty ? "/" : url.text(in: url.path)   // RFC 3986 section 6.2.3
    }

    /// The first part that differs from `other`, as ``ULCReceiver/Report/reason`` names it.
    func firstDifference(from other: ActionKey) -> String {
        scheme != other.scheme ? "other-scheme" : host != other.host ? "other-host" : port != other.port ? "other-port" : "other-path"
    }
}
