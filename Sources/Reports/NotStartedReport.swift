import Conformance
import ResultsStore

/// How every report says that an implementation of a run never started (its adapter did not
/// answer the handshake, or its prepare step failed): the run may be `completed`, but the
/// harness did not do its job for that implementation, `run` exited 2, and its cases are all
/// `notRun`. One sentence per implementation, with the reason the store kept (the first of its
/// notes); each format escapes it whole.
///
/// ```
/// python-urllib did not start (no answer to start within 3.0 s): none of its 33 cases ran
/// ```
public enum NotStartedReport {
    public static func sentence(_ implementation: StoredImplementation, _ data: ReportData) -> String {
        let cases = data.summary.filter { $0.implementationID == implementation.id }.reduce(0) { $0 + $1.total }
        let why = implementation.notes.first.map { " (\($0))" } ?? ""
        return "\(implementation.info.name) did not start\(why): none of its \(cases) case\(cases == 1 ? "" : "s") ran"
    }
}

extension ReportData {
    /// The implementations of the run that never started, in run order.
    public var notStarted: [StoredImplementation] {
        implementations.filter { $0.status == .failedToStart }
    }
}
