import Dispatch
import Foundation

/// Turns SIGINT and SIGTERM into a flag the runner polls between cases, so an interrupted run
/// stores what it has, is marked interrupted, and still writes its reports. A run sends no new
/// case, and gives an adapter's cases in flight a second (`Runner.inFlightGrace`) before it ends
/// without them. A second signal exits at once (the store stays consistent: results are
/// committed per batch).
final class StopSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var stopped = false
    private var sources: [DispatchSourceSignal] = []

    var isSet: Bool { lock.withLock { stopped } }

    func install() {
        for signo in [SIGINT, SIGTERM] {
            signal(signo, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signo, queue: .global())
            source.setEventHandler { [weak self] in
                guard let self else { return }
                let already = self.lock.withLock { () -> Bool in
                    defer { self.stopped = true }
                    return self.stopped
                }
                if already { exit(130) }
                Console.error("stopping: no new case is sent (signal \(signo)); send it again to quit at once")
            }
            source.resume()
            sources.append(source)
        }
    }
}
