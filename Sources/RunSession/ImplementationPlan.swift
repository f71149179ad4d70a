import Conformance

/// One implementation a run covers, with what goes with it: its expected-failures file, and the
/// command that prepares it (an adapter that builds itself) in its working directory.
public struct ImplementationPlan: Sendable {
    public let implementation: any Implementation
    public let expectedFailures: ExpectedFailures?
    public let prepare: [String]?
    public let workingDirectory: String?

    public init(implementation: any Implementation, expectedFailures: ExpectedFailures? = nil, prepare: [String]? = nil,
                workingDirectory: String? = nil) {
        self.implementation = implementation
        self.expectedFailures = expectedFailures
        self.prepare = prepare
        self.workingDirectory = workingDirectory
    }
}
