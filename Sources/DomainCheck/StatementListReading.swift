import Conformance

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
        // Served as the statement list, it is read as one whatever it holds.
        return AssetLinksSuite.explanation(of: document)
    }
}
