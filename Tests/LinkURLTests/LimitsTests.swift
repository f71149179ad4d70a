import LinkURL
import Testing

/// `URLLimits`: the length limit and the cap on stored diagnostics.
struct LimitsTests {
    @Test func defaultLimitsAre64KiBAnd64Diagnostics() {
        #expect(URLLimits.default.maxLength == 65_536)
        #expect(URLLimits.default.maxDiagnostics == 64)
    }

    @Test func tenMegabyteInputYieldsExactlyOneTooLongDiagnostic() {
        let huge = Array("https://a.example/".utf8) + [UInt8](repeating: UInt8(ascii: " "), count: 10_000_000)
        let url = LinkURL(parsing: huge)
        #expect(url.diagnostics == [diag(.tooLong, 65_536, nil)])
        #expect(url.droppedDiagnostics == 0)
        #expect(url.isOverLimit)
    }

    @Test func inputOverTheLimitIsNotSplit() {
        let url = LinkURL(parsing: "https://a.example/" + String(repeating: "a", count: 70_000))
        #expect(url.scheme == nil)
        #expect(url.authority == nil)
        #expect(url.host == nil)
        #expect(url.path.isEmpty)
        #expect(url.query == nil)
        #expect(!url.isHTTPS)
        #expect(url.queryItems.isEmpty)
    }

    @Test func inputOfExactlyTheLimitIsSplit() {
        let text = "https://a.example/" + String(repeating: "a", count: 65_536 - 18)
        #expect(text.utf8.count == 65_536)
        let url = LinkURL(parsing: text)
        #expect(url.diagnostics.isEmpty)
        #expect(!url.isOverLimit)
        #expect(url.path == 17..<65_536)
    }

    @Test func oneByteOverTheLimitIsTooLong() {
        let text = "https://a.example/" + String(repeating: "a", count: 65_537 - 18)
        #expect(LinkURL(parsing: text).diagnostics == [diag(.tooLong, 65_536, nil)])
    }

    @Test func customLengthLimitIsTheOffsetOfTooLong() {
        let limits = URLLimits(maxLength: 10)
        #expect(LinkURL(parsing: "https://a/", limits: limits).diagnostics.isEmpty)
        let url = LinkURL(parsing: "https://ab/", limits: limits)
        #expect(url.diagnostics == [diag(.tooLong, 10, nil)])
        #expect(url.isOverLimit)
    }

    @Test func diagnosticsBeyondTheCapAreCountedNotStored() {
        let text = "https://a/" + String(repeating: " ", count: 100)
        let url = LinkURL(parsing: text)
        #expect(url.diagnostics.count == 64)
        #expect(url.droppedDiagnostics == 36)
        #expect(url.diagnostics.first == diag(.space, 10, .path))
        #expect(url.diagnostics.last == diag(.space, 73, .path))
    }

    @Test func customDiagnosticCapKeepsTheFirstOnes() {
        let url = LinkURL(parsing: "https://a/a b c d e", limits: URLLimits(maxDiagnostics: 2))
        #expect(url.diagnostics == [diag(.space, 11, .path), diag(.space, 13, .path)])
        #expect(url.droppedDiagnostics == 2)
    }

    @Test func emptyHostCountsTowardsTheCap() {
        let url = LinkURL(parsing: "https:///a b", limits: URLLimits(maxDiagnostics: 1))
        #expect(url.diagnostics.count == 1)
        #expect(url.droppedDiagnostics == 1)
    }

    @Test func noDroppedDiagnosticsUnderTheCap() {
        #expect(LinkURL(parsing: "https://a/ ").droppedDiagnostics == 0)
    }
}
