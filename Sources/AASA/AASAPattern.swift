/// One piece of a parsed pattern.
enum AASAToken: Sendable, Hashable {
    /// One literal scalar.
    case scalar(UInt32)
    /// Exactly one scalar of a class (`?` is `.one(.any)`; `$(digit)` is `.one(0-9)`).
    case one(AASACharacterClass)
    /// Any run of scalars, also empty.
    case star
    /// Any one of the alternatives.
    case choice([[AASAToken]])
}

/// The syntax of `$(name)` references.
public enum AASAPatternSyntax {
    /// The names a pattern refers to with `$(name)`, in order: a `$(` followed by a `)` with
    /// no `$` or `(` in between. Anything else is literal text.
    public static func variableReferences(in pattern: String) -> [String] {
        references(Array(pattern.unicodeScalars)).map(\.name)
    }

    static func references(_ s: [Unicode.Scalar]) -> [(range: Range<Int>, name: String)] {
        var out: [(Range<Int>, String)] = []
        var i = 0
        while i + 1 < s.count {
            if s[i] == "$" && s[i + 1] == "(" {
                var j = i + 2
                while j < s.count && s[j] != ")" && s[j] != "$" && s[j] != "(" { j += 1 }
                if j < s.count && s[j] == ")" {
                    var name = String.UnicodeScalarView()
                    name.append(contentsOf: s[(i + 2)..<j])
                    out.append((i..<(j + 1), String(name)))
                    i = j + 1
                    continue
                }
            }
            i += 1
        }
        return out
    }
}

/// The predefined substitution variables ("applinks.SubstitutionVariables").
public enum AASAPredefined {
    /// What a predefined variable stands for.
    public enum Meaning: Sendable {
        /// One scalar of a class.
        case one(AASACharacterClass)
        /// One code of a list (`region`, `lang`).
        case list([String])
    }

    /// The meaning of a predefined variable name, or nil. Letters and digits are ASCII.
    public static func lookup(_ name: String) -> Meaning? {
        switch name {
        case "alpha": .one(AASACharacterClass(ranges: [0x41...0x5A, 0x61...0x7A]))
        case "upper": .one(AASACharacterClass(ranges: [0x41...0x5A]))
        case "lower": .one(AASACharacterClass(ranges: [0x61...0x7A]))
        case "alnum": .one(AASACharacterClass(ranges: [0x30...0x39, 0x41...0x5A, 0x61...0x7A]))
        case "digit": .one(AASACharacterClass(ranges: [0x30...0x39]))
        case "xdigit": .one(AASACharacterClass(ranges: [0x30...0x39, 0x41...0x46, 0x61...0x66]))
        case "region": .list(aasaRegionCodes)
        case "lang": .list(aasaLanguageCodes)
        default: nil
        }
    }

    /// The region codes `$(region)` stands for (frozen from Foundation's `Locale`).
    public static var regionCodes: [String] { aasaRegionCodes }
    /// The language codes `$(lang)` stands for (frozen from Foundation's `Locale`).
    public static var languageCodes: [String] { aasaLanguageCodes }
}

/// How the characters of a component are compared: the two flags of a rule that change what a
/// character is.
public struct AASACompareOptions: Sendable, Hashable {
    /// Fold case on both sides when false.
    public var caseSensitive: Bool
    /// Compare the component as written (a character is a byte of ASCII) when true; decode it
    /// first (a character is a Unicode scalar) when false.
    public var percentEncoded: Bool

    public init(caseSensitive: Bool = true, percentEncoded: Bool = true) {
        self.caseSensitive = caseSensitive
        self.percentEncoded = percentEncoded
    }

    /// Folds one scalar the way both sides are folded: nothing when case-sensitive, ASCII
    /// letters when percent-encoded, the Unicode lowercase mapping otherwise (which may give
    /// several scalars).
    @inline(__always)
    func fold(_ c: UInt32, into out: inout [UInt32]) {
        if caseSensitive || (c < 0x80 && (c < 0x41 || c > 0x5A)) {
            out.append(c)
        } else if c < 0x80 || percentEncoded {
            out.append(c >= 0x41 && c <= 0x5A ? c + 0x20 : c)
        } else if let scalar = Unicode.Scalar(c) {
            for m in scalar.properties.lowercaseMapping.unicodeScalars { out.append(m.value) }
        } else {
            out.append(c)
        }
    }
}

/// Compiles glob patterns into ``AASAAutomaton``s.
public enum AASAPatternCompiler {
    /// Which component a pattern is for: paths get the slash rules.
    public enum Kind: Sendable { case path, other }

    /// Compiles `pattern`: `*` any run, `?` one character, `$(name)` one alternative of a
    /// custom (`variables`, which win over predefined names) or predefined variable, anything
    /// else literal (an undefined or malformed `$(...)` too). For `.path`, the pattern's slash
    /// rules are applied first (``normalizedPathPattern(_:)``). Literals and alternatives are
    /// folded under `options.caseSensitive == false`.
    public static func compile(_ pattern: String, as kind: Kind, options: AASACompareOptions,
                               variables: [String: [String]] = [:]) -> AASAAutomaton {
        AASAAutomatonBuilder.build(tokens(pattern, as: kind, options: options, variables: variables))
    }

    /// ``compile(_:as:options:variables:)`` if building the automaton costs at most `budget`
    /// (``AASAAutomatonBuilder/build(_:within:need:)``), taking its cost from `budget`; else nil.
    /// `need`: on success, the least budget the automaton builds within.
    static func compile(_ pattern: String, as kind: Kind, options: AASACompareOptions,
                        variables: [String: [String]], within budget: inout Int, need: inout Int) -> AASAAutomaton? {
        AASAAutomatonBuilder.build(tokens(pattern, as: kind, options: options, variables: variables), within: &budget, need: &need)
    }

    /// The tokens ``compile(_:as:options:variables:)`` builds its automaton from.
    static func tokens(_ pattern: String, as kind: Kind, options: AASACompareOptions, variables: [String: [String]]) -> [AASAToken] {
        let scalars = Array(pattern.unicodeScalars)
        guard kind == .path else { return tokenize(scalars, options: options, variables: variables) }
        let (main, parent) = normalizedPathPattern(scalars)
        let tokens = tokenize(main, options: options, variables: variables)
        guard let parent else { return tokens }
        return [.choice([tokens, tokenize(parent, options: options, variables: variables)])]
    }

    /// The states an automaton built from `tokens` has at most (one per scalar, class and star,
    /// plus one where each choice ends): what compiling costs, known before building.
    static func stateCount(_ tokens: [AASAToken]) -> Int {
        var n = 0
        for token in tokens {
            switch token {
            case .scalar, .one, .star: n += 1
            case .choice(let alternatives): n += 1 + alternatives.reduce(0) { $0 + stateCount($1) }
            }
        }
        return n
    }

    /// The slash rules of path patterns (observed, `swcutil`): a leading run of slashes counts
    /// as one and a missing leading slash is added; a trailing run of slashes is dropped (a lone
    /// `/` stays). Returns the pattern, and for one that ends in `/*` (other than `/*` itself),
    /// its parent (`/buy/*` also matches `/buy`).
    static func normalizedPathPattern(_ s: [Unicode.Scalar]) -> (main: [Unicode.Scalar], parent: [Unicode.Scalar]?) {
        var lo = 0, hi = s.count
        while lo < hi && s[lo] == "/" { lo += 1 }
        while hi > lo && s[hi - 1] == "/" { hi -= 1 }
        let main: [Unicode.Scalar] = ["/"] + s[lo..<hi]
        if main.count > 2 && main[main.count - 1] == "*" && main[main.count - 2] == "/" {
            return (main, Array(main.dropLast(2)))
        }
        return (main, nil)
    }

    static func tokenize(_ s: [Unicode.Scalar], options: AASACompareOptions, variables: [String: [String]]) -> [AASAToken] {
        var out: [AASAToken] = []
        var folded: [UInt32] = []
        var references = AASAPatternSyntax.references(s)[...]
        // Each variable's choice is made once and shared by its uses (a pattern may use
        // `$(lang)`, six hundred codes, thousands of times).
        var choices: [String: AASAToken] = [:]
        var i = 0
        while i < s.count {
            if let ref = references.first, ref.range.lowerBound == i {
                references = references.dropFirst()
                if let made = choices[ref.name] {
                    out.append(made)
                    i = ref.range.upperBound
                    continue
                }
                if let alternatives = variables[ref.name] {
                    let choice = AASAToken.choice(alternatives.map { plainTokens(Array($0.unicodeScalars), options: options) })
                    choices[ref.name] = choice
                    out.append(choice)
                    i = ref.range.upperBound
                    continue
                }
                switch AASAPredefined.lookup(ref.name) {
                case .one(let cls)?:
                    out.append(.one(options.caseSensitive ? cls : cls.foldedASCII()))
                    i = ref.range.upperBound
                    continue
                case .list(let codes)?:
                    let choice = AASAToken.choice(codes.map { plainTokens(Array($0.unicodeScalars), options: options) })
                    choices[ref.name] = choice
                    out.append(choice)
                    i = ref.range.upperBound
                    continue
                case nil:
                    break   // undefined: literal text, scanned below
                }
            }
            switch s[i] {
            case "*": if out.last != .star { out.append(.star) }   // `**` is `*`
            case "?": out.append(.one(.any))
            default:
                folded.removeAll(keepingCapacity: true)
                options.fold(s[i].value, into: &folded)
                for c in folded { out.append(literal(c, options)) }
            }
            i += 1
        }
        return out
    }

    /// A literal scalar; under `percentEncoded` a non-ASCII one is an edge no input takes (the
    /// compared text is ASCII then), so the automaton's language is what can really match.
    static func literal(_ c: UInt32, _ options: AASACompareOptions) -> AASAToken {
        options.percentEncoded && c >= 0x80 ? .one(.none) : .scalar(c)
    }

    /// Tokens of a variable's alternative: `*`, `?` and literals; a `$(...)` in it is literal.
    static func plainTokens(_ s: [Unicode.Scalar], options: AASACompareOptions) -> [AASAToken] {
        var out: [AASAToken] = []
        out.reserveCapacity(s.count)   // a token per scalar, more only where folding makes several
        var folded: [UInt32] = []
        for c in s {
            switch c {
            case "*": if out.last != .star { out.append(.star) }   // `**` is `*`
            case "?": out.append(.one(.any))
            default:
                folded.removeAll(keepingCapacity: true)
                options.fold(c.value, into: &folded)
                for f in folded { out.append(literal(f, options)) }
            }
        }
        return out
    }
}
