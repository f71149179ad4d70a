import AdapterHarness
import ChildProcess
import Conformance
import Foundation
import LinkJSON

/// The harness's ceiling: what an adapter that does nothing costs, next to a pipe that only
/// echoes the same bytes.
///
/// The do-nothing adapter is a few lines of C compiled with the system's C compiler when the
/// bench runs: it answers `start` with every operation, and each `run` with the output the
/// table gives for its operation (each operation's null output), without parsing JSON beyond
/// finding `"seq":` and `"operation":"`. It reads and writes in large blocks, so its own cost
/// is next to nothing and the rate measured is the harness's.
enum HarnessCeiling {
    /// Writes and compiles the do-nothing adapter into `directory`; its path, or why not.
    static func buildDoNothingAdapter(in directory: String, corpus: Corpus) -> Result<String, ImplementationError> {
        var table = ""
        for suite in corpus.suites {
            for operation in suite.definition.operations {
                guard let input = suite.cases.first(where: { $0.operation == operation.name })?.input,
                      let output = try? operation.nullOutput(input) else { continue }
                table += "    {\"\(operation.name)\", \(cString(output.serialized()))},\n"
            }
        }
        let names = corpus.suites.flatMap(\.definition.operations).map { "\\\"\($0.name)\\\"" }.joined(separator: ",")
        let source = """
            #include <stdio.h>
            #include <stdlib.h>
            #include <string.h>
            #include <unistd.h>
            static const char *table[][2] = {
            \(table)    {0, 0}};
            static char in[1 << 22], out[1 << 23];
            static const char *answer(const char *line) {
                const char *op = strstr(line, "\\"operation\\":\\"");
                if (!op) return "{}";
                op += 13;
                for (int i = 0; table[i][0]; i++) {
                    size_t n = strlen(table[i][0]);
                    if (strncmp(op, table[i][0], n) == 0 && op[n] == '"') return table[i][1];
                }
                return "{}";
            }
            int main(void) {
                size_t have = 0;
                for (;;) {
                    ssize_t got = read(0, in + have, sizeof in - have - 1);
                    if (got <= 0) return 0;
                    have += (size_t)got;
                    in[have] = 0;
                    size_t used = 0, o = 0;
                    char *line = in, *end;
                    while ((end = memchr(line, '\\n', have - used))) {
                        *end = 0;
                        /* A run request starts with its command (the harness writes it first):
                           the rest of the line, 2.4 KB on average, is not searched for another. */
                        int run = strncmp(line, "{\\"cmd\\":\\"run\\"", 12) == 0;
                        if (!run && strstr(line, "\\"cmd\\":\\"stop\\"")) { if (o) write(1, out, o); return 0; }
                        if (!run && strstr(line, "\\"cmd\\":\\"start\\"")) {
                            o += (size_t)sprintf(out + o, "{\\"version\\":1,\\"implementation\\":{\\"name\\":\\"do-nothing\\",\\"version\\":\\"1\\",\\"language\\":\\"C\\",\\"homepage\\":\\"https://example.invalid\\"},\\"operations\\":[\(names)]}\\n");
                        } else {
                            const char *seq = strstr(line, "\\"seq\\":");
                            long n = seq ? strtol(seq + 6, 0, 10) : 0;
                            o += (size_t)sprintf(out + o, "{\\"seq\\":%ld,\\"output\\":%s}\\n", n, answer(line));
                        }
                        used += (size_t)(end - line) + 1;
                        line = end + 1;
                        if (o > sizeof out - 65536) { write(1, out, o); o = 0; }
                    }
                    if (o) write(1, out, o);
                    memmove(in, line, have - used);
                    have -= used;
                }
            }
            """
        let cPath = directory + "/do-nothing-adapter.c", binary = directory + "/do-nothing-adapter"
        do {
            try Data(source.utf8).write(to: URL(fileURLWithPath: cPath))
            let compiled = try CapturedCommand.run(["cc", "-O2", "-o", binary, cPath])
            guard compiled.status == 0 else {
                return .failure(ImplementationError("cc failed: " + String(decoding: compiled.stderr.suffix(500), as: UTF8.self)))
            }
        } catch {
            return .failure(ImplementationError("cannot compile the do-nothing adapter: \(error)"))
        }
        return .success(binary)
    }

    /// A C string literal of `text`.
    static func cString(_ text: String) -> String {
        var out = "\""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += "\\\""
            case UInt8(ascii: "\\"): out += "\\\\"
            case 0x20..<0x7F: out.unicodeScalars.append(Unicode.Scalar(byte))
            default: out += String(format: "\\%03o", byte)
            }
        }
        return out + "\""
    }

    /// The request lines a run of `corpus` sends (seq 0, 1, ...), as the harness writes them.
    static func requestBytes(_ corpus: Corpus) -> [UInt8] {
        var bytes: [UInt8] = []
        var seq = 0
        for suite in corpus.suites {
            for c in suite.cases {
                AdapterProtocol.writeRunRequest(seq: seq, Request(caseID: c.id, operation: c.operation, input: c.input, encodedInput: c.encodedInput),
                                                to: &bytes)
                seq += 1
            }
        }
        return bytes
    }

    /// Lines per second through `cat`: the bytes written on one thread, read back on another,
    /// nothing parsed (the pipe's and the kernel's cost alone).
    static func rawPipeRate(_ bytes: [UInt8], lines: Int) -> Double? {
        guard let cat = try? SpawnedProcess(arguments: ["cat"], workingDirectory: nil) else { return nil }
        let start = ContinuousClock.now
        let writer = Thread {
            var offset = 0
            bytes.withUnsafeBytes { raw in
                while offset < raw.count {
                    let n = write(cat.input, raw.baseAddress! + offset, min(1 << 16, raw.count - offset))
                    if n <= 0 { break }
                    offset += n
                }
            }
            cat.closeInput()
        }
        writer.start()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var seen = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { read(cat.output, $0.baseAddress!, $0.count) }
            if n <= 0 { break }
            for i in 0..<n where buffer[i] == 0x0A { seen += 1 }
        }
        let seconds = start.duration(to: .now).seconds
        _ = cat.waitForTermination()
        return seen == lines ? Double(lines) / seconds : nil
    }
}
