import Conformance
import ChildProcess
import Foundation
import LinkJSON
import LinkURL

/// Serves an implementation over the adapter protocol on a pair of file descriptors (stdin and
/// stdout for `linkconform adapter`): the other side of ``AdapterImplementation``, and the
/// protocol's own smoke test.
///
/// Requests are read as they come and answered in order; answers are written in batches, when
/// no complete request is left in the input buffer, so a pipelining harness is never kept
/// waiting and a slow one costs no extra writes.
public enum AdapterServer {
    /// Serves until `stop` or the end of input. Returns the exit status (0, or 1 when the other
    /// side spoke a protocol version this adapter does not).
    public static func serve(_ implementation: some Implementation, info: ImplementationInfo, operations: [String],
                             input: Int32 = 0, output: Int32 = 1, maxLineBytes: Int = 1 << 20) async -> Int32 {
        var out: [UInt8] = []
        out.reserveCapacity(1 << 16)
        var inBuffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var started = false

        func flush() {
            var offset = 0
            while offset < out.count {
                let n = out.withUnsafeBytes { write(output, $0.baseAddress! + offset, out.count - offset) }
                if n < 0 { if errno == EINTR { continue }; out.removeAll(keepingCapacity: true); return }
                offset += n
            }
            out.removeAll(keepingCapacity: true)
        }
        func send(_ value: JSONValue) {
            JSONSerializer.write(value, to: &out)
            out.append(0x0A)
        }
        func complain(_ message: String) {
            StandardStreams.write("linkconform adapter: " + message + "\n", to: 2)
        }

        while true {
            // Answer every complete line in the buffer, then flush, then read more.
            var start = 0
            var stop = false
            var refused = false
            let lines: [ArraySlice<UInt8>] = inBuffer.withUnsafeBufferPointer { b in
                var found: [ArraySlice<UInt8>] = []
                while start < b.count {
                    let newline = ByteSearch.first(0x0A, in: b, from: start, to: b.count)
                    guard newline < b.count else { break }
                    found.append(inBuffer[start..<newline])
                    start = newline + 1
                }
                return found
            }
            for line in lines where !line.isEmpty {
                let message: JSONValue
                do {
                    message = try JSONParser.parse(line)
                } catch {
                    complain("ignored a request that is not JSON: \(error)")
                    continue
                }
                switch AdapterProtocol.readRequest(message) {
                case .start(let version):
                    if version != AdapterProtocol.version {
                        send(AdapterProtocol.refusal("this adapter speaks protocol version \(AdapterProtocol.version), not \(version)"))
                        refused = true
                    } else {
                        send(AdapterProtocol.startResponse(info, operations: operations))
                        started = true
                    }
                case .run(let seq, let request):
                    let answer: Answer
                    if !started {
                        answer = .errored(message: "run before start")
                    } else if !implementation.supports(request.operation) {
                        answer = .skipped(reason: "\(request.operation) is not implemented")
                    } else {
                        answer = await implementation.run(request)
                    }
                    let start = out.count
                    AdapterProtocol.writeRunResponse(seq: seq, answer, to: &out)
                    // A line the other side would refuse (its limit is this side's by default)
                    // is not sent: it would cost a protocol error and a restart, and say less.
                    if out.count - start > maxLineBytes {
                        let length = out.count - start
                        out.removeSubrange(start...)
                        AdapterProtocol.writeRunResponse(seq: seq, .errored(message: "the answer is \(length) bytes of JSON, over the protocol's \(maxLineBytes)-byte line; not sent"), to: &out)
                    }
                case .stop:
                    stop = true
                case .invalid(let why):
                    complain("ignored an invalid request: \(why)")
                }
                if stop || refused { break }
            }
            inBuffer.removeFirst(start)
            flush()
            if refused { return 1 }
            if stop { return 0 }
            if inBuffer.count > maxLineBytes {
                complain("a request longer than \(maxLineBytes) bytes; giving up")
                return 1
            }
            let n = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return 0 }
            inBuffer.append(contentsOf: chunk[0..<n])
        }
    }
}
