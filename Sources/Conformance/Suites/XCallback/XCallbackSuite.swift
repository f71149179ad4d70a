import LinkJSON
import LinkURL
import XCallbackURL

/// The x-callback-url suite: operations `xcallback.parse`, `xcallback.build`,
/// `xcallback.callback` (docs/corpus-format.md).
public enum XCallbackSuite {
    public static let definition = SuiteDefinition(
        name: "xcallback",
        title: "x-callback-url (inter-app actions and callbacks)",
        recognizes: "a URL whose host is x-callback-url",
        operations: [parse, build, callback],
        reference: handlers(for: ReferenceXCallback()),
        explain: explain,
        codeRequirements: XCallbackViolation.Code.requirementTable
    )

    /// JSON handlers for the three operations, backed by any ``XCallbackSubject``.
    public static func handlers(for subject: some XCallbackSubject) -> [String: SuiteDefinition.Handler] {
        [
            "xcallback.parse": { input in
                parseOutput(subject.parse(url: try ParseInput.decode(input).url))
            },
            "xcallback.build": { input in
                switch subject.build(try BuildInput.decode(input).request) {
                case .url(let url): return ["url": .string(url)]
                case .refused(let keys): return ["refused": .array(keys.map(JSONValue.string))]
                }
            },
            "xcallback.callback": { input in
                let request = try CallbackInput.decode(input)
                switch subject.callback(url: request.url, outcome: request.outcome, allowedSchemes: request.allowedSchemes) {
                case .open(let url): return ["open": .string(url)]
                case .none(let reason): return ["open": .null, "reason": .string(reason)]
                }
            },
        ]
    }

    static let itemShape = JSONShape.object(["name": .string, "value": .nullable(.string)], required: ["name"])

    // MARK: xcallback.parse

    static let parse = OperationDefinition(
        name: "xcallback.parse",
        summary: "read a URL as an x-callback-url: kind, action, the x- parameters decoded once, action parameters, violations",
        input: ParseInput.self, output: ParseOutput.self,
        expect: .object([
            "kind": .oneOf(["xcallback", "notXCallback", "invalid"]),
            "scheme": .nullable(.string),
            "action": .nullable(.string),
            "source": .nullable(.string),
            "success": .nullable(.string),
            "error": .nullable(.string),
            "cancel": .nullable(.string),
            "parameters": .array(itemShape),
            "violations": .array(.nonEmptyString),
        ], required: ["kind"]),
        compare: { expect, actual, _ in
            var found: [Mismatch] = []
            compareEqual("kind", expect, .string(actual.kind), &found)
            for key in ParseOutput.stringFields { compareEqual(key, expect, actual.strings[key].map(JSONValue.string), &found) }
            if let wanted = expect["parameters"] {
                let got = actual.parameters.map { JSONValue.array($0.map(itemJSON)) }
                if got.flatMap(normalizedItems) != normalizedItems(wanted) {
                    found.append(Mismatch("parameters", expected: wanted, actual: got))
                }
            }
            compareKeySets("violations", expect, actual.violations, &found)
            return found
        },
        nullOutput: { _ in ["kind": "notXCallback"] },
        expectation: { output in
            var b = ExpectationBuilder()
            b.set("kind", .string(output.kind))
            for key in ParseOutput.stringFields { b.optional(key, output.strings[key]) }
            if let parameters = output.parameters { b.set("parameters", .array(parameters.map(itemJSON))) }
            b.keys("violations", output.violations)
            return ReferenceExpectation(expect: b.value, codes: output.violations ?? [])
        }
    )

    /// An expectation's items as (name, value) pairs: a missing `value` is the same as `null`.
    static func normalizedItems(_ value: JSONValue) -> [JSONValue]? {
        value.arrayValue?.map { item in
            .array([item["name"] ?? .null, item["value"] ?? .null])
        }
    }

    static func parseOutput(_ answer: XCallbackParseAnswer) -> JSONValue {
        var o = JSONObject(capacity: 11)
        o.append("kind", .string(answer.kind.rawValue))
        if let scheme = answer.scheme { o.append("scheme", .string(scheme)) }
        if let action = answer.action { o.append("action", .string(action)) }
        if let source = answer.source { o.append("source", .string(source)) }
        if let success = answer.success { o.append("success", .string(success)) }
        if let error = answer.error { o.append("error", .string(error)) }
        if let cancel = answer.cancel { o.append("cancel", .string(cancel)) }
        if let parameters = answer.parameters { o.append("parameters", .array(parameters.map(itemJSON))) }
        if !answer.raw.isEmpty {
            var raw = JSONObject(capacity: answer.raw.count)
            for key in ["action", "source", "success", "error", "cancel"] {
                if let value = answer.raw[key] { raw.append(key, .string(value)) }
            }
            o.append("raw", .object(raw))
        }
        if let violations = answer.violations {
            o.append("violations", .array(violations.map {
                violationJSON(key: $0.key, requirement: $0.requirement, level: $0.level.rawValue, offset: $0.offset, message: $0.message)
            }))
        }
        return .object(o)
    }

    static func itemJSON(_ item: XCallbackItem) -> JSONValue {
        ["name": .string(item.name), "value": .string(item.value)]
    }

    // MARK: xcallback.build

    static let build = OperationDefinition(
        name: "xcallback.build",
        summary: "build an action URL from scheme, action, x- parameters and action parameters, or refuse the input",
        input: BuildInput.self, output: BuildOutput<BuiltURL>.self,
        expect: buildExpectShape,
        compare: { expect, actual, input in
            actual.compare(expect) { roundTripProblems(url: $0, want: input.request) }
        },
        nullOutput: { _ in ["refused": []] },
        expectation: \.expectation
    )

    /// Whether a built URL reads back as the input: in our RFC 3986 reader with no violation, in
    /// a form-style reader, and with the x- parameters first in the draft's order.
    static func roundTripProblems(url: String, want: XCallbackRequest) -> [Mismatch] {
        let link = XCallback.parse(url)
        guard link.kind == .xcallback, link.violations.isEmpty else {
            return [Mismatch("url", expected: "an x-callback-url with no violation",
                             actual: "\(link.kind.rawValue) \(link.violationKeys) in \(url)")]
        }
        var found: [Mismatch] = []
        func check(_ field: String, _ wanted: String?, _ got: String?) {
            if wanted != got { found.append(Mismatch(field, expected: .string(wanted), actual: .string(got))) }
        }
        check("scheme", want.scheme, link.scheme)
        check("action", want.action, link.action)
        check("source", want.source, link.source)
        check("success", want.success, link.success?.decoded)
        check("error", want.error, link.error?.decoded)
        check("cancel", want.cancel, link.cancel?.decoded)
        if link.parameters != want.parameters {
            found.append(Mismatch("parameters", expected: .array(want.parameters.map(itemJSON)), actual: .array(link.parameters.map(itemJSON))))
        }
        // The order: the x- parameters present, in the draft's order, before everything else.
        let items = link.url.queryItems
        let names = items.filter { !$0.range.isEmpty }.map { items.decodedName($0) }
        let xNames = XCallbackParameter.allCases.filter { want.value(of: $0) != nil }.map(\.rawValue)
        if Array(names.prefix(xNames.count)) != xNames {
            found.append(Mismatch("order", expected: "\(xNames) first", actual: "\(names)"))
        }
        // Form-style readers ('+' as a space) must read every value the same.
        for item in items where !item.range.isEmpty {
            if items.decodedValue(item, plusAsSpace: true) != items.decodedValue(item) || items.decodedName(item, plusAsSpace: true) != items.decodedName(item) {
                found.append(Mismatch("\(items.decodedName(item)) (form-style reader)", expected: .string(items.decodedValue(item)),
                                      actual: .string(items.decodedValue(item, plusAsSpace: true))))
            }
        }
        return found
    }

    // MARK: xcallback.callback

    static let callback = OperationDefinition(
        name: "xcallback.callback",
        summary: "the URL the target app opens when the action ends in success, error or cancel, or nothing",
        input: CallbackInput.self, output: CallbackOutput.self,
        expect: .object(["open": .nullable(.string)], required: ["open"]),
        compare: { expect, actual, input in
            guard let wanted = expect["open"]?.stringValue else {
                if let opened = actual.open { return [Mismatch("open", expected: "nothing opened", actual: JSONValue.string(opened).serialized())] }
                return []
            }
            guard let opened = actual.open else {
                return [Mismatch("open", expected: .string(wanted), actual: .null)]
            }
            return equivalenceProblems(expected: wanted, actual: opened, added: input.addedCount)
        },
        nullOutput: { _ in ["open": .null] },
        // Why the reference opens nothing names the cause of a finding:
        // `xcallback.callback open [] (failed validation: callback-duplicated)`.
        expectation: { output in ReferenceExpectation(expect: ["open": .string(output.open)], cause: callbackCause(output.reason)) }
    )

    /// Each violation code's level.
    static let codeLevels = Dictionary(XCallbackViolation.Code.requirementTable.map { ($0.code, $0.level) }, uniquingKeysWith: { a, _ in a })

    /// The reference's reason for opening nothing (``XCallback/response(to:outcome:policy:)``) in
    /// a few stable words: the strictest rule the callback broke, as a code (`failed validation:
    /// callback-duplicated`; the first by name of its level, as a signature's leading code, and
    /// the same whichever outcome's callback broke it), `no callback`, `scheme not allowed`
    /// (whatever the scheme), `not an x-callback-url`; any other reason as it is. Nil when
    /// something is opened. Every code broken, tried first, made 26 signatures of 20 s against
    /// python-urllib, 19 of them combinations of codes.
    static func callbackCause(_ reason: String?) -> String? {
        guard let reason else { return nil }
        if let open = reason.firstRange(of: " failed validation ("), reason.hasSuffix(")") {
            let keys = reason[open.upperBound..<reason.index(before: reason.endIndex)].split(separator: ",")
            let codes = keys.map { String(ReferenceExpectation.code(ofKey: String($0.drop { $0 == " " }))) }
            let leading = codes.min { (codeLevels[$0] ?? .info, $0) < (codeLevels[$1] ?? .info, $1) }
            return "failed validation: " + (leading ?? "")
        }
        if reason.hasPrefix("no "), reason.hasSuffix(": the user stays in the target app") { return "no callback" }
        if reason.contains(" uses the scheme "), reason.hasSuffix(", which the policy does not open") { return "scheme not allowed" }
        return reason
    }

    /// Whether `actual` is the URL `expected` describes: scheme (any case), authority, path and
    /// fragment as written, the same query parameters in order with names and values equal once
    /// decoded (empty pairs ignored), the last `added` also equal in a form-style reader, and
    /// valid RFC 3986 syntax throughout.
    static func equivalenceProblems(expected: String, actual: String, added: Int) -> [Mismatch] {
        let want = LinkURL(parsing: expected)
        let got = LinkURL(parsing: actual)
        var found: [Mismatch] = []
        if let problem = got.scan.firstSyntaxDiagnostic {
            found.append(Mismatch("open", expected: "valid RFC 3986 syntax", actual: "\(problem.message) in \(actual)"))
        }
        let sameStart = want.text(of: .scheme)?.lowercased() == got.text(of: .scheme)?.lowercased()
            && want.authority.map(want.text(in:)) == got.authority.map(got.text(in:)) && want.text(in: want.path) == got.text(in: got.path)
        if !sameStart || want.text(of: .fragment) != got.text(of: .fragment) {
            found.append(Mismatch("open", expected: expected, actual: actual))
            return found
        }
        func pairs(_ url: LinkURL, plusAsSpace: Bool) -> [[String?]] {
            let items = url.queryItems
            return items.filter { !$0.range.isEmpty }.map { [items.decodedName($0, plusAsSpace: plusAsSpace), items.decodedValue($0, plusAsSpace: plusAsSpace)] }
        }
        let wanted = pairs(want, plusAsSpace: false)
        let gotPairs = pairs(got, plusAsSpace: false)
        if wanted != gotPairs {
            found.append(Mismatch("open", expected: "parameters \(wanted.map { "\($0[0] ?? "")=\($0[1] ?? "(no value)")" })",
                                  actual: "\(gotPairs.map { "\($0[0] ?? "")=\($0[1] ?? "(no value)")" }) in \(actual)"))
        } else if added > 0 {
            let form = pairs(got, plusAsSpace: true)
            for (rfc, formStyle) in zip(gotPairs.suffix(added), form.suffix(added)) where rfc != formStyle {
                found.append(Mismatch("open", expected: "\(rfc[0] ?? "") encoded so that form-style readers read it the same",
                                      actual: "a form-style reader reads \(formStyle[1] ?? "(no value)") in \(actual)"))
            }
        }
        return found
    }

    // MARK: check

    static let wording = CheckVerdict.Wording(
        valid: "a valid x-callback-url", withWarnings: "a usable x-callback-url, with warnings",
        invalid: "an invalid x-callback-url: a target app must not open its broken callbacks",
        unrecognized: "not read: the URL is over the size limit, so whether it is an x-callback-url is not known")

    static let explain: @Sendable (CheckSubject) -> CheckExplanation? = { subject in
        guard let bytes = subject.link else { return nil }
        let link = XCallback.parse(bytes)
        guard link.kind != .notXCallback else { return nil }
        let read = !link.violations.contains { $0.code == .linkTooLong }
        var fields = [CheckExplanation.Field("action", raw: link.rawAction, decoded: link.action)]
        let fragment = FragmentReading(link.url, parameters: XCallbackParameter.names)
        fields.append(.init("x-source", raw: link.rawSource, decoded: link.source,
                            note: link.rawSource == nil ? fragment?.note(for: "x-source") : nil))
        for parameter in XCallbackParameter.callbacks {
            let callback = link.callback(parameter)
            fields.append(.init(parameter.rawValue, raw: callback?.raw, decoded: callback?.decoded,
                                note: callback == nil ? fragment?.note(for: parameter.rawValue) : nil))
        }
        // An item right after a callback written raw is most likely the rest of that callback.
        var strays: [Int: String] = [:]
        for parameter in XCallbackParameter.callbacks {
            guard let callback = link.callback(parameter),
                  link.violations.contains(where: { $0.code == .callbackRawDelimiter && $0.parameter == parameter.rawValue }),
                  let cut = CallbackInspection.cut(after: callback.range, in: link.url, known: XCallbackParameter.names,
                                                   landedIn: "a parameter of the action"), cut.stray != nil else { continue }
            strays[cut.at + 1] = parameter.rawValue
        }
        let items = link.url.queryItems
        for item in items where !item.range.isEmpty {
            let name = items.decodedName(item)
            guard XCallbackParameter(rawValue: name) == nil else { continue }
            fields.append(.init("parameter " + name, raw: items.rawValue(item) ?? "(no '=')",
                                decoded: item.value.map { String(decoding: PercentCodec.decode(link.url.bytes[$0]), as: UTF8.self) },
                                note: strays[item.range.lowerBound].map { "most likely the rest of \($0)'s own query: the raw '&' before it cut \($0) short" }))
        }
        return CheckExplanation(suite: "xcallback", recognized: read, wording: wording,
                                fields: fields, violations: link.violations.map { CheckExplanation.Violation($0) })
    }
}
