import AsyncHTTPClient
import DomainCheck
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOHTTPCompression
import NIOPosix
import NIOSSL

/// What kind of ``FetchFailure`` an error of AsyncHTTPClient, SwiftNIO or NIOSSL is.
///
/// ```swift
/// FailureClassification.failure(HTTPClientError.connectTimeout).kind   // .connectTimeout
/// ```
enum FailureClassification {
    static func failure(_ error: any Error) -> FetchFailure {
        FetchFailure(kind(error), withoutSourcePaths(String(describing: error)))
    }

    /// The description without the source locations BoringSSL puts in each of its errors
    /// (`... CERTIFICATE_VERIFY_FAILED at /path/of/the/build/.../handshake.cc:320`): the path of
    /// the machine that built LinkConform says nothing about the server.
    static func withoutSourcePaths(_ text: String) -> String {
        guard text.contains(" at /") else { return text }
        var out = Substring()
        var rest = text[...]
        while let at = rest.range(of: " at /") {
            out += rest[..<at.lowerBound]
            // The location ends at the first ':' and line number followed by a closing bracket,
            // a comma, a space or the end (a path may hold spaces: /Users/Jane Doe/...).
            if let end = Self.locationEnd(rest[at.upperBound...]) {
                rest = rest[end...]
            } else {
                out += rest[at]
                rest = rest[at.upperBound...]
            }
        }
        return String(out + rest)
    }

    /// Where `path/file.ext:line` ends in `text` (which starts after `at /`), or nil when no
    /// such location starts it.
    static func locationEnd(_ text: Substring) -> Substring.Index? {
        var i = text.startIndex
        while let colon = text[i...].firstIndex(of: ":") {
            var j = text.index(after: colon)
            while j < text.endIndex, text[j].isASCII, text[j].isNumber { j = text.index(after: j) }
            // ... and the file before it is a source file's name (`handshake.cc`: a dot, no space).
            let file = text[..<colon].split(separator: "/", omittingEmptySubsequences: false).last ?? ""
            if j > text.index(after: colon), j == text.endIndex || "]), ".contains(text[j]), file.contains("."), !file.contains(" ") { return j }
            i = text.index(after: colon)
        }
        return nil
    }

    static func kind(_ error: any Error) -> FetchFailure.Kind {
        switch error {
        case let error as HTTPClientError: return kind(error)
        case let error as NIOSSLExtraError where error == .failedToValidateHostname: return .wrongHostCertificate
        case let error as NIOSSLError: return kind(error)
        case is HTTPParserError:
            return (error as? HTTPParserError) == .headerOverflow ? .headersTooLarge : .protocolError
        case is NIOHTTPDecompression.DecompressionError, is NIOHTTPDecompression.ExtraDecompressionError: return .undecodable
        case let error as IOError: return kind(errno: error.errnoCode)
        case let error as NIOConnectionError:
            if error.dnsAError != nil || error.dnsAAAAError != nil, error.connectionErrors.isEmpty { return .unresolvable }
            if let first = error.connectionErrors.first?.error { return kind(first) }
            return .refused
        case is SocketAddressError: return .unresolvable
        case let error as ChannelError:
            if case .connectTimeout = error { return .connectTimeout }
            return .protocolError
        case is NIOTooManyBytesError: return .headersTooLarge
        // HTTP/2: a header block over the list size the client announces, or more CONTINUATION
        // frames than it takes (NIOHTTP2's limits), is a head too large; any other connection
        // error is HTTP/2 the client refuses.
        case is NIOHTTP2Errors.ExcessivelyLargeHeaderBlock, is NIOHTTP2Errors.ExcessiveContinuationFrames: return .headersTooLarge
        case is any NIOHTTP2Error: return .protocolError
        default:
            // getaddrinfo's failures arrive as a type NIO keeps internal; its name says what it is.
            return String(reflecting: type(of: error)).contains("Resolver") || String(describing: error).contains("getaddrinfo")
                ? .unresolvable : .other
        }
    }

    static func kind(_ error: HTTPClientError) -> FetchFailure.Kind {
        switch error {
        // The connect timeout bounds the TCP connection and the TLS handshake together: a
        // handshake the server never finishes fails the connection attempt (tlsHandshakeTimeout)
        // or the request waiting for it (connectTimeout), whichever timer fires first, so both
        // are the same kind.
        case .connectTimeout, .getConnectionFromPoolTimeout, .socksHandshakeTimeout, .tlsHandshakeTimeout: .connectTimeout
        case .readTimeout: .readTimeout
        case .deadlineExceeded: .deadline
        case .remoteConnectionClosed, .invalidProxyResponse, .bodyLengthMismatch:
            .protocolError
        default: .other
        }
    }

    static func kind(_ error: NIOSSLError) -> FetchFailure.Kind {
        if case .handshakeFailed(let inner) = error, String(describing: inner).contains("CERTIFICATE_VERIFY_FAILED") {
            return .untrustedCertificate
        }
        if case .unableToValidateCertificate = error { return .untrustedCertificate }
        // The connection ended without TLS's close_notify: not a handshake failure but a
        // transport one (after the head, a body whose end cannot be trusted).
        if case .uncleanShutdown = error { return .protocolError }
        return .tlsFailed
    }

    static func kind(errno: Int32) -> FetchFailure.Kind {
        switch errno {
        case ECONNREFUSED, ENETUNREACH, EHOSTUNREACH, EADDRNOTAVAIL: .refused
        case ETIMEDOUT: .connectTimeout
        case ECONNRESET, EPIPE: .protocolError
        default: .other
        }
    }
}
