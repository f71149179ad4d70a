import AASA
import LinkJSON

/// The aasa suite: operations `aasa.validate`, `aasa.match` and `aasa.entitlement` over Apple
/// App Site Association files (docs/aasa.md, docs/corpus-format.md). `check` reads a file as a
/// document with the parameters `domain` and `app-id` and the URLs to match.
public enum AASASuite {
    public static let definition = SuiteDefinition(
        name: "aasa",
        title: "Apple App Site Association files: validated and matched as iOS does",
        recognizes: "an apple-app-site-association file (a document)",
        operations: [validate, match, entitlement],
        reference: handlers(for: ReferenceAASA()),
        explain: explain,
        codeRequirements: AASADiagnosticCode.requirementTable,
        documentParameters: [
            DocumentParameter(name: "domain", help: "aasa: the host the file is served for (example.com); needed to match URLs"),
            DocumentParameter(name: "app-id", help: "aasa: the app ID whose rules URLs are matched against (ABCDE12345.com.example.app)"),
        ]
    )

    public static func handlers(for subject: some AASASubject) -> [String: SuiteDefinition.Handler] {
        [
            "aasa.validate": { input in
                let request = try DocumentValidation.Input.decode(input)
                return DocumentValidation.output(subject.validate(file: Array(request.file.utf8)))
            },
            "aasa.match": { input in
                let request = try MatchInput.decode(input)
                let file = Array(request.file.utf8)
                let result = subject.match(file: file, domain: request.domain, appID: request.appID, url: request.url)
                return matchOutput(result, reason: subject.matchReason(result, file: file, domain: request.domain, appID: request.appID, url: request.url))
            },
            "aasa.entitlement": { input in
                let request = try EntitlementInput.decode(input)
                return ["entry": subject.entitlement(entries: request.entitlements, host: request.host).map(JSONValue.string) ?? .null]
            },
        ]
    }

    // MARK: aasa.validate

    static let validate = DocumentValidation.operation(
        name: "aasa.validate",
        summary: "every problem of a file: structure, app IDs, patterns, variables, rules that can never decide")

    // MARK: aasa.match

    static let match = OperationDefinition(
        name: "aasa.match",
        summary: "what a URL does for an app under a file served for a domain: match, exclude or no_match",
        input: MatchInput.self, output: MatchOutput.self,
        expect: .object(["result": .oneOf(AASAMatchKind.allCases.map(\.rawValue))], required: ["result"]),
        compare: { expect, actual, _ in
            var found: [Mismatch] = []
            compareEqual("result", expect, .string(actual.result.rawValue), &found)
            return found
        },
        nullOutput: { _ in ["result": "no_match"] },
        // The reason names the cause of a finding: `aasa.match result [] (no_match: url-port)`.
        expectation: { output in
            ReferenceExpectation(expect: ["result": .string(output.result.rawValue)], cause: output.reason.map { output.result.rawValue + ": " + $0 })
        }
    )

    static func matchOutput(_ r: AASAMatchResult, reason: String? = nil) -> JSONValue {
        var o = JSONObject(capacity: 5)
        o.append("result", .string(r.kind.rawValue))
        switch r.detail {
        case .index(let i): o.append("detail", .int(i))
        case .appID(let id): o.append("detail", .string(id))
        case nil: break
        }
        if let component = r.component { o.append("component", .int(component)) }
        if let pattern = r.pattern { o.append("pattern", .string(pattern)) }
        if let reason { o.append("reason", .string(reason)) }
        return .object(o)
    }

    // MARK: aasa.entitlement

    static let entitlement = OperationDefinition(
        name: "aasa.entitlement",
        summary: "which applinks: entry of an app's associated-domains entitlement applies to a host",
        input: EntitlementInput.self, output: EntitlementOutput.self,
        expect: .object(["entry": .nullable(.string)], required: ["entry"]),
        compare: { expect, actual, _ in
            var found: [Mismatch] = []
            compareEqual("entry", expect, actual.entry.map(JSONValue.string), &found)
            return found
        },
        nullOutput: { _ in ["entry": .null] },
        expectation: { output in ReferenceExpectation(expect: ["entry": .string(output.entry)]) }
    )

    // MARK: check

    static let wording = CheckVerdict.Wording(
        valid: "a valid apple-app-site-association file",
        withWarnings: "a usable apple-app-site-association file, with warnings",
        invalid: "an apple-app-site-association file iOS would refuse or read otherwise than written",
        unrecognized: "not an apple-app-site-association file")

    /// The services a file may carry: a JSON object with one of them is taken for an AASA file.
    static let services = ["applinks", "webcredentials", "appclips", "activitycontinuation"]

    static let explain: @Sendable (CheckSubject) -> CheckExplanation? = { subject in
        guard let document = subject.document else { return nil }
        let domain = document.parameters["domain"], appID = document.parameters["app-id"]
        // A document is this suite's when it was named as one (`check --aasa`, a live check),
        // when it was asked about as one (an app ID given: `domain` is asked of assetlinks files
        // too, so it does not tell), when it looks like an AASA file, or when it is not JSON at
        // all (the commonest broken AASA file); a JSON document without any AASA service is left
        // to other suites. One over the size this module reads is not parsed to find out (it is
        // this suite's, and too large).
        if !(document.claimed || appID != nil || document.bytes.count > aasaHardSizeLimit),
           let json = try? JSONParser.parse(document.bytes),
           !(json.objectValue.map({ object in services.contains { object[$0] != nil } }) ?? false) {
            return nil
        }

        let diagnostics = AASA.validate(document.bytes)
        let file = AASAFile.parse(document.bytes).0
        var fields = [CheckExplanation.Field("file", value: summary(of: file, bytes: document.bytes.count))]
        if !document.urls.isEmpty {
            if let domain, let appID {
                if AASA.isRefusedForSize(document.bytes) {
                    for url in document.urls {
                        fields.append(.init(url, value: "no_match", note: "the system refuses a file over 128 KB (\(aasaPlatformSizeLimit) bytes), whatever its rules say"))
                    }
                } else if let file {
                    let matcher = file.matcher(appID: appID)
                    for url in document.urls {
                        let e = matcher.explain(url: url, domain: domain)
                        fields.append(.init(url, value: outcome(e.result), note: reasons(e)))
                    }
                } else {
                    for url in document.urls { fields.append(.init(url, value: "no_match", note: "the file cannot be read (see its diagnostics)")) }
                }
            } else {
                fields.append(.init("urls", value: "not matched", note: "matching a URL needs the domain and the app ID (--domain and --app-id)"))
            }
        }
        let violations = DocumentValidation.violations(diagnostics)
        return CheckExplanation(suite: "aasa", recognized: true, wording: wording, fields: fields, violations: violations)
    }

    static func summary(of file: AASAFile?, bytes: Int) -> String {
        guard let applinks = file?.applinks else { return "\(bytes) bytes" }
        let apps = Set(applinks.details.flatMap(\.appIDs))
        return "\(bytes) bytes; applinks: \(applinks.details.count) entr\(applinks.details.count == 1 ? "y" : "ies")"
            + (applinks.isDictionaryForm ? " (the oldest, dictionary form)" : "") + " for \(apps.count) app ID\(apps.count == 1 ? "" : "s")"
    }

    static func outcome(_ r: AASAMatchResult) -> String {
        guard let rule = r.rule else { return r.kind.rawValue }
        return "\(r.kind.rawValue) by \(rule.place)"
    }

    /// Why: the URL problem, or each rule tried, in order (the first ten).
    static func reasons(_ e: AASAExplanation) -> String {
        if let problem = e.urlProblem { return "not a universal link for this file: \(problem.rawValue)" }
        if e.trials.isEmpty { return "no rule of this app in the file" }
        let shown = e.trials.prefix(10).map(\.description)
        return shown.joined(separator: "; ") + (e.trials.count > 10 ? "; ... \(e.trials.count - 10) more" : "")
    }
}
