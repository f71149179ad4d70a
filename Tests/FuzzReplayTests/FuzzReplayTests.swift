import FuzzSupport
import FuzzULC
import FuzzXCallback
import FuzzXignQR
import Foundation
import Testing

/// Every seed and every regression input of every fuzz target, through the same entry
/// functions libFuzzer calls, without libFuzzer: a bug the fuzzers once found fails here in
/// seconds if it comes back.
struct FuzzReplayTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let targets: [FuzzTarget] = [.url, .queryDiff, .ulc, .xcallback, .xignqr, .pid]

    @Test(arguments: targets.map(\.name))
    func seedsAndRegressionsKeepEveryInvariant(name: String) throws {
        let target = try #require(Self.targets.first { $0.name == name })
        let folders = ["Corpus/fuzz/\(name)", "Corpus/fuzz/regressions/\(name)"].map { Self.repository.appendingPathComponent($0).path }
        let files = folders.flatMap { folder in FileManager.default.fileExists(atPath: folder) ? FuzzFiles.inputs(at: folder) : [] }
        #expect(files.count >= 50, "\(name) has its seeds")
        for file in files {
            let bytes = try #require(FuzzFiles.read(file))
            let problems = target.check(bytes)
            #expect(problems.isEmpty, "\(file): \(problems)")
        }
    }

    @Test(arguments: targets.map(\.name))
    func everyTargetHasItsDictionaryAndItsExecutable(name: String) {
        let dictionary = Self.repository.appendingPathComponent("Corpus/fuzz/\(name).dict").path
        #expect(FileManager.default.fileExists(atPath: dictionary))
        let source = Self.repository.appendingPathComponent("Sources/fuzz-\(name)/Fuzz.swift").path
        #expect(FileManager.default.fileExists(atPath: source))
    }

    /// The checks are real: inputs that break an invariant are reported (the detectors cannot
    /// silently pass everything).
    @Test func theChecksCanFail() {
        let broken = FuzzTarget(name: "broken") { input, p in p.check(input.count < 3, "short inputs only") }
        #expect(broken.check(Array("abcd".utf8)).map(\.invariant) == ["short inputs only"])
        #expect(broken.check(Array("ab".utf8)).isEmpty)
    }
}
