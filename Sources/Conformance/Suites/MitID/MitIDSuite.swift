import LinkJSON
import LinkURL
import MitIDAppSwitch

/// The mitid suite: operations `mitid.authorize` (the app-switch parameters of an OIDC
/// authorize URL) and `mitid.return` (whether the MitID app's return reaches the app), from
/// the Signaturgruppen broker guide to MitID app integration (docs/mitid.md). `check` explains
/// any link with an `idp_params` query parameter.
public enum MitIDSuite {
    public static let definition = SuiteDefinition(
        name: "mitid",
        title: "MitID app switch: idp_params of an OIDC authorize URL and the return leg to the app",
        recognizes: "an OIDC authorize URL with an idp_params query parameter",
        operations: [authorize, returnLeg],
        reference: handlers(for: ReferenceMitID()),
        explain: explain,
        codeRequirements: MitIDViolationCode.requirementTable
    )

    public static func handlers(for subject: some MitIDSubject) -> [String: SuiteDefinition.Handler] {
        [
            "mitid.authorize": { input in
                let request = try AuthorizeInput.decode(input)
                return authorizeOutput(subject.authorize(url: Array(request.url.utf8)))
            },
            "mitid.return": { input in
                let request = try ReturnLegInput.decode(input)
                let leg = subject.returnLeg(authorize: Array(request.authorize.utf8), aasa: request.aasa.map { Array($0.utf8) },
                                            assetLinks: request.assetlinks.map { Array($0.utf8) }, app: request.app)
                var o = JSONObject(capacity: 3)
                o.append("verdict", .string(leg.verdict.rawValue))
                if let platform = leg.platform { o.append("platform", .string(platform)) }
                o.append("reason", .string(leg.reason))
                return .object(o)
            },
        ]
    }

    // MARK: mitid.authorize

    static let authorize = OperationDefinition(
        name: "mitid.authorize",
        summary: "the app-switch parameters of an authorize URL's idp_params: enabled or not, platform, return URL, every rule broken",
        input: AuthorizeInput.self, output: AuthorizeOutput.self,
        expect: .object([
            "kind": .oneOf(MitIDAuthorize.Kind.allCases.map(\.rawValue)),
            "os": .nullable(.oneOf(["ios", "android"])),
            "returnURL": .nullable(.string),
            "violations": .array(.nonEmptyString),
        ], required: ["kind"]),
        compare: { expect, actual, _ in
            var found: [Mismatch] = []
            compareEqual("kind", expect, .string(actual.kind.rawValue), &found)
            compareEqual("os", expect, actual.os.map(JSONValue.string), &found)
            compareEqual("returnURL", expect, actual.returnURL.map(JSONValue.string), &found)
            compareKeySets("violations", expect, actual.violations, &found)
            return found
        },
        nullOutput: { _ in ["kind": "noAppSwitch"] },
        expectation: { output in
            var b = ExpectationBuilder()
            b.set("kind", .string(output.kind.rawValue))
            b.optional("os", output.os)
            b.optional("returnURL", output.returnURL)
            b.keys("violations", output.violations)
            return ReferenceExpectation(expect: b.value, codes: output.violations ?? [])
        }
    )

    static func authorizeOutput(_ a: MitIDAuthorize) -> JSONValue {
        var o = JSONObject(capacity: 7)
        o.append("kind", .string(a.kind.rawValue))
        if let enable = a.enableAppSwitch { o.append("enableAppSwitch", .bool(enable)) }
        if let os = a.os { o.append("os", .string(os)) }
        if let url = a.returnURL { o.append("returnURL", .string(url)) }
        if let decoded = a.idpParamsDecoded { o.append("idpParams", .string(decoded)) }
        o.append("violations", .array(a.violations.map {
            violationJSON(key: $0.key, requirement: $0.requirement, level: $0.level.rawValue, offset: $0.offset, message: $0.message)
        }))
        return .object(o)
    }

    // MARK: mitid.return

    static let returnLeg = OperationDefinition(
        name: "mitid.return",
        summary: "whether the MitID app's return to app_switch_url opens the app, given the host's association files and the app's identity",
        input: ReturnLegInput.self, output: ReturnLegOutput.self,
        expect: .object(["verdict": .oneOf(MitIDReturnLeg.Verdict.allCases.map(\.rawValue))], required: ["verdict"]),
        compare: { expect, actual, _ in
            var found: [Mismatch] = []
            compareEqual("verdict", expect, .string(actual.verdict.rawValue), &found)
            return found
        },
        nullOutput: { _ in ["verdict": "no_return"] },
        expectation: { output in ReferenceExpectation(expect: ["verdict": .string(output.verdict.rawValue)]) }
    )

    // MARK: check

    static let wording = CheckVerdict.Wording(
        valid: "a valid authorize URL for MitID app switch",
        withWarnings: "a usable authorize URL for MitID app switch, with warnings",
        invalid: "an authorize URL whose idp_params the broker would refuse or misread",
        unrecognized: "not an authorize URL with idp_params")

    static let explain: @Sendable (CheckSubject) -> CheckExplanation? = { subject in
        guard let bytes = subject.link else { return nil }
        let a = MitIDAuthorize(parsing: bytes)
        let tooLong = a.violations.contains { $0.code == .linkTooLong }
        guard a.idpParamsRaw != nil || a.violations.contains(where: { $0.code == .idpParamsDuplicated || $0.code == .idpParamsEmpty }) || tooLong else { return nil }
        var fields = [CheckExplanation.Field("idp_params", raw: a.idpParamsRaw, decoded: a.idpParamsDecoded)]
        fields.append(.init("app switch", value: a.kind == .appSwitch ? "enabled" : (a.kind == .invalid ? "refused (see the violations)" : "not enabled")))
        fields.append(.init("enable_app_switch", value: a.enableAppSwitch.map { String($0) } ?? "(absent: false)"))
        fields.append(.init("app_switch_os", value: a.os ?? "(absent or invalid)"))
        fields.append(.init("app_switch_url", value: a.returnURL ?? "(absent)",
                            note: a.returnURL.flatMap { text in
                                let url = LinkURL(parsing: text)
                                guard url.isHTTPS, let host = url.normalizedHost, !host.isEmpty else { return nil }
                                return "the return leg opens the app only if \(host) serves an association file for it (linkconform check --aasa or --assetlinks)"
                            }))
        return CheckExplanation(suite: "mitid", recognized: !tooLong, wording: wording, fields: fields, violations: a.violations.map { CheckExplanation.Violation($0) })
    }
}
