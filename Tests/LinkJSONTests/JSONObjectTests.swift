import LinkJSON
import Testing

/// Ordered members with order-insensitive equality.
struct JSONObjectTests {
    @Test func equalityIgnoresMemberOrder() {
        let a: JSONValue = ["x": 1, "y": [true], "z": nil]
        let b: JSONValue = ["z": nil, "x": 1, "y": [true]]
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
    }

    @Test func equalityIgnoresOrderInNestedObjects() throws {
        let a = try JSONParser.parse(#"{"o": {"p": 1, "q": 2}, "l": [{"m": 1, "n": 2}]}"#)
        let b = try JSONParser.parse(#"{"l": [{"n": 2, "m": 1}], "o": {"q": 2, "p": 1}}"#)
        #expect(a == b)
        #expect(Set([a, b]).count == 1)
    }

    @Test func arrayOrderMatters() {
        #expect(JSONValue.array([1, 2]) != [2, 1])
    }

    @Test func differentValuesAreNotEqual() {
        #expect((["a": 1] as JSONValue) != ["a": 2])
        #expect((["a": 1] as JSONValue) != ["b": 1])
        #expect((["a": 1] as JSONValue) != ["a": 1, "b": 2])
        #expect((["a": 1, "b": 2] as JSONValue) != ["a": 1])
        #expect((["a": nil] as JSONValue) != [:])
    }

    @Test func differentKindsAreNotEqual() {
        #expect(JSONValue.number(1) != .string("1"))
        #expect(JSONValue.bool(true) != .number(1))
        #expect(JSONValue.null != .string("null"))
        #expect(JSONValue.array([]) != .object(JSONObject()))
    }

    @Test func keysAndIterationKeepInsertionOrder() {
        var object = JSONObject()
        object["b"] = 1
        object["a"] = 2
        object["c"] = 3
        #expect(object.keys == ["b", "a", "c"])
        #expect(object.map(\.key) == ["b", "a", "c"])
        #expect(object[1] == JSONObject.Member(key: "a", value: 2))
    }

    @Test func settingAnExistingKeyReplacesItInPlace() {
        var object = JSONObject()
        object["a"] = 1
        object["b"] = 2
        object["a"] = 3
        #expect(object.keys == ["a", "b"])
        #expect(object["a"] == 3)
    }

    @Test func settingNilRemovesTheMember() {
        var object = JSONObject()
        object["a"] = 1
        object["b"] = 2
        object["a"] = nil
        #expect(object.keys == ["b"])
        object["missing"] = nil
        #expect(object.keys == ["b"])
    }

    @Test func nullValueIsAMemberNotAnAbsence() {
        var object = JSONObject()
        object["a"] = .null
        #expect(object.count == 1)
        #expect(object["a"] == .null)
    }

    @Test func appendDoesNotLookForAnExistingKey() {
        var object = JSONObject()
        object.append("a", 1)
        object.append("a", 2)
        #expect(object.count == 2)
        #expect(object["a"] == 1)
    }

    @Test func literalsBuildTheExpectedValues() {
        #expect(JSONValue(integerLiteral: 3) == .number(3))
        #expect(JSONValue(floatLiteral: 0.5) == .number(0.5))
        #expect(JSONValue.int(-4) == .number(-4))
        #expect((nil as JSONValue) == .null)
        #expect(("s" as JSONValue) == .string("s"))
    }

    @Test func typeNames() {
        let names = ([nil, true, 1, "s", [], [:]] as [JSONValue]).map(\.typeName)
        #expect(names == ["null", "boolean", "number", "string", "array", "object"])
    }

    @Test func intValueRejectsFractionsAndHugeNumbers() {
        #expect(JSONValue.number(3).intValue == 3)
        #expect(JSONValue.number(-3).intValue == -3)
        #expect(JSONValue.number(3.5).intValue == nil)
        #expect(JSONValue.number(1e300).intValue == nil)
        #expect(JSONValue.number(.nan).intValue == nil)
        #expect(JSONValue.string("3").intValue == nil)
    }
}
