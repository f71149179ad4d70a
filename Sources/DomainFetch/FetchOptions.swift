/// How a live check connects: the trust it gives certificates, where it connects, and how long
/// it waits.
///
/// ```swift
/// var options = FetchOptions()
/// options.caFile = "ca.pem"                       // a private CA instead of the system's store
/// options.resolve = ["good.test": "127.0.0.1"]    // like curl's --resolve: tests and diagnostics
/// options.port = 8443
/// ```
public struct FetchOptions: Sendable, Hashable {
    /// A PEM file of CA certificates trusted instead of the system trust store (like curl's `--cacert`).
    public var caFile: String?
    /// Host names connected to at the given address instead of what DNS says; the TLS server
    /// name and the certificate check still use the host name. For tests and diagnostics.
    public var resolve: [String: String] = [:]
    /// The port (443 unless a test or a diagnosis says otherwise).
    public var port: Int = 443
    /// Longest wait for a connection: TCP, then the TLS handshake.
    public var connectTimeout: Duration = .seconds(10)
    /// Longest silence once connected: no response head, or no body byte, for this long ends the fetch.
    public var readTimeout: Duration = .seconds(10)
    /// Longest a whole fetch may take, head and body, however the bytes trickle in.
    public var totalTimeout: Duration = .seconds(30)

    public init() {}
}
