import ChildProcess
import Foundation

/// Runs a plan's `prepare` command (building an adapter, say) and says what went wrong, if
/// anything: nil when it exited 0, else a message with the end of its output.
public enum Preparation {
    public static func run(_ command: [String], in directory: String?) -> String? {
        let result: CapturedCommand
        do {
            result = try CapturedCommand.run(command, workingDirectory: directory)
        } catch {
            return "cannot run \(command.joined(separator: " ")): \(error)"
        }
        guard result.status == 0 else {
            // Its output, then its errors: what it said last is what explains the failure.
            let tail = String(decoding: (result.stdout + result.stderr).suffix(1_500), as: UTF8.self)
            let how = result.termination.exitStatus.map { "exit \($0)" } ?? result.termination.description
            return "\(command.joined(separator: " ")) failed (\(how)): \(tail)"
        }
        return nil
    }
}
