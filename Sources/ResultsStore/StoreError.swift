/// Why the results store could not do what was asked, with the path and what to do.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "results store \(path): \(message)" }
}
