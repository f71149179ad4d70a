import LinkJSON
import ULC

/// The ULC operations' inputs and outputs as typed values (docs/corpus-format.md).
extension ULCSuite {
    struct ParseInput: OperationInput {
        static let fieldNames = ["link"]
        let link: String
        init(_ fields: JSONFields) throws(JSONFieldError) {
            link = try fields.string("link")
        }
    }

    struct ParseOutput: OperationOutput {
        let kind: String
        let action: String?
        let success: String?
        let error: String?
        /// Nil when the implementation reports no violations at all.
        let violations: [String]?
        init(_ fields: JSONFields) throws(JSONFieldError) {
            kind = try fields.string("kind")
            action = try fields.optionalString("action")
            success = try fields.optionalString("success")
            error = try fields.optionalString("error")
            violations = try violationKeys(fields, "violations")
        }
    }

    struct BuildInput: OperationInput {
        static let fieldNames = ["action", "success", "error"]
        let action: String
        let success: String
        let error: String
        init(_ fields: JSONFields) throws(JSONFieldError) {
            action = try fields.string("action")
            success = try fields.string("success")
            error = try fields.string("error")
        }
    }

    /// `ulc.build` answers `{"link": ...}` or a refusal.
    enum BuiltLink: BuiltMember {
        static let name = "link"
        static let what = "link"
    }

    /// A receiver scenario; members left out take ``ULCScenario``'s own defaults.
    struct HandleInput: OperationInput {
        static let fieldNames = ["logoutAction", "signedIn", "forceQuitBeforeLink", "backend", "links", "openSucceeds"]
        let scenario: ULCScenario
        init(_ fields: JSONFields) throws(JSONFieldError) {
            var scenario = ULCScenario(logoutAction: try fields.nonEmptyString("logoutAction"),
                                       signedIn: try fields.bool("signedIn"),
                                       links: try fields.stringArray("links"))
            if let quit = try fields.optionalBool("forceQuitBeforeLink") { scenario.forceQuitBeforeLink = quit }
            if let opens = try fields.optionalBool("openSucceeds") { scenario.openSucceeds = opens }
            if let backend = try fields.optionalObjects("backend", known: ["answer", "seconds"]) {
                scenario.backend = try backend.map { (item) throws(JSONFieldError) in
                    var attempt = ULCScenario.Attempt(try item.oneOf("answer", ULCScenario.Attempt.Answer.self))
                    if let seconds = try item.optionalDouble("seconds", in: 0...86_400) { attempt.seconds = seconds }
                    return attempt
                }
            }
            self.scenario = scenario
        }
    }

    struct HandleOutput: OperationOutput {
        struct Opened {
            let url: String
            /// Nil when not reported (so not known to be true).
            let universalLinksOnly: Bool?
        }
        let opened: [Opened]?
        let prompts: Int?
        let backendAttempts: Int?
        let userSignedIn: Bool?
        let backendSessionOpen: Bool?
        let elapsedSeconds: [Double]?
        let reasons: [String]?
        init(_ fields: JSONFields) throws(JSONFieldError) {
            opened = try fields.optionalObjects("opened", known: ["url", "universalLinksOnly", "atSeconds"])?.map { (entry) throws(JSONFieldError) in
                _ = try entry.optionalDouble("atSeconds")
                return Opened(url: try entry.string("url"), universalLinksOnly: try entry.optionalBool("universalLinksOnly"))
            }
            prompts = try fields.optionalInt("prompts")
            backendAttempts = try fields.optionalInt("backendAttempts")
            userSignedIn = try fields.optionalBool("userSignedIn")
            backendSessionOpen = try fields.optionalBool("backendSessionOpen")
            elapsedSeconds = try fields.optionalList("elapsedSeconds") { (e) throws(JSONFieldError) in try e.double() }
            // What the receiver did with each link, reported and never judged: read leniently.
            reasons = try? fields.optionalStringArray("reasons")
        }
    }
}
