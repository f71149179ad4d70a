import LinkRules
import Testing
@testable import XignQR

/// `XignQR.checkPID`: what `check` reports about a pid (XQR-D9 to XQR-D12).
struct PIDCheckTests {
    @Test func cleanPidHasNoViolations() {
        let check = XignQR.checkPID("CgMBAgM=")
        #expect(check.violations.isEmpty)
        #expect(check.decoding?.fields.count == 1)
    }

    @Test func refusedPidIsAViolation() {
        let check = XignQR.checkPID("not base64!!")
        #expect(check.decoding == nil)
        #expect(check.violations.map(\.key) == ["pid-refused"])
        #expect(check.violations[0].level == .must && check.violations[0].requirement == "XQR-D10")
        #expect(check.violations[0].message.contains("invalid-character"))
    }

    @Test(arguments: [("CgMBAgM", "missing-padding"), ("CgM-AgM=", "url-safe-alphabet"), ("CgM AgM=", "space-for-plus"),
                      ("CgMB\nAgM=", "whitespace")])
    func eachRepairIsAShouldWarning(pid: String, repair: String) {
        let check = XignQR.checkPID(pid)
        #expect(check.decoding != nil)
        let repaired = check.violations.filter { $0.code == .pidRepaired }
        #expect(repaired.count == 1)
        #expect(repaired.first?.level == .should && repaired.first?.requirement == "XQR-D9")
        #expect(repaired.first?.message.contains(repair) == true)
    }

    @Test func wireFormatProblemIsAShouldWarning() {
        // 0x0A 0x05 then only one byte: a truncated length-delimited field.
        let check = XignQR.checkPID("CgUB")
        #expect(check.violations.map(\.key) == ["pid-not-protobuf"])
        #expect(check.violations[0].level == .should && check.violations[0].requirement == "XQR-D11")
    }

    @Test func everyPidCodeNamesARequirementOfItsLevel() {
        let table = Dictionary(uniqueKeysWithValues: XignViolationCode.requirementTable.map { ($0.code, $0) })
        #expect(table["pid-refused"]?.level == .must)
        #expect(table["pid-repaired"]?.level == .should)
        #expect(table["pid-not-protobuf"]?.level == .should)
        #expect(table["pid-over-limit"]?.level == .info)
        #expect(table["link-has-fragment"]?.requirement == "XQR-D14")
    }
}
