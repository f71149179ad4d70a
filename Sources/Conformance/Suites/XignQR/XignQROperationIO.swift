import LinkJSON
import XignQR

/// The xignqr operations' inputs and outputs as typed values (docs/corpus-format.md).
extension XignQRSuite {
    struct RedirectInput: OperationInput {
        static let fieldNames = ["url", "schemes", "hosts"]
        let url: String
        /// The accepted deep-link schemes and app-link hosts; left out, the protocol's defaults.
        let schemes: [String]
        let hosts: [String]
        init(_ fields: JSONFields) throws(JSONFieldError) {
            url = try fields.string("url")
            schemes = try fields.optionalStringArray("schemes") ?? XignQR.defaultSchemes
            hosts = try fields.optionalStringArray("hosts") ?? XignQR.defaultHosts
        }
    }

    struct RedirectOutput: OperationOutput {
        static let stringFields = ["form", "pid", "sourceUrl", "browser"]
        let kind: String
        /// `form`, `pid`, `sourceUrl`, `browser` as reported, by name.
        let strings: [String: String]
        let violations: [String]?
        init(_ fields: JSONFields) throws(JSONFieldError) {
            kind = try fields.string("kind")
            strings = try fields.optionalStrings(Self.stringFields)
            violations = try violationKeys(fields, "violations")
        }
    }

    struct PIDInput: OperationInput {
        static let fieldNames = ["data", "hosts"]
        let data: String
        /// The accepted app-link hosts; left out, the protocol's default.
        let hosts: [String]
        init(_ fields: JSONFields) throws(JSONFieldError) {
            data = try fields.string("data")
            hosts = try fields.optionalStringArray("hosts") ?? XignQR.defaultHosts
        }
    }

    struct PIDOutput: OperationOutput {
        let ok: Bool
        let error: String?
        let process: String?
        let input: String?
        let repairs: [String]?
        let bytes: Int?
        /// The decoded fields, compared as a tree with the expectation's.
        let fields: [JSONValue]?
        init(_ fields: JSONFields) throws(JSONFieldError) {
            ok = try fields.bool("ok")
            error = try fields.optionalString("error")
            process = try fields.optionalString("process")
            input = try fields.optionalString("input")
            repairs = try fields.optionalStringArray("repairs")
            bytes = try fields.optionalInt("bytes")
            self.fields = try fields.optionalList("fields") { $0.value }
        }
    }
}
