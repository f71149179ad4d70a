import Conformance

/// The life of an adapter's processes: which one is current (its generation), how many
/// launches so far, whether one is starting and who waits for it, what the adapter said it is,
/// whether it was given up or stopped, and the notes the reports show.
///
/// Guarded by the adapter's lock, like ``OutstandingRequests``: the decisions (launch again?
/// give up? ignore an event from a replaced process?) are transitions on it, and the waiting and
/// launching happen outside the lock in ``AdapterImplementation``. A class, not a value: every
/// answer and every request looks at it, and a look at a value stored in the adapter would copy
/// it (a dozen references retained and released each time).
final class ProcessSupervision {
    typealias StartResult = Result<(ImplementationInfo, Set<String>), ImplementationError>

    /// Someone waiting for the handshake of one launch.
    struct StartWaiter {
        let continuation: CheckedContinuation<StartResult, Never>
        let generation: Int
        let deadline: ContinuousClock.Instant
    }

    /// What a request that finds no process should do next.
    enum Step {
        case ready
        /// Another request is launching a process: wait for it.
        case wait
        /// Launch one (this request does it).
        case launch
        /// The case cannot run, and why.
        case fail(String)
    }

    let maxRestarts: Int
    private(set) var process: AdapterProcess?
    private(set) var generation = 0
    private(set) var launches = 0
    private(set) var starting = false
    var startWaiter: StartWaiter?
    private var launchWaiters: [CheckedContinuation<Void, Never>] = []
    private(set) var identity: ImplementationInfo?
    private(set) var gaveUp: String?
    private(set) var stopped = false
    /// At most ``maxNotes``: the first half kept, then the latest (an adapter that fuzzing
    /// crashes thousands of times must not grow them without end).
    private(set) var notes: [String] = [] {
        didSet { if notes.count > Self.maxNotes { notes.remove(at: Self.maxNotes / 2) } }
    }
    static let maxNotes = 1_000

    init(maxRestarts: Int) {
        self.maxRestarts = maxRestarts
    }

    /// The process requests may be written to: adopted and past its handshake.
    var readyProcess: AdapterProcess? { starting ? nil : process }

    /// The ready process, while the adapter is neither given up nor stopped: where a request
    /// goes (one look for every request).
    var processTakingRequests: AdapterProcess? { gaveUp == nil && !stopped ? readyProcess : nil }

    /// Whether an event of process `generation` still matters (not replaced, not stopped).
    func isCurrent(_ generation: Int) -> Bool {
        generation == self.generation && process != nil && !stopped
    }

    /// The first launch, from ``AdapterImplementation/start()``.
    func beginFirstLaunch() {
        launches = 1
        starting = true
    }

    /// A new generation number for a launch about to happen.
    func nextGeneration() -> Int {
        generation += 1
        return generation
    }

    func adopt(_ child: AdapterProcess) { process = child }

    /// The handshake of the first process that answered it says who the adapter is.
    func identify(_ info: ImplementationInfo) -> Bool {
        guard identity == nil else { return false }
        identity = info
        return true
    }

    /// A failed launch of `generation` forgets its process (unless replaced meanwhile).
    func forget(generation g: Int) {
        if generation == g { process = nil }
    }

    /// A request found no process: what it should do.
    func nextStep() -> Step {
        if let gaveUp { return .fail(gaveUp) }
        if stopped { return .fail(Self.stoppedReason) }
        // A process adopted but still shaking hands is not ready: a request written to it
        // before its answer to start could crash it, and the crash would read as a failed
        // start (a restart failure, and the adapter given up).
        if starting { return .wait }
        if process != nil { return .ready }
        if launches > maxRestarts {
            let why = "given up after \(maxRestarts) restart\(maxRestarts == 1 ? "" : "s")" + (notes.last.map { "; last: " + AdapterImplementation.clip($0, characters: 300) } ?? "")
            gaveUp = why
            return .fail(why)
        }
        launches += 1
        starting = true
        return .launch
    }

    /// Waits for the launch in progress, unless it already ended (then resumes at once).
    func waitForLaunch(_ c: CheckedContinuation<Void, Never>) -> Bool {
        guard starting else { return false }
        launchWaiters.append(c)
        return true
    }

    /// A launch ended: the requests waiting for it are returned, to be resumed.
    func endLaunch(_ result: Result<ImplementationInfo, ImplementationError>, first: Bool) -> [CheckedContinuation<Void, Never>] {
        starting = false
        switch result {
        // A launch that a stop cut short did not fail: the adapter is not given up for it (the
        // requests waiting for it learn the run was stopped, from nextStep()).
        case .failure where stopped: break
        case .failure(let error): gaveUp = first ? "the adapter did not start: \(error.message)" : "restart failed: \(error.message)"
        case .success: if !first { notes.append("restarted (restart \(launches - 1))") }
        }
        defer { launchWaiters.removeAll() }
        return launchWaiters
    }

    /// Kills the current process; the next request starts a new one.
    func replace(because reason: String) {
        notes.append(reason)
        process?.kill()
        process = nil
    }

    /// The current process exited (`how`), already reaped by its reader.
    func exited() { process = nil }

    func note(_ text: String) { notes.append(text) }

    /// Why a request of a stopped adapter was not run.
    static let stoppedReason = "the run was stopped"

    /// Stops for good and hands over the process to be finished.
    func stop() -> AdapterProcess? {
        stopped = true
        defer { process = nil }
        return process
    }
}
