import Foundation

/// A thread that calls `tick` every 10 ms until `tick` says to stop (it returns false) or the
/// owner is gone: the adapter's clock for request and handshake deadlines.
///
/// A thread of its own, not a task: deadlines must fire while the cooperative pool is busy or
/// blocked, which is exactly when an adapter hangs.
enum AdapterWatchdog {
    static let period: useconds_t = 10_000

    /// Starts the thread. `tick` runs on it; it should be short and must not block.
    static func start(name: String = "adapter watchdog", _ tick: @escaping @Sendable () -> Bool) {
        let thread = Thread {
            while tick() { usleep(period) }
        }
        thread.name = name
        thread.start()
    }
}
