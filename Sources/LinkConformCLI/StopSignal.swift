import Dispatch
import Foundation

/// Turns SIGINT and SIGTERM into a flag the runner polls between cases, so an interrupted run
/// stores what it has, is marked interrupted, and still writes its reports. A run sends no new
/// case, and gives an adapter's cases in flight a second (`Runner.inFlightGrace`) before it ends
/// without them. A second signal exits at once (the store stays consistent: results are
/// committed per batch).
///
/// A signal within half a second of the first is the same stop, not the second one:
/// coreutils' `timeout` (as CI jobs use it) signals the process and then its process group, so
/// the process gets two at once, and the second quit before the reports were written.
final class StopSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var stopped = false
    private var firstAt: ContinuousClock.Instant?
    private var sources: [DispatchSourceSignal] = []
    /// Signals this soon after the first are taken as the same stop.
    static let sameStop: Duration = .milliseconds(500)

    /// What is no longer sent after the first signal: a case (`run`), an input (`fuzz`).
    let unit: String

    init(unit: String = "case") {
        self.unit = unit
    }

    var isSet: Bool { lock.withLock { stopped } }

    func install() {
        for signo in [SIGINT, SIGTERM] {
            signal(signo, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signo, queue: .global())
            source.setEventHandler { [weak self] in
                guard let self else { return }
                let now = ContinuousClock.now
                // nil: the first signal; true: the same stop again; false: a second stop.
                let again = self.lock.withLock { () -> Bool? in
                    guard let first = self.firstAt else {
                        self.firstAt = now
                        self.stopped = true
                        return nil
                    }
                    return first.duration(to: now) < Self.sameStop
                }
                if again == true { return }
                if again == false { exit(130) }
                Console.error("stopping: no new \(self.unit) is sent (signal \(signo)); send it again to quit at once")
            }
            source.resume()
            sources.append(source)
        }
    }
}
