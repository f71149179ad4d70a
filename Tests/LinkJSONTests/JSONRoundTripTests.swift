import SeededRandom
import LinkJSON
import Testing

/// Parse then serialize, and serialize then parse, lose nothing.
struct JSONRoundTripTests {
    @Test(arguments: [
        #"{"b":1,"a":[true,false,null],"c":{"d":"e"}}"#,
        #"[1,-2,0.5,-0.25,1e+300,5e-324,"x"]"#,
        #""a\"b\\c\nd""#,
        #"[[],{},[[{}]]]"#,
        #"{"":""}"#,
    ])
    func canonicalCompactTextRoundTrips(text: String) throws {
        let value = try JSONParser.parse(text)
        #expect(try JSONParser.parse(value.serialized()) == value)
        #expect(identical(try JSONParser.parse(value.serialized()), value))
    }

    @Test func escapedTextRoundTripsToTheSameValue() throws {
        let text = #"{"\u0041\/":"\ud83d\ude00\u00e9\b\f\u001f\u0000","n":1.0,"m":1E2,"k":-0}"#
        let value = try JSONParser.parse(text)
        #expect(value["A/"] == .string("😀é\u{8}\u{C}\u{1F}\u{0}"))
        let again = try JSONParser.parse(value.serialized())
        #expect(identical(again, value))
    }

    @Test func integersAreWrittenWithoutAFraction() throws {
        #expect(try JSONParser.parse("[1.0, 1e2, -5.000, 0.0]").serialized() == "[1,100,-5,0]")
    }

    @Test func surrogatePairRoundTrips() throws {
        let value = try JSONParser.parse(#""\ud83d\ude00""#)
        #expect(try JSONParser.parse(value.serialized()) == .string("😀"))
    }

    @Test func negativeZeroRoundTripsToAnEqualNumber() throws {
        let value = try JSONParser.parse("-0")
        let back = try JSONParser.parse(value.serialized())
        #expect(back == .number(0))
        #expect(back == value)
    }

    @Test func largeExponentsRoundTrip() throws {
        for text in ["1e308", "-1.7976931348623157e308", "2.2250738585072014e-308", "4.9e-324", "1e22", "123e-20"] {
            let value = try JSONParser.parse(text)
            let back = try JSONParser.parse(value.serialized())
            #expect(back.doubleValue?.bitPattern == value.doubleValue?.bitPattern, "\(text)")
        }
    }

    @Test func generatedValuesRoundTripCompact() throws {
        var gen = JSONGenerator(rng: SeededGenerator(seed: 0x8259_6901))
        for _ in 0..<1_500 {
            let value = gen.value()
            let text = value.serialized()
            let back = try JSONParser.parse(text)
            #expect(identical(back, value), "\(text)")
            #expect(back.serialized() == text)
        }
    }

    @Test func generatedValuesRoundTripPrettyAndSorted() throws {
        var gen = JSONGenerator(rng: SeededGenerator(seed: 77))
        for _ in 0..<1_000 {
            let value = gen.value()
            let pretty = value.serialized(pretty: true)
            #expect(identical(try JSONParser.parse(pretty), value), "\(pretty)")
            let sorted = value.serialized(sortKeys: true)
            #expect(try JSONParser.parse(sorted) == value, "\(sorted)")
        }
    }

    @Test func serializedTextNeverHoldsRawControlCharacters() {
        var gen = JSONGenerator(rng: SeededGenerator(seed: 1))
        for _ in 0..<1_000 {
            let value = gen.value()
            #expect(!value.serialized().utf8.contains { $0 < 0x20 })
            // Pretty output adds only line feeds and spaces between tokens.
            #expect(!value.serialized(pretty: true).utf8.contains { $0 < 0x20 && $0 != 0x0A })
        }
    }
}
