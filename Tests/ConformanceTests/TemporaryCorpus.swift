import Foundation

/// A throwaway corpus folder for a test, removed when the test ends.
final class TemporaryCorpus {
    let root: String

    init() {
        root = NSTemporaryDirectory() + "linkconform-corpus-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: root + "/ulc/cases", withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    func write(_ relative: String, _ text: String) {
        let path = root + "/" + relative
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    }

    /// The real registry of a suite (the ULC suite unless named), copied from the repository.
    func copyRealRegistry(suite: String = "ulc") {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = (try? String(contentsOf: here.appendingPathComponent("Corpus/\(suite)/requirements.json"), encoding: .utf8)) ?? ""
        write("\(suite)/requirements.json", text)
    }

    /// The repository's own corpus folder.
    static var repositoryCorpus: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Corpus").path
    }
}
