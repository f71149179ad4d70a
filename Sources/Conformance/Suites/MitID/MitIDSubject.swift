import MitIDAppSwitch

/// The mitid operations as a Swift protocol, for Swift implementations run in process.
public protocol MitIDSubject: Sendable {
    /// What an authorize URL asks of MitID's app switch (`mitid.authorize`).
    func authorize(url: [UInt8]) -> MitIDAuthorize
    /// Whether the MitID app's return leg reaches the app (`mitid.return`).
    func returnLeg(authorize: [UInt8], aasa: [UInt8]?, assetLinks: [UInt8]?, app: MitIDReturnLeg.App) -> MitIDReturnLeg
}

/// LinkConform's reference: the `MitIDAppSwitch` module.
public struct ReferenceMitID: MitIDSubject {
    public init() {}

    public func authorize(url: [UInt8]) -> MitIDAuthorize {
        MitIDAuthorize(parsing: url)
    }

    public func returnLeg(authorize: [UInt8], aasa: [UInt8]?, assetLinks: [UInt8]?, app: MitIDReturnLeg.App) -> MitIDReturnLeg {
        MitIDReturnLeg.judge(authorize: authorize, aasa: aasa, assetLinks: assetLinks, app: app)
    }
}
