import LinkURL
import XCallbackURL

/// What a link asks the app to do, read the lightweight way (`MobileRedirectHelper.parseData`):
/// the process, the pid as found (not decoded), and where to send the user back.
public struct XignRedirect: Sendable {
    public enum Form: String, Sendable, Hashable {
        /// `<scheme>://<process>?pid=...`
        case deepLink
        /// `https://<host>/in-app/process/init?action=<process>&pid=...`
        case appLink
    }

    /// The process, or nil when the link is not XignIn data (or is invalid).
    public let process: XignProcess?
    /// The form the link has, when it looks like XignIn data at all.
    public let form: Form?
    /// The pid: the query value decoded once (`+` kept), not checked further.
    public let pid: String?
    /// `source-url` decoded once.
    public let sourceURL: String?
    /// `browser` decoded once.
    public let browser: String?
    public let violations: [XignViolation]
    /// The parameters as written in the link (not decoded), each when it appears once with a
    /// value; kept whether or not the link starts a process, so that a check can show them.
    /// Read on demand: the check keeps only where they stand (the link's bytes are shared, not
    /// copied), so the hot path makes no strings for them.
    public var written: Written {
        func text(_ range: Range<Int>?) -> String? { range.map { String(decoding: linkBytes[$0], as: UTF8.self) } }
        return Written(action: text(writtenRanges.action), pid: text(writtenRanges.pid),
                       sourceURL: text(writtenRanges.sourceURL), browser: text(writtenRanges.browser))
    }
    let linkBytes: [UInt8]
    let writtenRanges: WrittenRanges

    /// Where each parameter's value stands in the link.
    struct WrittenRanges: Sendable, Hashable {
        var action, pid, sourceURL, browser: Range<Int>?
    }

    /// Parameter values as they stand in the link.
    public struct Written: Sendable, Hashable {
        public var action: String?
        public var pid: String?
        public var sourceURL: String?
        public var browser: String?
        public init(action: String? = nil, pid: String? = nil, sourceURL: String? = nil, browser: String? = nil) {
            self.action = action
            self.pid = pid
            self.sourceURL = sourceURL
            self.browser = browser
        }
    }

    /// The violation keys (`parameter:code`), as corpus cases list them.
    /// (A closure rather than `\.key`: the key path, into a generic type of another module, was
    /// projected at run time, `swift_getAtKeyPath`, for each violation.)
    public var violationKeys: [String] { violations.map { $0.key } }
}

extension XignQR {
    /// The deep-link scheme and app-link host of the official XignSys XignIn-Manager.
    public static let defaultSchemes = ["xignqr"]
    public static let defaultHosts = ["xign.me"]
    /// The query parameters of the link forms (what a fragment can swallow).
    public static let parameterNames = ["pid", "action", "source-url", "browser"]

    /// Reads a link the way an app does when it arrives (on the UI thread): deep links whose
    /// scheme is one of `schemes`, app links on one of `hosts`; everything compared in any
    /// letter case. The pid is handed on as found; ``decodePID(_:hosts:)`` judges it.
    ///
    /// ```swift
    /// let r = XignQR.redirect("xignqr://authentication?pid=CgMBAgM%3D&browser=2&source-url=https%3A%2F%2Fxign.me%2Flogin")
    /// r.process      // .authentication
    /// r.pid          // "CgMBAgM="
    /// r.sourceURL    // "https://xign.me/login"
    /// ```
    public static func redirect(_ link: String, schemes: [String] = defaultSchemes, hosts: [String] = defaultHosts) -> XignRedirect {
        var reader = RedirectReader(url: LinkURL(parsing: link), schemes: schemes, hosts: hosts)
        return reader.run()
    }
}

/// The redirect check of one link.
struct RedirectReader {
    let url: LinkURL
    let schemes: [String]
    let hosts: [String]
    var violations: [XignViolation] = []
    var written = XignRedirect.WrittenRanges()

    init(url: LinkURL, schemes: [String], hosts: [String]) {
        self.url = url
        self.schemes = schemes.map { $0.lowercased() }
        self.hosts = hosts.map { $0.lowercased() }
    }

    static let processPrefix = Array("/in-app/process/".utf8)
    static let initPath = Array("/in-app/process/init".utf8)

    func none() -> XignRedirect {
        XignRedirect(process: nil, form: nil, pid: nil, sourceURL: nil, browser: nil, violations: violations, linkBytes: url.bytes, writtenRanges: written)
    }

    mutating func run() -> XignRedirect {
        if url.isOverLimit {
            let length = url.bytes.count, limit = url.diagnostics[0].offset
            violations.append(XignViolation(.linkTooLong, offset: limit,
                message: "the link is \(length) bytes, over the \(limit)-byte limit; it was not read"))
            return none()
        }
        guard let scheme = url.text(of: .scheme)?.lowercased() else { return none() }
        let host = url.host.map { url.text(in: $0) } ?? ""
        let form: XignRedirect.Form
        if schemes.contains(scheme) {
            form = .deepLink
        } else if scheme == "https" || scheme == "http", hosts.contains(host.lowercased()),
                  url.bytes[url.path].starts(with: Self.processPrefix) {
            form = .appLink
        } else {
            return none()   // not XignIn data at all
        }

        if let problem = url.scan.firstSyntaxDiagnostic {
            violations.append(XignViolation(.linkInvalidSyntax, offset: problem.offset,
                message: "the link is not valid RFC 3986 syntax (first: \(CallbackInspection.advice(problem))); Foundation then re-encodes the whole query, pid included"))
        }
        var found = Found()
        url.bytes.withUnsafeBufferPointer { b in
            url.forEachQueryItem { item in
                if item.name(in: b, equals: "pid") { found.pid.add(item) }
                else if item.name(in: b, equals: "action") { found.action.add(item) }
                else if item.name(in: b, equals: "source-url") { found.sourceURL.add(item) }
                else if item.name(in: b, equals: "browser") { found.browser.add(item) }
            }
        }

        func range(_ found: ParameterOccurrences) -> Range<Int>? {
            found.single?.value.flatMap { $0.isEmpty ? nil : $0 }
        }
        written = XignRedirect.WrittenRanges(action: form == .appLink ? range(found.action) : nil, pid: range(found.pid),
                                             sourceURL: range(found.sourceURL), browser: range(found.browser))

        var processName: String?
        switch form {
        case .deepLink:
            checkAuthority(allowingPort: nil)
            processName = host
        case .appLink:
            if scheme == "http" {
                violations.append(XignViolation(.appLinkNotHTTPS, offset: 0,
                    message: "the app link uses http; app links are https (universal links and verified Android app links exist only for https)"))
            }
            checkAuthority(allowingPort: 443)
            if !url.bytes[url.path].elementsEqual(Self.initPath) {
                let path = url.text(in: url.path)
                violations.append(XignViolation(.pathNotInit, offset: url.path.lowerBound,
                    message: "the path is '\(path)'; only /in-app/process/init starts a process"))
            }
            switch reading(found.action, "action") {
            case .absent, .empty:
                violations.append(XignViolation(.actionMissing, message: "the app link has no action naming the process (authentication, personalization)"))
            case .value(let range): processName = PercentCodec.decodedText(url.bytes, in: range)
            case .repeated: break
            }
        }

        var process: XignProcess?
        if let name = processName {
            process = XignProcess(name: name)
            if process == nil {
                violations.append(XignViolation(.processUnknown,
                    message: "'\(CallbackInspection.shortened(name))' names no XignIn process (authentication, personalization, transaction)"))
            } else if name != name.lowercased() {
                violations.append(XignViolation(.processNotLowercase,
                    message: "the process is written '\(name)'; Android matches intent-filter hosts case-sensitively, so write it in lower case"))
            }
        }

        var pid: String?
        switch reading(found.pid, "pid") {
        case .absent:
            violations.append(XignViolation(.pidMissing, message: "the link carries no pid"))
        case .empty:
            violations.append(XignViolation(.pidEmpty, message: "the pid is empty"))
        case .value(let range):
            pid = PercentCodec.decodedText(url.bytes, in: range)
            if let plus = url.bytes[range].firstIndex(of: UInt8(ascii: "+")) {
                violations.append(XignViolation(.pidPlus, offset: plus,
                    message: "the pid holds a raw '+' at byte \(plus): form-style readers (parse_qsl, URLSearchParams) read a space and break the base64; send it as %2B"))
            }
        case .repeated: break
        }

        if let fragment = FragmentReading(url, parameters: XignQR.parameterNames) {
            violations.append(XignViolation(.linkHasFragment, offset: fragment.hash,
                                            message: fragment.message(form: "the XignSys link form")))
        }

        var sourceURL: String?
        switch reading(found.sourceURL, "source-url") {
        case .absent, .repeated: break
        case .empty:
            violations.append(XignViolation(.sourceURLInvalid, message: "source-url is empty; it must be the browser page the user came from"))
        case .value(let range):
            sourceURL = checkSourceURL(range)
        }
        var browser: String?
        switch reading(found.browser, "browser") {
        case .value(let range): browser = PercentCodec.decodedText(url.bytes, in: range)
        case .empty: browser = ""
        case .absent, .repeated: break
        }

        guard !violations.contains(where: { $0.level == .must }) else {
            return XignRedirect(process: nil, form: form, pid: nil, sourceURL: nil, browser: nil, violations: violations, linkBytes: url.bytes, writtenRanges: written)
        }
        return XignRedirect(process: process, form: form, pid: pid, sourceURL: sourceURL, browser: browser, violations: violations, linkBytes: url.bytes, writtenRanges: written)
    }

    /// Reads one parameter, reporting a repeat.
    mutating func reading(_ found: ParameterOccurrences, _ name: String) -> ParameterOccurrences.Reading {
        let r = found.reading
        if case .repeated(let second, let count) = r, !violations.contains(where: { $0.parameter == name }) {
            violations.append(XignViolation(.parameterDuplicated, parameter: name, offset: second.name.lowerBound,
                message: "\(name) appears \(count) times; readers that keep the first and readers that keep the last disagree, so the link is refused"))
        }
        return r
    }

    /// User information, or a port other than `allowingPort`, in the authority.
    mutating func checkAuthority(allowingPort: Int?) {
        if let userinfo = url.userinfo {
            let written = url.text(in: userinfo)
            violations.append(XignViolation(.authorityExtras, offset: userinfo.lowerBound,
                message: "the link carries user information ('\(written)@'), a classic way to disguise where a link leads"))
        }
        if url.portRange != nil, url.port == nil || url.port != allowingPort {
            let port = url.text(of: .port) ?? ""
            violations.append(XignViolation(.authorityExtras, offset: url.portRange?.lowerBound,
                message: "the link names a port (\(port)); " + (allowingPort == nil ? "a deep link's authority is the process alone" : "the manager's app links use the default https port")))
        }
    }

    /// source-url decoded once: an absolute http(s) URL with a host (a domain name, no
    /// percent-escape in it) and no user information.
    mutating func checkSourceURL(_ range: Range<Int>) -> String? {
        var problem: String?, escapedHost: Range<Int>?
        let nested = CallbackInspection.inspect(url.bytes, value: range) { finding in
            guard problem == nil else { return }
            switch finding {
            case .rawDelimiter, .plus: return
            case .doubleEncoded: problem = "is encoded twice"
            case .notUTF8: problem = "does not decode to UTF-8 text"
            case .notAbsolute: problem = "is not an absolute URL"
            case .noHost: problem = "has no host"
            case .userinfo: problem = "carries user information"
            case .escapedHost(let host):
                escapedHost = host
                problem = "has a host that holds a percent-escape"
            case .invalidSyntax(let d): problem = "is not a valid URL (\(d.message))"
            }
        }
        if let host = escapedHost, let text = nested.decoded {
            problem = "has a host that holds a percent-escape ('\(CallbackInspection.shortened(String(decoding: Array(text.utf8)[host], as: UTF8.self)))'), which no domain name does and readers decode differently"
        }
        if problem == nil, let text = nested.decoded {
            let scheme = LinkURL(parsing: text).text(of: .scheme)?.lowercased()
            if scheme != "https" && scheme != "http" { problem = "is not a web address (scheme '\(scheme ?? "")')" }
        }
        if let problem {
            violations.append(XignViolation(.sourceURLInvalid, offset: range.lowerBound,
                message: "source-url \(problem); it must be the browser page the user came from (an http or https URL)"))
            return nil
        }
        return nested.decoded
    }

    struct Found {
        var pid = ParameterOccurrences(), action = ParameterOccurrences()
        var sourceURL = ParameterOccurrences(), browser = ParameterOccurrences()
    }
}
