import Foundation

/// Scratch space for tests that write files: every folder handed out is under one root of this
/// test process (`$TMPDIR/linkconform-tests-PID`), removed when the process exits. A root left
/// by a test process that is gone (killed before it could exit) is removed when the next one
/// starts. Set `LINKCONFORM_KEEP_TEST_FILES=1` to keep the files of a run for a look afterwards.
///
/// ```swift
/// let store = try ResultsStore(path: TestScratch.path("store", "results.sqlite"))
/// let reports = TestScratch.folder("reports")
/// ```
public enum TestScratch {
    static let prefix = "linkconform-tests-"

    /// The folder every scratch folder of this process is made in (created on first use).
    public static let root: String = {
        let base = NSTemporaryDirectory().hasSuffix("/") ? NSTemporaryDirectory() : NSTemporaryDirectory() + "/"
        removeAbandonedRoots(in: base)
        let path = base + prefix + String(getpid())
        // A root of the same process id from long ago belongs to nobody.
        try? FileManager.default.removeItem(atPath: path)
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        if ProcessInfo.processInfo.environment["LINKCONFORM_KEEP_TEST_FILES"] != "1" {
            atexit { try? FileManager.default.removeItem(atPath: TestScratch.root) }
        }
        return path
    }()

    /// A new, empty folder whose name starts with `label` (so that a failure message naming a
    /// path says which test made it).
    public static func folder(_ label: String) -> String {
        let path = root + "/" + label + "-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The path of `name` in a new folder of its own (the file itself is not created).
    public static func path(_ label: String, _ name: String) -> String {
        folder(label) + "/" + name
    }

    /// Removes the roots of test processes that no longer run.
    static func removeAbandonedRoots(in base: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: base) else { return }
        for name in names where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count)), pid != getpid() else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH {
                try? FileManager.default.removeItem(atPath: base + name)
            }
        }
    }
}
