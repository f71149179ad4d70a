import Foundation
import Reports

/// Output helpers: stdout for results, stderr for progress and errors.
enum Console {
    static func out(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    static func line(_ text: String = "") {
        out(text + "\n")
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data(("linkconform: " + Escaping.terminal(text, multiline: true) + "\n").utf8))
    }

    static func progressLine(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    static var stderrIsTerminal: Bool { isatty(2) == 1 }
}

/// A progress indicator on stderr: a live line on a terminal, an occasional line in logs.
final class Progress: @unchecked Sendable {
    private let lock = NSLock()
    private let label: String
    private let enabled: Bool
    private let live = Console.stderrIsTerminal
    private var lastShown = ContinuousClock.now
    private var shownAny = false

    init(label: String, enabled: Bool) {
        self.label = label
        self.enabled = enabled
    }

    func update(_ done: Int, _ total: Int) {
        guard enabled else { return }
        lock.lock(); defer { lock.unlock() }
        let now = ContinuousClock.now
        let interval: Duration = live ? .milliseconds(100) : .seconds(5)
        guard done == total || lastShown.duration(to: now) >= interval else { return }
        if done == total && !shownAny && !live { return }   // short runs stay quiet in logs
        lastShown = now
        shownAny = true
        let percent = total == 0 ? 100 : done * 100 / total
        let text = "\(label): \(done)/\(total) cases (\(percent)%)"
        Console.progressLine(live ? "\r\u{1B}[2K" + text + (done == total ? "\n" : "") : text + "\n")
    }
}
