import LinkURL

/// Reads one URL as an x-callback-url (``XCallback/parse(_:limits:)``).
///
/// The parser holds only what the checks build up; the URL is borrowed by each check
/// (`borrowing`: the compiler refuses any copy of it) and moved into the result at the end. A
/// parser that kept the URL in a property had it copied, with its storage retained and
/// released, around each check and closure.
struct XCallbackParser {

    var violations: [XCallbackViolation] = []
    /// What the action-parameter checks found beyond what they list (``listedPerCode``).
    var actionFindings = ActionFindings()

    /// The action-parameter checks (reserved prefix, raw `+`) are the only ones that can fire
    /// once per parameter, and a 64 KiB link holds ten thousand parameters: listed in full,
    /// their violations made a 3 MB answer, past the adapter protocol's 1 MiB line. So a key
    /// (code and parameter) is listed once, and each of these codes lists its first
    /// `listedPerCode` parameters; the rest are counted, and the last one listed says how many.
    static let listedPerCode = 32

    struct ActionFindings {
        var keys: Set<String> = []
        var listed: [XCallbackViolation.Code: Int] = [:]
        var omitted: [XCallbackViolation.Code: Int] = [:]

        /// Whether a finding of `code` for `parameter` is listed: a key already listed is not
        /// listed again; a new one past the cap is counted as omitted.
        mutating func admits(_ code: XCallbackViolation.Code, _ parameter: String) -> Bool {
            guard keys.insert(parameter + ":" + code.rawValue).inserted else { return false }
            guard listed[code, default: 0] < XCallbackParser.listedPerCode else {
                omitted[code, default: 0] += 1
                return false
            }
            listed[code, default: 0] += 1
            return true
        }
    }

    init() {}

    mutating func run(_ url: consuming LinkURL) -> XCallbackLink {
        if url.isOverLimit {
            let length = url.bytes.count, limit = url.diagnostics[0].offset
            return Self.link(url, .invalid, violations: [
                XCallbackViolation(.linkTooLong, offset: limit,
                                   message: "the URL is \(length) bytes, over the \(limit)-byte limit; it was not read"),
            ])
        }
        // XCB-1: a URL with a scheme; a name before "://" that is not a valid scheme is none.
        guard url.hasValidScheme, let host = url.host, Self.hostIsXCallbackURL(url, host) else { return Self.link(url, .notXCallback) }
        if url.bytes[host].contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) {
            let written = url.text(in: host)
            violations.append(XCallbackViolation(.hostNotLowercase, offset: host.lowerBound,
                message: "the host is written '\(written)'; RFC 3986 makes it the same host as x-callback-url, but readers that compare it exactly (CallbackURLKit) do not recognise it"))
        }
        checkAction(url)
        if let problem = url.scan.firstSyntaxDiagnostic {
            let scan = url.scan
            violations.append(XCallbackViolation(.linkInvalidSyntax, offset: problem.offset,
                message: "the URL is not valid RFC 3986 syntax (\(CallbackInspection.syntaxProblems(scan)), first: \(CallbackInspection.advice(problem))); Foundation then re-encodes the whole query and reads every parameter differently"))
        }
        if let fragment = FragmentReading(url, parameters: XCallbackParameter.names) {
            violations.append(XCallbackViolation(.linkHasFragment, offset: fragment.hash,
                                                 message: fragment.message(form: "the x-callback-url form", subject: "URL")))
        }

        // One pass over the query: the x-callback parameters are counted, action parameters
        // checked as they go by.
        var found = Found()
        var actionItems = ActionItems()
        url.bytes.withUnsafeBufferPointer { b in
            url.forEachQueryItem { item in
                guard !item.range.isEmpty else { return }
                if let parameter = XCallback.parameter(named: item, in: b) {
                    found[parameter].add(item)
                } else {
                    actionItems.append(item)
                    checkActionParameter(item, b)
                }
            }
        }
        noteOmittedActionFindings()
        let source = found[.source]
        if case .repeated(let second, let count) = source.reading { duplicated(.source, second: second, count: count) }
        if let item = source.single, let value = item.value {
            plusCheck(url, value, parameter: XCallbackParameter.source.rawValue, code: .valuePlus)
        }
        let success = callback(url, .success, found[.success])
        let error = callback(url, .error, found[.error])
        let cancel = callback(url, .cancel, found[.cancel])
        let kind: XCallbackLink.Kind = violations.contains { $0.code.isFatal } ? .invalid : .xcallback
        return XCallbackLink(kind: kind, url: url, success: success, error: error, cancel: cancel,
                             sourceItem: source.single, actionItems: actionItems, violations: violations)
    }

    static func link(_ url: consuming LinkURL, _ kind: XCallbackLink.Kind, violations: [XCallbackViolation] = []) -> XCallbackLink {
        XCallbackLink(kind: kind, url: url, success: nil, error: nil, cancel: nil, sourceItem: nil, actionItems: ActionItems(), violations: violations)
    }

    /// The occurrences of the four parameters, held inline.
    struct Found {
        var source = ParameterOccurrences(), success = ParameterOccurrences()
        var error = ParameterOccurrences(), cancel = ParameterOccurrences()

        subscript(parameter: XCallbackParameter) -> ParameterOccurrences {
            get {
                switch parameter {
                case .source: source
                case .success: success
                case .error: error
                case .cancel: cancel
                }
            }
            set {
                switch parameter {
                case .source: source = newValue
                case .success: success = newValue
                case .error: error = newValue
                case .cancel: cancel = newValue
                }
            }
        }
    }

    /// The host is x-callback-url, in any letter case (RFC 3986 section 3.2.2).
    ///
    /// Compared as two overlapping 8-byte words (bytes 0-7 and 6-13): the name's letters are
    /// compared with bit 0x20 set in the host (so `X` matches `x`, and nothing but a letter can
    /// become one), its other bytes exactly. A byte loop cost 220 instructions a link.
    static func hostIsXCallbackURL(_ url: borrowing LinkURL, _ host: Range<Int>) -> Bool {
        let name: StaticString = "x-callback-url"
        guard host.count == name.utf8CodeUnitCount else { return false }
        let p = UnsafeRawPointer(name.utf8Start)
        let low = p.loadUnaligned(as: UInt64.self), high = p.loadUnaligned(fromByteOffset: 6, as: UInt64.self)
        // 0x20 where the name has a letter (all its letters are lower case, bit 0x40 set).
        let lowLetters = (low & 0x4040_4040_4040_4040) >> 1, highLetters = (high & 0x4040_4040_4040_4040) >> 1
        return url.bytes.withUnsafeBufferPointer { b in
            let h = UnsafeRawPointer(b.baseAddress! + host.lowerBound)
            return h.loadUnaligned(as: UInt64.self) | lowLetters == low
                && h.loadUnaligned(fromByteOffset: 6, as: UInt64.self) | highLetters == high
        }
    }

    mutating func checkAction(_ url: borrowing LinkURL) {
        let path = url.path
        let bytes = url.bytes
        let start = path.first.map { bytes[$0] == UInt8(ascii: "/") } == true ? path.lowerBound + 1 : path.lowerBound
        guard start < path.upperBound else {
            violations.append(XCallbackViolation(.actionEmpty, offset: path.lowerBound,
                message: "the URL names no action: the path after x-callback-url is empty"))
            return
        }
        // A version segment ends at a '/', written or escaped: an action with neither a '/' nor
        // a '%' has none, and is not copied or searched again.
        let plain = bytes.withUnsafeBufferPointer { b in
            ByteSearch.first(UInt8(ascii: "/"), in: b, from: start, to: path.upperBound) == path.upperBound
                && ByteSearch.first(UInt8(ascii: "%"), in: b, from: start, to: path.upperBound) == path.upperBound
        }
        if plain {
            // One segment: a dot segment only when it is all of the action.
            if path.upperBound - start <= 2, Self.isDotSegment(bytes[start..<path.upperBound]) { dotSegment(at: start, bytes[start..<path.upperBound]) }
            return
        }
        // The action decoded once, as the module reports it and as readers of a decoded path
        // (URL.path, CallbackURLKit) see it: `1%2Fopen` is version 1 then open, like `1/open`.
        let raw = bytes[start..<path.upperBound]
        let action = raw.contains(UInt8(ascii: "%")) ? ArraySlice(PercentCodec.decode(raw)) : raw
        if let version = Self.versionSegment(action) {
            violations.append(XCallbackViolation(.actionVersionSegment, offset: start,
                message: "the action starts with the version '\(String(decoding: version, as: UTF8.self))'; revision R1 removed the version from the path (register a scheme per version instead)"))
        }
        if let segment = Self.dotSegment(in: action) { dotSegment(at: start, segment) }
    }

    private mutating func dotSegment(at offset: Int, _ segment: ArraySlice<UInt8>) {
        violations.append(XCallbackViolation(.actionDotSegment, offset: offset, message: Self.dotSegmentMessage(segment)))
    }

    static func dotSegmentMessage(_ segment: ArraySlice<UInt8>) -> String {
        "the action has the segment '\(String(decoding: segment, as: UTF8.self))': WHATWG URL readers remove dot segments as they parse "
            + "(view/%2E%2E/delete reads as the action delete) and Foundation keeps them, so the action run depends on the receiver's reader"
    }

    /// The first `.` or `..` segment of an action (decoded once: `%2E%2E` is `..`, as WHATWG
    /// URL reads it). Parse and build both decide with this.
    static func dotSegment(in action: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        // Segment by segment in place: a split made an array on every parse of an action with a '/'.
        var start = action.startIndex
        while true {
            let end = action[start...].firstIndex(of: UInt8(ascii: "/")) ?? action.endIndex
            if isDotSegment(action[start..<end]) { return action[start..<end] }
            guard end < action.endIndex else { return nil }
            start = end + 1
        }
    }

    static func isDotSegment(_ segment: ArraySlice<UInt8>) -> Bool {
        !segment.isEmpty && segment.count <= 2 && segment.allSatisfy { $0 == UInt8(ascii: ".") }
    }

    /// The first segment of an action (decoded once) when it is a version (1, 1.0, v2, v2.1)
    /// with more of the action after its `/`. Parse and build both decide with this.
    static func versionSegment(_ action: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard let slash = action.firstIndex(of: UInt8(ascii: "/")), slash + 1 < action.endIndex,
              isVersion(action[..<slash]) else { return nil }
        return action[..<slash]
    }

    /// `1`, `1.0`, `v2`, `V2.1`: digits separated by single dots, after an optional `v`.
    static func isVersion(_ segment: ArraySlice<UInt8>) -> Bool {
        var s = segment[...]
        if let first = s.first, first | 0x20 == UInt8(ascii: "v") { s = s.dropFirst() }
        guard let first = s.first, let last = s.last, Self.isDigit(first), Self.isDigit(last) else { return false }
        var previousDot = false
        for b in s {
            if b == UInt8(ascii: ".") {
                if previousDot { return false }
                previousDot = true
            } else if Self.isDigit(b) {
                previousDot = false
            } else {
                return false
            }
        }
        return true
    }

    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    /// An action parameter: the `x-` prefix is reserved; a raw `+` in its value is ambiguous.
    mutating func checkActionParameter(_ item: QueryItem, _ b: UnsafeBufferPointer<UInt8>) {
        let name = item.name
        var reserved = false
        if name.count >= 2 {
            if b[name.lowerBound] == UInt8(ascii: "x") && b[name.lowerBound + 1] == UInt8(ascii: "-") {
                reserved = true
            } else if b[name.lowerBound] == UInt8(ascii: "%") || b[name.lowerBound + 1] == UInt8(ascii: "%") {
                reserved = XCallback.decodedText(b, name).hasPrefix("x-")
            }
        }
        if reserved {
            let decoded = XCallback.decodedText(b, name)
            if actionFindings.admits(.parameterReservedPrefix, decoded) {
                violations.append(XCallbackViolation(.parameterReservedPrefix, parameter: decoded, offset: name.lowerBound,
                    message: "the action parameter '\(CallbackInspection.shortened(decoded))' uses the x- prefix, which the specification keeps for its own parameters"))
            }
        }
        plusCheckOfAction(item, b)
    }

    /// The raw `+` check of an action parameter's value, within the listing cap.
    mutating func plusCheckOfAction(_ item: QueryItem, _ b: UnsafeBufferPointer<UInt8>) {
        if let value = item.value, ByteSearch.first(UInt8(ascii: "+"), in: b, from: value.lowerBound, to: value.upperBound) < value.upperBound {
            let parameter = XCallback.decodedText(b, item.name)
            if actionFindings.admits(.valuePlus, parameter) { plusCheck(b, value, parameter: parameter, code: .valuePlus) }
        }
    }

    /// Says, in the last violation listed of each capped code, how many more parameters had it.
    mutating func noteOmittedActionFindings() {
        guard !actionFindings.omitted.isEmpty else { return }
        for (code, count) in actionFindings.omitted {
            guard let last = violations.lastIndex(where: { $0.code == code }) else { continue }
            let v = violations[last]
            violations[last] = XCallbackViolation(code, parameter: v.parameter, offset: v.offset,
                message: v.message + " (and \(count) more action parameter\(count == 1 ? "" : "s") with the same problem, not listed: each problem lists its first \(Self.listedPerCode))")
        }
    }

    /// Reports the first raw `+` of a value.
    mutating func plusCheck(_ url: borrowing LinkURL, _ value: Range<Int>, parameter: String, code: XCallbackViolation.Code) {
        url.bytes.withUnsafeBufferPointer { plusCheck($0, value, parameter: parameter, code: code) }
    }

    /// Reports the first raw `+` of a value, in the URL's bytes `b`.
    mutating func plusCheck(_ b: UnsafeBufferPointer<UInt8>, _ value: Range<Int>, parameter: String, code: XCallbackViolation.Code) {
        let plus = ByteSearch.first(UInt8(ascii: "+"), in: b, from: value.lowerBound, to: value.upperBound)
        guard plus < value.upperBound else { return }
        violations.append(XCallbackViolation(code, parameter: parameter, offset: plus,
            message: "the value of \(CallbackInspection.shortened(parameter)) holds a raw '+' at byte \(plus): RFC 3986 readers keep it, form-style readers (Chromium, URLSearchParams, parse_qsl) read a space; encode it as %2B"))
    }

    mutating func duplicated(_ parameter: XCallbackParameter, second: QueryItem, count: Int) {
        violations.append(XCallbackViolation(.callbackDuplicated, parameter: parameter.rawValue, offset: second.name.lowerBound,
            message: "\(parameter.rawValue) appears \(count) times; readers that keep the first (Chromium) and readers that keep the last (CallbackURLKit) would use different values, so it is not read"))
    }

    /// Reads and checks one callback parameter.
    mutating func callback(_ url: borrowing LinkURL, _ parameter: XCallbackParameter, _ found: ParameterOccurrences) -> XCallbackValue? {
        let name = parameter.rawValue
        let valueRange: Range<Int>
        switch found.reading {
        case .absent: return nil
        case .repeated(let second, let count):
            duplicated(parameter, second: second, count: count)
            return nil
        case .empty(let item):
            violations.append(XCallbackViolation(.callbackEmpty, parameter: name, offset: item.name.lowerBound,
                message: "\(name) has no value; it must carry an encoded URL"))
            return nil
        case .value(let range): valueRange = range
        }
        // `noHost` is left out here rather than skipped by `report`: custom-scheme callbacks
        // need no host, and a callback without one (`launch://`) made an array for nothing.
        var findings: [CallbackFinding] = []
        let nested = CallbackInspection.inspect(url.bytes, value: valueRange) { finding in
            if case .noHost = finding { return }
            findings.append(finding)
        }
        var unusable = false
        if !findings.isEmpty { unusable = report(findings, url, parameter: name, value: valueRange, decoded: nested.decoded ?? "") }
        if !unusable, let scheme = nested.scan.scheme,
           nested.withDecodedBytes({ XCallbackPolicy.isRefused(scheme: UnsafeBufferPointer(rebasing: $0[scheme])) }) {
            let schemeText = String(decoding: (nested.decoded ?? "").utf8.prefix(scheme.upperBound).dropFirst(scheme.lowerBound), as: UTF8.self)
            violations.append(XCallbackViolation(.callbackSchemeRefused, parameter: name, offset: valueRange.lowerBound,
                message: "\(name) uses the scheme '\(schemeText):', which a target app must never open (script, local-file and program-launching schemes)"))
        }
        return XCallbackValue(parameter: parameter, range: valueRange, link: url.bytes, decoded: nested.decoded)
    }

    /// Lists a callback's findings as violations; returns whether one makes it unusable.
    mutating func report(_ findings: [CallbackFinding], _ url: borrowing LinkURL, parameter name: String,
                         value valueRange: Range<Int>, decoded text: String) -> Bool {
        let at = valueRange.lowerBound
        var unusable = false
        for finding in findings {
            switch finding {
            case .noHost: continue   // custom-scheme callbacks need no host
            case .doubleEncoded, .notUTF8, .notAbsolute: unusable = true
            default: break
            }
            var cut: CallbackInspection.Cut?
            if case .rawDelimiter = finding {
                cut = CallbackInspection.cut(after: valueRange, in: url, known: XCallbackParameter.names,
                                             landedIn: "a parameter of the action")
            }
            violations.append(Self.violation(finding, parameter: name, offset: at, cut: cut) { r in
                r.map { String(decoding: Array(text.utf8)[$0], as: UTF8.self) } ?? text
            })
        }
        return unusable
    }

    /// A finding as an x-callback-url violation (`noHost` is not one: custom schemes need no host).
    static func violation(_ finding: CallbackFinding, parameter name: String, offset: Int,
                          cut: CallbackInspection.Cut? = nil, text: @escaping @Sendable (Range<Int>?) -> String) -> XCallbackViolation {
        let code: XCallbackViolation.Code
        switch finding {
        case .doubleEncoded: code = .callbackDoubleEncoded
        case .rawDelimiter: code = .callbackRawDelimiter
        case .plus: code = .callbackPlus
        case .notUTF8, .invalidSyntax: code = .callbackInvalidURL
        case .notAbsolute: code = .callbackNotAbsolute
        case .noHost: code = .callbackInvalidURL   // not reached: the caller skips it
        case .userinfo: code = .callbackUserinfo
        case .escapedHost: code = .callbackHostEscaped
        }
        let at: Int
        switch finding {
        case .rawDelimiter(let o, _), .plus(let o): at = o
        default: at = offset
        }
        return XCallbackViolation(code, parameter: name, offset: at,
                                  message: CallbackInspection.message(finding, parameter: name, cut: cut, text: text))
    }
}
