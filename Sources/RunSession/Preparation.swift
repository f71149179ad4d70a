import Foundation

/// Runs a plan's `prepare` command (building an adapter, say) and says what went wrong, if
/// anything: nil when it exited 0, else a message with the end of its output.
enum Preparation {
    static func run(_ command: [String], in directory: String?) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        do { try process.run() } catch { return "cannot run \(command.joined(separator: " ")): \(error.localizedDescription)" }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let tail = String(decoding: data.suffix(1_500), as: UTF8.self)
            return "\(command.joined(separator: " ")) failed (exit \(process.terminationStatus)): \(tail)"
        }
        return nil
    }
}
