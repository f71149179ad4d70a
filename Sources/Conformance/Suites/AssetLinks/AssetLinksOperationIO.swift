import AssetLinks
import LinkJSON

/// The assetlinks operations' inputs and outputs as typed values (docs/assetlinks.md).
extension AssetLinksSuite {
    /// `includes`: include URL to the text served there (a URL without an entry is not fetched).
    static func includes(_ fields: JSONFields) throws(JSONFieldError) -> [String: String] {
        guard fields.has("includes") else { return [:] }
        guard case .object(let object)? = fields.object["includes"] else {
            throw fields.error("includes", "expected an object mapping include URLs to file texts")
        }
        var out: [String: String] = [:]
        for member in object {
            guard case .string(let text) = member.value else {
                throw JSONFieldError(path: fields.path + [.key("includes"), .key(member.key)], problem: "expected the file's text as a string")
            }
            out[member.key] = text
        }
        return out
    }

    struct VerifyInput: OperationInput {
        static let fieldNames = ["file", "includes", "package", "fingerprint", "relation"]
        let file: String
        let includes: [String: String]
        let package: String
        let fingerprint: String
        let relation: String
        init(_ fields: JSONFields) throws(JSONFieldError) {
            file = try fields.string("file")
            includes = try AssetLinksSuite.includes(fields)
            package = try fields.string("package")
            fingerprint = try fields.string("fingerprint")
            relation = try fields.optionalString("relation") ?? AssetLinksRelation.handleAllURLs
        }
    }

    struct VerifyOutput: OperationOutput {
        // Which statement granted it (statement, source) and why not (reason, cause) are
        // reported, not judged.
        let granted: Bool
        /// Read leniently: a cause that is not a string is no cause, never a malformed answer.
        let cause: String?
        init(_ fields: JSONFields) throws(JSONFieldError) {
            granted = try fields.bool("granted")
            cause = try? fields.optionalString("cause")
        }
    }

    struct MatchInput: OperationInput {
        static let fieldNames = ["file", "includes", "domain", "package", "fingerprint", "url"]
        let file: String
        let includes: [String: String]
        let domain: String
        let package: String
        let fingerprint: String
        let url: String
        init(_ fields: JSONFields) throws(JSONFieldError) {
            file = try fields.string("file")
            includes = try AssetLinksSuite.includes(fields)
            domain = try fields.string("domain")
            package = try fields.string("package")
            fingerprint = try fields.string("fingerprint")
            url = try fields.string("url")
        }
    }

    struct MatchOutput: OperationOutput {
        // Which component decided (statement, component, pattern) and why (reason, cause) are
        // reported, not judged.
        let result: AssetLinksMatchKind
        /// Read leniently: a cause that is not a string is no cause, never a malformed answer.
        let cause: String?
        init(_ fields: JSONFields) throws(JSONFieldError) {
            result = try fields.oneOf("result", AssetLinksMatchKind.self)
            cause = try? fields.optionalString("cause")
        }
    }
}
