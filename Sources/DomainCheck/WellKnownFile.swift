/// The association files a live check fetches from a domain, and what each platform reads.
///
/// ```swift
/// WellKnownFile.aasa.path            // "/.well-known/apple-app-site-association"
/// WellKnownFile.aasa.sizeLimit       // 131_072: iOS reads at most 128 KB, uncompressed
/// WellKnownFile.assetLinks.platform  // .android
/// ```
public enum WellKnownFile: String, Sendable, Hashable, CaseIterable {
    /// `/.well-known/apple-app-site-association`: the path iOS and Apple's CDN fetch.
    case aasa
    /// `/apple-app-site-association` at the root: accepted by older systems, still served by some sites.
    case aasaLegacy = "aasa-legacy"
    /// `/.well-known/assetlinks.json`: Android's Digital Asset Links statement list.
    case assetLinks = "assetlinks"

    public var path: String {
        switch self {
        case .aasa: "/.well-known/apple-app-site-association"
        case .aasaLegacy: "/apple-app-site-association"
        case .assetLinks: "/.well-known/assetlinks.json"
        }
    }

    public var platform: Platform {
        self == .assetLinks ? .android : .ios
    }

    /// The most bytes of (decoded) body the platform accepts, which is also how much a fetch
    /// reads before it stops: one byte more proves the file is over.
    ///
    /// iOS: 128 KB uncompressed since iOS 9.3.1 (App Search Programming Guide). Android: the
    /// sources name no limit, so LinkConform stops at 1 MiB (decided: far above any real
    /// statement list, and a bound on what a hostile server can make it read).
    public var sizeLimit: Int {
        platform == .ios ? 128 * 1024 : 1024 * 1024
    }
}

/// The two platforms a live check gives a verdict for.
public enum Platform: String, Sendable, Hashable, CaseIterable {
    case ios, android

    public var name: String { self == .ios ? "iOS" : "Android" }
}
