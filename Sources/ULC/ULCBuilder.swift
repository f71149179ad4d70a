import LinkURL
import XCallbackURL

extension ULC {
    /// Why ``build(action:success:error:)`` refused its input: the violations the link would have.
    public struct BuildError: Error, Sendable, CustomStringConvertible {
        public let violations: [ULCViolation]
        public var description: String { violations.map(\.description).joined(separator: "; ") }
    }

    /// Builds the link an initiating system sends: the action with the two callbacks appended.
    ///
    /// Each callback is percent-encoded except for unreserved characters (RFC 3986 section 2.3),
    /// so `+`, `&`, `=`, `#`, `%`, `?`, `/` and `:` are all escaped and every common reader
    /// (Foundation `URLComponents`, WHATWG `URLSearchParams`, Python `parse_qsl`) decodes the
    /// same URLs. The callbacks follow the action's own query, joined with `&`.
    ///
    /// Refuses an action or callback that breaks a rule (MUST or SHOULD), and an action that
    /// already carries callback parameters (the sender appends them; administrators do not).
    ///
    /// ```swift
    /// try ULC.build(action: "https://cisco.webex.com/logout",
    ///               success: "https://sampledomain.com/success",
    ///               error: "https://sampledomain.com/error")
    /// // "https://cisco.webex.com/logout?ulc-success=https%3A%2F%2Fsampledomain.com%2Fsuccess&ulc-error=https%3A%2F%2Fsampledomain.com%2Ferror"
    /// ```
    public static func build(action: String, success: String, error: String) throws(BuildError) -> String {
        var problems: [ULCViolation] = []
        let actionURL = LinkURL(parsing: action)
        if !actionURL.schemeIs("https") {
            problems.append(ULCViolation(.actionNotHTTPS, message: "the action must begin with https://"))
        }
        if actionURL.host?.isEmpty ?? true {
            problems.append(ULCViolation(.actionNoHost, message: "the action has no host"))
        }
        if actionURL.fragment != nil {
            problems.append(ULCViolation(.linkHasFragment, message: "the action has a fragment; parameters appended after it would be part of the fragment"))
        }
        if let problem = actionURL.scan.firstSyntaxDiagnostic {
            problems.append(ULCViolation(.linkInvalidSyntax, message: "the action is not valid RFC 3986 syntax: \(problem.message)"))
        }
        let items = actionURL.queryItems
        for parameter in ULCParameter.allCases {
            let name: StaticString = parameter == .success ? "ulc-success" : "ulc-error"
            if items.first(named: name) != nil {
                problems.append(ULCViolation(.callbackDuplicated, parameter: parameter,
                    message: "the action already carries \(parameter.rawValue); the sender appends the callback parameters itself"))
            }
        }
        for (parameter, value) in [(ULCParameter.success, success), (.error, error)] {
            if value.isEmpty {
                problems.append(ULCViolation(.callbackEmpty, parameter: parameter, message: "\(parameter.rawValue) is empty"))
            } else if NestedURL.looksEncoded(value) {
                problems.append(ULCViolation(.callbackDoubleEncoded, parameter: parameter,
                    message: "\(parameter.rawValue) is already percent-encoded; building would encode it twice (pass the plain URL)"))
            } else {
                let url = LinkURL(parsing: value)
                problems += url.bytes.withUnsafeBufferPointer { bytes in
                    urlProblems(parameter, url.scan, bytes) { r in r.map(url.text(in:)) ?? value }
                }
            }
        }
        // The reference sender emits only perfect links: any problem, MUST or SHOULD, refuses.
        guard problems.isEmpty else { throw BuildError(violations: problems) }
        var link = action
        link += actionURL.query == nil ? "?" : "&"
        link += "ulc-success=" + PercentCodec.encodeComponent(success)
        link += "&ulc-error=" + PercentCodec.encodeComponent(error)
        return link
    }

    /// The problems of a callback URL (decoded once into `bytes` and split as `scan`): it must be
    /// an absolute https URL with a host free of percent-escapes, no user information, and valid
    /// syntax. `text` gives the text of a range of the URL (nil: all of it), and is only called
    /// to word a violation.
    static func urlProblems(_ parameter: ULCParameter, _ scan: URLScan, _ bytes: UnsafeBufferPointer<UInt8>, offset: Int? = nil,
                            text: @escaping @Sendable (Range<Int>?) -> String) -> [ULCViolation] {
        var found: [ULCViolation] = []
        if let scheme = scan.scheme, !scan.isHTTPS { found.append(notHTTPS(parameter, offset: offset, scheme: text(scheme))) }
        CallbackInspection.urlFindings(scan, bytes) { found.append(violation($0, parameter, offset: offset, text: text)) }
        return found
    }

    /// A callback finding (shared with x-callback-url) as a ULC violation.
    static func violation(_ finding: CallbackFinding, _ parameter: ULCParameter, offset: Int?,
                          cut: CallbackInspection.Cut? = nil, text: @escaping @Sendable (Range<Int>?) -> String) -> ULCViolation {
        let code: ULCViolation.Code
        var at = offset
        switch finding {
        case .doubleEncoded: code = .callbackDoubleEncoded
        case .rawDelimiter(let o, _): code = .callbackRawDelimiter; at = o
        case .plus(let o): code = .callbackPlus; at = o
        case .notUTF8, .invalidSyntax: code = .callbackInvalidURL
        case .notAbsolute: code = .callbackNotAbsolute
        case .noHost: code = .callbackNoHost
        case .userinfo: code = .callbackUserinfo
        case .escapedHost: code = .callbackHostEscaped
        }
        let suffix = finding == .notAbsolute ? "; it must be a universal link (https://host/...)" : ""
        return ULCViolation(code, parameter: parameter, offset: at,
                            message: CallbackInspection.message(finding, parameter: parameter.rawValue, suffix: suffix, cut: cut, text: text))
    }

    /// ULC's own demand on top of x-callback-url: callbacks are universal links.
    static func notHTTPS(_ parameter: ULCParameter, offset: Int?, scheme: String) -> ULCViolation {
        ULCViolation(.callbackNotHTTPS, parameter: parameter, offset: offset,
            message: "\(parameter.rawValue) uses '\(CallbackInspection.shortened(scheme)):'; callbacks must be universal links, which begin with https://")
    }
}
