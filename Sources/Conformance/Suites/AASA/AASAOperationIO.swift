import AASA
import LinkJSON

/// The aasa operations' inputs and outputs as typed values (docs/corpus-format.md, docs/aasa.md).
extension AASASuite {
    struct MatchInput: OperationInput {
        static let fieldNames = ["file", "domain", "appID", "url"]
        let file: String
        let domain: String
        let appID: String
        let url: String
        init(_ fields: JSONFields) throws(JSONFieldError) {
            file = try fields.string("file")
            domain = try fields.string("domain")
            appID = try fields.string("appID")
            url = try fields.string("url")
        }
    }

    struct MatchOutput: OperationOutput {
        // Which rule decided (detail, component, pattern) and why (reason) are reported, not judged.
        let result: AASAMatchKind
        /// Read leniently: a reason that is not a string is no reason, never a malformed answer.
        let reason: String?
        init(_ fields: JSONFields) throws(JSONFieldError) {
            result = try fields.oneOf("result", AASAMatchKind.self)
            reason = try? fields.optionalString("reason")
        }
    }

    struct EntitlementInput: OperationInput {
        static let fieldNames = ["entitlements", "host"]
        let entitlements: [String]
        let host: String
        init(_ fields: JSONFields) throws(JSONFieldError) {
            entitlements = try fields.stringArray("entitlements")
            host = try fields.string("host")
        }
    }

    struct EntitlementOutput: OperationOutput {
        /// nil: no entry applies (`null`).
        let entry: String?
        init(_ fields: JSONFields) throws(JSONFieldError) {
            entry = try fields.stringOrNull("entry")
        }
    }
}
