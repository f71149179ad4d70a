import LinkURL
import SeededRandom

/// Mutations that know what a link is made of: scheme, authority, query items, escapes,
/// fragment. Each works on the link's UTF-8 bytes and keeps them valid UTF-8 (whole sequences
/// are inserted, spans are cut at scalar boundaries), so the result is again a string an
/// adapter can be sent.
///
/// ```swift
/// var rng = SeededGenerator(seed: 7)
/// let link = Array("https://a.example/x?ulc-success=https%3A%2F%2Fs.example".utf8)
/// LinkMutator.mutate(link, .doubleEncode, donors: [], rng: &rng)   // ...https%253A%252F%252Fs.example
/// ```
public enum LinkMutation: String, CaseIterable, Sendable {
    case encodeByte, doubleEncode, breakEscape, decodeEscape
    case duplicateItem, reorderItems, dropItem, emptyValue, addItem, crossover
    case nestCallback, rawValue
    case caseChange, unicode, oversize, insertDelimiter, changeScheme, deleteSpan
}

public enum LinkMutator {
    /// Characters worth inserting: delimiters whose place decides how a link is read.
    static let delimiters: [[UInt8]] = ["#", "?", "&", "=", "+", " ", "%", "\\", "@", ":", "/", ";", "\t", "\n", "&&", "%00", "//", "../"].map { Array($0.utf8) }
    /// Scalars parsers disagree on: non-ASCII letters, invisible and bidi controls, fullwidth
    /// delimiters, NUL, a byte order mark, a combining mark, an emoji.
    static let scalars: [String] = ["é", "\u{00A0}", "\u{200B}", "\u{202E}", "\u{FF0F}", "\u{FF1F}", "\u{0130}", "ß", "\u{0000}", "\u{FEFF}",
                                    "\u{0301}", "🙂", "\u{2028}", "\u{1F1E9}\u{1F1EA}", "ｈｔｔｐｓ"]
    static let schemes: [String] = ["http", "HTTPS", "hTtPs", "ftp", "javascript", "file", "", "https ", "x-callback-url", "xignqr", "intent"]
    /// Sizes an oversized part grows the link to: past common buffers and LinkConform's 64 KiB limit.
    /// (One in six just over it: such links are costly for every side to read, and one size
    /// over the limit finds what the others would.)
    static let sizes = [300, 300, 2_100, 2_100, 8_300, 65_540]
    static let hex: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// Applies one mutation; `donors` are other inputs of the same operation (for crossover and
    /// added items). A mutation that finds nothing to work on (no query, no escape) falls back
    /// to inserting a delimiter, so every call changes something.
    public static func mutate(_ link: [UInt8], _ mutation: LinkMutation, donors: [[UInt8]], rng: inout SeededGenerator) -> [UInt8] {
        if let result = apply(link, mutation, donors: donors, rng: &rng), result != link { return result }
        return insert(delimiters.randomElement(using: &rng)!, into: link, rng: &rng)
    }

    /// One random mutation.
    public static func mutate(_ link: [UInt8], donors: [[UInt8]], rng: inout SeededGenerator) -> [UInt8] {
        mutate(link, LinkMutation.allCases.randomElement(using: &rng)!, donors: donors, rng: &rng)
    }

    static func apply(_ link: [UInt8], _ mutation: LinkMutation, donors: [[UInt8]], rng: inout SeededGenerator) -> [UInt8]? {
        var out = link
        switch mutation {
        case .encodeByte:
            guard let i = randomIndex(link, rng: &rng, where: { link[$0] < 0x80 && link[$0] > 0x20 }) else { return nil }
            out.replaceSubrange(i...i, with: escape(link[i]))
        case .doubleEncode:
            guard let percent = randomIndex(link, rng: &rng, where: { link[$0] == UInt8(ascii: "%") }) else {
                // Encode a byte first (then there is a '%'); nothing to encode, nothing to do.
                guard let encoded = apply(link, .encodeByte, donors: donors, rng: &rng) else { return nil }
                return apply(encoded, .doubleEncode, donors: donors, rng: &rng)
            }
            // Every escape of one item, or one escape.
            if Bool.random(using: &rng), let item = QueryParts(link).items.filter({ link[$0].contains(UInt8(ascii: "%")) }).randomElement(using: &rng) {
                var value = Array(link[item])
                value = value.flatMap { $0 == UInt8(ascii: "%") ? Array("%25".utf8) : [$0] }
                out.replaceSubrange(item, with: value)
            } else {
                out.replaceSubrange(percent...percent, with: Array("%25".utf8))
            }
        case .breakEscape:
            let broken = ["%", "%4", "%G1", "%%", "%0", "%zz", "%2", "%u0041", "%C3", "%E2%82"].map { Array($0.utf8) }.randomElement(using: &rng)!
            if let i = randomIndex(link, rng: &rng, where: { decoded(link, at: $0) != nil }) {
                out.replaceSubrange(i..<i + 3, with: broken)
            } else {
                out = insert(broken, into: link, rng: &rng)
            }
        case .decodeEscape:
            guard let i = randomIndex(link, rng: &rng, where: { (decoded(link, at: $0) ?? 0x80) < 0x80 }) else { return nil }
            out.replaceSubrange(i..<i + 3, with: [decoded(link, at: i)!])
        case .duplicateItem:
            let parts = QueryParts(link)
            guard let item = parts.items.randomElement(using: &rng) else { return nil }
            out.insert(contentsOf: Array(link[item]) + [UInt8(ascii: "&")], at: item.lowerBound)
        case .reorderItems:
            let parts = QueryParts(link)
            guard parts.items.count >= 2 else { return nil }
            var items = parts.items.map { Array(link[$0]) }
            if Bool.random(using: &rng) {
                items.shuffle(using: &rng)
            } else {
                let a = Int.random(in: 0..<items.count, using: &rng), b = Int.random(in: 0..<items.count, using: &rng)
                items.swapAt(a, b)
            }
            out.replaceSubrange(parts.query!, with: joined(items))
        case .dropItem:
            let parts = QueryParts(link)
            guard !parts.items.isEmpty else { return nil }
            var items = parts.items.map { Array(link[$0]) }
            items.remove(at: Int.random(in: 0..<items.count, using: &rng))
            out.replaceSubrange(parts.query!, with: joined(items))
        case .emptyValue:
            let parts = QueryParts(link)
            guard let item = parts.items.randomElement(using: &rng) else { return nil }
            let name = link[item].split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false).first.map(Array.init) ?? []
            out.replaceSubrange(item, with: Bool.random(using: &rng) ? name : name + [UInt8(ascii: "=")])
        case .addItem, .crossover:
            // An item of another input (its name and value), added or put in place of one.
            var donated: [UInt8]?
            for _ in 0..<4 where donated == nil {
                guard let donor = donors.randomElement(using: &rng) else { break }
                donated = QueryParts(donor).items.randomElement(using: &rng).map { Array(donor[$0]) }
            }
            guard let donated else { return nil }
            let parts = QueryParts(link)
            if mutation == .crossover, let item = parts.items.randomElement(using: &rng) {
                out.replaceSubrange(item, with: donated)
            } else if let query = parts.query {
                let at = Bool.random(using: &rng) ? query.lowerBound : query.upperBound
                out.insert(contentsOf: at == query.lowerBound ? donated + [UInt8(ascii: "&")] : [UInt8(ascii: "&")] + donated, at: at)
            } else {
                out.insert(contentsOf: [UInt8(ascii: "?")] + donated, at: parts.fragmentStart ?? link.count)
            }
        case .nestCallback:
            // A value that carries the whole link, encoded once or twice, or a value wrapped in
            // another callback URL.
            let parts = QueryParts(link)
            guard let item = parts.items.randomElement(using: &rng), let eq = link[item].firstIndex(of: UInt8(ascii: "=")) else { return nil }
            let value = Array(link[(eq + 1)..<item.upperBound])
            let nested: [UInt8]
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: nested = encodeAll(link)
            case 1: nested = encodeAll(encodeAll(link))
            default: nested = encodeAll(Array("https://n.example/cb?x-success=".utf8) + value)
            }
            out.replaceSubrange((eq + 1)..<item.upperBound, with: nested)
        case .rawValue:
            // A value decoded once: a nested URL's own '?', '&', '=' and '#' become raw.
            let parts = QueryParts(link)
            guard let item = parts.items.randomElement(using: &rng), let eq = link[item].firstIndex(of: UInt8(ascii: "=")) else { return nil }
            out.replaceSubrange((eq + 1)..<item.upperBound, with: decodeAll(Array(link[(eq + 1)..<item.upperBound])))
        case .caseChange:
            guard !link.isEmpty else { return nil }
            let span = randomSpan(link, maxLength: 24, rng: &rng)
            for i in span {
                let b = out[i]
                if (0x41...0x5A).contains(b) { out[i] = b + 0x20 } else if (0x61...0x7A).contains(b) { out[i] = b - 0x20 }
            }
        case .unicode:
            var scalar = Array(scalars.randomElement(using: &rng)!.utf8)
            if Int.random(in: 0..<3, using: &rng) == 0 { scalar = encodeAll(scalar) }
            out = insert(scalar, into: link, rng: &rng)
        case .oversize:
            guard !link.isEmpty else { return nil }
            let target = sizes.randomElement(using: &rng)!
            let span = randomSpan(link, maxLength: 16, rng: &rng)
            let piece = span.isEmpty ? [UInt8(ascii: "a")] : Array(link[span])
            let copies = max(1, (target - link.count + piece.count - 1) / piece.count)
            out = repeating(piece, copies, at: span.upperBound, in: link)
        case .insertDelimiter:
            out = insert(delimiters.randomElement(using: &rng)!, into: link, rng: &rng)
        case .changeScheme:
            let colon = link.firstIndex(of: UInt8(ascii: ":")) ?? 0
            out.replaceSubrange(0..<colon, with: Array(schemes.randomElement(using: &rng)!.utf8))
        case .deleteSpan:
            guard !link.isEmpty else { return nil }
            out.removeSubrange(randomSpan(link, maxLength: max(1, link.count / 3), rng: &rng))
        }
        return out
    }

    // MARK: pieces

    /// The query and its items (`&`-separated, empty ones left out), and where the fragment starts.
    struct QueryParts {
        var query: Range<Int>?
        var items: [Range<Int>] = []
        var fragmentStart: Int?

        init(_ link: [UInt8]) {
            fragmentStart = link.firstIndex(of: UInt8(ascii: "#"))
            let end = fragmentStart ?? link.count
            guard let q = link[..<end].firstIndex(of: UInt8(ascii: "?")) else { return }
            query = (q + 1)..<end
            var start = q + 1
            for i in (q + 1)...end where i == end || link[i] == UInt8(ascii: "&") {
                if i > start { items.append(start..<i) }
                start = i + 1
            }
        }
    }

    static func joined(_ items: [[UInt8]]) -> [UInt8] {
        Array(items.joined(separator: [UInt8(ascii: "&")]))
    }

    static func escape(_ byte: UInt8) -> [UInt8] {
        [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
    }

    /// Every byte but the unreserved ones as `%XX`.
    static func encodeAll(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            let unreserved = (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) || (0x30...0x39).contains(b) || b == 0x2D || b == 0x2E || b == 0x5F || b == 0x7E
            if unreserved { out.append(b) } else { out += escape(b) }
        }
        return out
    }

    /// Decodes every valid `%XX` once; a decoded byte that would break UTF-8 stays encoded.
    static func decodeAll(_ bytes: [UInt8]) -> [UInt8] {
        var raw: [UInt8] = []
        var i = 0
        while i < bytes.count {
            if let b = decoded(bytes, at: i) { raw.append(b); i += 3 } else { raw.append(bytes[i]); i += 1 }
        }
        return String(validating: raw, as: UTF8.self) == nil ? bytes : raw
    }

    static func decoded(_ bytes: [UInt8], at i: Int) -> UInt8? {
        guard i + 2 < bytes.count, bytes[i] == UInt8(ascii: "%"), let hi = ByteClass.hexValue(bytes[i + 1]), let lo = ByteClass.hexValue(bytes[i + 2]) else { return nil }
        return hi << 4 | lo
    }

    /// A random index where `test` holds: the first at or after a random start, wrapping
    /// around (no list of every candidate is built: links may be 64 KiB).
    static func randomIndex(_ bytes: [UInt8], rng: inout SeededGenerator, where test: (Int) -> Bool) -> Int? {
        guard !bytes.isEmpty else { return nil }
        let start = Int.random(in: 0..<bytes.count, using: &rng)
        for i in start..<bytes.count where test(i) { return i }
        for i in 0..<start where test(i) { return i }
        return nil
    }

    /// Whether `i` starts a scalar (or is the end): never a UTF-8 continuation byte.
    static func isBoundary(_ bytes: [UInt8], _ i: Int) -> Bool {
        i >= bytes.count || bytes[i] & 0xC0 != 0x80
    }

    static func boundary(_ bytes: [UInt8], atOrBefore i: Int) -> Int {
        var i = i
        while i > 0 && !isBoundary(bytes, i) { i -= 1 }
        return i
    }

    /// `bytes` with `copies` copies of `piece` inserted at `at`. The copies are made by doubling
    /// (one copy, then the copied run onto its own end): an oversized part is up to 65,540 bytes
    /// of a piece as short as one byte, and appending piece by piece cost more than the rest of
    /// a fuzzing step.
    static func repeating(_ piece: [UInt8], _ copies: Int, at: Int, in bytes: [UInt8]) -> [UInt8] {
        let run = piece.count * copies
        guard run > 0 else { return bytes }
        let total = bytes.count + run
        return [UInt8](unsafeUninitializedCapacity: total) { out, initialized in
            let base = out.baseAddress!
            bytes.withUnsafeBufferPointer { source in
                if at > 0 { base.initialize(from: source.baseAddress!, count: at) }
                if at < source.count { (base + at + run).initialize(from: source.baseAddress! + at, count: source.count - at) }
            }
            piece.withUnsafeBufferPointer { (base + at).initialize(from: $0.baseAddress!, count: $0.count) }
            var filled = piece.count
            while filled < run {
                let step = min(filled, run - filled)
                (base + at + filled).initialize(from: base + at, count: step)
                filled += step
            }
            initialized = total
        }
    }

    static func insert(_ piece: [UInt8], into bytes: [UInt8], rng: inout SeededGenerator) -> [UInt8] {
        var out = bytes
        out.insert(contentsOf: piece, at: boundary(bytes, atOrBefore: Int.random(in: 0...bytes.count, using: &rng)))
        return out
    }

    /// A span of up to `maxLength` bytes, cut at scalar boundaries.
    static func randomSpan(_ bytes: [UInt8], maxLength: Int, rng: inout SeededGenerator) -> Range<Int> {
        let start = boundary(bytes, atOrBefore: Int.random(in: 0..<bytes.count, using: &rng))
        let end = boundary(bytes, atOrBefore: min(bytes.count, start + Int.random(in: 1...maxLength, using: &rng)))
        return start..<max(start, end)
    }
}
