import LinkJSON

/// The parts of the AASA pattern engine other association-file modules use (AssetLinks reads
/// Android 15 dynamic app-link components with it): plain globs without substitution variables
/// or slash rules, and the characters of a URL component as a rule compares them.
///
/// ```swift
/// let glob = AASAPatternCompiler.compileGlob("/buy/*", options: .init(percentEncoded: false))
/// glob.accepts(AASAPatternCompiler.comparedCharacters(Array("/buy/caf%C3%A9".utf8), options: .init(percentEncoded: false)))   // true
/// glob.accepts(AASAPatternCompiler.comparedCharacters(Array("/buy".utf8), options: .init(percentEncoded: false)))             // false: no slash rules here
/// ```
extension AASAPatternCompiler {
    /// `pattern` as a glob: `*` any run (also empty), `?` exactly one character, everything
    /// else literal (`$(digit)` too); folded when `options.caseSensitive` is false. No slash
    /// rule is applied.
    public static func compileGlob(_ pattern: String, options: AASACompareOptions) -> AASAAutomaton {
        AASAAutomatonBuilder.build(plainTokens(Array(pattern.unicodeScalars), options: options))
    }

    /// The characters of a URL component (its bytes as written) as a rule with `options`
    /// compares them: as written when `percentEncoded`, else percent-decoded once (`+` kept, an
    /// invalid escape kept as written) and read as UTF-8 (U+FFFD for an invalid sequence);
    /// folded when case-insensitive.
    public static func comparedCharacters(_ bytes: [UInt8], options: AASACompareOptions) -> [UInt32] {
        AASAInputText.characters(bytes, options)
    }
}

/// Wording the association-file modules share in their diagnostics.
///
/// ```swift
/// AssociationWording.kind(of: .array([]))                             // "an array"
/// AssociationWording.didYouMean("relations", among: ["relation"])   // " (did you mean \"relation\"?)"
/// ```
public enum AssociationWording {
    /// The JSON type of `value` with its article (`a string`, `an object`, `null`).
    public static func kind(of value: JSONValue) -> String { article(value.typeName) }

    /// ` (did you mean "x"?)` for a key close to a known one (equal ignoring case, or at most
    /// two edits away), `""` otherwise.
    public static func didYouMean(_ key: String, among known: [String]) -> String { suggestion(key, known) }
}
