import FuzzSupport
import FuzzTargets
import Foundation
import Testing

/// Every seed and every regression input of every fuzz target, through the same entry
/// functions libFuzzer calls, without libFuzzer: a bug the fuzzers once found fails here in
/// seconds if it comes back.
struct FuzzReplayTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let names = FuzzTargetTable.all.map(\.name)

    @Test(arguments: names)
    func seedsAndRegressionsKeepEveryInvariant(name: String) async throws {
        let entry = try #require(FuzzTargetTable.entry(named: name))
        let target = entry.target
        let folders = [entry.seedFolder, entry.regressionFolder].map { Self.repository.appendingPathComponent($0).path }
        let files = folders.flatMap { folder in FileManager.default.fileExists(atPath: folder) ? FuzzFiles.inputs(at: folder) : [] }
        #expect(files.count >= 50, "\(name) has its seeds")
        for (k, file) in files.enumerated() {
            if k % 16 == 0 { await Task.yield() }   // long work: other tests get turns on the pool's threads
            let bytes = try #require(FuzzFiles.read(file))
            let problems = target.check(bytes)
            #expect(problems.isEmpty, "\(file): \(problems)")
        }
    }

    @Test(arguments: names)
    func everyTargetHasItsDictionaryAndItsExecutable(name: String) throws {
        let entry = try #require(FuzzTargetTable.entry(named: name))
        let dictionary = Self.repository.appendingPathComponent(entry.dictionary).path
        #expect(FileManager.default.fileExists(atPath: dictionary))
        let source = Self.repository.appendingPathComponent(entry.executableSource + "/Fuzz.swift").path
        #expect(FileManager.default.fileExists(atPath: source))
        // The executable is the one Package.swift builds under the target's name, and it runs
        // the entry of the same name.
        let text = try String(contentsOfFile: source, encoding: .utf8)
        #expect(text.contains("FuzzTarget.\(Self.swiftName(name)).fuzzOne"), "\(source) runs another target's entry")
        let manifest = try String(contentsOf: Self.repository.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(manifest.contains("name: \"fuzz-\(name)\"") && manifest.contains("path: \"\(entry.executableSource)\""))
    }

    @Test func targetNamesAreDistinctAndEveryTargetIsSeeded() {
        #expect(Self.names.count >= 3, "the parameterized tests above run once per name")
        #expect(Set(Self.names).count == Self.names.count)
        for entry in FuzzTargetTable.all {
            #expect(!entry.seeds.isEmpty && !entry.modules.isEmpty, "\(entry.name)")
        }
    }

    /// A seed source with a separator makes one seed per case, its fields joined; without one,
    /// each string of each field is a seed.
    @Test func joinedSeedSources() {
        let input = ["file": ["{}"], "url": ["https://a.example/"], "links": ["x", "y"]]
        let joined = SeedSource("aasa.match", ["file", "url"], joinedBy: "\u{0}")
        #expect(joined.seeds { input[$0] ?? [] } == ["{}\u{0}https://a.example/"])
        #expect(joined.seeds { _ in [] }.isEmpty)
        #expect(SeedSource("ulc.handle", ["links", "url"]).seeds { input[$0] ?? [] } == ["x", "y", "https://a.example/"])
    }

    /// `query-diff` -> `queryDiff`: the name of the target's static property.
    static func swiftName(_ name: String) -> String {
        let parts = name.split(separator: "-")
        return parts.enumerated().map { $0.offset == 0 ? String($0.element) : $0.element.prefix(1).uppercased() + $0.element.dropFirst() }.joined()
    }

    /// The checks are real: inputs that break an invariant are reported (the detectors cannot
    /// silently pass everything).
    @Test func theChecksCanFail() {
        let broken = FuzzTarget(name: "broken") { input, p in p.check(input.count < 3, "short inputs only") }
        #expect(broken.check(Array("abcd".utf8)).map(\.invariant) == ["short inputs only"])
        #expect(broken.check(Array("ab".utf8)).isEmpty)
    }
}
