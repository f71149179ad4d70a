import SeededRandom
import LinkURL
import Testing
@testable import ULC

/// What the initiating system sends, and the round trip through every reader family.
struct ULCBuildTests {
    @Test func webexFormIsProducedForThePlainURLs() throws {
        let link = try ULC.build(action: "https://cisco.webex.com/logout", success: "https://sampledomain.com/success",
                                 error: "https://sampledomain.com/error")
        #expect(link == ULCParseTests.webex)
    }

    @Test func callbacksFollowTheActionsOwnQuery() throws {
        let link = try ULC.build(action: "https://a.example/l?force=1", success: "https://s.example", error: "https://e.example")
        #expect(link.hasPrefix("https://a.example/l?force=1&ulc-success="))
    }

    @Test(arguments: [
        ("http://a.example/l", "action-not-https"),
        ("https:///l", "action-no-host"),
        ("https://a.example/l#top", "link-has-fragment"),
        ("https://a.example/l?ulc-success=https%3A%2F%2Fx", "ulc-success:callback-duplicated"),
        ("https://a.example/l?ulc-error=x", "ulc-error:callback-duplicated"),
        ("https://a.example/a b", "link-invalid-syntax"),
    ])
    func actionsThatBreakARuleAreRefused(action: String, key: String) {
        #expect(throws: ULC.BuildError.self) { try ULC.build(action: action, success: "https://s.example", error: "https://e.example") }
        do {
            _ = try ULC.build(action: action, success: "https://s.example", error: "https://e.example")
        } catch {
            #expect(error.violations.map(\.key).contains(key))
        }
    }

    @Test(arguments: [
        ("http://s.example", "ulc-success:callback-not-https"),
        ("/relative", "ulc-success:callback-not-absolute"),
        ("https://me@s.example/", "ulc-success:callback-userinfo"),
        ("", "ulc-success:callback-empty"),
        ("https%3A%2F%2Fs.example", "ulc-success:callback-double-encoded"),
        ("https://s.example/a b", "ulc-success:callback-invalid-url"),
    ])
    func callbacksThatBreakARuleAreRefused(success: String, key: String) {
        do {
            _ = try ULC.build(action: "https://a.example/l", success: success, error: "https://e.example")
            Issue.record("expected a refusal for \(success)")
        } catch {
            #expect(error.violations.map(\.key) == [key])
        }
    }

    /// parse(build(a, s, e)) == (a, s, e), for generated callbacks full of the characters that
    /// break naive encoders, read by RFC 3986 and by form-style readers.
    @Test func roundTripHoldsInRFCAndFormReaders() throws {
        var rng = SeededGenerator(seed: 42)
        let alphabet = Array("abcXYZ019-._~!$&'()*+,;=:@/?%#[] ")
        for _ in 0..<2_000 {
            func component() -> String {
                let chars = (0..<Int.random(in: 0...12, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
                // Keep the URL valid: percent-encode what RFC 3986 forbids raw in a query.
                return PercentCodec.encodeComponent(String(chars))
            }
            let success = "https://s\(Int.random(in: 0...9, using: &rng)).example/p?\(component())=\(component())"
            let error = "https://e.example/\(component())"
            let action = Bool.random(using: &rng) ? "https://a.example/logout" : "https://a.example/logout?force=\(component())"
            let link = try ULC.build(action: action, success: success, error: error)
            let parsed = ULC.parse(link)
            #expect(parsed.kind == .ulc, "\(link)")
            #expect(parsed.violations.isEmpty, "\(link): \(parsed.violationKeys)")
            #expect(parsed.action == action)
            #expect(parsed.success?.decoded == success)
            #expect(parsed.error?.decoded == error)
            let items = parsed.url.queryItems
            let formSuccess = items.first(named: "ulc-success").flatMap { items.decodedValue($0, plusAsSpace: true) }
            #expect(formSuccess == success, "a form-style reader reads \(formSuccess ?? "nil")")
            // Nothing Foundation would re-encode: only unreserved characters and escapes in the callbacks.
            #expect(!link.contains("+") && !link.contains(" "))
        }
    }
}

