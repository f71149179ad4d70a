#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A fuzz target: a parser run on arbitrary bytes with the invariants it must keep (not just
/// "does not crash"). The same check runs under libFuzzer (the executable `fuzz-<name>` in the
/// `Targets/` folder of its module, run by `scripts/fuzz.sh`) and in `swift test`, which replays
/// every seed and regression input.
///
/// The checks live next to what they check, one small module per protocol (`Fuzz<Protocol>`;
/// `url` and `query-diff` here; `FuzzTargetTable` lists them all), so that each fuzz binary
/// holds only the code it fuzzes: libFuzzer scans every coverage counter of the binary after
/// each input, and a binary with all the protocols in it runs at half the speed.
///
/// Adding a target: a `static let` like ``url`` in the module of what it fuzzes, a file
/// `Targets/fuzz-<name>/Fuzz.swift` of a few lines in that module's folder, its line in
/// Package.swift, its entry in `FuzzTargetTable` (module FuzzTargets), a seed folder
/// `Corpus/fuzz/<name>/` and a dictionary `Corpus/fuzz/<name>.dict`.
public struct FuzzTarget: Sendable {
    public let name: String
    let body: @Sendable (UnsafeBufferPointer<UInt8>, inout Problems) -> Void

    public init(name: String, check: @escaping @Sendable (UnsafeBufferPointer<UInt8>, inout Problems) -> Void) {
        self.name = name
        self.body = check
    }

    /// The invariants this input breaks (empty when it breaks none).
    public func check(_ input: UnsafeBufferPointer<UInt8>) -> [FuzzProblem] {
        var problems = Problems()
        body(input, &problems)
        return problems.found
    }

    /// The same, for bytes in an array.
    public func check(_ input: [UInt8]) -> [FuzzProblem] {
        input.withUnsafeBufferPointer { check($0) }
    }

    /// libFuzzer's entry: a broken invariant is a crash, with the invariant as its message (the
    /// finding's signature).
    public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
        let problems = check(UnsafeBufferPointer(start: data, count: size))
        if let first = problems.first {
            // The invariant alone is the message, so that the finding's signature is stable;
            // the details of this input go to stderr.
            writeError("LinkConform invariant broken (\(name)): \(first.invariant)\n  \(first.detail)\n")
            fatalError("invariant broken: \(first.invariant)")
        }
        return 0
    }

    /// The executable run without libFuzzer: replays the files and folders named on the
    /// command line (a reproducer, a seed folder) and reports broken invariants.
    public func replayMain() -> Never {
        let paths = Array(CommandLine.arguments.dropFirst())
        guard !paths.isEmpty else {
            writeError("usage: fuzz-\(name) FILE|FOLDER...   (replays inputs; built with scripts/fuzz.sh it is a libFuzzer target)\n")
            exit(64)
        }
        var failed = 0, ran = 0
        for path in paths {
            for file in FuzzFiles.inputs(at: path) {
                guard let bytes = FuzzFiles.read(file) else {
                    writeError("\(file): cannot read\n")
                    failed += 1
                    continue
                }
                ran += 1
                // The same line as under libFuzzer, so `linkconform findings record` reads
                // either report to the same signature.
                for problem in check(bytes) {
                    print("\(file): LinkConform invariant broken (\(name)): \(problem.invariant)")
                    if !problem.detail.isEmpty { print("  \(problem.detail)") }
                    failed += 1
                }
            }
        }
        print("\(ran) inputs replayed, \(failed) problem\(failed == 1 ? "" : "s")")
        exit(failed == 0 ? 0 : 1)
    }
}

extension FuzzTarget {
    /// `LinkURL` on arbitrary bytes.
    public static let url = FuzzTarget(name: "url", check: URLInvariants.check)
    /// `LinkURL` query items against Foundation's `URLComponents.percentEncodedQueryItems`, and
    /// the percent codec and nested-URL reading of every query value.
    public static let queryDiff = FuzzTarget(name: "query-diff", check: QueryDifferential.check)
}

/// Writes to standard error (file descriptor 2) without touching C's shared `stderr` stream.
func writeError(_ text: String) {
    var copy = text
    copy.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

/// One broken invariant: which (stable, the finding's signature) and what this input showed.
public struct FuzzProblem: Sendable, Hashable, CustomStringConvertible {
    public let invariant: String
    public let detail: String
    public var description: String { detail.isEmpty ? invariant : "\(invariant): \(detail)" }
}

/// Broken invariants, collected.
public struct Problems {
    public private(set) var found: [FuzzProblem] = []

    public init() {}

    public mutating func check(_ condition: Bool, _ invariant: String, _ detail: @autoclosure () -> String = "") {
        if !condition { found.append(FuzzProblem(invariant: invariant, detail: detail())) }
    }
}

/// Reading inputs from files and folders, without Foundation.
public enum FuzzFiles {
    /// The file itself, or every regular file in a folder (not recursive), sorted.
    public static func inputs(at path: String) -> [String] {
        guard let dir = opendir(path) else { return [path] }
        defer { closedir(dir) }
        var files: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            guard !name.hasPrefix(".") else { continue }
            var info = stat()
            let full = path + "/" + name
            if stat(full, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG { files.append(full) }
        }
        return files.sorted()
    }

    public static func read(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if n > 0 { bytes += chunk[0..<n] }
            if n < chunk.count { break }
        }
        return bytes
    }
}
