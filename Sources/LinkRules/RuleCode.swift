/// What a protocol module's violation codes provide: a stable code (the raw value, which JSON
/// output, corpus cases and reports use), the requirement it breaks and that requirement's level.
///
/// ```swift
/// enum DemoCode: String, RuleCode {
///     case tooLong = "too-long"
///     var requirement: String { "DEMO-1" }
///     var level: RuleLevel { .should }
/// }
/// DemoCode.requirementTable   // [CodeRequirement(code: "too-long", requirement: "DEMO-1", level: .should)]
/// ```
public protocol RuleCode: RawRepresentable<String>, Hashable, Sendable, CaseIterable {
    /// The requirement id this code breaks, as in the suite's `requirements.json`.
    var requirement: String { get }
    /// The level of that requirement.
    var level: RuleLevel { get }
}

/// One row of a module's code-to-requirement table: which requirement a code breaks, at which
/// level. Corpus lint checks every row against the suite's registry.
public struct CodeRequirement: Sendable, Hashable {
    public let code: String
    public let requirement: String
    public let level: RuleLevel

    public init(code: String, requirement: String, level: RuleLevel) {
        self.code = code
        self.requirement = requirement
        self.level = level
    }
}

extension RuleCode {
    /// Every code of the enumeration with its requirement and level, in declaration order: the
    /// table a suite hands to lint, derived the same way for every protocol.
    public static var requirementTable: [CodeRequirement] {
        allCases.map { CodeRequirement(code: $0.rawValue, requirement: $0.requirement, level: $0.level) }
    }
}
