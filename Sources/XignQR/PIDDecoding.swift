import LinkURL

/// A pid read in full: where it came from, what was repaired, and its fields.
public struct PIDDecoding: Sendable, Hashable {
    public enum Input: String, Sendable, Hashable {
        /// An app link (QR codes of XignIn-Managers since 8.2.0).
        case appLink
        /// The bare base64 text (older QR codes, or the pid a redirect handed on).
        case base64
    }

    /// The process, when the data say it (an app link's action); nil for a bare pid.
    public let process: XignProcess?
    public let input: Input
    public let repairs: [PIDBase64.Repair]
    public let bytes: [UInt8]
    public let fields: [WireFormat.Field]
}

/// Why ``XignQR/decodePID(_:hosts:)`` refused its data.
public struct PIDError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `not-xignin-data`, a ``PIDBase64/Failure/Code`` or a ``WireFormat/Failure/Code``.
    public let code: String
    public let message: String
    public let offset: Int?
    public var description: String { "\(code): \(message)" }

    /// The requirement the error belongs to.
    public var requirement: String {
        if code == "not-xignin-data" { return "XQR-8" }
        if code == "too-long" || code == "too-many-fields" { return "XQR-D12" }
        if WireFormat.Failure.Code(rawValue: code) != nil { return "XQR-D11" }
        return "XQR-D10"
    }
}

extension XignQR {
    /// The full decoder (`XignCommon.parseProcessInitializationData`): takes a QR code's
    /// content, an app link or the bare pid; repairs what can be repaired safely, decodes the
    /// base64 strictly and reads the bytes as protocol-buffers fields.
    ///
    /// ```swift
    /// let pid = try XignQR.decodePID("https://xign.me/in-app/process/init?action=authentication&pid=CgMBAgM%3D")
    /// pid.process     // .authentication
    /// pid.fields      // [field 1: 01 02 03]
    /// ```
    public static func decodePID(_ data: String, hosts: [String] = defaultHosts) throws(PIDError) -> PIDDecoding {
        var process: XignProcess?
        var input = PIDDecoding.Input.base64
        var text = data
        let lower = data.prefix(8).lowercased()
        if lower.hasPrefix("https://") || lower.hasPrefix("http://") {
            // An app link: a deep-link scheme is not accepted here, only the manager's hosts.
            let redirect = XignQR.redirect(data, schemes: [], hosts: hosts)
            guard let found = redirect.process, redirect.form == .appLink, let pid = redirect.pid else {
                let why = redirect.violations.first(where: { $0.level == .must })?.message ?? "not an app link of an accepted manager"
                throw PIDError(code: "not-xignin-data", message: "the link is not XignIn data: \(why)", offset: nil)
            }
            process = found
            input = .appLink
            text = pid
        }
        let decoded: PIDBase64.Decoded
        do {
            decoded = try PIDBase64.decode(text)
        } catch {
            throw PIDError(code: error.code.rawValue, message: error.message, offset: error.offset)
        }
        do {
            let fields = try WireFormat.read(decoded.bytes)
            return PIDDecoding(process: process, input: input, repairs: decoded.repairs, bytes: decoded.bytes, fields: fields)
        } catch {
            throw PIDError(code: error.code.rawValue, message: error.message, offset: error.offset)
        }
    }
}
