import Conformance
import LinkJSON

/// How an implementation's answer to one input differs from the reference's, and the
/// signature that groups it with every other input that differs for the same reason.
///
/// The signature is the operation, what differs first (the first expectation key whose
/// comparison failed, in the operation's order: `kind` before what follows from it; or the kind
/// of answer that is not an output) and the reference's leading violation code (of
/// its strictest level, the first by name; none when the reference saw nothing wrong): a
/// thousand links on which an implementation takes an http callback for a valid one are one
/// finding, whatever else is wrong with each link. Every field that differs and all of the
/// reference's codes stay with the finding. (Every combination of fields and codes as its own
/// signature was tried first: a 10-second run against python-urllib gave 300 signatures for a
/// handful of causes.) Where the reference's answers carry no violation (`aasa.match`), its
/// ``ReferenceExpectation/cause`` takes the code's place in telling causes apart, after the
/// brackets; otherwise every wrong answer of such an operation would be one finding.
///
/// ```swift
/// // ulc.parse kind [callback-not-https]
/// // ulc.build refused [action-not-https]
/// // ulc.parse crashed
/// // aasa.match errored AttributeError []
/// // aasa.match result [] (no_match: url-host-mismatch)
/// ```
public struct Disagreement: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A well-formed output that says something else than the reference.
        case differs
        /// An output without the operation's shape (a protocol error, judged as such).
        case malformed
        /// The implementation answered `errored`.
        case errored
        /// The adapter died on the input.
        case crashed
        /// No answer within the timeout.
        case timedOut
        /// An answer that broke the adapter protocol.
        case protocolError
    }

    public let operation: String
    public let kind: Kind
    /// The fields that differ (`kind`, `violations`), in order, without repeats; for a malformed
    /// output the output's field with list indexes left out (`output.violations[]`).
    public let fields: [String]
    /// The reference's violation codes (without the parameter a key names: `callback-not-https`
    /// for `ulc-error:callback-not-https`), sorted, without repeats.
    public let codes: [String]
    /// The code the signature names: the first of ``codes`` at the strictest level.
    public let leadingCode: String?
    /// What was wrong, for people: the mismatches or the harness's message.
    public let message: String
    /// For an `errored` answer, the name of the error its message starts with (``Judge/errorName(_:)``).
    public let errorName: String?
    /// Why the reference answered as it did (``ReferenceExpectation/cause``), named in the
    /// signature of a `differs` disagreement.
    public let cause: String?

    public init(operation: String, kind: Kind, fields: [String], codes: [String], leadingCode: String?, message: String,
                errorName: String? = nil, cause: String? = nil) {
        self.operation = operation
        self.kind = kind
        self.fields = fields
        self.codes = codes
        self.leadingCode = leadingCode
        self.message = message
        self.errorName = errorName
        self.cause = cause
    }

    /// For an `errored` answer that names its error: the operation and the error's name
    /// (`ulc.parse errored ValueError`), without the reference's code. Inputs with the same
    /// error and different codes are likely one cause in the implementation; the corpus pass
    /// matches signatures no case shows by it.
    public var errorKey: String? {
        guard kind == .errored, let errorName else { return nil }
        return operation + " errored " + errorName
    }

    /// Whether the signature says why the reference answered as it did: a violation code in its
    /// brackets, or a cause after them. One that says neither (`xcallback.parse parameters []`,
    /// `ulc.parse crashed`) holds every input that differs in that way, whatever made it differ,
    /// so a corpus case with the same signature need not show the same cause.
    public var signatureNamesACause: Bool {
        switch kind {
        case .differs: leadingCode != nil || cause != nil
        case .malformed, .errored: leadingCode != nil
        case .crashed, .timedOut, .protocolError: false
        }
    }

    public var signature: String {
        var s = operation
        switch kind {
        case .differs: s += " " + (fields.first ?? "")
        case .malformed: s += " malformed " + (fields.first ?? "")
        default: s += " " + kind.rawValue
        }
        if kind == .errored, let errorName { s += " " + errorName }
        // Crashes, hangs and protocol errors are one finding per operation whatever the input says.
        if kind == .differs || kind == .malformed || kind == .errored { s += " [" + (leadingCode ?? "") + "]" }
        // Only where an answer says something else: an error or a crash does not depend on why
        // the reference answered as it did.
        if kind == .differs, let cause { s += " (" + cause + ")" }
        return s
    }
}

/// What became of one input.
public enum Judgement: Sendable, Hashable {
    case agrees
    /// The implementation skipped the input (its choice, not a disagreement).
    case skipped
    /// The input never reached the implementation: it was given up (too many restarts).
    case notRun(String)
    case differs(Disagreement)
}

public enum Judge {
    /// Judges an implementation's answer against the reference's expectation with the
    /// operation's own comparison, as a corpus case with that expectation would be judged.
    /// `levels` gives each violation code's level (``SuiteDefinition/codeRequirements``); a code
    /// it does not list counts as INFO.
    public static func judge(_ answer: Answer, operation: String, prepared: OperationDefinition.PreparedInput,
                             reference: ReferenceExpectation, levels: [String: RequirementLevel]) -> Judgement {
        func disagreement(_ kind: Disagreement.Kind, fields: [String] = [], _ message: String) -> Judgement {
            let all = codes(reference.codes)
            let leading = all.min { (levels[$0] ?? .info, $0) < (levels[$1] ?? .info, $1) }
            return .differs(Disagreement(operation: operation, kind: kind, fields: fields, codes: all, leadingCode: leading, message: message,
                                         errorName: kind == .errored ? errorName(message) : nil, cause: reference.cause))
        }
        switch answer {
        case .output(let output):
            let mismatches = prepared.compare(reference.expect, output)
            if mismatches.isEmpty { return .agrees }
            let message = mismatches.map(\.description).joined(separator: "; ")
            if mismatches.contains(where: \.malformedOutput) {
                return disagreement(.malformed, fields: unique(mismatches.filter(\.malformedOutput).map { withoutIndexes($0.field) }), message)
            }
            return disagreement(.differs, fields: unique(mismatches.map(\.field)), message)
        case .skipped: return .skipped
        case .notRun(let why): return .notRun(why)
        case .errored(let message, _): return disagreement(.errored, message)
        case .crashed(let message): return disagreement(.crashed, message)
        case .timedOut(let message): return disagreement(.timedOut, message)
        case .protocolError(let message): return disagreement(.protocolError, message)
        }
    }

    /// The name an error message starts with: `AttributeError` of `AttributeError: 'int' object
    /// has no attribute 'get'`, `json.decoder.JSONDecodeError` of a qualified one. A name is
    /// letters, digits, `_` and `.` (not first), at most 64 bytes, then `:` and a space (or the
    /// end); a message that starts otherwise (free text, a number, an offset) gives none, and the
    /// text after the name, which holds positions and values, never splits a cause.
    public static func errorName(_ message: String) -> String? {
        var length = 0
        for b in message.utf8 {
            if b == UInt8(ascii: ":") { break }
            let letter = (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z")
            let allowed = letter || b == UInt8(ascii: "_") || (length > 0 && (b == UInt8(ascii: ".") || (b >= 0x30 && b <= 0x39)))
            guard allowed, length < 64 else { return nil }
            length += 1
        }
        // The `:` ends the message or comes before a space (not the `:` of `https://...`).
        let rest = message.utf8.dropFirst(length)
        guard length > 0, rest.first == UInt8(ascii: ":"), rest.count == 1 || rest.dropFirst().first == UInt8(ascii: " ") else { return nil }
        return String(message.prefix(length))
    }

    /// Keys as codes: the same rule broken by either callback is one cause.
    static func codes(_ keys: [String]) -> [String] {
        Array(Set(keys.map { String(ReferenceExpectation.code(ofKey: $0)) })).sorted()
    }

    static func unique(_ fields: [String]) -> [String] {
        var seen = Set<String>()
        return fields.filter { seen.insert($0).inserted }
    }

    /// `output.violations[2].key` as `output.violations[].key`: which item broke is the input's business.
    static func withoutIndexes(_ field: String) -> String {
        var out = ""
        var inIndex = false
        for c in field {
            if c == "[" { inIndex = true; out.append(c) } else if c == "]" { inIndex = false; out.append(c) } else if !inIndex { out.append(c) }
        }
        return out
    }
}
