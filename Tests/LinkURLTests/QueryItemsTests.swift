import SeededRandom
import LinkURL
import Testing

/// The query split on '&', each item on its first '='.
struct QueryItemsTests {
    func names(_ items: QueryItems) -> [String] { items.map(items.rawName) }
    func values(_ items: QueryItems) -> [String?] { items.map(items.rawValue) }

    @Test func emptyItemsAreKept() {
        let items = LinkURL(parsing: "https://a/?a=1&&b").queryItems
        #expect(items.count == 3)
        #expect(names(items) == ["a", "", "b"])
        #expect(values(items) == ["1", nil, nil])
    }

    @Test func firstEqualsSplitsNameFromValue() {
        let items = LinkURL(parsing: "https://a/?a==b&c=d=e").queryItems
        #expect(names(items) == ["a", "c"])
        #expect(values(items) == ["=b", "d=e"])
    }

    @Test func semicolonIsNotASeparator() {
        let items = LinkURL(parsing: "https://a/?a=1;b=2").queryItems
        #expect(items.count == 1)
        #expect(values(items) == ["1;b=2"])
    }

    @Test func itemWithoutEqualsHasNoValueAndEmptyValueIsEmpty() {
        let items = LinkURL(parsing: "https://a/?flag&empty=").queryItems
        #expect(values(items) == [nil, ""])
    }

    @Test func noQueryMeansNoItems() {
        #expect(LinkURL(parsing: "https://a/").queryItems.isEmpty)
        #expect(LinkURL(parsing: "https://a/#?x=1").queryItems.isEmpty)
    }

    @Test func questionMarkAloneIsOneEmptyItem() {
        let items = LinkURL(parsing: "https://a/?").queryItems
        #expect(items.count == 1)
        #expect(names(items) == [""])
        #expect(values(items) == [nil])
        #expect(LinkURL(parsing: "https://a/?#f").queryItems.count == 1)
    }

    @Test func loneAmpersandIsTwoEmptyItems() {
        #expect(names(LinkURL(parsing: "https://a/?&").queryItems) == ["", ""])
    }

    @Test func fragmentEndsTheQuery() {
        let items = LinkURL(parsing: "https://a/?a=1#b=2&c").queryItems
        #expect(names(items) == ["a"])
        #expect(values(items) == ["1"])
    }

    @Test func itemRangesAreOffsetsIntoTheURL() {
        let url = LinkURL(parsing: "https://a/?ab=cd&e")
        let items = url.queryItems
        #expect(items[0].range == 11..<16)
        #expect(items[0].name == 11..<13)
        #expect(items[0].value == 14..<16)
        #expect(items[1].range == 17..<18)
        #expect(items[1].name == 17..<18)
        #expect(items[1].value == nil)
    }

    @Test func namesAreComparedAfterPercentDecoding() throws {
        let items = LinkURL(parsing: "https://a/?ulc%2Dsuccess=1&x%2dy=2").queryItems
        #expect(items.nameEquals(items[0], "ulc-success"))
        #expect(items.nameEquals(items[1], "x-y"))
        let found = try #require(items.first(named: "ulc-success"))
        #expect(items.rawValue(found) == "1")
        #expect(items.decodedName(found) == "ulc-success")
        #expect(items.rawName(found) == "ulc%2Dsuccess")
    }

    @Test func fullyEncodedNameMatches() {
        let items = LinkURL(parsing: "https://a/?%61%62=1").queryItems
        #expect(items.nameEquals(items[0], "ab"))
    }

    @Test func namesAreCaseSensitive() {
        let items = LinkURL(parsing: "https://a/?Ulc-Success=1").queryItems
        #expect(items.first(named: "ulc-success") == nil)
        #expect(items.first(named: "Ulc-Success") != nil)
    }

    @Test func nameMustMatchWholly() {
        let items = LinkURL(parsing: "https://a/?abc=1&ab").queryItems
        #expect(!items.nameEquals(items[0], "ab"))
        #expect(!items.nameEquals(items[1], "abc"))
        #expect(!items.nameEquals(items[0], ""))
        #expect(items.nameEquals(LinkURL(parsing: "https://a/?=1").queryItems[0], ""))
    }

    @Test func plusInANameIsNotASpace() {
        let items = LinkURL(parsing: "https://a/?a+b=1").queryItems
        #expect(items.nameEquals(items[0], "a+b"))
        #expect(!items.nameEquals(items[0], "a b"))
        #expect(items.decodedName(items[0], plusAsSpace: true) == "a b")
    }

    @Test func invalidEscapeInANameIsComparedLiterally() {
        let items = LinkURL(parsing: "https://a/?a%zz=1").queryItems
        #expect(items.nameEquals(items[0], "a%zz"))
    }

    /// A name as long as the target is compared byte for byte, except when the target holds a
    /// '%': the name's own escape is still decoded first.
    @Test func aNameWrittenLikeATargetWithAnEscapeIsStillDecoded() {
        let items = LinkURL(parsing: "https://a/?a%41=1&a%2541=2&a%4=3").queryItems
        #expect(!items.nameEquals(items[0], "a%41"))   // decodes to "aA"
        #expect(items.nameEquals(items[0], "aA"))
        #expect(items.nameEquals(items[1], "a%41"))    // decodes to "a%41"
        #expect(items.nameEquals(items[2], "a%4"))     // not an escape: kept as written
        #expect(!items.nameEquals(items[0], "b%41"))
    }

    @Test func valuesArePercentDecodedOnRequest() {
        let items = LinkURL(parsing: "https://a/?cb=https%3A%2F%2Fb&p=a+b&bad=%FF").queryItems
        #expect(items.decodedValue(items[0]) == "https://b")
        #expect(items.decodedValue(items[1]) == "a+b")
        #expect(items.decodedValue(items[1], plusAsSpace: true) == "a b")
        #expect(items.decodedValue(items[2]) == nil)
        #expect(items.rawValue(items[2]) == "%FF")
    }

    @Test func decodedNameRepairsInvalidUTF8() {
        let items = LinkURL(parsing: "https://a/?%FF=1").queryItems
        #expect(items.decodedName(items[0]) == "\u{FFFD}")
    }

    @Test func allNamedReturnsEveryMatchInOrder() {
        let items = LinkURL(parsing: "https://a/?a=1&b=2&%61=3&a").queryItems
        let all = items.all(named: "a")
        #expect(all.map(items.rawValue) == ["1", "3", nil])
        #expect(items.first(named: "a") == all.first)
    }

    @Test func forEachQueryItemYieldsTheSameItems() {
        for text in ["https://a/?a=1&&b", "https://a/?", "https://a/?&", "https://a/?a==b", "https://a/?x=1;y=2#z&w",
                     "https://a/", "https://a/?=&=", "https://a/?a=1&b"] {
            let url = LinkURL(parsing: text)
            var seen: [QueryItem] = []
            url.forEachQueryItem { seen.append($0) }
            #expect(seen == Array(url.queryItems), "\(text)")
        }
    }

    @Test func forEachQueryItemYieldsTheSameItemsForGeneratedQueries() throws {
        var rng = SeededGenerator(seed: 0x3E47)
        let alphabet = Array("ab=&%2D;+?#".utf8)
        for _ in 0..<3_000 {
            let bytes = Array("https://h/?".utf8) + rng.bytes(from: alphabet, maxLength: 20)
            let url = LinkURL(parsing: bytes)
            var seen: [QueryItem] = []
            url.forEachQueryItem { seen.append($0) }
            #expect(seen == Array(url.queryItems), "input \(bytes)")
            // Items tile the query: joined with '&' they give it back.
            let query = try #require(url.query)
            let rebuilt = url.queryItems.map { Array(bytes[$0.range]) }.joined(separator: [UInt8(ascii: "&")])
            #expect(Array(rebuilt) == Array(bytes[query]), "input \(bytes)")
        }
    }

    @Test func forEachQueryItemStopsOnAThrow() {
        struct Stop: Error {}
        let url = LinkURL(parsing: "https://a/?a&b&c")
        var count = 0
        #expect(throws: Stop.self) {
            try url.forEachQueryItem { _ in
                count += 1
                if count == 2 { throw Stop() }
            }
        }
        #expect(count == 2)
    }
}
