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
    /// The reader live checks use.
    ///
    /// INTEGRATION POINT: until the `AssetLinks` module lands, this is ``JSONArrayReader``, which
    /// checks only that the body is a JSON array. With it, replace this line by a reader that
    /// validates the list and verifies `question.package` and `question.fingerprint` (and
    /// matches `question.urls` against dynamic app-link components) through the `assetlinks`
    /// suite's explainer. Nothing else in live checks needs to change.
    public static let current: any StatementListReader = JSONArrayReader()
}

/// The interim reader: the body must be JSON whose top level is an array (the digest: "A JSON
/// array of statements"). It does not look inside the statements; it says so in its output.
public struct JSONArrayReader: StatementListReader {
    public init() {}

    static let wording = CheckVerdict.Wording(
        valid: "a JSON array (its statements are not checked yet)",
        withWarnings: "a JSON array, with warnings (its statements are not checked yet)",
        invalid: "not a statement list: Android reads no statements from it",
        unrecognized: "not a statement list")

    public func explain(_ bytes: [UInt8], question: LiveQuestion) -> CheckExplanation {
        var fields = [CheckExplanation.Field("file", value: "\(bytes.count) bytes")]
        var violations: [CheckExplanation.Violation] = []
        do {
            let json = try JSONParser.parse(bytes)
            if let statements = json.arrayValue {
                fields.append(.init("statements", value: "\(statements.count)",
                                    note: "statements, package and fingerprint are not verified until the assetlinks suite lands"))
            } else {
                violations.append(.init(requirement: "", level: .must, code: "not-array",
                                        message: "the top level is not an array of statements", offset: nil))
            }
        } catch {
            violations.append(.init(requirement: "", level: .must, code: "not-json",
                                    message: "not JSON (line \(error.line), column \(error.column)): \(error.message)", offset: error.offset))
        }
        if question.package != nil || question.fingerprint != nil {
            fields.append(.init("app", value: "not verified",
                                note: "--package and --fingerprint are checked once the assetlinks suite lands"))
        }
        return CheckExplanation(suite: "assetlinks (JSON array only)", recognized: true, wording: Self.wording,
                                fields: fields, violations: violations)
    }
}
