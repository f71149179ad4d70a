import AASA
import LinkJSON
import LinkURL
import XCallbackURL

/// What an OIDC authorize URL asks of MitID's app switch: `idp_params` (URL-encoded JSON in a
/// query item) read once, its `mitid` object's `enable_app_switch`, `app_switch_os` and
/// `app_switch_url`, and every rule broken on the way (docs/mitid.md).
///
/// ```swift
/// let a = MitIDAuthorize(parsing: Array("https://broker.example/authorize?client_id=x&idp_params=%7B%22mitid%22%3A%7B%22enable_app_switch%22%3Atrue%2C%22app_switch_os%22%3A%22ios%22%2C%22app_switch_url%22%3A%22https%3A%2F%2Fapp.example%2F%22%7D%7D".utf8))
/// a.kind        // .appSwitch
/// a.os          // "ios"
/// a.returnURL   // "https://app.example/"
/// ```
public struct MitIDAuthorize: Sendable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// App switch enabled, with no MUST violation.
        case appSwitch
        /// No app switch asked for (no idp_params, no mitid object, or enable_app_switch not true).
        case noAppSwitch
        /// A MUST violation: the broker would refuse or misread the parameters.
        case invalid
    }

    /// The largest URL read (the limit of every link suite).
    public static let maxLength = 65_536

    public let kind: Kind
    /// `idp_params` as written, and decoded once (nil when absent, repeated or not UTF-8).
    public let idpParamsRaw: String?
    public let idpParamsDecoded: String?
    public let enableAppSwitch: Bool?
    public let os: String?
    public let returnURL: String?
    public let violations: [MitIDViolation]

    public static let knownParameters = ["enable_app_switch", "app_switch_os", "app_switch_url"]
    /// The most unknown parameters listed as violations.
    public static let listedUnknown = 32

    public init(parsing bytes: [UInt8]) {
        var found: [MitIDViolation] = []
        var raw: String?, decodedText: String?, enable: Bool?, os: String?, returnURL: String?
        guard bytes.count <= Self.maxLength else {
            self.init(kind: .invalid, raw: nil, decoded: nil, enable: nil, os: nil, url: nil,
                      violations: [MitIDViolation(.linkTooLong, message: "the URL has \(bytes.count) bytes, over the limit of \(Self.maxLength); not read")])
            return
        }
        let url = LinkURL(parsing: bytes)
        var occurrences = ParameterOccurrences()
        // The items split once: splitting them again for each item made a link of n parameters cost n².
        let items = url.queryItems
        url.forEachQueryItem { item in
            if items.nameEquals(item, "idp_params") { occurrences.add(item) }
        }
        var valueRange: Range<Int>?
        switch occurrences.reading {
        case .absent:
            break
        case .repeated(let second, let count):
            found.append(MitIDViolation(.idpParamsDuplicated, offset: second.range.lowerBound,
                                        message: "idp_params appears \(count) times; which one the broker reads is not defined, so none is read"))
        case .empty(let item):
            found.append(MitIDViolation(.idpParamsEmpty, offset: item.range.lowerBound, message: "idp_params has no value"))
        case .value(let range):
            valueRange = range
        }
        let outside = url.diagnostics.filter { d in valueRange.map { !$0.contains(d.offset) } ?? true }
        if let first = outside.first {
            found.append(MitIDViolation(.linkInvalidSyntax, offset: first.offset, message: "the authorize URL breaks RFC 3986: \(first.message)"))
        }
        if let range = valueRange {
            raw = String(decoding: bytes[range], as: UTF8.self)
            let reading = Self.readValue(bytes, range, diagnostics: url.diagnostics, into: &found)
            decodedText = reading.text
            if let object = reading.object {
                Self.readMitID(object, enable: &enable, os: &os, url: &returnURL, into: &found)
            }
        }
        let broken = found.contains { $0.level == .must }
        let kind: Kind = broken ? .invalid : (enable == true ? .appSwitch : .noAppSwitch)
        self.init(kind: kind, raw: raw, decoded: decodedText, enable: enable, os: os, url: returnURL, violations: found)
    }

    init(kind: Kind, raw: String?, decoded: String?, enable: Bool?, os: String?, url: String?, violations: [MitIDViolation]) {
        self.kind = kind
        idpParamsRaw = raw
        idpParamsDecoded = decoded
        enableAppSwitch = enable
        self.os = os
        returnURL = url
        self.violations = violations
    }

    /// Decodes the value once and reads it as a JSON object, reporting how it was written.
    static func readValue(_ bytes: [UInt8], _ range: Range<Int>, diagnostics: [URLDiagnostic],
                          into found: inout [MitIDViolation]) -> (text: String?, object: JSONObject?) {
        let inside = diagnostics.filter { range.contains($0.offset) }
        if let bad = inside.first(where: { $0.code == .invalidPercentEscape }) {
            found.append(MitIDViolation(.idpParamsBadEscape, parameter: nil, offset: bad.offset,
                                        message: "idp_params has a '%' that is not followed by two hexadecimal digits (byte \(bad.offset)): it was not URL-encoded, or badly"))
        }
        if let raw = inside.first(where: { $0.code != .invalidPercentEscape }) {
            found.append(MitIDViolation(.idpParamsNotEncoded, offset: raw.offset,
                                        message: "idp_params holds a character a URL cannot carry raw (byte \(raw.offset): \(raw.code.rawValue)): the JSON was not URL-encoded"))
        }
        if let plus = bytes[range].firstIndex(of: UInt8(ascii: "+")) {
            found.append(MitIDViolation(.idpParamsPlus, offset: plus,
                                        message: "a raw '+' in idp_params: an RFC 3986 reader keeps it, a form reader makes it a space; write %20 or %2B"))
        }
        let decoded = PercentCodec.decode(bytes[range])
        guard let text = PercentCodec.utf8String(decoded) else {
            found.append(MitIDViolation(.idpParamsNotUTF8, offset: range.lowerBound, message: "idp_params decoded once is not UTF-8"))
            return (nil, nil)
        }
        if startsWithEncodedBrace(decoded) {
            found.append(MitIDViolation(.idpParamsDoubleEncoded, offset: range.lowerBound,
                                        message: "idp_params decoded once still starts with %7B (after any whitespace): it was URL-encoded twice"))
            return (text, nil)
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(decoded, options: .init(maxDepth: 32, allowDuplicateKeys: false))
        } catch {
            found.append(MitIDViolation(.idpParamsNotJSON, offset: range.lowerBound,
                                        message: "idp_params decoded once is not JSON: \(error.message) (line \(error.line), column \(error.column))"))
            return (text, nil)
        }
        guard let object = value.objectValue else {
            found.append(MitIDViolation(.idpParamsNotObject, offset: range.lowerBound,
                                        message: "idp_params is \(AssociationWording.kind(of: value)), not a JSON object"))
            return (text, nil)
        }
        return (text, object)
    }

    /// Whether text decoded once still opens a JSON object with `%7B`, after JSON's whitespace
    /// (space, tab, LF, CR), which may be raw (escaped once with the rest escaped twice) or
    /// escaped (`%20`, `%09`, `%0A`, `%0D`: whitespace escaped twice with the rest). Read as bytes,
    /// so that CR LF (one Swift character) is two whitespace bytes, as JSON counts it.
    static func startsWithEncodedBrace(_ decoded: [UInt8]) -> Bool {
        func isJSONSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        var i = 0
        while i < decoded.count {
            if isJSONSpace(decoded[i]) {
                i += 1
                continue
            }
            guard decoded[i] == UInt8(ascii: "%"), i + 2 < decoded.count,
                  let high = ByteClass.hexValue(decoded[i + 1]), let low = ByteClass.hexValue(decoded[i + 2]) else { return false }
            let escaped = high << 4 | low
            if escaped == UInt8(ascii: "{") { return true }
            guard isJSONSpace(escaped) else { return false }
            i += 3
        }
        return false
    }

    /// Reads `mitid` and its three members.
    static func readMitID(_ top: JSONObject, enable: inout Bool?, os: inout String?, url: inout String?, into found: inout [MitIDViolation]) {
        guard let value = top["mitid"] else {
            found.append(MitIDViolation(.mitidMissing, message: "idp_params has no \"mitid\" object: nothing is asked of MitID's app switch"
                                        + AssociationWording.didYouMean(top.keys.first ?? "", among: ["mitid"])))
            return
        }
        guard let mitid = value.objectValue else {
            found.append(MitIDViolation(.mitidNotObject, message: "\"mitid\" is \(AssociationWording.kind(of: value)), not an object"))
            return
        }
        // Listed for the first `listedUnknown` keys; the last one listed counts the rest. A 64 KiB
        // link holds thousands of keys: listed in full they made a 1.3 MB answer, past the adapter
        // protocol's 1 MiB line (x-callback-url bounds its per-parameter checks the same way).
        let unknown = mitid.keys.filter { !knownParameters.contains($0) }
        for (i, key) in unknown.prefix(listedUnknown).enumerated() {
            let more = i == listedUnknown - 1 ? unknown.count - listedUnknown : 0
            found.append(MitIDViolation(.parameterUnknown, parameter: key,
                                        message: "\"\(key)\" is not a MitID app-switch parameter; it is ignored" + AssociationWording.didYouMean(key, among: knownParameters)
                                            + (more > 0 ? " (and \(more) more unknown parameter\(more == 1 ? "" : "s"), not listed: an answer lists the first \(listedUnknown))" : "")))
        }
        if let e = mitid["enable_app_switch"] {
            if let b = e.boolValue { enable = b } else {
                found.append(MitIDViolation(.enableNotBoolean, parameter: "enable_app_switch",
                                            message: "enable_app_switch is \(AssociationWording.kind(of: e)), not true or false"))
            }
        }
        let osValue = mitid["app_switch_os"], urlValue = mitid["app_switch_url"]
        // MITID-6 asks for a platform with app switch enabled; without it, a platform of any
        // value has no effect, which MITID-D6 says below.
        if let osValue {
            if let s = osValue.stringValue, s == "ios" || s == "android" { os = s } else if enable == true {
                found.append(MitIDViolation(.osInvalid, parameter: "app_switch_os",
                                            message: "app_switch_os is \(osValue.stringValue.map { "\"\($0)\"" } ?? AssociationWording.kind(of: osValue)); it must be \"ios\" or \"android\""))
            }
        }
        if let urlValue {
            if let s = urlValue.stringValue {
                url = s
                checkReturnURL(s, into: &found)
            } else {
                found.append(MitIDViolation(.urlNotString, parameter: "app_switch_url",
                                            message: "app_switch_url is \(AssociationWording.kind(of: urlValue)), not a URL"))
            }
        }
        if enable == true {
            if osValue == nil {
                found.append(MitIDViolation(.osMissing, parameter: "app_switch_os", message: "app switch is enabled but app_switch_os does not say which platform (ios or android)"))
            }
            if urlValue == nil {
                found.append(MitIDViolation(.urlMissing, parameter: "app_switch_url",
                                            message: "app switch is enabled without app_switch_url: only a default set for the client in the broker's administration returns the user to the app"))
            }
        } else if osValue != nil || urlValue != nil, mitid["enable_app_switch"]?.boolValue != nil || mitid["enable_app_switch"] == nil {
            found.append(MitIDViolation(.appSwitchDisabled, parameter: "enable_app_switch",
                                        message: "app_switch_os or app_switch_url is given but enable_app_switch is not true (it defaults to false): they have no effect"))
        }
    }

    /// The return URL must be an https universal link / App Link: absolute, https, a host, no
    /// user information; the guide also wants it at the root of the domain (INFO).
    static func checkReturnURL(_ text: String, into found: inout [MitIDViolation]) {
        let p = "app_switch_url"
        let url = LinkURL(parsing: text)
        guard url.isAbsolute, let scheme = url.text(of: .scheme)?.lowercased() else {
            found.append(MitIDViolation(.urlInvalid, parameter: p, message: "app_switch_url \"\(text)\" is not an absolute URL"))
            return
        }
        if scheme == "http" {
            found.append(MitIDViolation(.urlNotHTTPS, parameter: p, message: "app_switch_url is http: universal links and App Links the MitID app returns through are https"))
        } else if scheme != "https" {
            found.append(MitIDViolation(.urlCustomScheme, parameter: p,
                                        message: "app_switch_url uses the custom scheme \"\(scheme)\": the return leg must be a universal link or App Link (https), which the guide alone endorses"))
            return
        }
        if let d = url.diagnostics.first(where: { $0.code != .emptyHost }) {
            found.append(MitIDViolation(.urlInvalid, parameter: p, message: "app_switch_url breaks RFC 3986: \(d.message)"))
        }
        if url.host == nil || url.host?.isEmpty == true {
            found.append(MitIDViolation(.urlNoHost, parameter: p, message: "app_switch_url has no host"))
            return
        }
        if url.userinfo != nil {
            found.append(MitIDViolation(.urlUserinfo, parameter: p, message: "app_switch_url has user information before the host"))
        }
        // A host is a domain name as written: a universal link's or App Link's host is matched
        // against the app's associated domains and the host's association files, and no domain
        // name holds a percent-escape (readers disagree on such a host, as with callbacks).
        if let host = url.bytes.withUnsafeBufferPointer({ CallbackInspection.escapedHost(url.scan, $0) }) {
            found.append(MitIDViolation(.urlHostEscaped, parameter: p,
                message: "app_switch_url's host '\(url.text(in: host))' holds a percent-escape: no domain name does, so it names no associated domain (iOS) or verified App Link host (Android), and URL readers disagree on what host it is"))
        }
        let path = url.text(in: url.path)
        if !(path.isEmpty || path == "/") || url.query != nil || url.fragment != nil {
            found.append(MitIDViolation(.urlNotRoot, parameter: p,
                                        message: "app_switch_url is not the root of its domain; the guide says it currently must point to the root, where the association file is (perhaps relaxed since)"))
        }
    }
}
