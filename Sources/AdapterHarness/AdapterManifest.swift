import Conformance
import Foundation
import LinkJSON

/// An adapter's manifest (`Adapters/<name>/adapter.json`): how to launch it and what to expect.
///
/// ```json
/// {
///   "name": "python-urllib",
///   "command": ["python3", "adapter.py"],
///   "expectedFailures": "expected-failures.txt"
/// }
/// ```
///
/// Relative paths (`workingDirectory`, `expectedFailures`) are read from the manifest's folder;
/// the command runs in `workingDirectory` (default: that folder). `prepare`, when given, runs
/// once before the adapter starts (to build it, for example).
public struct AdapterManifest: Sendable {
    public let path: String
    public let configuration: AdapterConfiguration
    public let expectedFailuresPath: String?
    public let prepare: [String]?

    static let shape = JSONShape.object([
        "name": .nonEmptyString,
        "command": .either([.nonEmptyString, .array(.nonEmptyString)]),
        "workingDirectory": .nonEmptyString,
        "environment": .object([:], open: true),
        "expectedFailures": .nonEmptyString,
        "prepare": .either([.nonEmptyString, .array(.nonEmptyString)]),
        "timeoutSeconds": .numberIn(0.01...3_600),
        "startTimeoutSeconds": .numberIn(0.01...3_600),
        "window": .numberIn(1...1_024),
        "maxRestarts": .numberIn(0...1_000),
        "maxLineBytes": .numberIn(64...1_073_741_824),
        "notes": .string,
    ], required: ["name", "command"])

    /// Reads and checks a manifest. Problems are `file:line:column: field: message` lines.
    public static func load(_ path: String) -> Result<AdapterManifest, ManifestError> {
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(ManifestError(["\(path): cannot read the file"]))
        }
        let doc: JSONDocument
        do {
            doc = try JSONDocument(parsing: [UInt8](data))
        } catch {
            return .failure(ManifestError(["\(path):\(error.line):\(error.column): invalid JSON: \(error.message)"]))
        }
        let problems = shape.problems(in: doc.value).map { p -> String in
            let (line, column) = doc.locations.nearestLocation(of: p.pointer)
            return "\(path):\(line):\(column): \(readableField(p.pointer)): \(p.message)"
        }
        var messages = problems
        var environment: [String: String] = [:]
        for member in doc.value["environment"]?.objectValue ?? JSONObject() {
            guard let value = member.value.stringValue else {
                let (line, column) = doc.locations.nearestLocation(of: "/environment/" + jsonPointerToken(member.key))
                messages.append("\(path):\(line):\(column): environment.\(member.key): expected a string")
                continue
            }
            environment[member.key] = value
        }
        func words(_ value: JSONValue?, field: String) -> [String]? {
            guard let value else { return nil }
            let split: [String]
            if let array = value.arrayValue {
                split = array.compactMap(\.stringValue)
            } else {
                do {
                    split = try CommandLineWords.split(value.stringValue ?? "")
                } catch {
                    messages.append("\(path): \(field): \(error.description)")
                    return nil
                }
            }
            // An empty list (or a string of spaces) names no program: started as it is, the
            // process spawner would run `env`, which prints the environment.
            if split.isEmpty {
                let (line, column) = doc.locations.nearestLocation(of: "/" + field)
                messages.append("\(path):\(line):\(column): \(field): names no program (an empty list, or only spaces)")
                return nil
            }
            return split
        }
        let command = words(doc.value["command"], field: "command") ?? []
        let prepare = words(doc.value["prepare"], field: "prepare")
        guard messages.isEmpty else { return .failure(ManifestError(messages)) }

        let folder = (path as NSString).deletingLastPathComponent
        func resolve(_ p: String) -> String {
            p.hasPrefix("/") ? p : ((folder.isEmpty ? "." : folder) as NSString).appendingPathComponent(p)
        }
        let v = doc.value
        let defaults = AdapterConfiguration(arguments: [])
        let configuration = AdapterConfiguration(
            name: v["name"]?.stringValue, arguments: command,
            workingDirectory: resolve(v["workingDirectory"]?.stringValue ?? "."),
            environment: environment,
            timeout: v["timeoutSeconds"]?.doubleValue.map { .milliseconds(Int($0 * 1000)) } ?? defaults.timeout,
            startTimeout: v["startTimeoutSeconds"]?.doubleValue.map { .milliseconds(Int($0 * 1000)) } ?? defaults.startTimeout,
            window: v["window"]?.intValue ?? defaults.window,
            maxRestarts: v["maxRestarts"]?.intValue ?? defaults.maxRestarts,
            maxLineBytes: v["maxLineBytes"]?.intValue ?? defaults.maxLineBytes)
        return .success(AdapterManifest(path: path, configuration: configuration,
                                        expectedFailuresPath: v["expectedFailures"]?.stringValue.map(resolve),
                                        prepare: prepare))
    }
}

/// Why a manifest could not be used, one located line per problem.
public struct ManifestError: Error, Sendable, CustomStringConvertible {
    public let messages: [String]
    public init(_ messages: [String]) { self.messages = messages }
    public var description: String { messages.joined(separator: "\n") }
}
