import Foundation

/// Small helpers for text shown to people about files and values: why a file cannot be read,
/// and a long value cut to a length.
public enum ShownText {
    /// Why `path` cannot be read as a file, in words (no such file, a folder, not readable), or
    /// nil when its bytes can be read; the caller says what else is wrong with them.
    public static func fileProblem(_ path: String) -> String? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return "no such file" }
        if isDirectory.boolValue { return "it is a folder" }
        return FileManager.default.isReadableFile(atPath: path) ? nil : "not readable"
    }

    /// `text` cut to `limit` characters, the last three of them `...` when it was longer.
    public static func clipped(_ text: String, to limit: Int) -> String {
        // Counting stops at the limit: an output may be 256 KiB long.
        guard let end = text.index(text.startIndex, offsetBy: limit, limitedBy: text.endIndex), end != text.endIndex else { return text }
        return String(text.prefix(max(0, limit - 3))) + "..."
    }
}
