#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Completions that run together, on one thread, leave their wake-ups for the end.
///
/// An adapter's answers come in bursts: one read brings dozens, and the thread that read them
/// runs their completions one after another (``Implementation/run(_:then:)``). Each completion
/// would wake the runner's task and write the request it sends next; waking a thread and a
/// system call cost more than the rest of a request. Inside ``run(_:)``, a completion defers
/// such an action under a key instead, and each key's action runs once, when the burst ends.
/// Outside a burst there is no one to defer to, and the caller acts at once.
///
/// ```swift
/// CompletionBurst.run { for (waiter, answer) in woken { waiter(answer) } }
/// // in a completion:
/// if !CompletionBurst.deferOnce(ObjectIdentifier(self), wakeRunner) { wakeRunner() }
/// ```
public enum CompletionBurst {
    /// The actions deferred on this thread, in the order deferred, with their keys (nil once
    /// the action runs: what it leads to is deferred anew).
    private final class Pending {
        var keys: [ObjectIdentifier?] = []
        var actions: [() -> Void] = []
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Runs `body`; what completions in it deferred runs when it returns. Bursts do not nest:
    /// inside one, this just runs `body`.
    public static func run(_ body: () -> Void) {
        if pthread_getspecific(key) != nil { return body() }
        let pending = Pending()
        let unmanaged = Unmanaged.passRetained(pending)
        pthread_setspecific(key, unmanaged.toOpaque())
        body()
        // Actions may defer more (a flush that wakes no one, a wake that sends): run until none.
        var done = 0
        while done < pending.actions.count {
            pending.keys[done] = nil
            pending.actions[done]()
            done += 1
        }
        pthread_setspecific(key, nil)
        unmanaged.release()
    }

    /// Inside a burst on this thread: `action` runs when the burst ends, unless an action
    /// deferred under `key` waits to run already (then that one does, instead); true. Outside a
    /// burst: false, and nothing is deferred.
    public static func deferOnce(_ key: ObjectIdentifier, _ action: @escaping () -> Void) -> Bool {
        guard let raw = pthread_getspecific(Self.key) else { return false }
        let pending = Unmanaged<Pending>.fromOpaque(raw).takeUnretainedValue()
        if pending.keys.contains(key) { return true }
        pending.keys.append(key)
        pending.actions.append(action)
        return true
    }
}
