import Foundation
import ResultsStore

/// A file or folder LinkConform could not write (a report, a statement, a badge, a regression
/// input): its path and the problem in the system's words ("Permission denied", "Not a
/// directory"), for one line of an error message.
public struct OutputError: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let problem: String

    public var description: String { "cannot write \(path): \(problem)" }

    /// Runs `body`, which writes at or below `path`. A failure of the file system becomes an
    /// ``OutputError`` naming the file the system named (with `exactly`, or when it named none,
    /// `path`); a ``StoreError`` (a report reads the store while it writes) and an
    /// ``OutputError`` pass as they are.
    public static func guarding<T>(_ path: String, exactly: Bool = false, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as OutputError {
            throw error
        } catch let error as StoreError {
            throw error
        } catch {
            let ns = error as NSError
            throw OutputError(path: exactly ? path : ns.userInfo[NSFilePathErrorKey] as? String ?? path, problem: problem(of: ns))
        }
    }

    /// The failure of the system call that just failed, at `path`.
    static func lastCall(_ path: String) -> OutputError {
        OutputError(path: path, problem: errno == 0 ? "the system refused without saying why" : String(cString: strerror(errno)))
    }

    /// `path` must be a folder, or not exist yet (it is then made).
    public static func makeFolder(_ path: String) throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
            throw OutputError(path: path, problem: "it is a file, where a folder is wanted")
        }
        try guarding(path) { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
    }

    /// The system's own words for a failure: the POSIX error under Foundation's, when there is
    /// one (Foundation's text for it is often "The operation could not be completed").
    static func problem(of error: NSError) -> String {
        // `as? Error`, not `as? NSError`: on Linux, what Foundation keeps there is a Swift error.
        let posix = error.domain == NSPOSIXErrorDomain ? error : (error.userInfo[NSUnderlyingErrorKey] as? Error).map { $0 as NSError }
        if let posix, posix.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(posix.code))) }
        return error.localizedDescription
    }
}
