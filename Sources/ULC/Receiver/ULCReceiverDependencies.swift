/// What the receiver needs from the app, injected so the same logic runs in an app, in tests
/// and in the conformance simulation.

/// The back end that holds the user's server-side session.
public protocol ULCBackend: Sendable {
    /// Asks the back end to close the session. Throwing means the request did not get an
    /// answer (no network, timeout): the receiver treats it as transient and may retry.
    func closeSession(token: String) async throws -> ULCBackendAnswer
}

/// The back end's answer to a logout request.
public enum ULCBackendAnswer: Sendable, Hashable {
    /// The session is now closed.
    case closed
    /// There was no such session (expired, closed elsewhere): nothing left to do.
    case alreadyClosed
    /// A failure that a retry may fix (a 5xx, a 429, a dropped connection).
    case transientFailure(String)
    /// A failure no retry will fix (the back end refuses the request).
    case permanentFailure(String)
}

/// Storage that survives a force-quit (for example `UserDefaults` or the keychain).
///
/// The initiating system force-quits apps just before sending the link, so whatever the
/// receiver needs to close the back-end session must be here, not only in memory.
public protocol ULCSessionStore: Sendable {
    func load() async -> ULCStoredSession?
    func save(_ session: ULCStoredSession?) async
}

/// What the receiver persists about the session.
public struct ULCStoredSession: Sendable, Hashable, Codable {
    /// The credential the back end needs to close the session.
    public var token: String
    /// Whether a user is signed in on the device. After a failed back-end logout the user is
    /// signed out locally but the record stays, so a resent link can close the session.
    public var signedIn: Bool

    public init(token: String, signedIn: Bool) {
        self.token = token
        self.signedIn = signedIn
    }
}

/// Opens URLs; in an app, `UIApplication.open(_:options:completionHandler:)`.
public protocol ULCURLOpener: Sendable {
    /// Opens `url`; with `universalLinksOnly` it succeeds only if an installed app claims the
    /// universal link (never a browser). Returns whether the system accepted it.
    func open(_ url: String, universalLinksOnly: Bool) async -> Bool
}
