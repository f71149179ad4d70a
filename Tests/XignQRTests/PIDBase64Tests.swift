import Foundation
import SeededRandom
import Testing
@testable import XignQR

/// Strict base64 with the repairs a pid may need (RFC 4648; requirements XQR-3, XQR-D9, XQR-D10).
struct PIDBase64Tests {
    @Test func theDocumentationExampleHolds() throws {
        let decoded = try PIDBase64.decode("CgMBAgM%3D")
        #expect(decoded.bytes == [0x0A, 0x03, 0x01, 0x02, 0x03])
        #expect(decoded.repairs == [.percentEncoded])
    }

    /// Any bytes encoded by Foundation decode back, with no repair.
    @Test func strictBase64RoundTrips() throws {
        var rng = SeededGenerator(seed: 64)
        for length in 0..<200 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let text = Data(bytes).base64EncodedString()
            if bytes.isEmpty {
                #expect(throws: PIDBase64.Failure.self) { try PIDBase64.decode(text) }
                continue
            }
            let decoded = try PIDBase64.decode(text)
            #expect(decoded.bytes == bytes && decoded.repairs.isEmpty, "\(text)")
        }
    }

    /// Each kind of transport damage is repaired and named; the bytes come back.
    @Test func transportDamageIsRepairedAndNamed() throws {
        var rng = SeededGenerator(seed: 65)
        var seen: Set<PIDBase64.Repair> = []
        for length in 1..<300 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let clean = Data(bytes).base64EncodedString()
            let variants: [(String, PIDBase64.Repair)] = [
                (clean.replacingOccurrences(of: "=", with: "%3D").replacingOccurrences(of: "+", with: "%2B"), .percentEncoded),
                (clean.replacingOccurrences(of: "+", with: " "), .spaceForPlus),
                (clean.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_"), .urlSafeAlphabet),
                (clean.replacingOccurrences(of: "=", with: ""), .missingPadding),
                (Data(bytes).base64EncodedString(options: [.lineLength64Characters, .endLineWithCarriageReturn, .endLineWithLineFeed]), .whitespace),
            ]
            for (text, repair) in variants where text != clean {
                let decoded = try PIDBase64.decode(text)
                #expect(decoded.bytes == bytes, "\(text)")
                #expect(decoded.repairs == [repair], "\(text): \(decoded.repairs)")
                seen.insert(repair)
            }
        }
        #expect(seen == Set(PIDBase64.Repair.allCases))
    }

    @Test(arguments: [
        ("", "empty"), ("\n\t", "empty"), ("====", "padding-inside"), ("Cg=M", "padding-inside"), ("Cg===", "padding-inside"),
        ("CgM*", "invalid-character"), ("Cg.M", "invalid-character"), ("CgM+_w==", "mixed-alphabets"),
        ("CgMBA", "invalid-length"), ("CgMBAgM==", "invalid-length"), ("Cg==AAAA", "padding-inside"),
        ("Ch==", "noncanonical-bits"), ("CgN=", "noncanonical-bits"), ("Cgé=", "invalid-character"),
    ])
    func damageWithoutASafeRepairIsRefusedByName(text: String, code: String) {
        do {
            let decoded = try PIDBase64.decode(text)
            Issue.record("decoded \(decoded.bytes) from \(text)")
        } catch {
            #expect(error.code.rawValue == code, "\(text): \(error)")
        }
    }

    @Test func lineBreaksSentPercentEncodedAreDecodedThenRemoved() throws {
        let decoded = try PIDBase64.decode("CgMB%0D%0AAgM%3D")
        #expect(decoded.bytes == [0x0A, 0x03, 0x01, 0x02, 0x03])
        #expect(decoded.repairs == [.percentEncoded, .whitespace])
    }

    @Test func partialPaddingIsCompleted() throws {
        #expect(try PIDBase64.decode("Cg=").repairs == [.missingPadding])
        #expect(try PIDBase64.decode("Cg=").bytes == [0x0A])
    }

    @Test func overLongTextIsRefused() {
        #expect(throws: PIDBase64.Failure.self) { try PIDBase64.decode(String(repeating: "A", count: 65_540)) }
    }
}
