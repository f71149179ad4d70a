import LinkURL

/// How the target app's action ended.
public enum XCallbackOutcome: Sendable, Hashable {
    /// Done; the results go back to `x-success`.
    case success(results: [XCallbackItem])
    /// Failed; `errorCode` and `errorMessage` go back to `x-error`.
    case error(code: String, message: String)
    /// The user cancelled; `x-cancel` is opened as it is.
    case cancel

    /// The parameter whose URL this outcome opens.
    public var parameter: XCallbackParameter {
        switch self {
        case .success: .success
        case .error: .error
        case .cancel: .cancel
        }
    }
}

/// What the target app does at the end of an action.
public enum XCallbackResponse: Sendable, Hashable {
    /// Open this URL.
    case open(String)
    /// Open nothing, and why.
    case none(reason: String)

    /// The URL to open, if any.
    public var url: String? {
        if case .open(let url) = self { return url }
        return nil
    }
}

extension XCallback {
    /// The URL a target app opens when the action requested by `link` ends with `outcome`, or
    /// nothing: when the outcome's callback is absent (the user stays in the target app), when
    /// it failed validation, or when the policy refuses its scheme.
    ///
    /// Results (success) or `errorCode` and `errorMessage` (error) are added to the callback's
    /// own query, before any fragment (``appending(_:to:)``).
    ///
    /// ```swift
    /// let link = XCallback.parse("myapp://x-callback-url/find?x-error=source%3A%2F%2Ffailed%3Fq%3D1")
    /// XCallback.response(to: link, outcome: .error(code: "404", message: "Not found"))
    /// // .open("source://failed?q=1&errorCode=404&errorMessage=Not%20found")
    /// ```
    public static func response(to link: XCallbackLink, outcome: XCallbackOutcome,
                                policy: XCallbackPolicy = .default) -> XCallbackResponse {
        guard link.kind != .notXCallback else { return .none(reason: "not an x-callback-url") }
        let parameter = outcome.parameter
        let name = parameter.rawValue
        guard link.isUsable(parameter), let callback = link.callback(parameter), let target = callback.decoded else {
            let problems = link.violations.filter { $0.parameter == name }.map(\.key)
            return .none(reason: problems.isEmpty ? "no \(name): the user stays in the target app"
                                                  : "\(name) failed validation (\(problems.joined(separator: ", ")))")
        }
        let url = LinkURL(parsing: target)
        let scheme = url.text(of: .scheme) ?? ""
        guard policy.permits(scheme: scheme) else {
            return .none(reason: "\(name) uses the scheme '\(scheme):', which the policy does not open")
        }
        switch outcome {
        case .success(let results): return .open(appending(results, to: target))
        case .error(let code, let message):
            return .open(appending([XCallbackItem(name: "errorCode", value: code), XCallbackItem(name: "errorMessage", value: message)], to: target))
        case .cancel: return .open(target)
        }
    }

    /// `items` added to the query of `url`: after `&` when it has a non-empty query, after `?`
    /// when it has none, and before the fragment, which is kept. Names and values are
    /// percent-encoded except for unreserved characters.
    ///
    /// ```swift
    /// XCallback.appending([XCallbackItem(name: "id", value: "a b")], to: "source://done?x=1#top")
    /// // "source://done?x=1&id=a%20b#top"
    /// ```
    public static func appending(_ items: [XCallbackItem], to url: String) -> String {
        guard !items.isEmpty else { return url }
        let parsed = LinkURL(parsing: url)
        let bytes = parsed.bytes
        let cut = parsed.fragment.map { $0.lowerBound - 1 } ?? bytes.count
        var out = Array(bytes[0..<cut])
        if let query = parsed.query {
            if !query.isEmpty && bytes[query.upperBound - 1] != UInt8(ascii: "&") { out.append(UInt8(ascii: "&")) }
        } else {
            out.append(UInt8(ascii: "?"))
        }
        let encoded = items.map { PercentCodec.encodeComponent($0.name) + ($0.value.map { "=" + PercentCodec.encodeComponent($0) } ?? "") }
        out += encoded.joined(separator: "&").utf8
        out += bytes[cut...]
        return String(decoding: out, as: UTF8.self)
    }
}
