import DomainCheck
import Testing

/// Which `--domain` values are host names a live check may fetch.
struct HostNameTests {
    @Test func hostNamesAreLowercasedWithoutTheRootDot() {
        #expect(HostName.normalized("Example.COM.") == "example.com")
        #expect(HostName.normalized("xn--bcher-kva.example") == "xn--bcher-kva.example")
        #expect(HostName.normalized("a-1.b2.example") == "a-1.b2.example")
        #expect(HostName.normalized(String(repeating: "a", count: 63) + ".example") != nil)
        let longest = Array(repeating: String(repeating: "a", count: 63), count: 3).joined(separator: ".") + "." + String(repeating: "b", count: 61)
        #expect(longest.count == 253 && HostName.normalized(longest) == longest && HostName.normalized(longest + ".") == longest)
    }

    @Test func whatIsNotAHostNameIsRefused() {
        let refused = ["", ".", "a..b", ".a", "a.b..", "-a.example", "a-.example", "a_b.example", "a%2fb.example", "a\\b.example",
                       "a\u{1B}b.example", "a\nb.example", "evil\u{202E}moc.example", "bücher.example", "a b.example",
                       String(repeating: "a", count: 64) + ".example",
                       Array(repeating: String(repeating: "a", count: 63), count: 4).joined(separator: ".")]
        for name in refused { #expect(HostName.normalized(name) == nil, "\(name.debugDescription)") }
    }
}
