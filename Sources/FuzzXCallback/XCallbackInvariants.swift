import FuzzSupport
import LinkURL
import XCallbackURL

/// x-callback-url parse on arbitrary bytes: offsets, kind, decoding once; for a URL without any
/// violation, a build of its parts reads back as the same parts, and each outcome's response
/// keeps the callback and adds its parameters inside the query.
enum XCallbackInvariants {
    static func check(_ input: UnsafeBufferPointer<UInt8>, _ p: inout Problems) {
        let bytes = Array(input)
        let link = XCallback.parse(bytes)
        for v in link.violations {
            if let offset = v.offset { p.check(offset >= 0 && offset <= bytes.count, "violation offsets are inside the input", "\(v)") }
        }
        switch link.kind {
        case .notXCallback: p.check(link.violations.isEmpty && link.parameters.isEmpty, "a URL that is not an x-callback-url has no violations and no parameters")
        case .invalid: p.check(link.violations.contains { $0.code.isFatal }, "an invalid x-callback-url has a fatal violation")
        case .xcallback: p.check(!link.violations.contains { $0.code.isFatal }, "a usable x-callback-url has no fatal violation")
        }
        for callback in [link.success, link.error, link.cancel].compactMap({ $0 }) {
            p.check(callback.decoded == PercentCodec.decodeString(bytes[callback.range]), "a callback is decoded exactly once", callback.raw)
        }
        checkResponses(link, &p)
        guard link.kind == .xcallback, link.violations.isEmpty, let scheme = link.scheme, let action = link.action else { return }
        let request = XCallbackRequest(scheme: scheme, action: action, source: link.source, success: link.success?.decoded,
                                       error: link.error?.decoded, cancel: link.cancel?.decoded, parameters: link.parameters)
        do {
            let built = try XCallback.build(request)
            let again = XCallback.parse(built)
            p.check(again.kind == .xcallback && again.violations.isEmpty, "a built URL reads back with no violation", "\(built): \(again.violationKeys)")
            p.check(again.action == action && again.source == link.source && again.success?.decoded == link.success?.decoded
                    && again.error?.decoded == link.error?.decoded && again.cancel?.decoded == link.cancel?.decoded
                    && again.parameters == link.parameters, "parse(build(parts)) gives the parts back", built)
        } catch {
            p.check(false, "a URL read with no violation can be built again from its parts", "\(error)")
        }
    }

    /// What a target app opens keeps the callback's own scheme, authority and path, and the
    /// added parameters read back.
    static func checkResponses(_ link: XCallbackLink, _ p: inout Problems) {
        let results = [XCallbackItem(name: "r", value: "a b+c&d=#")]
        for outcome in [XCallbackOutcome.success(results: results), .error(code: "1", message: "m&n"), .cancel] {
            guard case .open(let opened) = XCallback.response(to: link, outcome: outcome) else { continue }
            guard let callback = link.callback(outcome.parameter)?.decoded else {
                p.check(false, "a response opens only a present callback")
                continue
            }
            let before = LinkURL(parsing: callback), after = LinkURL(parsing: opened)
            p.check(before.text(of: .scheme) == after.text(of: .scheme) && before.authority.map(before.text(in:)) == after.authority.map(after.text(in:))
                    && before.text(in: before.path) == after.text(in: after.path) && before.text(of: .fragment) == after.text(of: .fragment),
                    "a response keeps the callback's scheme, authority, path and fragment", "\(callback) -> \(opened)")
            if case .cancel = outcome { p.check(opened == callback, "a cancel opens x-cancel as it is") }
            if case .error = outcome {
                let items = after.queryItems
                let names = items.map { items.decodedName($0) }
                p.check(names.suffix(2) == ["errorCode", "errorMessage"], "an error adds errorCode and errorMessage last", opened)
            }
        }
    }
}

extension FuzzTarget {
    /// x-callback-url parse, build and callback round trips.
    public static let xcallback = FuzzTarget(name: "xcallback", check: XCallbackInvariants.check)
}
