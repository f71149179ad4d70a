import XignQR

/// The xignqr operations as a Swift protocol, for Swift implementations run in process.
public protocol XignQRSubject: Sendable {
    /// The lightweight link check (`xignqr.redirect`).
    func redirect(url: String, schemes: [String], hosts: [String]) -> XignRedirect
    /// The full pid decoder (`xignqr.pid`).
    func decodePID(data: String, hosts: [String]) -> Result<PIDDecoding, PIDError>
}

/// LinkConform's reference: the `XignQR` module.
public struct ReferenceXignQR: XignQRSubject {
    public init() {}

    public func redirect(url: String, schemes: [String], hosts: [String]) -> XignRedirect {
        XignQR.redirect(url, schemes: schemes, hosts: hosts)
    }

    public func decodePID(data: String, hosts: [String]) -> Result<PIDDecoding, PIDError> {
        Result { () throws(PIDError) in try XignQR.decodePID(data, hosts: hosts) }
    }
}
