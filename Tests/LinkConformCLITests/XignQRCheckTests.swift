import Conformance
import Foundation
import LinkJSON
@testable import LinkConformCLI
import Testing

/// What `check` says of XignSys links: the pid decoded for the reader, its refusals and repairs
/// as violations, raw and decoded-once values.
struct XignQRCheckTests {
    @Test func refusedPidIsAViolationNotAValidLink() throws {
        let link = "xignqr://authentication?pid=not%20base64!!&browser=2"
        let rendering = CheckRendering(report: Check.explain(.link(Array(link.utf8))), titles: [:])
        let xign = rendering.json()["protocols"]?.arrayValue?.first { $0["suite"] == "xignqr" }
        #expect(xign?["valid"] == false && rendering.exitCode == 1)
        let refused = xign?["violations"]?.arrayValue?.first { $0["code"] == "pid-refused" }
        #expect(refused?["level"] == "MUST" && refused?["requirement"] == "XQR-D10")
        #expect(!rendering.human().contains("violations   none"))
    }

    @Test func pidRepairsAreWarnings() throws {
        let link = "xignqr://authentication?pid=CgM-AgM&browser=2"
        let rendering = CheckRendering(report: Check.explain(.link(Array(link.utf8))), titles: [:])
        let xign = rendering.json()["protocols"]?.arrayValue?.first { $0["suite"] == "xignqr" }
        let repairs = xign?["violations"]?.arrayValue?.filter { $0["code"] == "pid-repaired" } ?? []
        #expect(repairs.count == 2 && repairs.allSatisfy { $0["level"] == "SHOULD" })
        #expect(xign?["valid"] == true && rendering.exitCode == 0)
    }

    @Test func xignqrFieldsShowRawAndDecodedOnce() throws {
        let link = "xignqr://authentication?pid=CgMBAgM%3D&source-url=https%3A%2F%2Fxign.me%2Flogin"
        let rendering = CheckRendering(report: Check.explain(.link(Array(link.utf8))), titles: [:])
        let fields = rendering.json()["protocols"]?.arrayValue?.first?["fields"]?.arrayValue ?? []
        let pid = fields.first { $0["label"] == "pid" }
        #expect(pid?["raw"] == "CgMBAgM%3D" && pid?["decoded"] == "CgMBAgM=")
        let source = fields.first { $0["label"] == "source-url" }
        #expect(source?["raw"] == "https%3A%2F%2Fxign.me%2Flogin" && source?["decoded"] == "https://xign.me/login")
        #expect(rendering.human().contains("raw      CgMBAgM%3D"))
    }
}
