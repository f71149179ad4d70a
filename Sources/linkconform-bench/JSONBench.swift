import BenchSupport
import Foundation
import LinkJSON

/// Reading JSON, the work under every file operation (`aasa.*`, `assetlinks.*`,
/// `mitid.return`) in the reference and in the fuzzer: the seeds of the `json` fuzz target
/// (every JSON file of the corpus inputs) read plainly, then as a ``JSONDocument`` (with the
/// position of every value, which the validators need for their messages), side by side, and
/// what looking positions up costs on top.
func benchJSON(rounds: Int) {
    let folder = "Corpus/fuzz/json"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder))?.sorted() ?? []
    let files = names.compactMap { FileManager.default.contents(atPath: folder + "/" + $0).map { [UInt8]($0) } }
        .filter { (try? JSONParser.parse($0, options: .init(maxDepth: 512, allowDuplicateKeys: true))) != nil }
    guard !files.isEmpty else { return print("json: no readable JSON files in \(folder)") }
    let bytes = files.reduce(0) { $0 + $1.count }
    let options = JSONParser.Options(maxDepth: 512, allowDuplicateKeys: true)
    // The pointers a validator asks for: every member and element of each file.
    let pointers = files.map { file -> [String] in
        var found: [String] = []
        func walk(_ value: JSONValue, _ pointer: String) {
            found.append(pointer)
            switch value {
            case .object(let object): for member in object.members { walk(member.value, pointer + "/" + jsonPointerToken(member.key)) }
            case .array(let elements): for (i, element) in elements.enumerated() { walk(element, pointer + "/\(i)") }
            default: break
            }
        }
        if let value = try? JSONParser.parse(file, options: options) { walk(value, "") }
        return found
    }
    let values = pointers.reduce(0) { $0 + $1.count }
    func plain() -> Int {
        var n = 0
        for _ in 0..<rounds { for file in files { if case .object(let o)? = try? JSONParser.parse(file, options: options) { n &+= o.count } } }
        return n
    }
    func positioned() -> Int {
        var n = 0
        for _ in 0..<rounds { for file in files { if let d = try? JSONDocument(parsing: file, options: options) { n &+= d.value.objectValue?.count ?? 0 } } }
        return n
    }
    let timing = sideBySide(rounds: 15, positioned, plain)
    let megabytes = Double(bytes * rounds) / 1_000_000
    print("json: \(files.count) JSON files of the corpus inputs, \(bytes) bytes, \(values) values, read \(rounds) times a round")
    print(String(format: "  plain parse                              %8.1f MB/s   (best round %.1f ms)", megabytes / timing.b, timing.b * 1e3))
    print(String(format: "  with positions (JSONDocument)            %8.1f MB/s   (best round %.1f ms)", megabytes / timing.a, timing.a * 1e3))
    print(String(format: "  positions cost                           %8.2fx the plain parse (median of rounds %.2fx)", timing.a / timing.b, 1 / timing.medianRatio))
    // Looking up one value in ten, as a validator with many messages would (the lists made
    // before the clock starts).
    let documents = files.compactMap { try? JSONDocument(parsing: $0, options: options) }
    let asked = pointers.map { list in list.enumerated().filter { $0.offset % 10 == 0 }.map(\.element) }
    let start = ContinuousClock.now
    var found = 0
    for (document, list) in zip(documents, asked) {
        for pointer in list where document.locations.location(of: pointer) != nil { found += 1 }
    }
    let micros = start.duration(to: .now).seconds * 1e6
    print(String(format: "  a position looked up (%d of them)        %8.2f us each", found, micros / Double(max(found, 1))))
}
