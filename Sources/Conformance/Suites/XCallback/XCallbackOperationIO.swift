import LinkJSON
import XCallbackURL

/// The x-callback-url operations' inputs and outputs as typed values (docs/corpus-format.md).
extension XCallbackSuite {
    static let itemFieldNames = ["name", "value"]

    /// `{"name": ..., "value": ...}`; `value` may be left out or `null` (a pair without `=`).
    static func item(_ fields: JSONFields) throws(JSONFieldError) -> XCallbackItem {
        XCallbackItem(name: try fields.string("name"), value: try fields.nullableString("value"))
    }

    static func items(_ fields: JSONFields, _ key: String) throws(JSONFieldError) -> [XCallbackItem]? {
        try fields.optionalObjects(key, known: itemFieldNames)?.map { (f) throws(JSONFieldError) in try item(f) }
    }

    struct ParseInput: OperationInput {
        static let fieldNames = ["url"]
        let url: String
        init(_ fields: JSONFields) throws(JSONFieldError) {
            url = try fields.string("url")
        }
    }

    struct ParseOutput: OperationOutput {
        let kind: String
        /// `scheme`, `action`, `source`, `success`, `error`, `cancel` as reported, by name.
        let strings: [String: String]
        let parameters: [XCallbackItem]?
        let violations: [String]?
        static let stringFields = ["scheme", "action", "source", "success", "error", "cancel"]
        init(_ fields: JSONFields) throws(JSONFieldError) {
            kind = try fields.string("kind")
            strings = try fields.optionalStrings(Self.stringFields)
            parameters = try items(fields, "parameters")
            violations = try violationKeys(fields, "violations")
        }
    }

    struct BuildInput: OperationInput {
        static let fieldNames = ["scheme", "action", "source", "success", "error", "cancel", "parameters"]
        let request: XCallbackRequest
        init(_ fields: JSONFields) throws(JSONFieldError) {
            var request = XCallbackRequest(scheme: try fields.string("scheme"), action: try fields.string("action"),
                                           source: try fields.optionalString("source"), success: try fields.optionalString("success"),
                                           error: try fields.optionalString("error"), cancel: try fields.optionalString("cancel"))
            if let parameters = try items(fields, "parameters") { request.parameters = parameters }
            self.request = request
        }
    }

    /// `xcallback.build` answers `{"url": ...}` or a refusal.
    enum BuiltURL: BuiltMember {
        static let name = "url"
        static let what = "URL"
    }

    struct CallbackInput: OperationInput {
        static let fieldNames = ["url", "outcome", "results", "errorCode", "errorMessage", "allowedSchemes"]
        enum OutcomeName: String, CaseIterable { case success, error, cancel }
        let url: String
        let outcome: XCallbackOutcome
        let allowedSchemes: [String]?
        init(_ fields: JSONFields) throws(JSONFieldError) {
            url = try fields.string("url")
            let name = try fields.oneOf("outcome", OutcomeName.self)
            // Members that belong to another outcome would be ignored: a mistake in the case.
            let belongs: [String: OutcomeName] = ["results": .success, "errorCode": .error, "errorMessage": .error]
            for (key, owner) in belongs.sorted(by: { $0.key < $1.key }) where owner != name && fields.has(key) {
                throw fields.error(key, "only an outcome \"\(owner.rawValue)\" takes '\(key)' (this one is \"\(name.rawValue)\")")
            }
            switch name {
            case .success: outcome = .success(results: try items(fields, "results") ?? [])
            case .error: outcome = .error(code: try fields.string("errorCode"), message: try fields.string("errorMessage"))
            case .cancel: outcome = .cancel
            }
            allowedSchemes = try fields.optionalStringArray("allowedSchemes")
        }

        /// How many parameters the outcome adds to the callback (checked with a form-style reader too).
        var addedCount: Int {
            switch outcome {
            case .success(let results): results.count
            case .error: 2
            case .cancel: 0
            }
        }
    }

    struct CallbackOutput: OperationOutput {
        /// The URL opened; nil for `null` (nothing opened). The member must be there.
        let open: String?
        /// Why nothing is opened, in the reference's words (``XCallback/response(to:outcome:policy:)``).
        let reason: String?
        init(_ fields: JSONFields) throws(JSONFieldError) {
            open = try fields.stringOrNull("open")
            reason = try fields.optionalString("reason")
        }
    }
}
