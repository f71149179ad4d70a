import Foundation
import LinkJSON

/// Writes the report files of a run into a folder.
public enum ReportWriter {
    public enum Format: String, CaseIterable, Sendable {
        case markdown = "md", json, junit

        public var fileName: String {
            switch self {
            case .markdown: "summary.md"
            case .json: "results.json"
            case .junit: "junit.xml"
            }
        }

        /// Writes this format's report of `data` into `out`.
        public func write(_ data: ReportData, to out: ReportOutput) throws {
            switch self {
            case .markdown: try MarkdownReport.write(data, to: out)
            case .json: try JSONReport.write(data, to: out)
            case .junit: try JUnitReport.write(data, to: out)
            }
            try out.flush()
        }
    }

    /// Writes the given formats (and, with `badges`, the badges folder: ``BadgeReport``); returns
    /// the paths written. Each report streams into a temporary
    /// file beside its final name, renamed over it once complete: a reader never sees half a
    /// report, and a failed write leaves the previous one in place.
    @discardableResult
    public static func write(_ data: ReportData, formats: [Format] = Format.allCases, badges: Bool = true,
                             to directory: String) throws -> [String] {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var written: [String] = []
        for format in formats {
            let path = (directory as NSString).appendingPathComponent(format.fileName)
            let partial = (directory as NSString).appendingPathComponent(".\(format.fileName).\(getpid()).partial")
            guard FileManager.default.createFile(atPath: partial, contents: nil), let handle = FileHandle(forWritingAtPath: partial) else {
                throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: partial])
            }
            do {
                defer { try? handle.close() }
                try format.write(data, to: ReportOutput(handle: handle))
            } catch {
                try? FileManager.default.removeItem(atPath: partial)
                throw error
            }
            guard rename(partial, path) == 0 else {
                let error = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                try? FileManager.default.removeItem(atPath: partial)
                throw error
            }
            written.append(path)
        }
        if badges { written.append(try BadgeReport.write(data, to: directory)) }
        return written
    }
}
