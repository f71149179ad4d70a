import FuzzSupport
import LinkURL
import ULC

/// ULC parse on arbitrary bytes: violation offsets inside the input, a kind that agrees with
/// the violations, callbacks decoded exactly once, and for a link without any violation, a
/// build of its parts that reads back as the same parts.
enum ULCInvariants {
    static func check(_ input: UnsafeBufferPointer<UInt8>, _ p: inout Problems) {
        let bytes = Array(input)
        let link = ULC.parse(bytes)
        for v in link.violations {
            if let offset = v.offset { p.check(offset >= 0 && offset <= bytes.count, "violation offsets are inside the input", "\(v)") }
        }
        switch link.kind {
        case .notULC:
            p.check(link.violations.isEmpty && link.action == nil, "a link that is not a ULC has no violations and no action")
        case .invalid:
            p.check(link.violations.contains { $0.code.isFatal }, "an invalid ULC has a fatal violation")
        case .ulc:
            p.check(!link.violations.contains { $0.code.isFatal }, "a usable ULC has no fatal violation", "\(link.violationKeys)")
            p.check(link.success != nil, "a usable ULC has its success callback")
        }
        for callback in [link.success, link.error].compactMap({ $0 }) {
            p.check(callback.range.upperBound <= bytes.count, "callback ranges are inside the input")
            p.check(callback.decoded == PercentCodec.decodeString(bytes[callback.range]), "a callback is decoded exactly once", callback.raw)
        }
        guard link.kind == .ulc, link.violations.isEmpty, let action = link.action,
              let success = link.success?.decoded, let error = link.error?.decoded else { return }
        do {
            let built = try ULC.build(action: action, success: success, error: error)
            let again = ULC.parse(built)
            p.check(again.kind == .ulc && again.violations.isEmpty, "a built link reads back with no violation", "\(built): \(again.violationKeys)")
            p.check(again.action == action && again.success?.decoded == success && again.error?.decoded == error,
                    "parse(build(action, success, error)) gives them back", built)
        } catch {
            p.check(false, "a link read with no violation can be built again from its parts", "\(error)")
        }
    }
}

extension FuzzTarget {
    /// ULC parse, and build round trips on whatever parses cleanly.
    public static let ulc = FuzzTarget(name: "ulc", check: ULCInvariants.check)
}
