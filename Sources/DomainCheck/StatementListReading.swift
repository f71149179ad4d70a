import Conformance
import LinkJSON

/// How Android's side of a live check reads the body of `/.well-known/assetlinks.json` once it is
/// served correctly: the single place where the `assetlinks` suite plugs in.
///
/// ```swift
/// let e = StatementListReading.current.explain(Array("[]".utf8), question: question)
/// e.verdict.valid   // true: an (empty) JSON array
/// ```
public protocol StatementListReader: Sendable {
    /// The explanation of `bytes` (the statement list as served), asked about `question`.
    func explain(_ bytes: [UInt8], question: LiveQuestion) -> CheckExplanation
}

public enum StatementListReading {
    /// The reader live checks use: the `assetlinks` suite's explainer.
    public static let current: any StatementListReader = AssetLinksSuiteReader()
}

/// Reads the list with the `assetlinks` suite, as `check --assetlinks FILE` does: every
/// diagnostic with its line and column, whether `--package` signed with `--fingerprint` is
/// verified for the default relation, and with the app, what each URL gets from the dynamic
/// components. `include` statements are not fetched in a live check (the suite says which were
/// skipped).
public struct AssetLinksSuiteReader: StatementListReader {
    public init() {}

    public func explain(_ bytes: [UInt8], question: LiveQuestion) -> CheckExplanation {
        var parameters = ["domain": question.domain]
        parameters["package"] = question.package
        parameters["fingerprint"] = question.fingerprint
        // URLs are matched for an app only; without one, the list alone is validated.
        let document = CheckDocument(path: "https://\(question.domain)/.well-known/assetlinks.json", bytes: bytes,
                                     parameters: parameters, urls: question.package == nil ? [] : question.urls)
        if let explanation = AssetLinksSuite.definition.explain(.document(document)) { return explanation }
        return notAList(bytes)
    }

    /// What the suite does not take for a statement list at all (it must not claim other
    /// documents in `check --document`), though Android asked for one here: why, in the
    /// digest's terms (a JSON array of statements).
    func notAList(_ bytes: [UInt8]) -> CheckExplanation {
        let violation: CheckExplanation.Violation
        do {
            let json = try JSONParser.parse(bytes)
            violation = .init(requirement: "", level: .must, code: "not-array",
                              message: "the top level is \(json.arrayValue == nil ? "not an array" : "an array the suite could not read") of statements",
                              offset: nil)
        } catch {
            violation = .init(requirement: "", level: .must, code: "not-json",
                              message: "not JSON (line \(error.line), column \(error.column)): \(error.message)", offset: error.offset)
        }
        return CheckExplanation(suite: "assetlinks", recognized: true, wording: Self.wording,
                                fields: [.init("file", value: "\(bytes.count) bytes")], violations: [violation])
    }

    static let wording = CheckVerdict.Wording(valid: "a statement list", withWarnings: "a statement list, with warnings",
                                              invalid: "not a statement list Android reads", unrecognized: "not a statement list")
}
