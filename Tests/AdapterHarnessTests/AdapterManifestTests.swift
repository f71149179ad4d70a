import Foundation
import Testing
@testable import AdapterHarness

/// Reading adapter manifests: a command that names no program is refused with the file, line and
/// field, rather than started as `env` (which printed the environment into the reports).
struct AdapterManifestTests {
    func load(_ text: String) throws -> Result<AdapterManifest, ManifestError> {
        let path = NSTemporaryDirectory() + "linkconform-manifest-" + UUID().uuidString + ".json"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return AdapterManifest.load(path)
    }

    @Test(arguments: [#"[]"#, #""   ""#])
    func aCommandThatNamesNoProgramIsRefused(command: String) throws {
        guard case .failure(let error) = try load("{\"name\": \"x\",\n \"command\": \(command)}") else {
            Issue.record("the manifest was accepted")
            return
        }
        #expect(error.messages.count == 1)
        #expect(error.messages.first?.contains(".json:2:") == true && error.messages.first?.contains("command: names no program") == true,
                "\(error.messages)")
    }

    @Test func anEmptyPrepareIsRefusedToo() throws {
        guard case .failure(let error) = try load(#"{"name": "x", "command": ["python3", "a.py"], "prepare": []}"#) else {
            Issue.record("the manifest was accepted")
            return
        }
        #expect(error.messages.first?.contains("prepare: names no program") == true, "\(error.messages)")
    }

    @Test func aCommandIsSplitIntoWords() throws {
        let manifest = try load(#"{"name": "x", "command": "python3 'my adapter.py'"}"#).get()
        #expect(manifest.configuration.arguments == ["python3", "my adapter.py"])
    }
}
