/// The processes XignIn data can start.
public enum XignProcess: String, Sendable, Hashable, CaseIterable {
    case authentication, personalization
    /// Described by the SDK documentation as under development.
    case transaction

    /// The process named `name`, in any letter case.
    public init?(name: some StringProtocol) {
        guard let process = XignProcess(rawValue: name.lowercased()) else { return nil }
        self = process
    }
}
