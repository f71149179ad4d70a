/// Follows the include statements of a tree of statement lists without doing any I/O: the
/// caller fetches each URL the walk asks for and hands the bytes back (or nil when the fetch
/// failed), so the same walk serves a test with canned files and a live HTTPS checker.
///
/// Rules (docs/assetlinks.md, "Includes"): lists are read depth first in file order; at most
/// ``AssetLinks/maxIncludes`` includes are followed in the whole tree (a loop just uses the
/// budget up); an http include is never followed (the root is taken to be served over https);
/// an include that cannot be fetched, is not JSON or is not an array contributes nothing, and
/// invalid statements inside an include are skipped like in the root. Statements read before
/// the budget ran out still count.
///
/// ```swift
/// var walk = AssetLinksIncludeWalk(root: rootBytes)
/// while let url = walk.nextURL() {
///     walk.provide(url, bytes: try? await fetch(url))   // nil: not fetched
/// }
/// walk.statements   // every valid statement of the tree
/// walk.events       // what happened to each include
/// ```
public struct AssetLinksIncludeWalk: Sendable {
    /// What became of one include statement.
    public struct Event: Sendable, Hashable, CustomStringConvertible {
        public enum Kind: String, Sendable, Hashable {
            /// Fetched and read; its statements count.
            case followed
            /// The fetch gave nothing (the caller handed back nil).
            case notFetched = "not-fetched"
            /// Fetched, but not a statement list (not JSON, not an array, too large).
            case unreadable
            /// http: never followed.
            case insecure
            /// Past the budget of includes: not followed.
            case budgetExhausted = "budget-exhausted"
        }

        public let url: String
        public let kind: Kind
        /// The list that named the include: nil for the root, else the include URL.
        public let from: String?

        public var description: String { "\(url): \(kind.rawValue)" + (from.map { " (named by \($0))" } ?? "") }
    }

    /// Every valid statement of the lists read so far, with the list it came from (nil: root).
    public private(set) var statements: [(statement: AssetLinksStatement, source: String?)] = []
    public private(set) var events: [Event] = []
    /// Whether the root could be read at all.
    public let rootReadable: Bool
    /// Includes still to visit, the next one last.
    private var pending: [(include: AssetLinksInclude, from: String?)] = []
    private var followed = 0
    /// The URL handed out by ``nextURL()`` and not yet provided, with the list that named it.
    private var asked: (url: String, from: String?)?

    public init(root: [UInt8]) {
        let (list, _) = AssetLinks.parse(root)
        rootReadable = list != nil
        if let list { add(list, from: nil) }
    }

    /// The next URL to fetch, or nil when the walk is over. Includes that need no fetch
    /// (insecure, past the budget) are recorded on the way.
    public mutating func nextURL() -> String? {
        if let asked { return asked.url }
        while let (include, from) = pending.popLast() {
            if include.isInsecure {
                events.append(Event(url: include.url, kind: .insecure, from: from))
            } else if followed >= AssetLinks.maxIncludes {
                events.append(Event(url: include.url, kind: .budgetExhausted, from: from))
            } else {
                followed += 1
                asked = (include.url, from)
                return include.url
            }
        }
        return nil
    }

    /// Hands back the bytes fetched for the URL ``nextURL()`` returned (nil: not fetched).
    public mutating func provide(_ url: String, bytes: [UInt8]?) {
        guard let (expected, from) = asked, expected == url else { return }
        asked = nil
        guard let bytes else {
            events.append(Event(url: url, kind: .notFetched, from: from))
            return
        }
        guard let list = AssetLinks.parse(bytes).0 else {
            events.append(Event(url: url, kind: .unreadable, from: from))
            return
        }
        events.append(Event(url: url, kind: .followed, from: from))
        add(list, from: url)
    }

    private mutating func add(_ list: AssetLinksList, from source: String?) {
        statements += list.statements.map { ($0, source) }
        pending += list.includes.reversed().map { ($0, source) }
    }

    /// Walks the tree with canned lists: `includes` maps an include URL to its text's bytes
    /// (a URL without an entry is not fetched).
    public static func resolve(root: [UInt8], includes: [String: [UInt8]]) -> AssetLinksIncludeWalk {
        var walk = AssetLinksIncludeWalk(root: root)
        while let url = walk.nextURL() { walk.provide(url, bytes: includes[url]) }
        return walk
    }
}
