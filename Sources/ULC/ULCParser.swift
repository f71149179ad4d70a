import LinkURL
import XCallbackURL

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
        Parser.run(LinkURL(parsing: link, limits: limits))
    }

    /// Reads a link given as a string.
    public static func parse(_ link: String, limits: URLLimits = .default) -> ULCLink {
        parse(Array(link.utf8), limits: limits)
    }
}

/// The checks borrow the link (`borrowing`: the compiler refuses any copy of it, and `run`
/// moves it into the result) and append to the violations they are handed. A parser that held
/// the link in a property had it copied (its storage retained and released) around each check
/// and closure, four times a parse.
private enum Parser {

    static func run(_ url: consuming LinkURL) -> ULCLink {
        if url.isOverLimit {
            let length = url.bytes.count, limit = url.diagnostics[0].offset
            return ULCLink(kind: .invalid, url: url, action: nil, success: nil, error: nil, violations: [
                ULCViolation(.linkTooLong, offset: limit, message: "the link is \(length) bytes, over the \(limit)-byte limit; it was not read"),
            ])
        }
        // Occurrences of each callback parameter: the first one, the second one, and how many.
        var successItems = ParameterOccurrences()
        var errorItems = ParameterOccurrences()
        var callbackItems = CallbackRanges()
        url.bytes.withUnsafeBufferPointer { b in
            url.forEachQueryItem { item in
                // Both names start with `u` and are nine bytes or more; decoding only shortens,
                // so a raw name that is shorter, or starts with another byte than `u` or an
                // escape, is neither.
                let name = item.name
                guard name.count >= 9, case let first = b[name.lowerBound], first == UInt8(ascii: "u") || first == UInt8(ascii: "%") else { return }
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

        var violations: [ULCViolation] = []
        checkAction(url, &violations)
        checkSyntax(url, &violations)
        if let fragment = FragmentReading(url, parameters: ULCParameter.names) {
            violations.append(ULCViolation(.linkHasFragment, offset: fragment.hash, message: fragment.message(form: "the ULC form")))
        }
        let success = callback(url, .success, successItems, &violations)
        let error = callback(url, .error, errorItems, &violations)
        if errorItems.count == 0 {
            violations.append(ULCViolation(.errorMissing, parameter: .error,
                message: "no ulc-error parameter: the receiver has no way to report a failed logout"))
        }
        let kind: ULCLink.Kind = violations.contains { $0.code.isFatal } ? .invalid : .ulc
        let action = action(url, without: callbackItems)
        return ULCLink(kind: kind, url: url, action: action, success: success, error: error, violations: violations)
    }

    static func checkAction(_ url: borrowing LinkURL, _ violations: inout [ULCViolation]) {
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

    static func checkSyntax(_ url: borrowing LinkURL, _ violations: inout [ULCViolation]) {
        // An empty host is valid RFC 3986 syntax (reg-name may be empty); https's own need for
        // a host is action-no-host.
        guard let first = url.scan.firstSyntaxDiagnostic else { return }
        let scan = url.scan
        violations.append(ULCViolation(.linkInvalidSyntax, offset: first.offset,
            message: "the link is not valid RFC 3986 syntax (\(CallbackInspection.syntaxProblems(scan)), first: \(CallbackInspection.advice(first))); Foundation then re-encodes the whole query and reads every parameter differently"))
    }

    static func callback(_ url: borrowing LinkURL, _ parameter: ULCParameter, _ found: ParameterOccurrences,
                         _ violations: inout [ULCViolation]) -> ULCCallback? {
        let name = parameter.rawValue
        let valueRange: Range<Int>
        switch found.reading {
        case .absent: return nil
        case .repeated(let second, let count):
            violations.append(ULCViolation(.callbackDuplicated, parameter: parameter, offset: second.name.lowerBound,
                message: "\(name) appears \(count) times; readers that keep the first and readers that keep the last would open different URLs"))
            return nil
        case .empty(let item):
            violations.append(ULCViolation(.callbackEmpty, parameter: parameter, offset: item.name.lowerBound,
                message: "\(name) has no value; it must carry an encoded universal link"))
            return nil
        case .value(let range): valueRange = range
        }
        // Read the way every x-callback-url callback is read; ULC adds that it is https.
        var findings: [CallbackFinding] = []
        let nested = CallbackInspection.inspect(url.bytes, value: valueRange) { findings.append($0) }
        guard !findings.isEmpty || !nested.scan.isHTTPS else {
            return ULCCallback(parameter: parameter, range: valueRange, link: url.bytes, decoded: nested.decoded)
        }
        let at = valueRange.lowerBound
        let text = nested.decoded ?? ""   // captured alone: capturing `nested` would copy it
        let words: @Sendable (Range<Int>?) -> String = { r in r.map { String(decoding: Array(text.utf8)[$0], as: UTF8.self) } ?? text }
        // How the value was written, then what its URL lacks: https first.
        for finding in findings where finding.concernsEncoding {
            var cut: CallbackInspection.Cut?
            if case .rawDelimiter = finding {
                cut = CallbackInspection.cut(after: valueRange, in: url, known: ULCParameter.names,
                                             landedIn: "part of the logout action")
            }
            violations.append(ULC.violation(finding, parameter, offset: at, cut: cut, text: words))
        }
        if nested.decoded != nil, !nested.isDoubleEncoded, let scheme = nested.scan.scheme, !nested.scan.isHTTPS {
            violations.append(ULC.notHTTPS(parameter, offset: at, scheme: words(scheme)))
        }
        for finding in findings where !finding.concernsEncoding {
            violations.append(ULC.violation(finding, parameter, offset: at, text: words))
        }
        return ULCCallback(parameter: parameter, range: valueRange, link: url.bytes, decoded: nested.decoded)
    }

    /// The link without the callback items, their separators or a fragment.
    ///
    /// The query is the kept items joined by `&`; the runs of kept items between callback items
    /// are copied whole, separators included, so empty items survive as they were.
    static func action(_ url: borrowing LinkURL, without callbacks: CallbackRanges) -> String {
        guard let query = url.query, callbacks.complete else { return slowAction(url) }
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
        guard runs.complete else { return slowAction(url) }
        let pathEnd = url.path.upperBound
        let capacity = pathEnd + query.count + 1
        return url.bytes.withUnsafeBufferPointer { b in
            String(unsafeUninitializedCapacity: capacity) { out in
                let base = UnsafeMutableRawPointer(out.baseAddress!)
                let source = UnsafeRawPointer(b.baseAddress!)
                base.copyMemory(from: source, byteCount: pathEnd)
                var w = pathEnd
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
    static func slowAction(_ url: borrowing LinkURL) -> String {
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
