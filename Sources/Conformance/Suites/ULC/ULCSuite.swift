import LinkJSON
import LinkURL
import ULC
import XCallbackURL

/// The ULC suite: operations `ulc.parse`, `ulc.build`, `ulc.handle` (docs/corpus-format.md).
public enum ULCSuite {
    public static let definition = SuiteDefinition(
        name: "ulc",
        title: "Universal Link Callbacks (logout)",
        recognizes: "a link whose query has ulc-success",
        operations: [parse, build, handle],
        reference: handlers(for: ReferenceULC()),
        explain: explain,
        codeRequirements: ULCViolation.Code.requirementTable
    )

    /// JSON handlers for the three operations, backed by any ``ULCSubject``.
    public static func handlers(for subject: some ULCSubject) -> [String: SuiteDefinition.Handler] {
        [
            "ulc.parse": { input in
                parseOutput(subject.parse(link: try ParseInput.decode(input).link))
            },
            "ulc.build": { input in
                let request = try BuildInput.decode(input)
                switch subject.build(action: request.action, success: request.success, error: request.error) {
                case .link(let link): return ["link": .string(link)]
                case .refused(let keys): return ["refused": .array(keys.map(JSONValue.string))]
                }
            },
            "ulc.handle": { input in
                reportJSON(await subject.handle(try HandleInput.decode(input).scenario))
            },
        ]
    }

    // MARK: ulc.parse

    static let parse = OperationDefinition(
        name: "ulc.parse",
        summary: "read a link as a ULC: kind, action, callbacks decoded once, violations",
        input: ParseInput.self, output: ParseOutput.self,
        expect: .object([
            "kind": .oneOf(["ulc", "notULC", "invalid"]),
            "action": .nullable(.string),
            "success": .nullable(.string),
            "error": .nullable(.string),
            "violations": .array(.nonEmptyString),
        ], required: ["kind"]),
        compare: { expect, actual, _ in
            var found: [Mismatch] = []
            compareEqual("kind", expect, .string(actual.kind), &found)
            compareEqual("action", expect, actual.action.map(JSONValue.string), &found)
            compareEqual("success", expect, actual.success.map(JSONValue.string), &found)
            compareEqual("error", expect, actual.error.map(JSONValue.string), &found)
            compareKeySets("violations", expect, actual.violations, &found)
            return found
        },
        nullOutput: { _ in ["kind": "notULC"] },
        expectation: { output in
            var b = ExpectationBuilder()
            b.set("kind", .string(output.kind))
            b.optional("action", output.action)
            b.optional("success", output.success)
            b.optional("error", output.error)
            b.keys("violations", output.violations)
            return ReferenceExpectation(expect: b.value, codes: output.violations ?? [])
        }
    )

    static func parseOutput(_ answer: ULCParseAnswer) -> JSONValue {
        // Fresh objects with distinct keys: members are appended, not looked up first.
        var o = JSONObject(capacity: 6)
        o.append("kind", .string(answer.kind.rawValue))
        if let action = answer.action { o.append("action", .string(action)) }
        if let success = answer.success { o.append("success", .string(success)) }
        if let error = answer.error { o.append("error", .string(error)) }
        if answer.rawSuccess != nil || answer.rawError != nil {
            var raw = JSONObject(capacity: 2)
            if let s = answer.rawSuccess { raw.append("success", .string(s)) }
            if let e = answer.rawError { raw.append("error", .string(e)) }
            o.append("raw", .object(raw))
        }
        if let violations = answer.violations {
            o.append("violations", .array(violations.map {
                violationJSON(key: $0.key, requirement: $0.requirement, level: $0.level.rawValue, offset: $0.offset, message: $0.message)
            }))
        }
        return .object(o)
    }

    // MARK: ulc.build

    static let build = OperationDefinition(
        name: "ulc.build",
        summary: "build the link an initiating system sends, or refuse the input",
        input: BuildInput.self, output: BuildOutput<BuiltLink>.self,
        expect: buildExpectShape,
        compare: { expect, actual, input in
            actual.compare(expect) { roundTripProblems(link: $0, input: input) }
        },
        nullOutput: { _ in ["refused": []] },
        expectation: \.expectation
    )

    /// Whether a built link reads back as the input in the three reader families.
    static func roundTripProblems(link: String, input: BuildInput) -> [Mismatch] {
        var found: [Mismatch] = []
        let parsed = ULC.parse(link)
        let want = (input.action, input.success, input.error)
        if parsed.kind != .ulc || !parsed.violations.isEmpty {
            found.append(Mismatch("link", expected: "a ULC with no violation",
                                  actual: "\(parsed.kind.rawValue) \(parsed.violationKeys) in \(link)"))
            return found
        }
        if parsed.action != want.0 { found.append(Mismatch("action", expected: .string(want.0), actual: .string(parsed.action))) }
        if parsed.success?.decoded != want.1 { found.append(Mismatch("success (RFC 3986 reader)", expected: .string(want.1), actual: .string(parsed.success?.decoded))) }
        if parsed.error?.decoded != want.2 { found.append(Mismatch("error (RFC 3986 reader)", expected: .string(want.2), actual: .string(parsed.error?.decoded))) }
        // Form-style readers (URLSearchParams, parse_qsl): '+' is a space.
        let items = parsed.url.queryItems
        for (name, wanted) in [("ulc-success", want.1), ("ulc-error", want.2)] {
            let item = name == "ulc-success" ? items.first(named: "ulc-success") : items.first(named: "ulc-error")
            let formValue = item.flatMap { items.decodedValue($0, plusAsSpace: true) }
            if formValue != wanted {
                found.append(Mismatch("\(name) (form-style reader)", expected: .string(wanted), actual: .string(formValue)))
            }
        }
        return found
    }

    // MARK: ulc.handle

    static let handle = OperationDefinition(
        name: "ulc.handle",
        summary: "run the receiver through a scenario in virtual time and report what it did",
        input: HandleInput.self, output: HandleOutput.self,
        expect: .object([
            "opened": .array(.string),
            "universalLinksOnly": .bool,
            "prompts": .numberIn(0...1_000),
            "userSignedIn": .bool,
            "backendSessionOpen": .bool,
            "maxElapsedSeconds": .numberIn(0...86_400),
            "minBackendAttempts": .numberIn(0...1_000),
            "maxBackendAttempts": .numberIn(0...1_000),
        ]),
        compare: compareHandle,
        nullOutput: { input in
            let scenario = input.scenario
            return [
                "opened": [], "prompts": 0, "backendAttempts": 0,
                "userSignedIn": .bool(scenario.signedIn), "backendSessionOpen": .bool(scenario.signedIn),
                "elapsedSeconds": .array(Array(repeating: 0, count: scenario.links.count)),
            ]
        },
        expectation: handleExpectation
    )

    /// What the reference receiver did: the same URLs opened, the same prompts and end state,
    /// the same number of back-end attempts, and each link handled within the reference's time.
    static func handleExpectation(_ output: HandleOutput) -> ReferenceExpectation {
        var b = ExpectationBuilder()
        if let opened = output.opened {
            b.set("opened", .array(opened.map { .string($0.url) }))
            if !opened.isEmpty, opened.allSatisfy({ $0.universalLinksOnly == true }) { b.set("universalLinksOnly", true) }
        }
        if let prompts = output.prompts { b.set("prompts", .int(prompts)) }
        if let signedIn = output.userSignedIn { b.set("userSignedIn", .bool(signedIn)) }
        if let open = output.backendSessionOpen { b.set("backendSessionOpen", .bool(open)) }
        if let worst = output.elapsedSeconds?.max() { b.set("maxElapsedSeconds", .number(worst)) }
        if let attempts = output.backendAttempts {
            b.set("minBackendAttempts", .int(attempts))
            b.set("maxBackendAttempts", .int(attempts))
        }
        // Why the reference receiver left links alone names the cause of a finding:
        // `ulc.handle userSignedIn [] (other-scheme)`. Only those reasons, each once: the field
        // that differs already tells the logouts apart, and each link's reason in order made 392
        // signatures in 45 seconds against ada-url for a handful of causes.
        let leftAlone = ULCScenarioReport.leftAlone(output.reasons ?? [])
        return ReferenceExpectation(expect: b.value, cause: leftAlone.isEmpty ? nil : leftAlone.joined(separator: ", "))
    }

    static func compareHandle(_ expect: JSONValue, _ actual: HandleOutput, _ input: HandleInput) -> [Mismatch] {
        var found: [Mismatch] = []
        if let wanted = expect["opened"] {
            let urls = actual.opened.map { opened in JSONValue.array(opened.map { .string($0.url) }) }
            if urls != wanted { found.append(Mismatch("opened", expected: wanted, actual: urls)) }
        }
        if expect["universalLinksOnly"]?.boolValue == true {
            if let opened = actual.opened, !opened.isEmpty {
                for entry in opened where entry.universalLinksOnly != true {
                    found.append(Mismatch("universalLinksOnly", expected: "true for every open",
                                          actual: "\(entry.universalLinksOnly == nil ? "not reported" : "false") for \(entry.url)"))
                }
            } else {
                found.append(Mismatch("universalLinksOnly", expected: "at least one URL opened with universalLinksOnly",
                                      actual: actual.opened == nil ? "opened not reported" : "nothing opened"))
            }
        }
        compareEqual("prompts", expect, actual.prompts.map(JSONValue.int), &found)
        compareEqual("userSignedIn", expect, actual.userSignedIn.map(JSONValue.bool), &found)
        compareEqual("backendSessionOpen", expect, actual.backendSessionOpen.map(JSONValue.bool), &found)
        if let limit = expect["maxElapsedSeconds"]?.doubleValue {
            if let times = actual.elapsedSeconds, let worst = times.max() {
                if worst > limit {
                    found.append(Mismatch("maxElapsedSeconds", expected: "at most \(limit.formattedCompactly) s per link", actual: "\(worst.formattedCompactly) s"))
                }
            } else {
                found.append(Mismatch("maxElapsedSeconds", expected: "elapsedSeconds reported", actual: actual.elapsedSeconds == nil ? "absent" : "an empty list"))
            }
        }
        let attempts = actual.backendAttempts
        if let low = expect["minBackendAttempts"]?.intValue {
            if let attempts {
                if attempts < low { found.append(Mismatch("minBackendAttempts", expected: "at least \(low) attempts", actual: String(attempts))) }
            } else {
                found.append(Mismatch("minBackendAttempts", expected: "at least \(low) attempts", actual: "absent"))
            }
        }
        if let high = expect["maxBackendAttempts"]?.intValue {
            if let attempts {
                if attempts > high { found.append(Mismatch("maxBackendAttempts", expected: "at most \(high) attempts", actual: String(attempts))) }
            } else {
                found.append(Mismatch("maxBackendAttempts", expected: "at most \(high) attempts", actual: "absent"))
            }
        }
        return found
    }

    static func reportJSON(_ report: ULCScenarioReport) -> JSONValue {
        [
            "opened": .array(report.opened.map { ["url": .string($0.url), "universalLinksOnly": .bool($0.universalLinksOnly), "atSeconds": .number($0.atSeconds)] }),
            "prompts": .int(report.prompts),
            "backendAttempts": .int(report.backendAttempts),
            "userSignedIn": .bool(report.userSignedIn),
            "backendSessionOpen": .bool(report.backendSessionOpen),
            "elapsedSeconds": .array(report.elapsedSeconds.map(JSONValue.number)),
            "reasons": .array(report.reasons.map(JSONValue.string)),
        ]
    }

    // MARK: check

    static let wording = CheckVerdict.Wording(
        valid: "a valid ULC", withWarnings: "a usable ULC, with warnings",
        invalid: "an invalid ULC: a receiver must not open its callbacks as they stand",
        unrecognized: "not read: the link is over the size limit, so whether it is a ULC is not known")

    static let explain: @Sendable (CheckSubject) -> CheckExplanation? = { subject in
        guard let bytes = subject.link else { return nil }
        let link = ULC.parse(bytes)
        guard link.kind != .notULC else { return nil }
        let read = !link.violations.contains { $0.code == .linkTooLong }
        // Items right after a callback written raw are most likely the rest of that callback.
        var strays: [String] = []
        for parameter in ULCParameter.allCases {
            guard let callback = link.callback(parameter),
                  link.violations.contains(where: { $0.code == .callbackRawDelimiter && $0.parameter == parameter }),
                  let stray = CallbackInspection.cut(after: callback.range, in: link.url, known: ULCParameter.names,
                                                     landedIn: "part of the logout action")?.stray else { continue }
            strays.append("'\(CallbackInspection.shortened(stray))' is most likely the rest of \(parameter.rawValue)'s own query, cut off by a raw '&'")
        }
        var fields = [CheckExplanation.Field("action", raw: link.action, decoded: link.action.map(decodedOnce),
                                             note: strays.isEmpty ? nil : strays.joined(separator: "; "))]
        let fragment = FragmentReading(link.url, parameters: ULCParameter.names)
        for parameter in ULCParameter.allCases {
            let callback = link.callback(parameter)
            fields.append(.init(parameter.rawValue, raw: callback?.raw, decoded: callback?.decoded,
                                note: callback == nil ? fragment?.note(for: parameter.rawValue) : nil))
        }
        return CheckExplanation(suite: "ulc", recognized: read, wording: wording,
                                fields: fields, violations: link.violations.map { CheckExplanation.Violation($0) })
    }
}
