import LinkJSON

/// What the reference's answer to one input says a case on that input should expect, in the
/// operation's own expectation shape, and the violation keys the reference reported.
///
/// Differential fuzzing compares an implementation's answer with ``expect`` through the
/// operation's comparison, exactly as a corpus case would be judged; `linkconform findings
/// promote` writes ``expect`` into the new case and takes its requirements from ``codes``.
///
/// ```swift
/// let (_, parse) = SuiteRegistry.operation(named: "ulc.parse")!
/// let reference = try await SwiftImplementation.reference.run(...)      // {"kind": "ulc", ...}
/// parse.expectation(reference)?.expect   // {"kind": "ulc", "action": ..., "violations": [...]}
/// ```
public struct ReferenceExpectation: Sendable, Hashable {
    /// The expectation, every key the operation compares given (an absent member as `null`,
    /// so the implementation must leave it out too).
    public let expect: JSONValue
    /// The violation keys (`ulc-error:callback-not-https`, an AASA diagnostic code) the reference
    /// reported, sorted, without repeats.
    public let codes: [String]
    /// Why the reference answered as it did, in a few stable words, for an operation whose
    /// answers carry no violation to tell causes apart (`aasa.match`: `no_match: url-port`).
    /// Differential fuzzing names it in a signature; a promoted case does not expect it.
    public let cause: String?

    public init(expect: JSONValue, codes: [String] = [], cause: String? = nil) {
        self.expect = expect
        self.codes = Array(Set(codes)).sorted()
        self.cause = cause
    }

    /// The code of a violation key: `ulc-error:callback-not-https` is `callback-not-https`.
    public static func code(ofKey key: String) -> Substring {
        key.split(separator: ":", omittingEmptySubsequences: false).last ?? Substring(key)
    }
}

/// Builds an expectation object member by member.
struct ExpectationBuilder {
    private var object = JSONObject(capacity: 8)

    /// A member the reference may leave out: `null` when it did (the implementation must too).
    mutating func optional(_ key: String, _ value: String?) {
        object.append(key, value.map(JSONValue.string) ?? .null)
    }

    mutating func set(_ key: String, _ value: JSONValue) {
        object.append(key, value)
    }

    /// A list of keys, when the reference gave one.
    mutating func keys(_ key: String, _ values: [String]?) {
        if let values { object.append(key, .array(values.map(JSONValue.string))) }
    }

    var value: JSONValue { .object(object) }
}

extension BuildOutput {
    /// `{"roundTrip": true}` when the reference built something, else a refusal with its keys.
    var expectation: ReferenceExpectation {
        guard let refused, built == nil else { return ReferenceExpectation(expect: ["roundTrip": true]) }
        var b = ExpectationBuilder()
        b.set("refused", true)
        if !refused.isEmpty { b.keys("violations", refused) }
        return ReferenceExpectation(expect: b.value, codes: refused)
    }
}
