import LinkURL

/// Universal Link Callbacks: parsing, building and (in ``ULCReceiver``) receiving.
///
/// Source: Imprivata, "iOS App Logout via Universal Link Callback" (sections "The ULC Process"
/// and "Specification"). The form is `{appLogoutAction}?ulc-success={successUrl}&ulc-error={errorURL}`.
public enum ULC {
    /// Reads a link as a ULC.
    ///
    /// The link is split per RFC 3986 (``LinkURL``); query names are compared after
    /// percent-decoding, case-sensitively; each callback value is decoded exactly once (`+` is
    /// data, not a space) and must then be an absolute https URL with a host.
    public static func parse(_ link: [UInt8], limits: URLLimits = .default) -> ULCLink {
        var parser = Parser(url: LinkURL(parsing: link, limits: limits))
        return parser.run()
    }

    /// Reads a link given as a string.
    public static func parse(_ link: String, limits: URLLimits = .default) -> ULCLink {
        parse(Array(link.utf8), limits: limits)
    }
}

private struct Parser {
    let url: LinkURL
    var violations: [ULCViolation] = []

    init(url: LinkURL) { self.url = url }

    mutating func run() -> ULCLink {
        if url.isOverLimit {
            return ULCLink(kind: .invalid, url: url, action: nil, success: nil, error: nil, violations: [
                ULCViolation(.linkTooLong, offset: url.diagnostics[0].offset,
                             message: "the link is \(url.bytes.count) bytes, over the \(url.diagnostics[0].offset)-byte limit; it was not read"),
            ])
        }
        // Occurrences of each callback parameter: the first one, the second one, and how many.
        var successItems = Occurrences()
        var errorItems = Occurrences()
        var callbackItems = CallbackRanges()
        url.bytes.withUnsafeBufferPointer { b in
            url.forEachQueryItem { item in
                if item.name(in: b, equals: "ulc-success") {
                    successItems.add(item)
                    callbackItems.add(item.range)
                } else if item.name(in: b, equals: "ulc-error") {
                    errorItems.add(item)
                    callbackItems.add(item.range)
                }
            }
        }
        guard successItems.count > 0 else {
            return ULCLink(kind: .notULC, url: url, action: nil, success: nil, error: nil, violations: [])
        }

        checkAction()
        checkSyntax()
        if let fragment = url.fragment {
            violations.append(ULCViolation(.linkHasFragment, offset: fragment.lowerBound - 1,
                message: "the link has a fragment ('#' at byte \(fragment.lowerBound - 1)); the ULC form has none, so it is most likely a callback's own '#' left unencoded"))
        }
        let success = callback(.success, successItems)
        let error = callback(.error, errorItems)
        if errorItems.count == 0 {
            violations.append(ULCViolation(.errorMissing, parameter: .error,
                message: "no ulc-error parameter: the receiver has no way to report a failed logout"))
        }
        let kind: ULCLink.Kind = violations.contains { $0.code.isFatal } ? .invalid : .ulc
        return ULCLink(kind: kind, url: url, action: action(without: callbackItems),
                       success: success, error: error, violations: violations)
    }

    mutating func checkAction() {
        if !url.isHTTPS {
            let scheme = url.text(of: .scheme) ?? ""
            violations.append(ULCViolation(.actionNotHTTPS, offset: 0,
                message: scheme.isEmpty ? "the logout action has no scheme; it must begin with https://"
                    : "the logout action uses '\(scheme):'; a universal link must begin with https://"))
        }
        if url.host?.isEmpty ?? true {
            violations.append(ULCViolation(.actionNoHost, offset: url.host?.lowerBound,
                message: "the logout action has no host; it must name the app's associated domain"))
        }
        let path = url.path
        if path.isEmpty || (path.count == 1 && url.bytes[path.lowerBound] == UInt8(ascii: "/")) {
            violations.append(ULCViolation(.actionNoPath, offset: path.lowerBound,
                message: "the logout action has no path; it should include the path of the app's logout action"))
        }
    }

    mutating func checkSyntax() {
        // An empty host is valid RFC 3986 syntax (reg-name may be empty); https's own need for
        // a host is action-no-host.
        let syntax = url.scan.syntaxDiagnostics
        guard let first = syntax.first else { return }
        let count = syntax.count + url.droppedDiagnostics
        violations.append(ULCViolation(.linkInvalidSyntax, offset: first.offset,
            message: "the link is not valid RFC 3986 syntax (\(count) problem\(count == 1 ? "" : "s"), first: \(first.message)); Foundation then re-encodes the whole query and reads every parameter differently"))
    }

    mutating func callback(_ parameter: ULCParameter, _ found: Occurrences) -> ULCCallback? {
        guard let item = found.first else { return nil }
        let name = parameter.rawValue
        if let second = found.second {
            violations.append(ULCViolation(.callbackDuplicated, parameter: parameter, offset: second.name.lowerBound,
                message: "\(name) appears \(found.count) times; readers that keep the first and readers that keep the last would open different URLs"))
            return nil
        }
        guard let valueRange = item.value, !valueRange.isEmpty else {
            violations.append(ULCViolation(.callbackEmpty, parameter: parameter, offset: item.name.lowerBound,
                message: "\(name) has no value; it must carry an encoded universal link"))
            return nil
        }
        let nested = NestedURL(in: url.bytes, value: valueRange)
        let result = ULCCallback(parameter: parameter, range: valueRange, link: url.bytes, decoded: nested.decoded)
        checkNested(nested, parameter)
        return result
    }

    mutating func checkNested(_ nested: NestedURL, _ parameter: ULCParameter) {
        let name = parameter.rawValue
        let at = nested.raw.lowerBound
        if nested.isDoubleEncoded {
            violations.append(ULCViolation(.callbackDoubleEncoded, parameter: parameter, offset: at,
                message: "\(name) is encoded twice: decoded once it still reads '\(ULC.shortened(nested.decoded ?? ""))'; it must be decoded exactly once, so it is not a URL"))
            return
        }
        var sawDelimiter = false, sawPlus = false
        for finding in nested.findings {
            switch finding {
            case .rawDelimiter(let offset, let byte) where !sawDelimiter:
                sawDelimiter = true
                violations.append(ULCViolation(.callbackRawDelimiter, parameter: parameter, offset: offset,
                    message: "\(name) holds a raw '\(Character(Unicode.Scalar(byte)))' at byte \(offset): the callback URL was not percent-encoded, so a '&' or '#' of its own would already have cut it"))
            case .plusSign(let offset) where !sawPlus:
                sawPlus = true
                violations.append(ULCViolation(.callbackPlus, parameter: parameter, offset: offset,
                    message: "\(name) holds a raw '+' at byte \(offset): RFC 3986 readers keep it, form-style readers (URLSearchParams, parse_qsl) read a space; encode it as %2B"))
            default: break
            }
        }
        guard nested.decoded != nil else {
            violations.append(ULCViolation(.callbackInvalidURL, parameter: parameter, offset: at,
                message: "\(name) decodes to bytes that are not UTF-8 text"))
            return
        }
        let text = nested.decoded ?? ""   // captured alone: capturing `nested` would copy it
        let problems = ULC.urlProblems(parameter, nested.scan, offset: at) { r in
            guard let r else { return text }
            return String(decoding: Array(text.utf8)[r], as: UTF8.self)
        }
        if !problems.isEmpty { violations += problems }
    }

    /// The link without the callback items, their separators or a fragment.
    ///
    /// The query is the kept items joined by `&`; the runs of kept items between callback items
    /// are copied whole, separators included, so empty items survive as they were.
    func action(without callbacks: CallbackRanges) -> String {
        guard let query = url.query, callbacks.complete else { return slowAction() }
        // The runs of kept items: before, between and after the callback items.
        var runs = CallbackRanges()
        var start = query.lowerBound
        for i in 0..<callbacks.count {
            let r = callbacks[i]
            if r.lowerBound > start { runs.add(start..<(r.lowerBound - 1)) }
            start = r.upperBound + 1
        }
        if callbacks.count == 0 || callbacks[callbacks.count - 1].upperBound < query.upperBound {
            runs.add(start..<query.upperBound)
        }
        guard runs.complete else { return slowAction() }
        let capacity = url.path.upperBound + query.count + 1
        return url.bytes.withUnsafeBufferPointer { b in
            String(unsafeUninitializedCapacity: capacity) { out in
                let base = UnsafeMutableRawPointer(out.baseAddress!)
                let source = UnsafeRawPointer(b.baseAddress!)
                base.copyMemory(from: source, byteCount: url.path.upperBound)
                var w = url.path.upperBound
                for i in 0..<runs.count {
                    let run = runs[i]
                    out[w] = i == 0 ? UInt8(ascii: "?") : UInt8(ascii: "&")
                    (base + w + 1).copyMemory(from: source + run.lowerBound, byteCount: run.count)
                    w += 1 + run.count
                }
                return w
            }
        }
    }

    /// The same, item by item: for links with more callback items than ``CallbackRanges`` holds.
    func slowAction() -> String {
        var out = Array(url.bytes[0..<url.path.upperBound])
        var first = true
        url.bytes.withUnsafeBufferPointer { b in
            url.forEachQueryItem { item in
                if item.name(in: b, equals: "ulc-success") || item.name(in: b, equals: "ulc-error") { return }
                out.append(first ? UInt8(ascii: "?") : UInt8(ascii: "&"))
                out += b[item.range]
                first = false
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// The ranges of the callback items, in order, for the common case of a few of them (held
/// inline: no allocation).
struct CallbackRanges {
    static let capacity = 4
    private var r0 = 0..<0, r1 = 0..<0, r2 = 0..<0, r3 = 0..<0
    private(set) var count = 0
    /// False when there were more callback items than fit.
    private(set) var complete = true

    mutating func add(_ r: Range<Int>) {
        switch count {
        case 0: r0 = r
        case 1: r1 = r
        case 2: r2 = r
        case 3: r3 = r
        default: complete = false; return
        }
        count += 1
    }

    subscript(i: Int) -> Range<Int> {
        switch i {
        case 0: r0
        case 1: r1
        case 2: r2
        default: r3
        }
    }
}

/// The first two occurrences of a parameter, and how many there are, without allocating.
struct Occurrences {
    var first: QueryItem?
    var second: QueryItem?
    var count = 0

    mutating func add(_ item: QueryItem) {
        if first == nil { first = item } else if second == nil { second = item }
        count += 1
    }
}
