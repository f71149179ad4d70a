import LinkJSON
import Testing
@testable import Conformance

/// The typed reader the suites read inputs and outputs with, and how a malformed output grades.
struct JSONFieldsTests {
    @Test func aMalformedOutputIsAProtocolErrorAtEveryLevel() {
        let malformed = [Mismatch(malformedOutput: JSONFieldError(path: [.key("output"), .key("kind")], problem: "missing required field"))]
        for level in [RequirementLevel.must, .should, .may, .info] {
            #expect(Outcome.grade(.output(.null), level: level, mismatches: malformed) == .protocolError)
        }
        #expect(malformed[0].description == "malformed output: output.kind: missing required field")
    }

    @Test func fieldsNameTheirPathAndFollowTheirStrictness() throws {
        let value: JSONValue = ["name": "a", "items": [["n": 1], ["n": 1.5]], "extra": true, "gone": nil]
        let strict = #expect(throws: JSONFieldError.self) { try JSONFields(value, at: [.key("input")], known: ["name", "items", "gone"], strict: true) }
        #expect(strict?.description == "input.extra: unknown field 'extra' (known: gone, items, name)")
        let lenient = try JSONFields(value, at: [.key("output")], known: ["name", "items", "gone"], strict: false)
        #expect(try lenient.optionalString("gone") == nil, "null reads as absent in a lenient reader")
        #expect(try lenient.string("name") == "a")
        let numbers = #expect(throws: JSONFieldError.self) {
            try lenient.optionalObjects("items", known: ["n"])?.map { (item) throws(JSONFieldError) in try item.int("n") }
        }
        #expect(numbers?.pointer == "/output/items/1/n")
        #expect(numbers?.description == "output.items[1].n: expected an integer, found the number 1.5")
        let nullInStrict = #expect(throws: JSONFieldError.self) {
            try JSONFields(["gone": nil], at: [.key("input")], known: ["gone"], strict: true).optionalString("gone")
        }
        #expect(nullInStrict?.description == "input.gone: expected a string, found null")
    }
}
