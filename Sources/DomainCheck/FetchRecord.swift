/// What a fetch of one file observed, as facts and nothing judged: the status, the headers, the
/// body up to the file's size limit, and how and when it ended. ``ServingRules`` judges it for a
/// platform; `DomainFetch` makes it over the network, and tests make it by hand.
///
/// ```swift
/// let record = FetchRecord(url: "https://example.com/.well-known/assetlinks.json", status: 200,
///                          headers: [("Content-Type", "application/json")], body: Array("[]".utf8))
/// ServingRules.judge(record, as: .assetLinks).accepted   // true
/// ```
public struct FetchRecord: Sendable, Hashable {
    /// The URL requested.
    public var url: String
    /// Set when no response came back at all (nothing to connect to, TLS refused, no headers in time).
    public var failure: FetchFailure?
    /// The HTTP status, when a response head arrived.
    public var status: Int?
    /// `HTTP/1.1`, `HTTP/2`, when a response head arrived.
    public var httpVersion: String?
    /// The response headers, in order, as received.
    public var headers: [HeaderField]
    /// The body as read (decoded when the server compressed it), at most the size limit plus one byte.
    public var body: [UInt8]
    /// Decoded body bytes read in all (the same as `body.count`: the fetch stops past the limit).
    public var bytesRead: Int { body.count }
    /// True when the fetch stopped because the body went past the file's size limit.
    public var stoppedAtLimit: Bool
    /// Set when the body was cut off after the head arrived (read timeout, total deadline,
    /// connection closed early, undecodable compression).
    public var bodyFailure: FetchFailure?
    /// From the start of the request to the response head.
    public var timeToHead: Duration?
    /// From the start of the request to its end (or to when the fetch gave up).
    public var elapsed: Duration

    public struct HeaderField: Sendable, Hashable {
        public let name: String
        public let value: String

        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    public init(url: String, failure: FetchFailure? = nil, status: Int? = nil, httpVersion: String? = nil,
                headers: [(String, String)] = [], body: [UInt8] = [], stoppedAtLimit: Bool = false,
                bodyFailure: FetchFailure? = nil, timeToHead: Duration? = nil, elapsed: Duration = .zero) {
        self.url = url
        self.failure = failure
        self.status = status
        self.httpVersion = httpVersion ?? (status == nil ? nil : "HTTP/1.1")
        self.headers = headers.map { HeaderField($0.0, $0.1) }
        self.body = body
        self.stoppedAtLimit = stoppedAtLimit
        self.bodyFailure = bodyFailure
        self.timeToHead = timeToHead
        self.elapsed = elapsed
    }

    /// The values of a header, by name, ASCII case-insensitively, in order.
    ///
    /// ```swift
    /// record.values(of: "content-type")   // ["application/json"]
    /// ```
    public func values(of name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }
}

/// Why a fetch, or the reading of its body, ended without a whole response.
public struct FetchFailure: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The host name does not resolve.
        case unresolvable = "unresolvable"
        /// Nothing listens (connection refused), or the network is unreachable.
        case refused = "connection-refused"
        /// No connection (TCP, then the TLS handshake) within the connect timeout, or within the
        /// total timeout when that passes first.
        case connectTimeout = "connect-timeout"
        /// The certificate chain does not lead to a trusted root (unknown CA, self-signed, expired).
        case untrustedCertificate = "untrusted-certificate"
        /// The certificate is valid but for other host names.
        case wrongHostCertificate = "wrong-host-certificate"
        /// The TLS handshake failed for another reason (protocol version, alert, not TLS at all).
        case tlsFailed = "tls-failed"
        /// No byte for longer than the read timeout.
        case readTimeout = "read-timeout"
        /// The whole fetch took longer than its total deadline.
        case deadline = "deadline"
        /// The response head was larger than the HTTP parser accepts.
        case headersTooLarge = "headers-too-large"
        /// The bytes were not HTTP, or broke its framing (including a body shorter than its length).
        case protocolError = "protocol-error"
        /// A compressed body that does not decode.
        case undecodable = "undecodable-body"
        /// Anything else the client reported.
        case other = "other"

        /// The connection itself could not be made: no response of the server was seen.
        public var isUnreachable: Bool {
            self == .unresolvable || self == .refused || self == .connectTimeout
        }
    }

    public let kind: Kind
    /// What the client said, for the reader (may hold server-provided text: escape it on a terminal).
    public let detail: String

    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    public var description: String { "\(kind.rawValue): \(detail)" }
}
