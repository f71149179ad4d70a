import Foundation
import LinkJSON

/// Writes the report files of a run into a folder.
public enum ReportWriter {
    public enum Format: String, CaseIterable, Sendable {
        case markdown = "md", json, junit, html

        public var fileName: String {
            switch self {
            case .markdown: "summary.md"
            case .json: "results.json"
            case .junit: "junit.xml"
            case .html: "index.html"
            }
        }

        /// Writes this format's report of `data` into `out`.
        public func write(_ data: ReportData, to out: ReportOutput) throws {
            switch self {
            case .markdown: try MarkdownReport.write(data, to: out)
            case .json: try JSONReport.write(data, to: out)
            case .junit: try JUnitReport.write(data, to: out)
            case .html: try HTMLReport.write(data, to: out)
            }
            try out.flush()
        }

        /// The formats' names as options take them: `md, json, junit or html`.
        public static var names: String {
            let names = allCases.map(\.rawValue)
            return names.dropLast().joined(separator: ", ") + " or " + names.last!
        }
    }

    /// Writes the given formats (and, with `badges`, the badges folder: ``BadgeReport``); returns
    /// the paths written. Each report streams into a temporary file beside its final name,
    /// renamed over it once complete (``replace(_:in:with:)``). A file that cannot be written is
    /// an ``OutputError``; a store that cannot be read, a `StoreError`.
    @discardableResult
    public static func write(_ data: ReportData, formats: [Format] = Format.allCases, badges: Bool = true,
                             to directory: String) throws -> [String] {
        var written = try formats.map { format in try replace(format.fileName, in: directory) { try format.write(data, to: $0) } }
        if badges {
            let folder = (directory as NSString).appendingPathComponent("badges")
            written.append(try OutputError.guarding(folder) { try BadgeReport.write(data, to: directory) })
        }
        return written
    }

    /// Removes the temporary files of `name` that a writer killed before its rename left behind
    /// (`.NAME.PID.partial` whose process is gone), so that they do not pile up in a reports
    /// folder a nightly uploads. Another live writer's file is left alone.
    static func removeAbandonedPartials(of name: String, in directory: String) {
        let prefix = ".\(name).", suffix = ".partial"
        for file in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        where file.hasPrefix(prefix) && file.hasSuffix(suffix) && file.count > prefix.count + suffix.count {
            guard let pid = Int32(file.dropFirst(prefix.count).dropLast(suffix.count)), pid > 0, pid != getpid(),
                  kill(pid, 0) != 0 && errno == ESRCH else { continue }
            try? FileManager.default.removeItem(atPath: (directory as NSString).appendingPathComponent(file))
        }
    }

    /// Writes the file `name` in `directory` (made if missing) through `body`: the text goes into
    /// a temporary file beside it, renamed over `name` once `body` returns, so a reader never sees
    /// half a file and a failed write leaves the previous one in place. `body` must flush its
    /// output. Returns the file's path. A failure to write is an ``OutputError`` naming the file
    /// or folder; what `body` throws otherwise (a `StoreError`) passes as it is.
    public static func replace(_ name: String, in directory: String, with body: (ReportOutput) throws -> Void) throws -> String {
        try OutputError.makeFolder(directory)
        let path = (directory as NSString).appendingPathComponent(name)
        removeAbandonedPartials(of: name, in: directory)
        let partial = (directory as NSString).appendingPathComponent(".\(name).\(getpid()).partial")
        guard FileManager.default.createFile(atPath: partial, contents: nil), let handle = FileHandle(forWritingAtPath: partial) else {
            throw OutputError.lastCall(path)
        }
        do {
            defer { try? handle.close() }
            try OutputError.guarding(path, exactly: true) { try body(ReportOutput(handle: handle)) }
        } catch {
            try? FileManager.default.removeItem(atPath: partial)
            throw error
        }
        guard rename(partial, path) == 0 else {
            let error = OutputError.lastCall(path)
            try? FileManager.default.removeItem(atPath: partial)
            throw error
        }
        return path
    }
}
