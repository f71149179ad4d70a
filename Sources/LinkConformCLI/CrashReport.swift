import FuzzTargets
import ResultsStore

/// What a fuzz target's report (libFuzzer, AddressSanitizer, LeakSanitizer, the Swift runtime,
/// or LinkConform's own invariant line) says happened, with a signature that stays the same
/// across runs and builds: the kind, what broke, and the first frames in LinkConform's code
/// (symbols, not addresses).
struct CrashReport: Equatable {
    let kind: Finding.Kind
    let signature: String
    /// The line that says what happened.
    let message: String

    /// Module names whose frames identify a finding (Swift mangles them into symbols): those
    /// of every fuzz target in the table.
    static let ownModules = FuzzTargetTable.modules

    static func parse(_ log: String) -> CrashReport {
        let lines = log.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let frames = ownFrames(lines)
        func withFrames(_ head: String) -> String { frames.isEmpty ? head : head + " at " + frames.joined(separator: " <- ") }

        if let line = lines.first(where: { $0.contains("LinkConform invariant broken") }),
           let colon = line.range(of: "): ") {
            return CrashReport(kind: .invariant, signature: "invariant: " + line[colon.upperBound...], message: line)
        }
        if let line = lines.first(where: { $0.contains("ERROR: libFuzzer: timeout") || $0.hasPrefix("ALARM: working on the last Unit") }) {
            return CrashReport(kind: .timeout, signature: withFrames("timeout"), message: line)
        }
        if let line = lines.first(where: { $0.contains("ERROR: libFuzzer: out-of-memory") || $0.contains("ERROR: libFuzzer: malloc") }) {
            return CrashReport(kind: .oom, signature: withFrames("out-of-memory"), message: line)
        }
        if let line = lines.first(where: { $0.contains("ERROR: LeakSanitizer") }) {
            return CrashReport(kind: .leak, signature: withFrames("leak"), message: line)
        }
        if let line = lines.first(where: { $0.contains("ERROR: AddressSanitizer:") }) {
            // "==12==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x..." -> the kind of error.
            let what = line.components(after: "AddressSanitizer: ").split(separator: " ").first.map(String.init) ?? "error"
            return CrashReport(kind: .crash, signature: withFrames("asan " + what), message: line)
        }
        if let line = lines.first(where: { $0.contains("Fatal error: ") }) {
            // "Swift/ContiguousArrayBuffer.swift:600: Fatal error: Index out of range" -> the message,
            // without the file and line of the standard library that raised it.
            let what = line.components(after: "Fatal error: ")
            return CrashReport(kind: .crash, signature: withFrames("swift trap: " + normalized(what)), message: line)
        }
        let line = lines.first(where: { $0.contains("ERROR: libFuzzer:") }) ?? lines.first(where: { !$0.isEmpty }) ?? "no report"
        return CrashReport(kind: .crash, signature: withFrames("crash"), message: line)
    }

    /// The first two symbols of the report's stack in LinkConform's own modules.
    static func ownFrames(_ lines: [String]) -> [String] {
        var found: [String] = []
        for line in lines {
            // "    #3 0x55d2c1 in $s7LinkURL7URLScanV3runyySRys5UInt8VGF /work/...swift:12:5"
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("#"), let inRange = trimmed.range(of: " in ") else { continue }
            let symbol = trimmed[inRange.upperBound...].split(separator: " ").first.map(String.init) ?? ""
            // A mangled symbol names its module with the name's length first (`$s7LinkURL...`).
            guard ownModules.contains(where: { symbol.contains("\($0.utf8.count)\($0)") }), !found.contains(symbol) else { continue }
            found.append(symbol)
            if found.count == 2 { break }
        }
        return found
    }

    /// Numbers and addresses out of a message, so that two sightings compare equal.
    static func normalized(_ message: String) -> String {
        var out = ""
        var lastWasNumber = false
        for c in message {
            if c.isNumber {
                if !lastWasNumber { out += "N" }
                lastWasNumber = true
            } else {
                out.append(c)
                lastWasNumber = false
            }
        }
        return out
    }
}

extension String {
    /// The text after the first occurrence of `marker` (the whole string when absent).
    func components(after marker: String) -> String {
        range(of: marker).map { String(self[$0.upperBound...]) } ?? self
    }
}
