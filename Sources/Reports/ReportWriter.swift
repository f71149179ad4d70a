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
    }

    /// Writes the given formats; returns the paths written.
    @discardableResult
    public static func write(_ data: ReportData, formats: [Format] = Format.allCases, to directory: String) throws -> [String] {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var written: [String] = []
        for format in formats {
            let text: String
            switch format {
            case .markdown: text = MarkdownReport.render(data)
            case .json: text = JSONReport.render(data).serialized(pretty: true) + "\n"
            case .junit: text = JUnitReport.render(data)
            }
            let path = (directory as NSString).appendingPathComponent(format.fileName)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
            written.append(path)
        }
        return written
    }
}
