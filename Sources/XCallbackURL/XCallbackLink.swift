import LinkURL

/// The four parameters the x-callback-url draft defines, in its order.
public enum XCallbackParameter: String, Sendable, Hashable, CaseIterable {
    case source = "x-source"
    case success = "x-success"
    case error = "x-error"
    case cancel = "x-cancel"

    /// Every x- parameter's name, made once (the parse and `check` ask for the list).
    public static let names = allCases.map(\.rawValue)

    /// The name, for comparisons that do not allocate.
    public var name: StaticString {
        switch self {
        case .source: "x-source"
        case .success: "x-success"
        case .error: "x-error"
        case .cancel: "x-cancel"
        }
    }

    /// The three parameters whose values are URLs to open.
    public static let callbacks: [XCallbackParameter] = [.success, .error, .cancel]
}

/// A URL read as an x-callback-url: what it asks for, and everything wrong with it.
///
/// ```swift
/// let link = XCallback.parse("drafts://x-callback-url/create?text=Hello%20World&x-success=myapp%3A%2F%2Fdone")
/// link.kind                 // .xcallback
/// link.action               // "create"
/// link.success?.decoded     // "myapp://done"
/// link.parameters           // [XCallbackItem(name: "text", value: "Hello World")]
/// ```
public struct XCallbackLink: Sendable {
    public enum Kind: String, Sendable, Hashable {
        /// No scheme, or a host other than `x-callback-url`: not an x-callback-url.
        case notXCallback
        /// An x-callback-url with no fatal violation (warnings may remain).
        case xcallback
        /// An x-callback-url with at least one fatal violation.
        case invalid
    }

    public let kind: Kind
    /// The URL as split by ``LinkURL``.
    public let url: LinkURL
    /// `x-success`, `x-error` and `x-cancel` when present exactly once with a value.
    public let success: XCallbackValue?
    public let error: XCallbackValue?
    public let cancel: XCallbackValue?
    /// The `x-source` item, when present exactly once.
    let sourceItem: QueryItem?
    /// The action parameters' items, found by the parse.
    let actionItems: ActionItems
    /// Every violation found, in the order of the checks.
    public let violations: [XCallbackViolation]

    /// The violation keys (`parameter:code`), as corpus cases list them.
    /// (A closure rather than `\.key`: the key path, into a generic type of another module, was
    /// projected at run time, `swift_getAtKeyPath`, for each violation.)
    public var violationKeys: [String] { violations.map { $0.key } }

    /// The scheme as written.
    public var scheme: String? { url.text(of: .scheme) }

    /// The action as written: the path without its leading `/` (nil when not an x-callback-url).
    public var rawAction: String? {
        guard kind != .notXCallback, !url.isOverLimit else { return nil }
        return url.text(in: actionRange)
    }

    /// The action decoded once (invalid UTF-8 replaced by U+FFFD).
    public var action: String? {
        guard kind != .notXCallback, !url.isOverLimit else { return nil }
        return XCallback.decodedText(url.bytes, actionRange)
    }

    var actionRange: Range<Int> {
        let path = url.path
        return path.first.map { url.bytes[$0] == UInt8(ascii: "/") } == true ? path.dropFirst() : path
    }

    /// `x-source`, decoded once (invalid UTF-8 replaced by U+FFFD).
    public var source: String? {
        guard let item = sourceItem else { return nil }
        return item.value.map { XCallback.decodedText(url.bytes, $0) } ?? ""
    }

    /// `x-source` as written.
    public var rawSource: String? {
        guard let item = sourceItem else { return nil }
        return item.value.map(url.text(in:)) ?? ""
    }

    /// The callback for a parameter (nil for `x-source`, which is not a URL).
    public func callback(_ parameter: XCallbackParameter) -> XCallbackValue? {
        switch parameter {
        case .success: success
        case .error: error
        case .cancel: cancel
        case .source: nil
        }
    }

    /// Whether a callback may be opened: present and free of fatal violations of its own.
    public func isUsable(_ parameter: XCallbackParameter) -> Bool {
        guard callback(parameter) != nil else { return false }
        return !violations.contains { $0.parameter == parameter.rawValue && $0.code.isFatal }
    }

    /// The action parameters: every non-empty pair of the query that is not one of the four
    /// x-callback parameters, in order, name and value decoded once (`+` kept; invalid UTF-8
    /// replaced by U+FFFD). Computed on request.
    public var parameters: [XCallbackItem] {
        guard actionItems.count > 0 else { return [] }
        return url.bytes.withUnsafeBufferPointer { b in
            var out: [XCallbackItem] = []
            out.reserveCapacity(actionItems.count)
            for k in 0..<actionItems.count {
                let item = actionItems[k]
                out.append(XCallbackItem(name: XCallback.decodedText(b, item.name), value: item.value.map { XCallback.decodedText(b, $0) }))
            }
            return out
        }
    }
}

/// The action parameters' items in order: the first four held inline, the rest in an array.
/// Links carry one to three action parameters, and an array of them was an allocation (and its
/// release) on every parse.
struct ActionItems: Sendable {
    static let inline = 4
    private var i0: QueryItem?, i1: QueryItem?, i2: QueryItem?, i3: QueryItem?
    private var rest: [QueryItem] = []
    private(set) var count = 0

    mutating func append(_ item: QueryItem) {
        switch count {
        case 0: i0 = item
        case 1: i1 = item
        case 2: i2 = item
        case 3: i3 = item
        default: rest.append(item)
        }
        count += 1
    }

    subscript(k: Int) -> QueryItem {
        switch k {
        case 0: i0!
        case 1: i1!
        case 2: i2!
        case 3: i3!
        default: rest[k - Self.inline]
        }
    }
}

/// One callback value: raw as in the URL, and decoded exactly once. Shared by the protocols
/// built on x-callback-url (ULC names its parameters with its own enumeration).
public struct CallbackValue<Parameter: Sendable & Hashable>: Sendable, Hashable {
    public let parameter: Parameter
    /// The value's range in the URL.
    public let range: Range<Int>
    /// The URL's bytes (shared, not copied).
    let link: [UInt8]
    /// The value percent-decoded once (`+` kept), or nil if the octets are not UTF-8.
    public let decoded: String?

    public init(parameter: Parameter, range: Range<Int>, link: [UInt8], decoded: String?) {
        self.parameter = parameter
        self.range = range
        self.link = link
        self.decoded = decoded
    }

    /// The raw (encoded) value, as written in the URL.
    public var raw: String {
        link.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }
}

/// An x-callback-url callback.
public typealias XCallbackValue = CallbackValue<XCallbackParameter>

/// A name and an optional value: an action parameter, or a result to send back.
public struct XCallbackItem: Sendable, Hashable {
    public var name: String
    /// Nil for a pair without `=`.
    public var value: String?

    public init(name: String, value: String?) {
        self.name = name
        self.value = value
    }
}
