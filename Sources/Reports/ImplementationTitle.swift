import Conformance

/// How reports name an implementation: its name, then the version and the language in
/// parentheses when it said them (an adapter that never started said neither).
///
/// ```swift
/// ImplementationTitle.plain(ImplementationInfo(name: "ada-url", version: "4.0.0", language: "Python", homepage: ""))
/// // "ada-url 4.0.0 (Python)"
/// ImplementationTitle.plain(ImplementationInfo(name: "my_adapter.py", version: "", language: "", homepage: ""))
/// // "my_adapter.py"
/// ```
enum ImplementationTitle {
    static func plain(_ info: ImplementationInfo) -> String {
        ([info.name] + details(info)).joined(separator: " ")
    }

    /// The version and `(language)`, each when not empty.
    static func details(_ info: ImplementationInfo) -> [String] {
        var parts: [String] = []
        if !info.version.isEmpty { parts.append(info.version) }
        if !info.language.isEmpty { parts.append("(\(info.language))") }
        return parts
    }
}
