/// Every suite LinkConform knows, in run order. The one table a new suite is added to.
public enum SuiteRegistry {
    public static let all: [SuiteDefinition] = [
        ULCSuite.definition,
        XCallbackSuite.definition,
        XignQRSuite.definition,
        AASASuite.definition,
        AssetLinksSuite.definition,
        MitIDSuite.definition,
    ]

    public static func suite(named name: String) -> SuiteDefinition? {
        all.first { $0.name == name }
    }

    /// The operation with this full name, in whichever suite has it.
    public static func operation(named name: String) -> (SuiteDefinition, OperationDefinition)? {
        for suite in all {
            if let op = suite.operation(named: name) { return (suite, op) }
        }
        return nil
    }
}
