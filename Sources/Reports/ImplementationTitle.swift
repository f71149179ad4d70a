import Conformance

/// How reports name an implementation: its name, then the version and the language in
/// parentheses when it said them (an adapter that never started said neither). The texts are
/// as the implementation said them; each format escapes them its own way (``Escaping``).
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

    /// The version and `(language)`, each when not empty, each text passed through `escape`.
    static func details(_ info: ImplementationInfo, _ escape: (String) -> String = { $0 }) -> [String] {
        var parts: [String] = []
        if !info.version.isEmpty { parts.append(escape(info.version)) }
        if !info.language.isEmpty { parts.append("(\(escape(info.language)))") }
        return parts
    }
}
