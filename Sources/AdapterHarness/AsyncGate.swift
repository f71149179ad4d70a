import Conformance
import Foundation

/// A lock for async code with two modes: many shared holders at once, or one exclusive holder.
/// Exclusive requests wait for the shared holders to leave and keep new ones out meanwhile.
/// The adapter uses it to run a request alone after an event it could not attribute.
final class AsyncGate: @unchecked Sendable {
    private let lock = NSLock()
    private var shared = 0
    private var exclusive = false
    private var sharedWaiters: [CheckedContinuation<Void, Never>] = []
    private var exclusiveWaiters: [CheckedContinuation<Void, Never>] = []

    func enter(exclusive wantsExclusive: Bool) async {
        // The common case, a shared entry with nobody exclusive about, takes no suspension.
        if !wantsExclusive, enterSharedNow() { return }
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            lock.lock()
            if wantsExclusive {
                if !exclusive && shared == 0 {
                    exclusive = true
                    lock.unlock()
                    c.resume()
                } else {
                    exclusiveWaiters.append(c)
                    lock.unlock()
                }
            } else {
                if !exclusive && exclusiveWaiters.isEmpty {
                    shared += 1
                    lock.unlock()
                    c.resume()
                } else {
                    sharedWaiters.append(c)
                    lock.unlock()
                }
            }
        }
    }

    /// Enters shared without waiting, when nobody is or waits to be exclusive; false otherwise.
    func enterSharedNow() -> Bool {
        lock.withLock {
            guard !exclusive && exclusiveWaiters.isEmpty else { return false }
            shared += 1
            return true
        }
    }

    func leave(exclusive wasExclusive: Bool) {
        lock.lock()
        if wasExclusive { exclusive = false } else { shared -= 1 }
        var wake: [CheckedContinuation<Void, Never>] = []
        if !exclusive && shared == 0 && !exclusiveWaiters.isEmpty {
            exclusive = true
            wake.append(exclusiveWaiters.removeFirst())
        } else if !exclusive && exclusiveWaiters.isEmpty && !sharedWaiters.isEmpty {
            shared += sharedWaiters.count
            wake = sharedWaiters
            sharedWaiters.removeAll()
        }
        lock.unlock()
        for c in wake { c.resume() }
    }
}
