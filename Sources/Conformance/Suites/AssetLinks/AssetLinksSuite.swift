import AssetLinks
import LinkJSON
import LinkRules
import LinkURL

/// The assetlinks suite: operations `assetlinks.validate`, `assetlinks.verify` and
/// `assetlinks.match` over Android Digital Asset Links statement lists (docs/assetlinks.md).
/// `check` reads a list as a document with the parameters `package`, `fingerprint`, `relation`
/// and `domain`, and the URLs to match.
public enum AssetLinksSuite {
    public static let definition = SuiteDefinition(
        name: "assetlinks",
        title: "Android Digital Asset Links statement lists: validated, verified and matched as Android does",
        recognizes: "an assetlinks.json statement list (a document)",
        operations: [validate, verify, match],
        reference: handlers(for: ReferenceAssetLinks()),
        explain: explain,
        codeRequirements: AssetLinksDiagnosticCode.requirementTable,
        documentParameters: [
            DocumentParameter(name: "package", help: "assetlinks: the Android package name to verify (com.example.app)"),
            DocumentParameter(name: "fingerprint", help: "assetlinks: the SHA-256 fingerprint of the app's signing certificate (AA:BB:..., colons optional)"),
            DocumentParameter(name: "relation", help: "assetlinks: the relation to verify (default delegate_permission/common.handle_all_urls)"),
            DocumentParameter(name: "domain", help: "assetlinks: the host the list is served for (default: each URL's own host)"),
        ]
    )

    public static func handlers(for subject: some AssetLinksSubject) -> [String: SuiteDefinition.Handler] {
        [
            "assetlinks.validate": { input in
                let request = try DocumentValidation.Input.decode(input)
                return DocumentValidation.output(subject.validate(file: Array(request.file.utf8)))
            },
            "assetlinks.verify": { input in
                let request = try VerifyInput.decode(input)
                return verifyOutput(subject.verify(file: Array(request.file.utf8), includes: request.includes.mapValues { Array($0.utf8) },
                                                   packageName: request.package, fingerprint: request.fingerprint, relation: request.relation))
            },
            "assetlinks.match": { input in
                let request = try MatchInput.decode(input)
                return matchOutput(subject.match(file: Array(request.file.utf8), includes: request.includes.mapValues { Array($0.utf8) },
                                                 domain: request.domain, packageName: request.package, fingerprint: request.fingerprint,
                                                 url: request.url))
            },
        ]
    }

    static let validate = DocumentValidation.operation(
        name: "assetlinks.validate",
        summary: "every problem of a statement list: JSON, relations, targets, fingerprints, includes, dynamic components")

    // MARK: assetlinks.verify

    static let verify = OperationDefinition(
        name: "assetlinks.verify",
        summary: "whether a tree of statement lists grants a relation to an app (package and signing fingerprint)",
        input: VerifyInput.self, output: VerifyOutput.self,
        expect: .object(["granted": .bool], required: ["granted"]),
        compare: { expect, actual, _ in
            var found: [Mismatch] = []
            compareEqual("granted", expect, .bool(actual.granted), &found)
            return found
        },
        nullOutput: { _ in ["granted": false] },
        // The cause names a finding: `assetlinks.verify granted [] (package-not-listed)`.
        expectation: { output in ReferenceExpectation(expect: ["granted": .bool(output.granted)], cause: output.cause) }
    )

    /// How many include events an answer lists (``verifyOutput(_:)``).
    static let maxIncludeEventsListed = 32

    static func verifyOutput(_ v: AssetLinksVerification) -> JSONValue {
        var o = JSONObject(capacity: 5)
        o.append("granted", .bool(v.granted))
        if let statement = v.statement { o.append("statement", .int(statement.index)) }
        if let source = v.source { o.append("source", .string(source)) }
        if let reason = v.reason { o.append("reason", .string(reason)) }
        if let cause = v.cause { o.append("cause", .string(cause)) }
        if !v.includeEvents.isEmpty {
            // The first ones only: a tree can name as many includes past its budget as its lists
            // hold statements (reported, not judged; the answer must fit the protocol's line).
            let listed = v.includeEvents.prefix(maxIncludeEventsListed)
            o.append("includes", .array(listed.map { ["url": .string($0.url), "outcome": .string($0.kind.rawValue)] }))
            if v.includeEvents.count > listed.count { o.append("includesNotListed", .int(v.includeEvents.count - listed.count)) }
        }
        return .object(o)
    }

    // MARK: assetlinks.match

    static let match = OperationDefinition(
        name: "assetlinks.match",
        summary: "what a URL gets under an app's Android 15 dynamic app-link components: match, exclude, no_match, no_dynamic_rules or not_verified",
        input: MatchInput.self, output: MatchOutput.self,
        expect: .object(["result": .oneOf(AssetLinksMatchKind.allCases.map(\.rawValue))], required: ["result"]),
        compare: { expect, actual, _ in
            var found: [Mismatch] = []
            compareEqual("result", expect, .string(actual.result.rawValue), &found)
            return found
        },
        nullOutput: { _ in ["result": "not_verified"] },
        // The cause names a finding: `assetlinks.match result [] (no_match: url-port)`.
        expectation: { output in
            ReferenceExpectation(expect: ["result": .string(output.result.rawValue)], cause: output.cause.map { output.result.rawValue + ": " + $0 })
        }
    )

    static func matchOutput(_ r: AssetLinksMatchResult) -> JSONValue {
        var o = JSONObject(capacity: 5)
        o.append("result", .string(r.kind.rawValue))
        if let statement = r.statement { o.append("statement", .int(statement)) }
        if let component = r.component { o.append("component", .int(component)) }
        if let pattern = r.pattern { o.append("pattern", .string(pattern)) }
        o.append("reason", .string(r.reason))
        o.append("cause", .string(r.cause))
        return .object(o)
    }

    // MARK: check

    static let wording = CheckVerdict.Wording(
        valid: "a valid assetlinks.json statement list",
        withWarnings: "a usable assetlinks.json statement list, with warnings",
        invalid: "an assetlinks.json statement list Android would refuse in part or in whole, or one that does not verify the app",
        unrecognized: "not an assetlinks.json statement list")

    static let explain: @Sendable (CheckSubject) -> CheckExplanation? = { subject in
        guard let document = subject.document else { return nil }
        let parameters = document.parameters
        let packageName = parameters["package"], fingerprint = parameters["fingerprint"]
        // A document is this suite's when it was named as one (`check --assetlinks`, a live
        // check), when it was asked about as one (a package or fingerprint given), when it is a
        // JSON array, or when it is not JSON and its file is named like one. One over the size
        // this module reads is not parsed to find out: it is this suite's if named like one.
        if !(document.claimed || packageName != nil || fingerprint != nil) {
            let json = document.bytes.count > AssetLinks.maxFileBytes ? nil : try? JSONParser.parse(document.bytes)
            guard json?.arrayValue != nil || (json == nil && document.path.lowercased().contains("assetlinks")) else { return nil }
        }
        return explanation(of: document)
    }

    /// What `check` says of `document` read as a statement list (whatever it holds): every
    /// diagnostic, and with `package` and `fingerprint`, the verification and each URL's match.
    /// A live check's Android side reads the served list through this.
    public static func explanation(of document: CheckDocument) -> CheckExplanation {
        let parameters = document.parameters
        let packageName = parameters["package"], fingerprint = parameters["fingerprint"]
        let (list, diagnostics) = AssetLinks.parse(document.bytes)
        var violations = DocumentValidation.violations(diagnostics)
        var fields = [CheckExplanation.Field("file", value: summary(of: list, bytes: document.bytes.count))]
        let relation = parameters["relation"] ?? AssetLinksRelation.handleAllURLs
        if let packageName, let fingerprint {
            let verification = AssetLinks.verify(document.bytes, packageName: packageName, fingerprint: fingerprint, relation: relation)
            let canonical = AssetLinksFingerprint.canonical(fingerprint) ?? fingerprint
            fields.append(.init("app", value: "\(packageName) signed with \(canonical)"))
            let followed = verification.granted ? 0 : list.map(Self.includesFollowed) ?? 0
            if verification.granted {
                fields.append(.init("verified", value: "yes: statement \(verification.statement?.index ?? 0) grants \(relation)"))
            } else if followed > 0 {
                // Includes are not fetched here, and one of them may grant it (AL-20): not a
                // failure of the list.
                let includes = "\(followed) include\(followed == 1 ? "" : "s")"
                fields.append(.init("verified", value: "undetermined", note: "not by this file; it names \(includes) check does not fetch"))
                violations.append(CheckExplanation.Violation(
                    requirement: "AL-20", level: .info, code: "includes-not-fetched",
                    message: "no statement of this file grants \(relation) to \(packageName) signed with \(canonical) (\(verification.reason ?? "not granted")); "
                        + "it names \(includes) Android would follow, which check does not fetch, and one of them may", offset: nil))
            } else {
                let reason = verification.reason ?? "not granted"
                fields.append(.init("verified", value: "no", note: reason))
                violations.append(CheckExplanation.Violation(requirement: "AL-18", level: .must, code: "app-not-verified",
                                                             message: "the list does not grant \(relation) to \(packageName) signed with \(canonical): \(reason)",
                                                             offset: nil))
            }
            let statements = list?.statements ?? []
            let matcher = AssetLinksMatcher(statements: statements, packageName: packageName, fingerprint: canonical)
            if relation != AssetLinksRelation.handleAllURLs, !document.urls.isEmpty {
                // URLs open the app as App Links, which only handle_all_urls verifies: "verified"
                // above answers another question.
                fields.append(.init("urls", value: "matched for \(AssetLinksRelation.handleAllURLs)",
                                    note: "App Links are verified by that relation alone, not by \(relation)"))
            }
            for url in document.urls {
                let domain = parameters["domain"] ?? LinkURL(parsing: url).normalizedHost ?? ""
                let r = matcher.match(url: url, domain: domain)
                fields.append(.init(url, value: r.kind.rawValue, note: r.reason + (followed > 0 ? " (by this file alone: its includes are not fetched)" : "")))
            }
        } else if packageName != nil || fingerprint != nil || !document.urls.isEmpty {
            fields.append(.init("app", value: "not verified", note: "verifying and matching need both the package and the fingerprint (--package and --fingerprint)"))
        }
        return CheckExplanation(suite: "assetlinks", recognized: true, wording: wording, fields: fields, violations: violations)
    }

    /// How many of the file's own include statements Android would fetch (https ones, up to the
    /// tree's budget): those whose statements `check` cannot see.
    static func includesFollowed(_ list: AssetLinksList) -> Int {
        min(list.includes.filter { !$0.isInsecure }.count, AssetLinks.maxIncludes)
    }

    static func summary(of list: AssetLinksList?, bytes: Int) -> String {
        guard let list else { return "\(bytes) bytes; not readable as a statement list" }
        let packages = Set(list.statements.compactMap { s -> String? in
            if case .androidApp(let name, _) = s.target { return name }
            return nil
        })
        return "\(bytes) bytes; \(list.statements.count) valid statement\(list.statements.count == 1 ? "" : "s") for \(packages.count) app\(packages.count == 1 ? "" : "s")"
            + (list.includes.isEmpty ? "" : "; \(list.includes.count) include\(list.includes.count == 1 ? "" : "s") (not fetched by check)")
    }
}
