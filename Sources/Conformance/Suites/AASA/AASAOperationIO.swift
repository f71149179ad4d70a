import AASA
import LinkJSON

/// The aasa operations' inputs and outputs as typed values (docs/corpus-format.md, docs/aasa.md).
extension AASASuite {
    struct ValidateInput: OperationInput {
        static let fieldNames = ["file"]
        let file: String
        init(_ fields: JSONFields) throws(JSONFieldError) {
            file = try fields.string("file")
        }
    }

    struct ValidateOutput: OperationOutput {
        /// The codes reported (compared as a set, so a code reported twice counts once).
        let diagnostics: [String]
        init(_ fields: JSONFields) throws(JSONFieldError) {
            // The items are codes, or objects with a `code` (what the reference writes).
            guard let codes = try violationKeys(fields, "diagnostics") else { throw fields.error("diagnostics", "missing required field") }
            diagnostics = codes
        }
    }

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
        // Which rule decided (detail, component, pattern) is reported, not judged.
        let result: AASAMatchKind
        init(_ fields: JSONFields) throws(JSONFieldError) {
            result = try fields.oneOf("result", AASAMatchKind.self)
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
