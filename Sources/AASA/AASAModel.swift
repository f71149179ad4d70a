/// Which entry of `applinks.details` a rule belongs to: its index in the array form, or its app
/// ID key in the oldest, dictionary form.
public enum AASADetailKey: Sendable, Hashable, CustomStringConvertible {
    case index(Int)
    case appID(String)

    public var description: String {
        switch self {
        case .index(let i): String(i)
        case .appID(let id): id
        }
    }
}

/// A component's `?`: a pattern on the whole query, a dictionary of patterns on named query
/// items, or a dictionary the system ignores because one of its values is not a string (so it
/// matches every query).
public enum AASAQueryPattern: Sendable, Hashable {
    case string(String)
    case dictionary([AASAQueryItemPattern])
    case ignored
}

/// One member of a `?` dictionary: a query item name (compared literally) and a pattern on the
/// item's value.
public struct AASAQueryItemPattern: Sendable, Hashable {
    public let name: String
    public let pattern: String
    public init(name: String, pattern: String) {
        self.name = name
        self.pattern = pattern
    }
}

/// The keys a component dictionary, or a `defaults` dictionary, sets: `nil` where it sets
/// nothing (or where the value has the wrong type, which the system ignores).
public struct AASAComponentKeys: Sendable, Hashable {
    public var path: String?
    public var query: AASAQueryPattern?
    public var fragment: String?
    public var exclude: Bool?
    public var caseSensitive: Bool?
    public var percentEncoded: Bool?
    public var comment: String?
    /// Index in its `components` array (nil for a `defaults` dictionary).
    public var index: Int?
    /// JSON Pointer of the dictionary.
    public var pointer: String

    public init(pointer: String, index: Int? = nil) {
        self.pointer = pointer
        self.index = index
    }
}

/// One legacy `paths` entry that is a string: `NOT ` (with the space) makes it an exclusion.
public struct AASALegacyPath: Sendable, Hashable {
    /// Index in its `paths` array.
    public let index: Int
    /// The entry as written.
    public let text: String
    public let pointer: String

    public var isExclusion: Bool { text.utf8.starts(with: "NOT ".utf8) }
    /// The pattern, without `NOT `.
    public var pattern: String { isExclusion ? String(text.dropFirst(4)) : text }
}

/// One entry of `applinks.details`.
public struct AASADetail: Sendable, Hashable {
    public let key: AASADetailKey
    public let pointer: String
    /// The app IDs that select this entry: the strings of `appIDs` and a string `appID`, or the
    /// key in the dictionary form.
    public let appIDs: [String]
    public let defaults: AASAComponentKeys?
    /// The component dictionaries (those that are objects), when `components` is an array.
    public let components: [AASAComponentKeys]?
    /// Whether the entry has a `components` key at all (of any type): then `paths` is ignored.
    public let hasComponentsKey: Bool
    /// The legacy `paths` strings, when `paths` is an array.
    public let paths: [AASALegacyPath]?
}

/// The `applinks` service.
public struct AASAAppLinks: Sendable, Hashable {
    public let details: [AASADetail]
    /// Whether `details` was written in the oldest form, a dictionary keyed by app ID.
    public let isDictionaryForm: Bool
    public let defaults: AASAComponentKeys?
    /// `substitutionVariables`: names with their alternatives (only well-typed ones).
    public let variables: [String: [String]]
}

/// A parsed apple-app-site-association file: what the system reads of it. Problems are reported
/// beside it as ``AASADiagnostic``s.
///
/// ```swift
/// let (file, diagnostics) = AASAFile.parse(Array(text.utf8))
/// let matcher = file?.matcher(appID: "ABCDE12345.com.example.app")
/// matcher?.match(url: "https://example.com/buy/1", domain: "example.com").kind   // .match
/// ```
public struct AASAFile: Sendable, Hashable {
    /// `applinks`, when it is an object.
    public let applinks: AASAAppLinks?
    /// The string app IDs of `webcredentials.apps`, `appclips.apps` and
    /// `activitycontinuation.apps`, when those services are present.
    public let webcredentials: [String]?
    public let appclips: [String]?
    public let activityContinuation: [String]?
    /// Size of the file in bytes.
    public let byteCount: Int

    /// Every app ID some `details` entry lists, in file order, each once.
    public var appIDs: [String] {
        var seen = Set<String>(), out: [String] = []
        for detail in applinks?.details ?? [] {
            for id in detail.appIDs where seen.insert(id).inserted { out.append(id) }
        }
        return out
    }
}

/// The hard limit on the size of a file this module reads: 1 MiB, eight times what the system
/// reads. Larger input is refused with a `file-too-large` diagnostic and not parsed: at 13 MB a
/// file of 300,000 rules took 17 s and 1.4 GB to validate, to list problems of a file iOS refuses
/// anyway. (Between 128 KB, the platform's limit, and this one, a file is still read, so that
/// validation lists what else is wrong, but it matches no URL: ``AASA/isRefusedForSize(_:)``.)
/// The same cap as Digital Asset Links statement lists.
public let aasaHardSizeLimit = 1024 * 1024

/// The platform's limit on an uncompressed file: 128 KB (App Search Programming Guide).
public let aasaPlatformSizeLimit = 128 * 1024
