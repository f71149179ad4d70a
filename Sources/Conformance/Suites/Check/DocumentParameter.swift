/// A parameter a suite takes with a document (`--with <name>=<value>` on the command line): its
/// name and what it means. The CLI validates `--with` keys against these and lists them in its
/// help.
///
/// ```swift
/// DocumentParameter(name: "app", help: "the app ID the document must name (TEAMID.bundle.id)")
/// ```
public struct DocumentParameter: Sendable, Hashable {
    public let name: String
    public let help: String

    public init(name: String, help: String) {
        self.name = name
        self.help = help
    }
}
