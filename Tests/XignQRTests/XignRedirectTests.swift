import Testing
@testable import XignQR

/// The lightweight link check and the full decoder's entry (requirements XQR-1 to XQR-9, XQR-D1 to D8).
struct XignRedirectTests {
    static let pid = "CgMBAgM%3D"

    @Test func theDocumentationsDeepLinkIsRead() {
        let r = XignQR.redirect("xignqr://authentication?pid=\(Self.pid)&browser=2&source-url=https%3A%2F%2Fxign.me%2Flogin%23xin-browser%3D2")
        #expect(r.process == .authentication && r.form == .deepLink)
        #expect(r.pid == "CgMBAgM=" && r.browser == "2" && r.sourceURL == "https://xign.me/login#xin-browser=2")
        #expect(r.violations.isEmpty)
    }

    @Test func theDocumentationsAppLinkIsRead() {
        let r = XignQR.redirect("https://xign.me/in-app/process/init?action=personalization&pid=\(Self.pid)")
        #expect(r.process == .personalization && r.form == .appLink && r.pid == "CgMBAgM=" && r.violations.isEmpty)
    }

    @Test func schemesAndHostsAreTheAppsAndCompareInAnyCase() {
        #expect(XignQR.redirect("XIGNQR://authentication?pid=\(Self.pid)").process == .authentication)
        #expect(XignQR.redirect("https://XIGN.ME/in-app/process/init?action=authentication&pid=\(Self.pid)").process == .authentication)
        #expect(XignQR.redirect("acme-auth://authentication?pid=\(Self.pid)").process == nil)
        #expect(XignQR.redirect("acme-auth://authentication?pid=\(Self.pid)", schemes: ["xignqr", "acme-auth"]).process == .authentication)
        #expect(XignQR.redirect("https://id.acme.example/in-app/process/init?action=transaction&pid=\(Self.pid)",
                                hosts: ["id.acme.example"]).process == .transaction)
    }

    @Test(arguments: ["https://example.com/in-app/process/init?action=authentication&pid=CgM%3D", "https://xign.me/login?pid=CgM%3D",
                      "mailto:someone@xign.me", "not a link", "", "myapp://authentication?pid=CgM%3D"])
    func otherLinksAreSilentlyNotXignInData(url: String) {
        let r = XignQR.redirect(url)
        #expect(r.process == nil && r.form == nil && r.violations.isEmpty)
    }

    @Test(arguments: [
        ("xignqr://login?pid=CgM%3D", ["process-unknown"]),
        ("xignqr://authentication", ["pid-missing"]),
        ("xignqr://authentication?pid=", ["pid-empty"]),
        ("xignqr://authentication?pid=CgM%3D&pid=CgQ%3D", ["pid:parameter-duplicated"]),
        ("xignqr://user@authentication?pid=CgM%3D", ["authority-extras"]),
        ("xignqr://authentication:80?pid=CgM%3D", ["authority-extras"]),
        ("http://xign.me/in-app/process/init?action=authentication&pid=CgM%3D", ["app-link-not-https"]),
        ("https://xign.me:8443/in-app/process/init?action=authentication&pid=CgM%3D", ["authority-extras"]),
        ("https://evil@xign.me/in-app/process/init?action=authentication&pid=CgM%3D", ["authority-extras"]),
        ("https://xign.me/in-app/process/init/extra?action=authentication&pid=CgM%3D", ["path-not-init"]),
        ("https://xign.me/in-app/process/start?action=authentication&pid=CgM%3D", ["path-not-init"]),
        ("https://xign.me/in-app/process/init?pid=CgM%3D", ["action-missing"]),
        ("https://xign.me/in-app/process/init?action=register&pid=CgM%3D", ["process-unknown"]),
        ("xignqr://authentication?pid=CgM%3D&source-url=javascript%3Aalert(1)", ["source-url-invalid"]),
        ("xignqr://authentication?pid=CgM%3D&source-url=%2Flogin", ["source-url-invalid"]),
        ("xignqr://authentication?pid=CgM%3D&source-url=https%3A%2F%2Fxign.me%40evil.example%2F", ["source-url-invalid"]),
        ("xignqr://authentication?pid=CgM%3D&source-url=", ["source-url-invalid"]),
    ])
    func brokenLinksStartNothing(url: String, keys: [String]) {
        let r = XignQR.redirect(url)
        #expect(r.process == nil)
        #expect(r.violationKeys == keys, "\(url)")
    }

    @Test func warningsKeepTheProcess() {
        let r = XignQR.redirect("xignqr://Authentication?pid=CgM+AgM%3D")
        #expect(r.process == .authentication && r.pid == "CgM+AgM=")
        #expect(Set(r.violationKeys) == ["process-not-lowercase", "pid-plus"])
        #expect(XignQR.redirect("xignqr://authentication?pid=CgM%3D&browser=a b").violationKeys == ["link-invalid-syntax"])
        #expect(XignQR.redirect("https://xign.me:443/in-app/process/init?action=authentication&pid=CgM%3D").violations.isEmpty)
    }

    @Test func theRedirectDoesNotJudgeThePid() {
        #expect(XignQR.redirect("xignqr://authentication?pid=not%20base64!").pid == "not base64!")
    }

    @Test func theFullDecoderTakesQRContentAnAppLinkOrTheBarePid() throws {
        let fromLink = try XignQR.decodePID("https://xign.me/in-app/process/init?action=authentication&pid=CgMBAgM%3D")
        #expect(fromLink.process == .authentication && fromLink.input == .appLink && fromLink.bytes == [0x0A, 3, 1, 2, 3])
        let bare = try XignQR.decodePID("CgMBAgM=")
        #expect(bare.process == nil && bare.input == .base64 && bare.repairs.isEmpty)
        #expect(throws: PIDError.self) { try XignQR.decodePID("https://xign.me/in-app/process/init?action=login&pid=CgMBAgM%3D") }
        #expect(throws: PIDError.self) { try XignQR.decodePID("xignqr://authentication?pid=CgMBAgM%3D") }
        do {
            _ = try XignQR.decodePID("CgMBAgMz")   // field 1, 3 bytes, then a key with field 6 wire type 3
        } catch {
            #expect(error.code == "group-wire-type" && error.requirement == "XQR-D11")
        }
    }
}

/// A '#' in a XignSys link (XQR-D14).
struct XignFragmentTests {
    @Test func sourceURLHashLeftRawIsReported() {
        let r = XignQR.redirect("xignqr://authentication?pid=CgMBAgM%3D&source-url=https://xign.me/login#section")
        #expect(r.process == .authentication && r.sourceURL == "https://xign.me/login")
        #expect(r.violationKeys == ["link-has-fragment"])
        #expect(r.violations[0].level == .should)
        #expect(r.violations[0].message.contains("source-url's own '#'"))
    }

    @Test func parameterSwallowedByTheFragmentIsNamed() {
        let r = XignQR.redirect("xignqr://authentication?pid=CgMBAgM%3D&source-url=https%3A%2F%2Fxign.me%2Flogin#top&browser=2")
        #expect(r.browser == nil)
        #expect(r.violationKeys == ["link-has-fragment"])
        #expect(r.violations[0].message.contains("swallowed browser"))
        #expect(!r.violations[0].message.contains("source-url's own"))
    }

    @Test func encodedHashIsNoFragment() {
        let r = XignQR.redirect("xignqr://authentication?pid=CgMBAgM%3D&source-url=https%3A%2F%2Fxign.me%2Flogin%23section")
        #expect(r.violations.isEmpty && r.sourceURL == "https://xign.me/login#section")
    }

    @Test func parametersAreKeptAsWrittenEvenWhenNoProcessStarts() {
        let r = XignQR.redirect("xignqr://login?pid=CgMBAgM%3D&browser=2")
        #expect(r.process == nil && r.pid == nil)
        #expect(r.written.pid == "CgMBAgM%3D" && r.written.browser == "2")
    }
}
