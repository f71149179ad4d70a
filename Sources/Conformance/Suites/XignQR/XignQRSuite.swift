import LinkJSON
import LinkURL
import XCallbackURL
import XignQR

/// The xignqr suite: operations `xignqr.redirect` and `xignqr.pid` (docs/corpus-format.md).
public enum XignQRSuite {
    public static let definition = SuiteDefinition(
        name: "xignqr",
        title: "XignSys xignqr deep links, app links and the pid",
        recognizes: "an xignqr deep link or an https://xign.me/in-app/process/ app link",
        operations: [redirect, pid],
        reference: handlers(for: ReferenceXignQR()),
        explain: explain,
        codeRequirements: XignViolation.Code.requirementTable
    )

    public static func handlers(for subject: some XignQRSubject) -> [String: SuiteDefinition.Handler] {
        [
            "xignqr.redirect": { input in
                let request = try RedirectInput.decode(input)
                return redirectOutput(subject.redirect(url: request.url, schemes: request.schemes, hosts: request.hosts))
            },
            "xignqr.pid": { input in
                let request = try PIDInput.decode(input)
                return pidOutput(subject.decodePID(data: request.data, hosts: request.hosts))
            },
        ]
    }

    // MARK: xignqr.redirect

    static let redirect = OperationDefinition(
        name: "xignqr.redirect",
        summary: "the lightweight link check: which process, the pid as found, source-url and browser, or not XignIn data",
        input: RedirectInput.self, output: RedirectOutput.self,
        expect: .object([
            "kind": .oneOf(["authentication", "personalization", "transaction", "none"]),
            "form": .nullable(.oneOf(["deepLink", "appLink"])),
            "pid": .nullable(.string),
            "sourceUrl": .nullable(.string),
            "browser": .nullable(.string),
            "violations": .array(.nonEmptyString),
        ], required: ["kind"]),
        compare: { expect, actual, _ in
            var found: [Mismatch] = []
            compareEqual("kind", expect, .string(actual.kind), &found)
            for key in RedirectOutput.stringFields { compareEqual(key, expect, actual.strings[key].map(JSONValue.string), &found) }
            compareKeySets("violations", expect, actual.violations, &found)
            return found
        },
        nullOutput: { _ in ["kind": "none"] },
        expectation: { output in
            var b = ExpectationBuilder()
            b.set("kind", .string(output.kind))
            for key in RedirectOutput.stringFields { b.optional(key, output.strings[key]) }
            b.keys("violations", output.violations)
            return ReferenceExpectation(expect: b.value, codes: output.violations ?? [])
        }
    )

    static func redirectOutput(_ r: XignRedirect) -> JSONValue {
        var o = JSONObject(capacity: 6)
        o.append("kind", .string(r.process?.rawValue ?? "none"))
        if r.process != nil {
            if let form = r.form { o.append("form", .string(form.rawValue)) }
            if let pid = r.pid { o.append("pid", .string(pid)) }
            if let source = r.sourceURL { o.append("sourceUrl", .string(source)) }
            if let browser = r.browser { o.append("browser", .string(browser)) }
        }
        o.append("violations", .array(r.violations.map {
            violationJSON(key: $0.key, requirement: $0.requirement, level: $0.level.rawValue, offset: $0.offset, message: $0.message)
        }))
        return .object(o)
    }

    // MARK: xignqr.pid

    static let pid = OperationDefinition(
        name: "xignqr.pid",
        summary: "the full pid decoder: repairs, strict base64, protocol-buffers fields, or a named error",
        input: PIDInput.self, output: PIDOutput.self,
        expect: .object([
            "ok": .bool,
            "error": .nonEmptyString,
            "process": .oneOf(["authentication", "personalization", "transaction", "unknown"]),
            "input": .oneOf(["appLink", "base64"]),
            "repairs": .array(.nonEmptyString),
            "bytes": .numberIn(0...1_000_000),
            "fields": .array(.any),
        ], required: ["ok"]),
        compare: { expect, actual, _ in
            var found: [Mismatch] = []
            compareEqual("ok", expect, .bool(actual.ok), &found)
            compareEqual("error", expect, actual.error.map(JSONValue.string), &found)
            compareEqual("process", expect, actual.process.map(JSONValue.string), &found)
            compareEqual("input", expect, actual.input.map(JSONValue.string), &found)
            compareEqual("bytes", expect, actual.bytes.map(JSONValue.int), &found)
            if let wanted = expect["repairs"] {
                if let repairs = actual.repairs {
                    compareKeySets("repairs", expect, repairs, &found)
                } else {
                    found.append(Mismatch("repairs", expected: wanted, actual: nil))
                }
            }
            if let wanted = expect["fields"] {
                if let fields = actual.fields {
                    if let problem = treeMismatch(wanted, .array(fields), path: "fields") {
                        found.append(Mismatch("fields", expected: "\(problem.expected) at \(problem.path)", actual: problem.actual))
                    }
                } else {
                    found.append(Mismatch("fields", expected: "a list", actual: "(absent)"))
                }
            }
            return found
        },
        nullOutput: { _ in ["ok": false, "error": "not-xignin-data"] },
        expectation: { output in
            var b = ExpectationBuilder()
            b.set("ok", .bool(output.ok))
            // `error` may not be null in an expectation: given only when the reference names one.
            if let error = output.error { b.set("error", .string(error)) }
            if let process = output.process { b.set("process", .string(process)) }
            if let input = output.input { b.set("input", .string(input)) }
            if let repairs = output.repairs { b.keys("repairs", repairs) }
            if let bytes = output.bytes { b.set("bytes", .int(bytes)) }
            if let fields = output.fields { b.set("fields", .array(fields)) }
            return ReferenceExpectation(expect: b.value, codes: output.error.map { [$0] } ?? [])
        }
    )

    /// The first place where `actual` does not match `expected`: objects match when every key
    /// the expectation gives matches; arrays when they have the same length and match item by
    /// item; anything else when equal.
    static func treeMismatch(_ expected: JSONValue, _ actual: JSONValue, path: String) -> (path: String, expected: String, actual: String)? {
        switch expected {
        case .object(let object):
            guard actual.objectValue != nil else { return (path, "an object", actual.serialized()) }
            for member in object {
                if let problem = treeMismatch(member.value, actual[member.key] ?? .null, path: path + "." + member.key) { return problem }
            }
            return nil
        case .array(let items):
            guard let got = actual.arrayValue else { return (path, "a list", actual.serialized()) }
            guard got.count == items.count else { return (path, "\(items.count) items", "\(got.count) items") }
            for (i, (e, a)) in zip(items, got).enumerated() {
                if let problem = treeMismatch(e, a, path: path + "[\(i)]") { return problem }
            }
            return nil
        default:
            return expected == actual ? nil : (path, expected.serialized(), actual.serialized())
        }
    }

    static func pidOutput(_ result: Result<PIDDecoding, PIDError>) -> JSONValue {
        switch result {
        case .success(let pid):
            return [
                "ok": true,
                "process": .string(pid.process?.rawValue ?? "unknown"),
                "input": .string(pid.input.rawValue),
                "repairs": .array(pid.repairs.map { .string($0.rawValue) }),
                "bytes": .int(pid.bytes.count),
                "fields": .array(pid.fields.map(fieldJSON)),
            ]
        case .failure(let error):
            var o = JSONObject(capacity: 4)
            o.append("ok", false)
            o.append("error", .string(error.code))
            o.append("message", .string(error.message))
            if let offset = error.offset { o.append("offset", .int(offset)) }
            return .object(o)
        }
    }

    static func fieldJSON(_ field: WireFormat.Field) -> JSONValue {
        var o = JSONObject(capacity: 6)
        o.append("field", .int(Int(field.number)))
        switch field.value {
        case .varint(let v):
            o.append("type", "varint")
            o.append("value", .string(String(v)))
        case .i64(let bytes):
            o.append("type", "i64")
            o.append("hex", .string(hex(bytes)))
        case .i32(let bytes):
            o.append("type", "i32")
            o.append("hex", .string(hex(bytes)))
        case .len(let bytes, let message):
            o.append("type", "len")
            o.append("length", .int(bytes.count))
            o.append("hex", .string(hex(bytes)))
            if let text = readableText(bytes) { o.append("text", .string(text)) }
            if let message { o.append("message", .array(message.map(fieldJSON))) }
        }
        return .object(o)
    }

    static func hex(_ bytes: ArraySlice<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for b in bytes { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 0xF)]) }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes as text when they are UTF-8 without control characters (tab and line breaks allowed).
    static func readableText(_ bytes: ArraySlice<UInt8>) -> String? {
        guard bytes.withUnsafeBufferPointer(UTF8Validation.isValid) else { return nil }
        guard !bytes.contains(where: { ($0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D) || $0 == 0x7F }) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        // C1 controls (U+0080 to U+009F) are control characters too.
        guard !text.unicodeScalars.contains(where: { $0.value >= 0x80 && $0.value <= 0x9F }) else { return nil }
        return text
    }

    // MARK: check

    static func wording(_ r: XignRedirect) -> CheckVerdict.Wording {
        let process = r.process?.rawValue ?? "(none)"
        return CheckVerdict.Wording(
            valid: "XignIn data: \(process)", withWarnings: "XignIn data: \(process), with warnings",
            invalid: r.process == nil ? "not usable XignIn data: no process is started"
                : "not usable XignIn data: the app would start \(process), but with a pid the decoder refuses",
            unrecognized: "not read: the link is over the size limit, so whether it is XignIn data is not known")
    }

    static let explain: @Sendable (CheckSubject) -> CheckExplanation? = { subject in
        guard let bytes = subject.link else { return nil }
        let r = XignQR.redirect(String(decoding: bytes, as: UTF8.self))
        guard r.form != nil || !r.violations.isEmpty else { return nil }
        let written = r.written
        var fields = [CheckExplanation.Field("process", value: r.process?.rawValue ?? "(none)")]
        fields.append(.init("form", value: r.form?.rawValue ?? "(none)"))
        if r.form == .appLink { fields.append(.init("action", raw: written.action, decoded: written.action.map(decodedOnce))) }
        let pid = written.pid.map(decodedOnce)
        fields.append(.init("pid", raw: written.pid, decoded: pid))
        var violations = r.violations.map { CheckExplanation.Violation($0) }
        if let pid {
            let check = XignQR.checkPID(pid)
            if let decoded = check.decoding {
                fields.append(.init("pid bytes", value: "\(decoded.bytes.count) byte\(decoded.bytes.count == 1 ? "" : "s"), \(decoded.fields.count) top-level protocol-buffers field\(decoded.fields.count == 1 ? "" : "s")"
                                    + (decoded.repairs.isEmpty ? "" : ", after repairs: " + decoded.repairs.map(\.rawValue).joined(separator: ", "))))
            } else {
                fields.append(.init("pid bytes", value: "(not decoded: see the pid violations)"))
            }
            violations += check.violations.map { CheckExplanation.Violation($0) }
        }
        let fragment = FragmentReading(LinkURL(parsing: bytes), parameters: XignQR.parameterNames)
        fields.append(.init("source-url", raw: written.sourceURL, decoded: written.sourceURL.map(decodedOnce),
                            note: written.sourceURL == nil ? fragment?.note(for: "source-url") : nil))
        fields.append(.init("browser", raw: written.browser, decoded: written.browser.map(decodedOnce),
                            note: written.browser == nil ? fragment?.note(for: "browser") : nil))
        let read = !r.violations.contains { $0.code == .linkTooLong }
        return CheckExplanation(suite: "xignqr", recognized: read, wording: wording(r), fields: fields, violations: violations)
    }
}
