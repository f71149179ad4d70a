/// A pid as `linkconform check` judges it: decoded in full, with each refusal, repair and
/// protocol-buffers problem as a violation at the level of the requirement it falls under
/// (refused base64: XQR-D10, MUST; a named repair: XQR-D9, SHOULD; not wire format: XQR-D11,
/// SHOULD; over the decoder's limits: XQR-D12, INFO).
///
/// The redirect check does not decode the pid (XQR-9), so these violations are not part of
/// ``XignQR/redirect(_:schemes:hosts:)``'s answer.
public struct PIDCheck: Sendable, Hashable {
    /// The decoded pid, when the decoder accepted it.
    public let decoding: PIDDecoding?
    public let violations: [XignViolation]
}

extension XignQR {
    /// Decodes a pid (base64 text, as a redirect hands it on: decoded once from the link) and
    /// reports what the decoder refused or repaired as violations.
    ///
    /// ```swift
    /// XignQR.checkPID("CgMBAgM=").violations            // []
    /// XignQR.checkPID("CgMBAgM").violations.map(\.key)  // ["pid-repaired"] (missing padding)
    /// XignQR.checkPID("not base64!").violations[0].level  // .must (pid-refused, XQR-D10)
    /// ```
    public static func checkPID(_ pid: String) -> PIDCheck {
        let decoded: PIDBase64.Decoded
        do {
            decoded = try PIDBase64.decode(pid)
        } catch {
            let code: XignViolationCode = error.code == .tooLong ? .pidOverLimit : .pidRefused
            return PIDCheck(decoding: nil, violations: [
                XignViolation(code, message: "the pid is refused (\(error.code.rawValue)): \(error.message)"
                              + (code == .pidRefused ? "; it has no safe repair, so no process can start with it" : "")),
            ])
        }
        var violations = decoded.repairs.map { repair in
            XignViolation(.pidRepaired, message: "the pid needed a repair (\(repair.rawValue)): \(Self.words(repair)); the decoder repairs it, but the sender should not damage it")
        }
        do {
            let fields = try WireFormat.read(decoded.bytes)
            return PIDCheck(decoding: PIDDecoding(process: nil, input: .base64, repairs: decoded.repairs, bytes: decoded.bytes, fields: fields),
                            violations: violations)
        } catch {
            let code: XignViolationCode = error.code == .tooManyFields ? .pidOverLimit : .pidNotProtobuf
            violations.append(XignViolation(code, offset: nil,
                message: "the decoded pid (\(decoded.bytes.count) bytes) is not read as protocol-buffers fields (\(error.code.rawValue)): \(error.message)"))
            return PIDCheck(decoding: nil, violations: violations)
        }
    }

    /// A repair in words.
    static func words(_ repair: PIDBase64.Repair) -> String {
        switch repair {
        case .percentEncoded: "it still held percent escapes after the link was decoded once (it was encoded twice)"
        case .whitespace: "it held line breaks or tabs"
        case .spaceForPlus: "it held spaces, a form decoder's reading of '+'"
        case .urlSafeAlphabet: "it uses the URL-safe alphabet ('-', '_') instead of the standard one"
        case .missingPadding: "its '=' padding is missing"
        }
    }
}
