import ChildProcess
import Foundation
import Reports

/// Output helpers: stdout for results, stderr for progress and errors. A stream whose reader
/// has gone (`linkconform run | head -2`) is written no more and the command goes on
/// (``StandardStreams``): it still finishes, stores what it found and exits as it would.
enum Console {
    static func out(_ text: String) {
        StandardStreams.write(text, to: 1)
    }

    static func line(_ text: String = "") {
        out(text + "\n")
    }

    static func error(_ text: String) {
        StandardStreams.write("linkconform: " + Escaping.terminal(text, multiline: true) + "\n", to: 2)
    }

    static func progressLine(_ text: String) {
        StandardStreams.write(text, to: 2)
    }

    static var stderrIsTerminal: Bool { isatty(2) == 1 }
}

/// A progress indicator on stderr: a live line on a terminal (redrawn at most every 100 ms); in
/// a log (stderr not a terminal), a plain line every 5 seconds, written by a timer so that a log
/// keeps moving while an adapter is slow or silent. Runs shorter than that stay quiet in logs.
final class Progress: @unchecked Sendable {
    private let lock = NSLock()
    private let label: String
    private let enabled: Bool
    private let live = Console.stderrIsTerminal
    private let started = ContinuousClock.now
    private var lastShown = ContinuousClock.now
    private var shownAny = false
    private var done = 0
    private var total = 0
    private var finished = false
    /// A free-form status line (``update(status:final:)``) in place of cases done.
    private var status: String?
    private var heartbeat: DispatchSourceTimer?

    /// Seconds between two lines in a log.
    static let logSeconds = 5

    init(label: String, enabled: Bool) {
        self.label = label
        self.enabled = enabled
        guard enabled, !live else { return }
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        timer.schedule(deadline: .now() + .seconds(Self.logSeconds), repeating: .seconds(Self.logSeconds))
        timer.setEventHandler { [weak self] in self?.logLine() }
        timer.resume()
        heartbeat = timer
    }

    deinit { heartbeat?.cancel() }

    func update(_ done: Int, _ total: Int) {
        guard enabled else { return }
        lock.lock(); defer { lock.unlock() }
        self.done = done
        self.total = total
        show(final: done == total)
    }

    /// Shows `status` (fuzzing: inputs/s, disagreements, signatures) the same way: live on a
    /// terminal, every 5 seconds in a log; `final` ends the line.
    func update(status: String, final: Bool) {
        guard enabled else { return }
        lock.lock(); defer { lock.unlock() }
        self.status = status
        show(final: final)
    }

    /// Under the lock.
    private func show(final: Bool) {
        if live {
            let now = ContinuousClock.now
            guard final || lastShown.duration(to: now) >= .milliseconds(100) else { return }
            lastShown = now
            Console.progressLine("\r\u{1B}[2K" + text() + (final ? "\n" : ""))
        } else if final && !finished {
            finished = true
            heartbeat?.cancel()
            if shownAny { Console.progressLine(text() + "\n") }   // short runs stay quiet in logs
        }
    }

    /// The timer's line in a log.
    private func logLine() {
        lock.lock(); defer { lock.unlock() }
        guard !finished else { return }
        shownAny = true
        Console.progressLine(text() + "\n")
    }

    private func text() -> String {
        let seconds = started.duration(to: .now).components.seconds
        if let status { return "\(label): \(status), \(seconds) s" }
        guard total > 0 else { return "\(label): starting, \(seconds) s" }
        return "\(label): \(done)/\(total) cases (\(done * 100 / total)%), \(seconds) s"
    }
}
