import FuzzSupport
import XignQR

/// The XignSys redirect check and the pid decoder on arbitrary bytes.
enum XignInvariants {
    static let errorCodes: Set<String> = Set(PIDBase64.Failure.Code.allCases.map(\.rawValue))
        .union(WireFormat.Failure.Code.allCases.map(\.rawValue)).union(["not-xignin-data"])

    static func checkRedirect(_ input: UnsafeBufferPointer<UInt8>, _ p: inout Problems) {
        let text = String(decoding: input, as: UTF8.self)
        let r = XignQR.redirect(text)
        if r.process != nil {
            p.check(r.form != nil && !(r.pid ?? "").isEmpty, "a process comes with its form and a pid")
            p.check(!r.violations.contains { $0.level == .must }, "a process is returned only without MUST violations", "\(r.violationKeys)")
        } else {
            p.check(r.pid == nil && r.sourceURL == nil, "no pid or source-url without a process")
        }
        if r.form == nil { p.check(r.violations.allSatisfy { $0.code == .linkTooLong }, "links that are not XignIn data carry no violation", "\(r.violationKeys)") }
        // Compared by code, parameter and offset (more than the keys say, and no text made).
        let again = XignQR.redirect(text)
        p.check(again.process == r.process && again.form == r.form && again.pid == r.pid && again.sourceURL == r.sourceURL
                && again.violations.elementsEqual(r.violations) { $0.code == $1.code && $0.parameter == $1.parameter && $0.offset == $1.offset },
                "the check is deterministic")
        if let pid = r.pid {
            // The full decoder either reads the pid or names why not.
            switch Result(catching: { () throws(PIDError) in try XignQR.decodePID(pid) }) {
            case .success: break
            case .failure(let error): p.check(errorCodes.contains(error.code), "pid errors have a documented code", error.code)
            }
        }
    }

    static func checkPID(_ input: UnsafeBufferPointer<UInt8>, _ p: inout Problems) {
        let text = String(decoding: input, as: UTF8.self)
        switch Result(catching: { () throws(PIDError) in try XignQR.decodePID(text) }) {
        case .failure(let error):
            p.check(errorCodes.contains(error.code), "pid errors have a documented code", error.code)
        case .success(let pid):
            // Canonical base64 of the bytes reads back as the bytes, with no repair.
            let canonical = Base64Writer.encode(pid.bytes)
            switch Result(catching: { () throws(PIDBase64.Failure) in try PIDBase64.decode(canonical) }) {
            case .success(let again):
                p.check(again.bytes == pid.bytes && again.repairs.isEmpty, "canonical base64 of the decoded bytes reads back unrepaired", canonical)
            case .failure(let error):
                p.check(false, "canonical base64 of the decoded bytes reads back", "\(canonical): \(error)")
            }
            // Writing the fields back and reading them gives the same fields.
            let written = WireWriter.write(pid.fields)
            switch Result(catching: { () throws(WireFormat.Failure) in try WireFormat.read(written) }) {
            case .success(let fields): p.check(fields == pid.fields, "fields written back read as the same fields")
            case .failure(let error): p.check(false, "fields written back can be read", "\(error)")
            }
            p.check(written.count <= pid.bytes.count, "fields written back (minimal varints) take no more bytes than they came in")
        }
    }
}

/// Standard base64 with padding (RFC 4648 section 4), to check the decoder against.
enum Base64Writer {
    static func encode(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            let n = min(3, bytes.count - i)
            let v = UInt32(bytes[i]) << 16 | (n > 1 ? UInt32(bytes[i + 1]) << 8 : 0) | (n > 2 ? UInt32(bytes[i + 2]) : 0)
            out.append(alphabet[Int(v >> 18 & 63)])
            out.append(alphabet[Int(v >> 12 & 63)])
            out.append(n > 1 ? alphabet[Int(v >> 6 & 63)] : UInt8(ascii: "="))
            out.append(n > 2 ? alphabet[Int(v & 63)] : UInt8(ascii: "="))
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// Protocol-buffers wire format written back from read fields (minimal varints).
enum WireWriter {
    static func write(_ fields: [WireFormat.Field]) -> [UInt8] {
        var out: [UInt8] = []
        for field in fields {
            switch field.value {
            case .varint(let v): key(field.number, 0, &out); varint(v, &out)
            case .i64(let b): key(field.number, 1, &out); out += b
            case .len(let b, _): key(field.number, 2, &out); varint(UInt64(b.count), &out); out += b
            case .i32(let b): key(field.number, 5, &out); out += b
            }
        }
        return out
    }

    static func key(_ number: UInt32, _ type: UInt64, _ out: inout [UInt8]) { varint(UInt64(number) << 3 | type, &out) }

    static func varint(_ value: UInt64, _ out: inout [UInt8]) {
        var v = value
        while v >= 0x80 { out.append(UInt8(v & 0x7F) | 0x80); v >>= 7 }
        out.append(UInt8(v))
    }
}

extension FuzzTarget {
    /// The XignSys redirect check.
    public static let xignqr = FuzzTarget(name: "xignqr", check: XignInvariants.checkRedirect)
    /// The pid decoder: base64 and protocol-buffers round trips.
    public static let pid = FuzzTarget(name: "pid", check: XignInvariants.checkPID)
}
