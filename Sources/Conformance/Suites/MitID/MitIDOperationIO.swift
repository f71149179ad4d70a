import LinkJSON
import MitIDAppSwitch

/// The mitid operations' inputs and outputs as typed values (docs/mitid.md).
extension MitIDSuite {
    struct AuthorizeInput: OperationInput {
        static let fieldNames = ["url"]
        let url: String
        init(_ fields: JSONFields) throws(JSONFieldError) {
            url = try fields.string("url")
        }
    }

    struct AuthorizeOutput: OperationOutput {
        let kind: MitIDAuthorize.Kind
        let os: String?
        let returnURL: String?
        let violations: [String]?
        init(_ fields: JSONFields) throws(JSONFieldError) {
            kind = try fields.oneOf("kind", MitIDAuthorize.Kind.self)
            os = try fields.optionalString("os")
            returnURL = try fields.optionalString("returnURL")
            violations = try violationKeys(fields, "violations")
        }
    }

    struct ReturnLegInput: OperationInput {
        static let fieldNames = ["authorize", "aasa", "assetlinks", "appID", "package", "fingerprint"]
        let authorize: String
        let aasa: String?
        let assetlinks: String?
        let app: MitIDReturnLeg.App
        init(_ fields: JSONFields) throws(JSONFieldError) {
            authorize = try fields.string("authorize")
            aasa = try fields.optionalString("aasa")
            assetlinks = try fields.optionalString("assetlinks")
            app = MitIDReturnLeg.App(appID: try fields.optionalString("appID"), packageName: try fields.optionalString("package"),
                                     fingerprint: try fields.optionalString("fingerprint"))
        }
    }

    struct ReturnLegOutput: OperationOutput {
        // platform and reason are reported, not judged.
        let verdict: MitIDReturnLeg.Verdict
        init(_ fields: JSONFields) throws(JSONFieldError) {
            verdict = try fields.oneOf("verdict", MitIDReturnLeg.Verdict.self)
        }
    }
}
