/// The result of splitting a URI reference: component ranges and diagnostics, without the
/// bytes themselves (``LinkURL`` pairs the two). Kept small: it is copied into the results of
/// every protocol module.
///
/// ```swift
/// let bytes = Array("https://a.example/p?q=1".utf8)
/// let scan = bytes.withUnsafeBufferPointer { URLScan(scanning: $0) }
/// scan.query      // 19..<22
/// ```
public struct URLScan: Sendable, Hashable {
    var spans = Spans()
    /// Most diagnostics kept (``URLLimits/maxDiagnostics``).
    private var diagnosticLimit: Int32 = 64
    /// Every problem found, in input order (at most ``URLLimits/maxDiagnostics``).
    public private(set) var diagnostics: [URLDiagnostic] = []
    /// How many diagnostics were found beyond the stored ones.
    public private(set) var droppedDiagnostics = 0
    /// Whether the scheme is `https` (compared ignoring ASCII case, RFC 3986 section 3.1):
    /// the question every protocol module asks, answered during the scan.
    public internal(set) var isHTTPS = false
    /// Whether there is a scheme and RFC 3986 allows it (section 3.1: a letter, then letters,
    /// digits, `+`, `-` or `.`); the scan takes whatever precedes the first `:` as the scheme
    /// and reports one that is not valid.
    public internal(set) var hasValidScheme = false

    /// An empty reference.
    public init() {}

    /// Splits the bytes of `buffer` as a URI reference.
    public init(scanning buffer: UnsafeBufferPointer<UInt8>, limits: URLLimits = .default) {
        read(buffer, limits: limits)
    }

    /// Splits `buffer` into this empty scan. The module's own readers start from `URLScan()`
    /// and call this on their variable: a scan made by the initialiser and then assigned was
    /// copied (its diagnostics retained), destroyed and assigned again, for every link and
    /// callback (callgrind, `linkconform-bench-xcallback profile 2000`: 683 to 659 million
    /// instructions).
    mutating func read(_ buffer: UnsafeBufferPointer<UInt8>, limits: URLLimits) {
        guard buffer.count <= limits.maxLength else {
            diagnostics = [URLDiagnostic(code: .tooLong, offset: limits.maxLength, component: nil)]
            return
        }
        diagnosticLimit = Int32(clamping: limits.maxDiagnostics)
        run(buffer)
    }

    /// Records a diagnostic, or counts it when the limit is reached.
    mutating func add(_ code: URLDiagnostic.Code, _ offset: Int, _ component: URLComponent?) {
        if diagnostics.count < Int(diagnosticLimit) {
            // Room for eight at the first: grown one at a time, the array was reallocated seven
            // times on the way to the limit of 64, four times per input of the ULC fuzz target.
            if diagnostics.isEmpty { diagnostics.reserveCapacity(8) }
            diagnostics.append(URLDiagnostic(code: code, offset: offset, component: component))
        } else {
            droppedDiagnostics += 1
        }
    }

    public var scheme: Range<Int>? { spans.scheme.range }
    public var authority: Range<Int>? { spans.authority.range }
    public var userinfo: Range<Int>? { spans.userinfo.range }
    public var host: Range<Int>? { spans.host.range }
    public var portRange: Range<Int>? { spans.port.range }
    public var path: Range<Int> { spans.path.range ?? 0..<0 }
    public var query: Range<Int>? { spans.query.range }
    public var fragment: Range<Int>? { spans.fragment.range }

    /// The diagnostics that are RFC 3986 syntax errors: all but ``URLDiagnostic/Code/emptyHost``.
    public var syntaxDiagnostics: [URLDiagnostic] {
        diagnostics.isEmpty ? [] : diagnostics.filter { $0.code != .emptyHost }
    }

    /// The first of ``syntaxDiagnostics``, without building the array.
    public var firstSyntaxDiagnostic: URLDiagnostic? {
        diagnostics.isEmpty ? nil : diagnostics.first { $0.code != .emptyHost }
    }

    /// Whether the input was over the length limit and therefore not split.
    public var isOverLimit: Bool { diagnostics.first?.code == .tooLong }

    /// Whether the reference has a scheme.
    public var isAbsolute: Bool { spans.scheme.lower >= 0 }

    /// Whether the host is absent or empty.
    public var hasNoHost: Bool { spans.host.lower < 0 || spans.host.lower == spans.host.upper }

    /// Whether the scheme, read from the scanned bytes, equals `name` ignoring ASCII case.
    public func schemeIs(_ name: StaticString, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let scheme, scheme.count == name.utf8CodeUnitCount else { return false }
        let p = name.utf8Start
        for (k, i) in scheme.enumerated() where ASCII.lower(bytes[i]) != ASCII.lower(p[k]) { return false }
        return true
    }
}

/// A range with 32-bit bounds; `lower == -1` means absent.
struct Span: Sendable, Hashable {
    var lower: Int32 = -1
    var upper: Int32 = -1

    init() {}

    init(_ r: Range<Int>) {
        lower = Int32(truncatingIfNeeded: r.lowerBound)
        upper = Int32(truncatingIfNeeded: r.upperBound)
    }

    var range: Range<Int>? { lower < 0 ? nil : Int(lower)..<Int(upper) }
}

/// The component ranges of a ``LinkURL``.
struct Spans: Sendable, Hashable {
    var scheme = Span(), authority = Span(), userinfo = Span(), host = Span(), port = Span()
    var path = Span(), query = Span(), fragment = Span()
}
