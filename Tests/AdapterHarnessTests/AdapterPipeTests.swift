import Conformance
import Foundation
import LinkJSON
import Testing
@testable import AdapterHarness

/// How bytes cross the pipes, below the zoo's behaviours: lines that reads cut anywhere.
@Suite(.serialized)
struct AdapterPipeTests {
    /// What ``AdapterProcess/readLines(fd:maxLine:_:)`` hands over when `pieces` are written
    /// one at a time with a pause between them (so that reads end inside lines).
    func lines(_ pieces: [String], maxLine: Int = 1 << 20) -> [String] {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            Issue.record("no pipe")
            return []
        }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        let writer = Thread {
            for piece in pieces {
                let bytes = Array(piece.utf8)
                _ = bytes.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
                usleep(30_000)
            }
            close(writeEnd)
        }
        writer.start()
        var seen: [String] = []
        AdapterProcess.readLines(fd: readEnd, maxLine: maxLine) { events in
            for event in events {
                switch event {
                case .line(let bytes): seen.append(String(decoding: bytes, as: UTF8.self))
                case .tooLong(let n): seen.append("too long: \(n)")
                }
            }
        }
        close(readEnd)
        return seen
    }

    @Test func linesAreTheSameWhereverAReadEnds() {
        #expect(lines(["ab", "c\nx\ny\nde", "f\n\ng", "h"]) == ["abc", "x", "y", "def", "", "gh"])
        #expect(lines(["one\ntwo\n", "three\n"]) == ["one", "two", "three"])
    }

    @Test func aLineOverTheLimitIsReportedAsItPassesItEvenAcrossReads() {
        let x50 = String(repeating: "x", count: 50)
        #expect(lines([x50, x50 + "\nok\n", String(repeating: "y", count: 70) + "\nend"], maxLine: 64)
                == ["too long: 100", "ok", "too long: 70", "end"])
        // The rest of a dropped line is dropped up to its newline, across reads too (the length
        // reported is where the read that passed the limit ended).
        let dropped = lines([String(repeating: "z", count: 80), "zzz", "z\nafter\n"], maxLine: 64)
        #expect(dropped.count == 2 && dropped.first?.hasPrefix("too long: ") == true && dropped.last == "after", "\(dropped)")
    }
}
