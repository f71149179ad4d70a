import Foundation

/// The suites' own benchmarks: the executables `linkconform-bench-<suite>` built beside this
/// one, found by their names (so a new suite's benchmark needs no line here).
enum SuiteBenchmarks {
    struct Bench {
        let suite: String
        let path: String
    }

    /// Every `linkconform-bench-*` executable in this executable's folder, by suite name.
    static func all() -> [Bench] {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().path
        let prefix = "linkconform-bench-"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasPrefix(prefix) && !$0.contains(".") }
            .map { Bench(suite: String($0.dropFirst(prefix.count)), path: folder + "/" + $0) }
            .filter { FileManager.default.isExecutableFile(atPath: $0.path) }
            .sorted { $0.suite < $1.suite }
    }

    /// Runs one, its output going straight to ours; returns its exit status.
    @discardableResult
    static func run(_ bench: Bench, arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: bench.path)
        process.arguments = arguments
        do { try process.run() } catch {
            print("\(bench.suite): cannot run \(bench.path): \(error.localizedDescription)")
            return 2
        }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
