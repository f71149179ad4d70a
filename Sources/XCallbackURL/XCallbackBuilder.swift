import LinkURL

/// What a source app asks a target app to do: the parts of an x-callback-url, unencoded.
public struct XCallbackRequest: Sendable, Hashable {
    public var scheme: String
    public var action: String
    public var source: String?
    public var success: String?
    public var error: String?
    public var cancel: String?
    /// Action parameters, in order (a nil value is sent as a name without `=`).
    public var parameters: [XCallbackItem]

    public init(scheme: String, action: String, source: String? = nil, success: String? = nil,
                error: String? = nil, cancel: String? = nil, parameters: [XCallbackItem] = []) {
        self.scheme = scheme
        self.action = action
        self.source = source
        self.success = success
        self.error = error
        self.cancel = cancel
        self.parameters = parameters
    }
}

extension XCallback {
    /// Why ``build(_:)`` refused its input: the violations the URL would have.
    public struct BuildError: Error, Sendable, CustomStringConvertible {
        public let violations: [XCallbackViolation]
        public var description: String { violations.map(\.description).joined(separator: "; ") }
    }

    /// Builds an x-callback-url: `scheme://x-callback-url/action?x-source=...&x-success=...
    /// &x-error=...&x-cancel=...&name=value...`, the x-callback parameters first in the draft's
    /// order, then the action parameters in the order given.
    ///
    /// Every name and value is percent-encoded except for unreserved characters (RFC 3986
    /// section 2.3), so `+`, `&`, `=`, `#`, `%`, `?`, `/`, `:` and spaces are all escaped and
    /// Foundation, WHATWG and Python readers decode the same text. The action keeps its `/`
    /// separators and escapes everything else that is not unreserved.
    ///
    /// Refuses input that would break a rule (MUST or SHOULD): an invalid scheme, an empty or
    /// versioned action, an action parameter with the reserved `x-` prefix, and a callback that
    /// is empty, not an absolute URL, already encoded, carries user information, has invalid
    /// syntax, or uses a refused scheme.
    ///
    /// ```swift
    /// try XCallback.build(XCallbackRequest(scheme: "drafts", action: "create",
    ///                                      success: "myapp://done?from=drafts",
    ///                                      parameters: [XCallbackItem(name: "text", value: "a+b")]))
    /// // "drafts://x-callback-url/create?x-success=myapp%3A%2F%2Fdone%3Ffrom%3Ddrafts&text=a%2Bb"
    /// ```
    public static func build(_ request: XCallbackRequest) throws(BuildError) -> String {
        var problems: [XCallbackViolation] = []
        if !isValidScheme(request.scheme) {
            problems.append(XCallbackViolation(.schemeInvalid,
                message: "'\(CallbackInspection.shortened(request.scheme))' is not a URL scheme: it must start with a letter and use only letters, digits, '+', '-', '.'"))
        }
        if request.action.isEmpty {
            problems.append(XCallbackViolation(.actionEmpty, message: "the action is empty"))
        } else if let version = XCallbackParser.versionSegment(ArraySlice(request.action.utf8)) {
            problems.append(XCallbackViolation(.actionVersionSegment,
                message: "the action starts with the version '\(String(decoding: version, as: UTF8.self))'; revision R1 removed versions from the path"))
        }
        if let segment = XCallbackParser.dotSegment(in: ArraySlice(request.action.utf8)) {
            problems.append(XCallbackViolation(.actionDotSegment, message: XCallbackParser.dotSegmentMessage(segment)))
        }
        for item in request.parameters where item.name.hasPrefix("x-") {
            problems.append(XCallbackViolation(.parameterReservedPrefix, parameter: item.name,
                message: "the action parameter '\(CallbackInspection.shortened(item.name))' uses the reserved x- prefix"))
        }
        for parameter in XCallbackParameter.callbacks {
            guard let value = request.value(of: parameter) else { continue }
            problems += callbackProblems(parameter, value)
        }
        guard problems.isEmpty else { throw BuildError(violations: problems) }

        var url = request.scheme + "://x-callback-url/" + encodeAction(request.action)
        var items: [String] = []
        for parameter in XCallbackParameter.allCases {
            if let value = request.value(of: parameter) { items.append(parameter.rawValue + "=" + PercentCodec.encodeComponent(value)) }
        }
        for item in request.parameters {
            items.append(PercentCodec.encodeComponent(item.name) + (item.value.map { "=" + PercentCodec.encodeComponent($0) } ?? ""))
        }
        if !items.isEmpty { url += "?" + items.joined(separator: "&") }
        return url
    }

    /// The problems of a callback given as a plain URL.
    static func callbackProblems(_ parameter: XCallbackParameter, _ value: String) -> [XCallbackViolation] {
        let name = parameter.rawValue
        if value.isEmpty {
            return [XCallbackViolation(.callbackEmpty, parameter: name, message: "\(name) is empty")]
        }
        if NestedURL.looksEncoded(value) {
            return [XCallbackViolation(.callbackDoubleEncoded, parameter: name,
                message: "\(name) is already percent-encoded; building would encode it twice (pass the plain URL)")]
        }
        let url = LinkURL(parsing: value)
        var found: [XCallbackViolation] = []
        url.bytes.withUnsafeBufferPointer { bytes in
            CallbackInspection.urlFindings(url.scan, bytes) { finding in
                if case .noHost = finding { return }
                found.append(XCallbackParser.violation(finding, parameter: name, offset: 0) { r in r.map(url.text(in:)) ?? value })
            }
        }
        if found.isEmpty, let scheme = url.text(of: .scheme), XCallbackPolicy.isRefused(scheme: scheme) {
            found.append(XCallbackViolation(.callbackSchemeRefused, parameter: name,
                message: "\(name) uses the scheme '\(scheme):', which a target app must never open"))
        }
        return found
    }

    /// The action with every byte but unreserved characters and `/` percent-encoded.
    static func encodeAction(_ action: String) -> String {
        action.split(separator: "/", omittingEmptySubsequences: false)
            .map { PercentCodec.encodeComponent(String($0)) }
            .joined(separator: "/")
    }
}

extension XCallbackRequest {
    /// The value given for one of the four x-callback parameters.
    public func value(of parameter: XCallbackParameter) -> String? {
        switch parameter {
        case .source: source
        case .success: success
        case .error: error
        case .cancel: cancel
        }
    }
}
