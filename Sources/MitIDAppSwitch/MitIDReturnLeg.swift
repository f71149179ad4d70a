import AASA
import AssetLinks
import LinkURL

/// Whether the MitID app's return to `app_switch_url` opens the service provider's app, given
/// the association files served on the return URL's host and the app's identity
/// (docs/mitid.md, "Return leg").
///
/// ```swift
/// let leg = MitIDReturnLeg.judge(authorize: bytes, aasa: aasaBytes, assetLinks: nil,
///                                app: .init(appID: "ABCDE12345.com.example.app"))
/// leg.verdict   // .reaches
/// ```
public struct MitIDReturnLeg: Sendable, Hashable {
    public enum Verdict: String, Sendable, Hashable, CaseIterable {
        /// The return URL is a universal link / App Link of the app: the app opens.
        case reaches
        /// The return URL opens in the browser: the association does not cover the app or URL.
        case browser
        /// No app switch back at all: not enabled, invalid, or no return URL.
        case noReturn = "no_return"
    }

    /// Who the app is, per platform.
    public struct App: Sendable, Hashable {
        public var appID: String?
        public var packageName: String?
        public var fingerprint: String?
        public init(appID: String? = nil, packageName: String? = nil, fingerprint: String? = nil) {
            self.appID = appID
            self.packageName = packageName
            self.fingerprint = fingerprint
        }
    }

    public let verdict: Verdict
    /// `ios` or `android` when the authorize URL names it.
    public let platform: String?
    public let reason: String

    /// Judges the return leg of `authorize` (the authorize URL's bytes).
    public static func judge(authorize: [UInt8], aasa: [UInt8]?, assetLinks: [UInt8]?, app: App) -> MitIDReturnLeg {
        let request = MitIDAuthorize(parsing: authorize)
        switch request.kind {
        case .invalid:
            // Invalid without a MUST of its own: a link over the size limit is not read at all.
            let why = request.violations.first { $0.level == .must } ?? request.violations.first
            return MitIDReturnLeg(verdict: .noReturn, platform: request.os,
                                  reason: "the authorize URL is not one the broker reads: " + (why?.message ?? "invalid"))
        case .noAppSwitch:
            return MitIDReturnLeg(verdict: .noReturn, platform: request.os, reason: "app switch is not enabled (enable_app_switch is not true)")
        case .appSwitch:
            break
        }
        guard let url = request.returnURL, let os = request.os else {
            return MitIDReturnLeg(verdict: .noReturn, platform: request.os,
                                  reason: "no app_switch_url: the broker falls back to the client's default, which this check cannot see")
        }
        let host = LinkURL(parsing: url).normalizedHost ?? ""
        if os == "ios" {
            guard let aasa else { return MitIDReturnLeg(verdict: .browser, platform: os, reason: "no apple-app-site-association file for \(host) was given") }
            guard let appID = app.appID else { return MitIDReturnLeg(verdict: .browser, platform: os, reason: "no iOS app ID was given") }
            let result = AASA.match(aasa, domain: host, appID: appID, url: url)
            if result.kind == .match {
                return MitIDReturnLeg(verdict: .reaches, platform: os, reason: "the apple-app-site-association file of \(host) opens \(url) in \(appID)" + (result.rule.map { " (\($0.place))" } ?? ""))
            }
            return MitIDReturnLeg(verdict: .browser, platform: os,
                                  reason: "the apple-app-site-association file of \(host) answers \(result.kind.rawValue) for \(url) and \(appID)")
        }
        guard let assetLinks else { return MitIDReturnLeg(verdict: .browser, platform: os, reason: "no assetlinks.json for \(host) was given") }
        guard let packageName = app.packageName, let fingerprint = app.fingerprint else {
            return MitIDReturnLeg(verdict: .browser, platform: os, reason: "the Android package and its signing fingerprint were not both given")
        }
        let verification = AssetLinks.verify(assetLinks, packageName: packageName, fingerprint: fingerprint)
        guard verification.granted else {
            return MitIDReturnLeg(verdict: .browser, platform: os, reason: "assetlinks.json of \(host) does not verify \(packageName): \(verification.reason ?? "")")
        }
        let result = AssetLinks.match(assetLinks, domain: host, packageName: packageName, fingerprint: fingerprint, url: url)
        switch result.kind {
        case .match:
            return MitIDReturnLeg(verdict: .reaches, platform: os, reason: "\(packageName) is verified for \(host) and its dynamic rules open \(url): \(result.reason)")
        case .noDynamicRules:
            // The URLs a list can match at all (AL-D8) hold with or without dynamic rules.
            if let problem = AssetLinksMatcher.urlProblem(url, domain: host) {
                return MitIDReturnLeg(verdict: .browser, platform: os,
                                      reason: "\(packageName) is verified for \(host), but no App Link of it is \(url): \(problem.message)")
            }
            return MitIDReturnLeg(verdict: .reaches, platform: os,
                                  reason: "\(packageName) is verified for \(host); with no dynamic rules, an autoVerify intent filter for https://\(host) (the guide's) opens \(url)")
        case .exclude, .noMatch, .notVerified:
            return MitIDReturnLeg(verdict: .browser, platform: os, reason: "the dynamic rules of \(packageName) answer \(result.kind.rawValue) for \(url): \(result.reason)")
        }
    }
}
