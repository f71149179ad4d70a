import LinkURL
import SeededRandom
import Testing
@testable import XCallbackURL

/// Building action URLs, and the URL a target app opens at the end of an action.
struct XCallbackBuildAndResponseTests {
    @Test func theBuildExampleHolds() throws {
        let url = try XCallback.build(XCallbackRequest(scheme: "drafts", action: "create", success: "myapp://done?from=drafts",
                                                       parameters: [XCallbackItem(name: "text", value: "a+b")]))
        #expect(url == "drafts://x-callback-url/create?x-success=myapp%3A%2F%2Fdone%3Ffrom%3Ddrafts&text=a%2Bb")
    }

    @Test func xParametersComeFirstInTheDraftsOrder() throws {
        let url = try XCallback.build(XCallbackRequest(scheme: "app", action: "go", source: "S", success: "a://s", error: "a://e",
                                                       cancel: "a://c", parameters: [XCallbackItem(name: "p", value: nil)]))
        #expect(url == "app://x-callback-url/go?x-source=S&x-success=a%3A%2F%2Fs&x-error=a%3A%2F%2Fe&x-cancel=a%3A%2F%2Fc&p")
    }

    @Test(arguments: [
        (XCallbackRequest(scheme: "1app", action: "a"), ["scheme-invalid"]),
        (XCallbackRequest(scheme: "my app", action: "a"), ["scheme-invalid"]),
        (XCallbackRequest(scheme: "app", action: ""), ["action-empty"]),
        (XCallbackRequest(scheme: "app", action: "v1/open"), ["action-version-segment"]),
        (XCallbackRequest(scheme: "app", action: "view/../delete"), ["action-dot-segment"]),
        (XCallbackRequest(scheme: "app", action: "a", parameters: [XCallbackItem(name: "x-id", value: "1")]), ["x-id:parameter-reserved-prefix"]),
        (XCallbackRequest(scheme: "app", action: "a", success: ""), ["x-success:callback-empty"]),
        (XCallbackRequest(scheme: "app", action: "a", error: "done"), ["x-error:callback-not-absolute"]),
        (XCallbackRequest(scheme: "app", action: "a", cancel: "app%3A%2F%2Fc"), ["x-cancel:callback-double-encoded"]),
        (XCallbackRequest(scheme: "app", action: "a", success: "https://me@evil.example/"), ["x-success:callback-userinfo"]),
        (XCallbackRequest(scheme: "app", action: "a", success: "app://a b"), ["x-success:callback-invalid-url"]),
        (XCallbackRequest(scheme: "app", action: "a", success: "data:text/html,hi"), ["x-success:callback-scheme-refused"]),
    ])
    func inputThatBreaksARuleIsRefused(request: XCallbackRequest, keys: [String]) {
        do {
            _ = try XCallback.build(request)
            Issue.record("expected a refusal")
        } catch {
            #expect(error.violations.map(\.key) == keys)
        }
    }

    /// parse(build(r)) == r for generated requests full of the characters that break naive
    /// encoders, read by RFC 3986 and by form-style readers.
    @Test func roundTripHoldsInRFCAndFormReaders() throws {
        var rng = SeededGenerator(seed: 7)
        let alphabet = Array("abcXYZ019-._~!$&'()*+,;=:@/?%#[] é\u{1F600}")
        func text(_ range: ClosedRange<Int>) -> String {
            String((0..<Int.random(in: range, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! })
        }
        for _ in 0..<1_500 {
            let action = "a" + text(0...12)   // never a version segment
            // A dot segment is refused (another test).
            if action.split(separator: "/").contains(where: { $0 == "." || $0 == ".." }) { continue }
            let parameters = (0..<Int.random(in: 0...3, using: &rng)).map { _ in
                XCallbackItem(name: "p" + text(0...6), value: Bool.random(using: &rng) ? text(0...10) : nil)
            }
            let request = XCallbackRequest(scheme: "my-app.v2", action: action, source: Bool.random(using: &rng) ? text(0...8) : nil,
                                           success: Bool.random(using: &rng) ? "cb://ok/" + PercentCodec.encodeComponent(text(0...8)) : nil,
                                           error: Bool.random(using: &rng) ? "cb://e?" + text(0...8).filter { $0 != "#" && $0 != " " && $0 != "%" && !"[]é😀".contains($0) } : nil,
                                           parameters: parameters)
            let built = try XCallback.build(request)
            let link = XCallback.parse(built)
            #expect(link.kind == .xcallback && link.violations.isEmpty, "\(built): \(link.violationKeys)")
            #expect(link.action == request.action && link.source == request.source)
            #expect(link.success?.decoded == request.success && link.error?.decoded == request.error)
            #expect(link.parameters == request.parameters, "\(built)")
            let items = link.url.queryItems
            for item in items {
                #expect(items.decodedValue(item, plusAsSpace: true) == items.decodedValue(item))
                #expect(items.decodedName(item, plusAsSpace: true) == items.decodedName(item))
            }
        }
    }

    static let inbound = "myapp://x-callback-url/find?x-success=source%3A%2F%2Fdone%3Fq%3D1%23top&x-error=source%3A%2F%2Ffailed&x-cancel=source%3A%2F%2Fback"

    @Test func successResultsGoInsideTheQueryBeforeTheFragment() {
        let response = XCallback.response(to: XCallback.parse(Self.inbound),
                                          outcome: .success(results: [XCallbackItem(name: "count", value: "3 items"), XCallbackItem(name: "flag", value: nil)]))
        #expect(response == .open("source://done?q=1&count=3%20items&flag#top"))
    }

    @Test func errorsCarryCodeAndMessage() {
        let response = XCallback.response(to: XCallback.parse(Self.inbound), outcome: .error(code: "404", message: "Not found & gone"))
        #expect(response == .open("source://failed?errorCode=404&errorMessage=Not%20found%20%26%20gone"))
    }

    @Test func cancelOpensXCancelAsItIs() {
        #expect(XCallback.response(to: XCallback.parse(Self.inbound), outcome: .cancel) == .open("source://back"))
    }

    @Test func nothingIsOpenedWithoutAUsableCallback() {
        let noError = XCallback.parse("myapp://x-callback-url/find?x-success=source%3A%2F%2Fdone")
        #expect(XCallback.response(to: noError, outcome: .error(code: "1", message: "m")).url == nil)
        #expect(XCallback.response(to: noError, outcome: .cancel).url == nil)
        let repeated = XCallback.parse("myapp://x-callback-url/find?x-success=a%3A%2F%2F1&x-success=b%3A%2F%2F2")
        #expect(XCallback.response(to: repeated, outcome: .success(results: [])).url == nil)
        let script = XCallback.parse("myapp://x-callback-url/find?x-success=javascript%3Aalert(1)")
        #expect(XCallback.response(to: script, outcome: .success(results: [])).url == nil)
        let notXCallback = XCallback.parse("https://example.com/find?x-success=source%3A%2F%2Fdone")
        #expect(XCallback.response(to: notXCallback, outcome: .success(results: [])).url == nil)
    }

    @Test func anAllowListOpensOnlyItsSchemes() {
        let link = XCallback.parse(Self.inbound)
        #expect(XCallback.response(to: link, outcome: .cancel, policy: XCallbackPolicy(allowedSchemes: ["other"])).url == nil)
        #expect(XCallback.response(to: link, outcome: .cancel, policy: XCallbackPolicy(allowedSchemes: ["SOURCE"])).url == "source://back")
    }

    @Test(arguments: [
        ("s://d", "s://d?r=1"), ("s://d?", "s://d?r=1"), ("s://d?a=1&", "s://d?a=1&r=1"), ("s://d?a=1", "s://d?a=1&r=1"),
        ("s://d#f", "s://d?r=1#f"), ("s://d?#f", "s://d?r=1#f"), ("s:d", "s:d?r=1"),
    ])
    func resultsAreAppendedWhereTheQueryIs(callback: String, expected: String) {
        #expect(XCallback.appending([XCallbackItem(name: "r", value: "1")], to: callback) == expected)
    }
}
