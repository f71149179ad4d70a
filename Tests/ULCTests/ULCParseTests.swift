import LinkURL
import Testing
@testable import ULC

/// The ULC parser: identification, action, callbacks, violations.
struct ULCParseTests {
    static let webex = "https://cisco.webex.com/logout?ulc-success=https%3A%2F%2Fsampledomain.com%2Fsuccess&ulc-error=https%3A%2F%2Fsampledomain.com%2Ferror"

    @Test func webexDocumentedLinkIsAValidULC() {
        let link = ULC.parse(Self.webex)
        #expect(link.kind == .ulc)
        #expect(link.action == "https://cisco.webex.com/logout")
        #expect(link.success?.decoded == "https://sampledomain.com/success")
        #expect(link.success?.raw == "https%3A%2F%2Fsampledomain.com%2Fsuccess")
        #expect(link.error?.decoded == "https://sampledomain.com/error")
        #expect(link.violations.isEmpty)
    }

    @Test func linkWithoutUlcSuccessIsNotAULC() {
        #expect(ULC.parse("https://app.example.com/logout?ulc-error=https%3A%2F%2Fe.example").kind == .notULC)
        #expect(ULC.parse("https://app.example.com/logout").kind == .notULC)
        #expect(ULC.parse("https://app.example.com/logout#ulc-success=x").kind == .notULC)
    }

    @Test func parameterNamesAreDecodedThenComparedExactly() {
        #expect(ULC.parse("https://a.example/l?ulc%2Dsuccess=https%3A%2F%2Fs.example&ulc-error=https%3A%2F%2Fe.example").kind == .ulc)
        #expect(ULC.parse("https://a.example/l?ULC-SUCCESS=https%3A%2F%2Fs.example").kind == .notULC)
        // A name escaped from its first byte is still read; a shorter raw name never is.
        #expect(ULC.parse("https://a.example/l?%75lc-success=https%3A%2F%2Fs.example&%75%6C%63%2D%65%72%72%6F%72=https%3A%2F%2Fe.example").kind == .ulc)
        #expect(ULC.parse("https://a.example/l?ulc-succ=https%3A%2F%2Fs.example").kind == .notULC)
    }

    @Test func actionKeepsItsOwnQueryInOrderAndDropsCallbacks() {
        let link = ULC.parse("https://appb.company.com/actions/logout?force=1&ulc-success=https%3A%2F%2Fs.example&x=2&ulc-error=https%3A%2F%2Fe.example")
        #expect(link.action == "https://appb.company.com/actions/logout?force=1&x=2")
        #expect(link.kind == .ulc)
    }

    @Test func actionKeepsEmptyItemsExactly() {
        let link = ULC.parse("https://a.example/l?a=1&&ulc-success=https%3A%2F%2Fs.example&ulc-error=https%3A%2F%2Fe.example&")
        #expect(link.action == "https://a.example/l?a=1&&")
    }

    @Test func duplicatedCallbackIsRefusedAndNotRead() {
        let link = ULC.parse("https://a.example/l?ulc-success=https%3A%2F%2Fs.example&ulc-error=https%3A%2F%2Fe.example&ulc-success=https%3A%2F%2Fevil.example")
        #expect(link.kind == .invalid)
        #expect(link.violationKeys == ["ulc-success:callback-duplicated"])
        #expect(link.success == nil)
        #expect(!link.isUsable(.success))
        #expect(link.isUsable(.error))
    }

    @Test func unencodedCallbackWithItsOwnQueryIsFlagged() {
        let link = ULC.parse("https://a.example/l?ulc-success=https://s.example/ok?x=1&y=2&ulc-error=https%3A%2F%2Fe.example")
        #expect(link.violationKeys == ["ulc-success:callback-raw-delimiter"])
        #expect(link.kind == .invalid)
        #expect(link.violations[0].offset == 52)   // the raw "?" after "ok"
    }

    @Test func rawColonsAndSlashesAloneAreNotAViolation() {
        let link = ULC.parse("https://yourapp.yourcompany.com/logout?ulc-success=https://locker.groundctl.com/success&ulc-error=https://locker.groundctl.com/error")
        #expect(link.kind == .ulc)
        #expect(link.violations.isEmpty)
    }

    @Test func plusInACallbackIsAWarningAndStaysAPlus() {
        let link = ULC.parse("https://a.example/l?ulc-success=https%3A%2F%2Fs.example%2Fa+b&ulc-error=https%3A%2F%2Fe.example")
        #expect(link.kind == .ulc)
        #expect(link.violationKeys == ["ulc-success:callback-plus"])
        #expect(link.success?.decoded == "https://s.example/a+b")
        #expect(link.isUsable(.success))
    }

    @Test func doubleEncodedCallbackIsRefusedWithOneViolationOnly() {
        let link = ULC.parse("https://a.example/l?ulc-success=https%253A%252F%252Fs.example&ulc-error=https%3A%2F%2Fe.example")
        #expect(link.violationKeys == ["ulc-success:callback-double-encoded"])
        #expect(link.success?.decoded == "https%3A%2F%2Fs.example")
    }

    @Test(arguments: [
        ("http%3A%2F%2Fs.example", ["ulc-success:callback-not-https"]),
        ("myapp%3A%2F%2Fdone", ["ulc-success:callback-not-https"]),
        ("javascript%3Aalert(1)", ["ulc-success:callback-not-https", "ulc-success:callback-no-host"]),
        ("%2Fsuccess", ["ulc-success:callback-not-absolute"]),
        ("https%3A%2F%2Ftrusted.example%40evil.example%2F", ["ulc-success:callback-userinfo"]),
        ("https%3A%2F%2F%2Fpath", ["ulc-success:callback-no-host"]),
        ("https%3A%2F%2Fs.example%2Fa%20b", ["ulc-success:callback-invalid-url"]),
        ("https%3A%2F%2Fs.example%2F%FF", ["ulc-success:callback-invalid-url"]),
        ("", ["ulc-success:callback-empty"]),
    ])
    func badSuccessCallbacksAreNamed(value: String, keys: [String]) {
        let link = ULC.parse("https://a.example/l?ulc-success=\(value)&ulc-error=https%3A%2F%2Fe.example")
        #expect(link.kind == .invalid)
        #expect(link.violationKeys == keys)
    }

    @Test func missingErrorCallbackIsAWarning() {
        let link = ULC.parse("https://a.example/l?ulc-success=https%3A%2F%2Fs.example")
        #expect(link.kind == .ulc)
        #expect(link.violationKeys == ["ulc-error:error-missing"])
        #expect(link.violations[0].level == .should)
    }

    @Test func actionMustBeHTTPSWithAHostAndShouldHaveAPath() {
        #expect(ULC.parse("http://a.example/l?ulc-success=https%3A%2F%2Fs.example&ulc-error=https%3A%2F%2Fe.example").violationKeys == ["action-not-https"])
        #expect(ULC.parse("https:///l?ulc-success=https%3A%2F%2Fs.example&ulc-error=https%3A%2F%2Fe.example").violationKeys == ["action-no-host"])
        #expect(ULC.parse("https://a.example/?ulc-success=https%3A%2F%2Fs.example&ulc-error=https%3A%2F%2Fe.example").violationKeys == ["action-no-path"])
    }

    @Test func fragmentInvalidatesTheLinkAndTheCallbackItCut() {
        let link = ULC.parse("https://a.example/l?ulc-success=https%3A%2F%2Fs.example&ulc-error=https://e.example/x#frag")
        #expect(link.kind == .invalid)
        #expect(link.violationKeys == ["link-has-fragment"])
        #expect(link.isUsable(.success))
        #expect(!link.isUsable(.error))
    }

    @Test func invalidSyntaxAnywhereIsFlaggedOnce() {
        let link = ULC.parse("https://a.example/l?note=caf\u{E9} au lait&ulc-success=https%3A%2F%2Fs.example&ulc-error=https%3A%2F%2Fe.example")
        #expect(link.violationKeys == ["link-invalid-syntax"])
        #expect(link.kind == .ulc)
    }

    @Test func hugeLinkIsRefusedUnread() {
        let huge = "https://a.example/l?ulc-success=" + String(repeating: "a", count: 10_000_000)
        let link = ULC.parse(huge)
        #expect(link.kind == .invalid)
        #expect(link.violationKeys == ["link-too-long"])
    }

    @Test func invalidUTF8BytesDoNotCrashAndAreFlagged() {
        var bytes = Array("https://a.example/l?ulc-success=https%3A%2F%2Fs.example&x=".utf8)
        bytes += [0xFF, 0xC3, 0x28]
        let link = ULC.parse(bytes)
        #expect(link.kind == .ulc)
        #expect(link.violationKeys.contains("link-invalid-syntax"))
    }

    @Test func everyViolationCodeNamesARequirementAndLevel() {
        for code in ULCViolation.Code.allCases {
            #expect(code.requirement.hasPrefix("ULC-"))
            #expect(code.isFatal == (code.level == .must || code == .linkTooLong))
        }
    }
}

/// What the ULC messages say about a fragment and a callback cut short.
struct ULCMessageTests {
    func message(_ link: String, _ key: String) -> String {
        ULC.parse(link).violations.first { $0.key == key }?.message ?? "(no \(key))"
    }

    @Test func fragmentAfterTwoEncodedCallbacksIsTheLinksOwn() {
        let m = message("https://app.example/logout?ulc-success=https%3A%2F%2Fs.example%2Fok&ulc-error=https%3A%2F%2Fe.example%2Fko#top", "link-has-fragment")
        #expect(!m.contains("callback's own"))
        #expect(m.contains("the link's own fragment"))
    }

    @Test func fragmentAfterARawCallbackBlamesIt() {
        let m = message("https://app.example/logout?ulc-error=https%3A%2F%2Fe.example&ulc-success=https://s.example/ok#top", "link-has-fragment")
        #expect(m.contains("ulc-success's own '#' left unencoded"))
    }

    @Test func strayItemOfARawCallbackLandsInTheAction() {
        let link = ULC.parse("https://app.example/logout?ulc-success=https://s.example/ok?a=1&b=2&ulc-error=https%3A%2F%2Fe.example")
        let m = link.violations.first { $0.key == "ulc-success:callback-raw-delimiter" }?.message ?? ""
        #expect(m.contains("'b=2' after it was read as part of the logout action"))
        #expect(link.action?.contains("b=2") == true)
    }
}

/// Hosts are internationalized with IDNA, not percent-encoding.
struct ULCHostAdviceTests {
    @Test func nonASCIIActionHostIsToldToUseIDNA() {
        let link = ULC.parse("https://b\u{00FC}cher.example/logout?ulc-success=https%3A%2F%2Fs.example&ulc-error=https%3A%2F%2Fe.example")
        let m = link.violations.first { $0.key == "link-invalid-syntax" }?.message ?? ""
        #expect(m.contains("xn--") && !m.contains("percent-encode its UTF-8 bytes"))
    }

    @Test func nonASCIIInTheQueryKeepsThePercentEncodingAdvice() {
        let link = ULC.parse("https://a.example/logout?x=\u{00FC}&ulc-success=https%3A%2F%2Fs.example&ulc-error=https%3A%2F%2Fe.example")
        let m = link.violations.first { $0.key == "link-invalid-syntax" }?.message ?? ""
        #expect(m.contains("percent-encode its UTF-8 bytes"))
    }

    @Test func nonASCIICallbackHostIsToldToUseIDNA() {
        let link = ULC.parse("https://a.example/logout?ulc-success=https%3A%2F%2Fb%C3%BCcher.example&ulc-error=https%3A%2F%2Fe.example")
        let m = link.violations.first { $0.key == "ulc-success:callback-invalid-url" }?.message ?? ""
        #expect(m.contains("IDNA"))
    }
}
