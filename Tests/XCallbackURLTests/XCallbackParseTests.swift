import LinkURL
import Testing
@testable import XCallbackURL

/// Reading x-callback-urls: what they ask for and what is wrong with them.
struct XCallbackParseTests {
    @Test func theDraftsFormIsRead() {
        let link = XCallback.parse("drafts://x-callback-url/create?x-source=My%20App&x-success=myapp%3A%2F%2Fdone&x-error=myapp%3A%2F%2Ffailed&x-cancel=myapp%3A%2F%2Fcancelled&text=Hello%20World")
        #expect(link.kind == .xcallback)
        #expect(link.violations.isEmpty)
        #expect(link.scheme == "drafts")
        #expect(link.action == "create")
        #expect(link.source == "My App")
        #expect(link.success?.decoded == "myapp://done")
        #expect(link.error?.decoded == "myapp://failed")
        #expect(link.cancel?.decoded == "myapp://cancelled")
        #expect(link.success?.raw == "myapp%3A%2F%2Fdone")
        #expect(link.parameters == [XCallbackItem(name: "text", value: "Hello World")])
    }

    @Test(arguments: [
        "myapp://x-callback.url/open", "myapp://example.com/x-callback-url/open", "//x-callback-url/open",
        "things:///add?title=x", "x-callback-url/open", "", "myapp:x-callback-url/open",
        // No valid scheme before "://" (RFC 3986 section 3.1), so no scheme at all.
        "4app://x-callback-url/open", "my_app://x-callback-url/open?x-success=source%3A%2F%2Fdone", "%://x-callback-url/n",
    ])
    func otherURLsAreNotXCallbackURLs(url: String) {
        let link = XCallback.parse(url)
        #expect(link.kind == .notXCallback)
        #expect(link.violations.isEmpty && link.parameters.isEmpty && link.action == nil)
    }

    @Test func hostCaseIsTheSameHostButFlagged() {
        let link = XCallback.parse("myapp://X-Callback-URL/open")
        #expect(link.kind == .xcallback)
        #expect(link.violationKeys == ["host-not-lowercase"])
    }

    @Test(arguments: ["myapp://x-callback-url", "myapp://x-callback-url/", "myapp://x-callback-url?x-success=a%3A%2F%2Fb"])
    func aURLWithoutActionIsInvalid(url: String) {
        let link = XCallback.parse(url)
        #expect(link.kind == .invalid)
        #expect(link.violationKeys.contains("action-empty"))
    }

    @Test(arguments: [("1.0/open", true), ("v2/open", true), ("V2.1/open", true), ("1/open", true), ("2fa/setup", false),
                      ("1.0", false), ("1..0/open", false), ("v/open", false), ("1.0/", false), ("open/1.0", false)])
    func aVersionSegmentIsFlagged(action: String, flagged: Bool) {
        let link = XCallback.parse("myapp://x-callback-url/" + action)
        #expect(link.violationKeys.contains("action-version-segment") == flagged)
        #expect(link.action == action)
    }

    /// The version check reads the action decoded once, in parse and build alike: the xcallback
    /// fuzz target found `444%2F44...` read as clean but refused when built again from its action.
    @Test(arguments: [("1%2Fopen", true), ("1%2E0/open", true), ("1//open", true), ("v2%2F", false), ("2fa%2Fsetup", false)])
    func parseAndBuildAgreeOnVersionSegments(rawAction: String, flagged: Bool) throws {
        let link = XCallback.parse("myapp://x-callback-url/" + rawAction)
        #expect(link.violationKeys.contains("action-version-segment") == flagged)
        let action = try #require(link.action)
        var refused = false
        do { _ = try XCallback.build(XCallbackRequest(scheme: "myapp", action: action)) } catch {
            refused = error.violations.map(\.key).contains("action-version-segment")
        }
        #expect(refused == flagged)
    }

    /// A `.` or `..` segment, written or encoded, is flagged (WHATWG readers remove it, Foundation
    /// keeps it), in parse and build alike; dots that are not a whole segment are not.
    @Test(arguments: [("view/../delete", true), ("view/%2E%2E/delete", true), ("./open", true), ("..", true), (".", true),
                      ("a/%2e", true), ("a%2F..%2Fb", true), ("...", false), ("open..file", false), ("a/.b/c", false),
                      ("a/%252E%252E/b", false), ("v1.0", false)])
    func aDotSegmentIsFlagged(rawAction: String, flagged: Bool) throws {
        let link = XCallback.parse("myapp://x-callback-url/" + rawAction)
        #expect(link.kind == .xcallback)
        #expect(link.violationKeys.contains("action-dot-segment") == flagged, "\(link.violationKeys)")
        let action = try #require(link.action)
        var refused = false
        do { _ = try XCallback.build(XCallbackRequest(scheme: "myapp", action: action)) } catch {
            refused = error.violations.map(\.key) == ["action-dot-segment"]
        }
        #expect(refused == flagged)
    }

    @Test func theActionIsThePathDecodedOnceWithItsSlashes() {
        #expect(XCallback.parse("myapp://x-callback-url/note/open%20now").action == "note/open now")
        #expect(XCallback.parse("myapp://x-callback-url/a%252F").action == "a%2F")
        #expect(XCallback.parse("myapp://x-callback-url/a%FF").action == "a\u{FFFD}")
    }

    @Test func namesAreDecodedAndCaseSensitive() {
        let link = XCallback.parse("myapp://x-callback-url/a?x%2Dsuccess=b%3A%2F%2Fc&X-Error=d%3A%2F%2Fe")
        #expect(link.success?.decoded == "b://c")
        #expect(link.error == nil)
        #expect(link.parameters == [XCallbackItem(name: "X-Error", value: "d://e")])
    }

    /// Plain names are told apart by length and third letter, then compared in full: names one
    /// letter off, of the same length, or escaped anywhere, must read as the general comparison does.
    @Test func parameterNamesNearTheFourAreReadExactly() {
        let link = XCallback.parse("myapp://x-callback-url/a?x-sourcf=1&x-errors=2&x-cancex=3&x-succesS=4&x-erro=5"
            + "&x-%73ource=S&x-succes%73=b%3A%2F%2Fc&x-cancel=d%3A%2F%2Fe&x-error=f%3A%2F%2Fg")
        #expect(link.source == "S")
        #expect(link.success?.decoded == "b://c")
        #expect(link.cancel?.decoded == "d://e")
        #expect(link.error?.decoded == "f://g")
        #expect(link.parameters.map(\.name) == ["x-sourcf", "x-errors", "x-cancex", "x-succesS", "x-erro"])
        #expect(link.violationKeys == ["x-sourcf:parameter-reserved-prefix", "x-errors:parameter-reserved-prefix",
                                       "x-cancex:parameter-reserved-prefix", "x-succesS:parameter-reserved-prefix",
                                       "x-erro:parameter-reserved-prefix"])
    }

    @Test func pairsSplitAtTheFirstEqualsAndKeepTheirShape() {
        let link = XCallback.parse("myapp://x-callback-url/a?data=YWJj==&flag&&empty=&x-source=")
        #expect(link.parameters == [XCallbackItem(name: "data", value: "YWJj=="), XCallbackItem(name: "flag", value: nil),
                                    XCallbackItem(name: "empty", value: "")])
        #expect(link.source == "")
        #expect(link.violations.isEmpty)
    }

    @Test func plusIsKeptAndFlaggedWherever() {
        let link = XCallback.parse("myapp://x-callback-url/a?x-source=My+App&q=a+b&x-success=s%3A%2F%2Fd%3Fq%3Da+b")
        #expect(link.source == "My+App")
        #expect(link.parameters == [XCallbackItem(name: "q", value: "a+b")])
        #expect(link.success?.decoded == "s://d?q=a+b")
        #expect(Set(link.violationKeys) == ["x-source:value-plus", "q:value-plus", "x-success:callback-plus"])
        #expect(link.kind == .xcallback)
    }

    @Test func reservedPrefixIsCheckedOnTheDecodedName() {
        #expect(XCallback.parse("myapp://x-callback-url/a?x-foo=1").violationKeys == ["x-foo:parameter-reserved-prefix"])
        #expect(XCallback.parse("myapp://x-callback-url/a?%78-foo=1").violationKeys == ["x-foo:parameter-reserved-prefix"])
        #expect(XCallback.parse("myapp://x-callback-url/a?X-Foo=1&xfoo=1").violations.isEmpty)
    }

    @Test(arguments: [
        ("done", ["x-success:callback-not-absolute"]),
        ("myapp%253A%252F%252Fdone", ["x-success:callback-double-encoded"]),
        ("https%3A%2F%2Ftrusted%40evil.example%2F", ["x-success:callback-userinfo"]),
        ("myapp%3A%2F%2Fa%20b", ["x-success:callback-invalid-url"]),
        ("myapp%3A%2F%2F%FF", ["x-success:callback-invalid-url"]),
        ("", ["x-success:callback-empty"]),
        ("JavaScript%3Aalert(1)", ["x-success:callback-scheme-refused"]),
        ("file%3A%2F%2F%2Fetc%2Fpasswd", ["x-success:callback-scheme-refused"]),
        ("myapp%3Adone", []),
        // XCB-D14: an escape in a registered-name host, once; a malformed one is a syntax error
        // instead; an IPv6 zone (`%25` inside brackets) and escapes elsewhere are not judged.
        ("https%3A%2F%2Ftrusted.example%2500.evil.example%2F", ["x-success:callback-host-escaped"]),
        ("https%3A%2F%2Fa%252Eb%2541%2F", ["x-success:callback-host-escaped"]),
        ("https%3A%2F%2Fu%40a%252Eb%2F", ["x-success:callback-userinfo", "x-success:callback-host-escaped"]),
        ("https%3A%2F%2Fa%25ZZb%2F", ["x-success:callback-invalid-url"]),
        ("https%3A%2F%2F%5Bfe80%3A%3A1%2525en0%5D%2F", ["x-success:callback-invalid-url"]),
        ("https%3A%2F%2Fa.example%2F%2541%3Fq%3D%2525", []),
    ])
    func callbackValuesAreChecked(value: String, keys: [String]) {
        let link = XCallback.parse("myapp://x-callback-url/a?x-success=" + value)
        #expect(link.violationKeys == keys)
        #expect(link.kind == (keys.contains { $0.hasSuffix("scheme-refused") } || keys.isEmpty ? .xcallback : .invalid))
        #expect(link.isUsable(.success) == (link.kind == .xcallback))
    }

    @Test func aCallbackWithoutEqualsIsEmpty() {
        #expect(XCallback.parse("myapp://x-callback-url/a?x-error").violationKeys == ["x-error:callback-empty"])
    }

    @Test func repeatsAreNotRead() {
        let link = XCallback.parse("myapp://x-callback-url/a?x-success=a%3A%2F%2F1&x-success=b%3A%2F%2F2&x-source=A&x-source=B")
        #expect(link.success == nil && link.source == nil)
        #expect(Set(link.violationKeys) == ["x-success:callback-duplicated", "x-source:callback-duplicated"])
        #expect(link.kind == .invalid)
    }

    @Test func aRawHashCutsTheLastCallback() {
        let link = XCallback.parse("myapp://x-callback-url/a?x-success=s://done?r=1#frag")
        #expect(link.success?.decoded == "s://done?r=1")
        #expect(Set(link.violationKeys) == ["link-has-fragment", "x-success:callback-raw-delimiter"])
        #expect(link.kind == .xcallback)
    }

    @Test func invalidSyntaxAnywhereIsFlagged() {
        let link = XCallback.parse("myapp://x-callback-url/a?text=a b")
        #expect(link.violationKeys == ["link-invalid-syntax"])
        #expect(link.parameters == [XCallbackItem(name: "text", value: "a b")])
    }

    @Test func overLongURLsAreNotRead() {
        let link = XCallback.parse("myapp://x-callback-url/a?t=" + String(repeating: "a", count: 70_000))
        #expect(link.kind == .invalid)
        #expect(link.violationKeys == ["link-too-long"])
        #expect(link.action == nil && link.parameters.isEmpty)
    }

    @Test func theSharedInspectionExampleHolds() {
        let link = Array("s://x-callback-url/a?x-success=b://c?d=1".utf8)
        var found: [CallbackFinding] = []
        CallbackInspection.inspect(link, value: 31..<40) { found.append($0) }
        #expect(found == [.rawDelimiter(offset: 36, byte: 63)])
    }

    @Test func theDocumentationExamplesHold() {
        let link = XCallback.parse("drafts://x-callback-url/create?text=Hello%20World&x-success=myapp%3A%2F%2Fdone")
        #expect(link.kind == .xcallback && link.action == "create" && link.success?.decoded == "myapp://done")
        let bad = XCallback.parse("myapp://x-callback-url/open?x-success=done")
        #expect(bad.violationKeys == ["x-success:callback-not-absolute"] && bad.violations[0].requirement == "XCB-6")
        #expect(!XCallbackPolicy.default.permits(scheme: "JavaScript"))
        #expect(!XCallbackPolicy(allowedSchemes: ["myapp"]).permits(scheme: "https"))
        #expect(XCallbackPolicy(allowedSchemes: ["MyApp"]).permits(scheme: "myapp"))
    }
}

/// What the messages say about a callback cut short, a fragment and a non-ASCII host.
struct XCallbackMessageTests {
    func message(_ link: String, _ key: String) -> String {
        XCallback.parse(link).violations.first { $0.key == key }?.message ?? "(no \(key))"
    }

    @Test func rawAmpersandThatCutACallbackNamesTheStrayParameter() {
        let m = message("myapp://x-callback-url/open?x-success=b://c?d=1&e=2", "x-success:callback-raw-delimiter")
        #expect(m.contains("cut it short there: 'e=2' after it was read as a parameter of the action"))
        #expect(!m.contains("would already have"))
    }

    @Test func rawCallbackThatRunsToTheEndIsNotSaidToBeCut() {
        let m = message("myapp://x-callback-url/open?x-success=b://c?d=1", "x-success:callback-raw-delimiter")
        #expect(m.contains("runs to the end of the link"))
        #expect(!m.contains("cut it short there"))
    }

    @Test func fragmentAfterEncodedCallbacksIsNotBlamedOnThem() {
        let m = message("myapp://x-callback-url/open?x-success=b%3A%2F%2Fc&x-error=e%3A%2F%2Ff#top", "link-has-fragment")
        #expect(!m.contains("own '#' left unencoded"))
        #expect(m.contains("percent-encoded"))
    }

    @Test func fragmentAfterARawCallbackIsBlamedOnIt() {
        let m = message("myapp://x-callback-url/open?x-success=b://c#top", "link-has-fragment")
        #expect(m.contains("x-success's own '#' left unencoded"))
    }

    @Test func fragmentThatSwallowedXErrorNamesIt() {
        let link = XCallback.parse("myapp://x-callback-url/open?x-success=b://c#frag&x-error=e%3A%2F%2Ff")
        #expect(link.error == nil)
        let m = link.violations.first { $0.key == "link-has-fragment" }?.message ?? ""
        #expect(m.contains("swallowed x-error"))
    }

    @Test func nonASCIIHostIsToldToUseIDNA() {
        let m = message("myapp://x-callback-url/open?x-success=https%3A%2F%2Fb\u{00FC}cher.example%2F", "x-success:callback-invalid-url")
        #expect(m.contains("IDNA") && m.contains("xn--"))
        #expect(!m.contains("percent-encode its UTF-8 bytes"))
    }
}

/// `FragmentReading`: the documented example holds.
struct FragmentReadingTests {
    @Test func rawCallbackBeforeTheHashIsTheOneCutAndSwallowedParametersAreListed() throws {
        let url = LinkURL(parsing: "s://x-callback-url/a?x-success=b://c#top&x-error=e%3A%2F%2Ff")
        let reading = try #require(FragmentReading(url, parameters: ["x-success", "x-error"]))
        #expect(reading.hash == 36 && reading.cut == "x-success" && !reading.afterEncodedValue)
        #expect(reading.swallowed.map(\.name) == ["x-error"] && reading.swallowed.first?.value == "e%3A%2F%2Ff")
        #expect(reading.note(for: "x-error")?.contains("in the fragment") == true)
        #expect(reading.note(for: "x-success") == nil)
    }

    @Test func encodedValueBeforeTheHashIsNotCut() throws {
        let url = LinkURL(parsing: "s://x-callback-url/a?x-success=b%3A%2F%2Fc#top")
        let reading = try #require(FragmentReading(url, parameters: ["x-success"]))
        #expect(reading.cut == nil && reading.afterEncodedValue && reading.swallowed.isEmpty)
    }

    @Test func noFragmentNoReading() {
        #expect(FragmentReading(LinkURL(parsing: "s://x-callback-url/a?x-success=b%3A%2F%2Fc"), parameters: []) == nil)
    }

    /// Ten thousand action parameters with a raw '+' (and, in the second link, the x- prefix):
    /// a key is listed once, each code lists its first 32 parameters and the last one listed
    /// counts the rest; every parameter is still read.
    @Test func perParameterViolationsAreListedWithinABound() {
        let base = "myapp://x-callback-url/act?x-success=https%3A%2F%2Fa.example&"
        let same = XCallback.parse(base + Array(repeating: "a=1+1", count: 10_000).joined(separator: "&"))
        #expect(same.violationKeys == ["a:value-plus"])
        #expect(same.parameters.count == 10_000)
        let distinct = XCallback.parse(base + (0..<6_000).map { "x-\($0)=+" }.joined(separator: "&"))
        let byCode = Dictionary(grouping: distinct.violations, by: \.code)
        #expect(byCode[.parameterReservedPrefix]?.count == XCallbackParser.listedPerCode)
        #expect(byCode[.valuePlus]?.count == XCallbackParser.listedPerCode)
        #expect(byCode[.valuePlus]?.last?.message.contains("and 5968 more action parameters") == true)
        #expect(byCode[.valuePlus]?.first?.message.contains("more action parameters") == false)
        #expect(distinct.parameters.count == 6_000)
        // Below the cap nothing is omitted or reworded.
        let few = XCallback.parse(base + (0..<32).map { "p\($0)=+" }.joined(separator: "&"))
        #expect(few.violations.count == 32 && !few.violations.contains { $0.message.contains("more action parameters") })
    }
}
