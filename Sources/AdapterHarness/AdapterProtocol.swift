import Conformance
import LinkJSON

/// The adapter protocol, version 1: JSON Lines over an adapter's stdin and stdout
/// (docs/adapter-protocol.md). This type builds and reads its messages, for both sides.
///
/// ```text
/// harness -> adapter   {"cmd":"start","version":1}
/// adapter -> harness   {"version":1,"implementation":{...},"operations":["ulc.parse"]}
/// harness -> adapter   {"cmd":"run","seq":1,"case":"ulc/x/y","operation":"ulc.parse","input":{...}}
/// adapter -> harness   {"seq":1,"output":{...}}
/// harness -> adapter   {"cmd":"stop"}
/// ```
public enum AdapterProtocol {
    /// The version this harness speaks.
    public static let version = 1

    // MARK: harness -> adapter

    public static func startRequest() -> JSONValue {
        ["cmd": "start", "version": .int(version)]
    }

    public static func runRequest(seq: Int, _ request: Request) -> JSONValue {
        ["cmd": "run", "seq": .int(seq), "case": .string(request.caseID), "operation": .string(request.operation),
         "input": request.input]
    }

    /// The `run` request as one line (with its newline), the same text as ``runRequest(seq:_:)``
    /// serialized, written straight into `out`, with the input's text reused when the request
    /// carries it.
    public static func writeRunRequest(seq: Int, _ request: Request, to out: inout [UInt8]) {
        out.append(contentsOf: #"{"cmd":"run","seq":"#.utf8)
        JSONSerializer.write(.int(seq), to: &out)
        out.append(contentsOf: #","case":"#.utf8)
        JSONSerializer.write(.string(request.caseID), to: &out)
        out.append(contentsOf: #","operation":"#.utf8)
        JSONSerializer.write(.string(request.operation), to: &out)
        out.append(contentsOf: #","input":"#.utf8)
        if let encoded = request.encodedInput {
            out.append(contentsOf: encoded)
        } else {
            JSONSerializer.write(request.input, to: &out)
        }
        out.append(contentsOf: "}\n".utf8)
    }

    public static func stopRequest() -> JSONValue {
        ["cmd": "stop"]
    }

    /// What an adapter receives, read.
    public enum Incoming: Sendable {
        case start(version: Int)
        case run(seq: JSONValue, request: Request)
        case stop
        case invalid(String)
    }

    public static func readRequest(_ message: JSONValue) -> Incoming {
        guard let object = message.objectValue else { return .invalid("a request must be a JSON object") }
        switch object["cmd"]?.stringValue {
        case "start":
            guard let v = object["version"]?.intValue else { return .invalid("start needs an integer 'version'") }
            return .start(version: v)
        case "run":
            guard let seq = object["seq"] else { return .invalid("run needs a 'seq'") }
            guard let caseID = object["case"]?.stringValue, let operation = object["operation"]?.stringValue,
                  let input = object["input"] else {
                return .invalid("run needs 'case' and 'operation' strings and an 'input'")
            }
            return .run(seq: seq, request: Request(caseID: caseID, operation: operation, input: input))
        case "stop":
            return .stop
        default:
            return .invalid("unknown 'cmd'; expected start, run or stop")
        }
    }

    // MARK: adapter -> harness

    public static func startResponse(_ info: ImplementationInfo, operations: [String]) -> JSONValue {
        ["version": .int(version),
         "implementation": ["name": .string(info.name), "version": .string(info.version),
                            "language": .string(info.language), "homepage": .string(info.homepage)],
         "operations": .array(operations.map(JSONValue.string))]
    }

    public static func refusal(_ message: String) -> JSONValue {
        ["version": .int(version), "refused": .string(message)]
    }

    public static func runResponse(seq: JSONValue, _ answer: Answer) -> JSONValue {
        var object = JSONObject()
        object["seq"] = seq
        switch answer {
        case .output(let output): object["output"] = output
        case .skipped(let reason): object["skipped"] = .string(reason)
        case .errored(let message, let detail):
            var e = JSONObject()
            e["message"] = .string(message)
            if let detail { e["detail"] = detail }
            object["errored"] = .object(e)
        case .crashed(let m), .timedOut(let m), .protocolError(let m), .notRun(let m):
            object["errored"] = ["message": .string(m)]
        }
        return .object(object)
    }

    /// The answer to `run` as one line (with its newline), the same text as
    /// ``runResponse(seq:_:)`` serialized, written straight into `out` (an adapter answers
    /// every request with it).
    public static func writeRunResponse(seq: JSONValue, _ answer: Answer, to out: inout [UInt8]) {
        out.append(contentsOf: #"{"seq":"#.utf8)
        JSONSerializer.write(seq, to: &out)
        switch answer {
        case .output(let output):
            out.append(contentsOf: #","output":"#.utf8)
            JSONSerializer.write(output, to: &out)
        case .skipped(let reason):
            out.append(contentsOf: #","skipped":"#.utf8)
            JSONSerializer.write(.string(reason), to: &out)
        case .errored(let message, let detail):
            out.append(contentsOf: #","errored":{"message":"#.utf8)
            JSONSerializer.write(.string(message), to: &out)
            if let detail {
                out.append(contentsOf: #","detail":"#.utf8)
                JSONSerializer.write(detail, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .crashed(let m), .timedOut(let m), .protocolError(let m), .notRun(let m):
            out.append(contentsOf: #","errored":{"message":"#.utf8)
            JSONSerializer.write(.string(m), to: &out)
            out.append(UInt8(ascii: "}"))
        }
        out.append(contentsOf: "}\n".utf8)
    }

    /// Reads an adapter's answer to `start`.
    public static func readStartResponse(_ message: JSONValue) -> Result<(ImplementationInfo, Set<String>), ImplementationError> {
        guard let object = message.objectValue else {
            return .failure(ImplementationError("the answer to start is not a JSON object"))
        }
        let theirs = object["version"]?.intValue
        if let refused = object["refused"]?.stringValue {
            return .failure(ImplementationError("the adapter refused protocol version \(version): \(refused)"))
        }
        guard theirs == version else {
            return .failure(ImplementationError("the adapter speaks protocol version \(object["version"]?.serialized() ?? "(none)"); this harness speaks \(version)"))
        }
        guard let impl = object["implementation"]?.objectValue,
              let name = impl["name"]?.stringValue, !name.isEmpty else {
            return .failure(ImplementationError("the answer to start needs 'implementation' with a non-empty 'name'"))
        }
        guard let operations = object["operations"]?.arrayValue, operations.allSatisfy({ $0.stringValue != nil }) else {
            return .failure(ImplementationError("the answer to start needs 'operations', an array of operation names"))
        }
        let info = ImplementationInfo(name: name, version: impl["version"]?.stringValue ?? "",
                                      language: impl["language"]?.stringValue ?? "", homepage: impl["homepage"]?.stringValue ?? "")
        return .success((info, Set(operations.compactMap(\.stringValue))))
    }

    /// Reads an answer to `run`: the seq it carries (if any) and the answer, or why it is not one.
    /// Without building anything on the way (the harness reads every answer of every adapter
    /// with it).
    public static func readRunResponse(_ message: JSONValue) -> (seq: JSONValue?, answer: Result<Answer, ProtocolViolation>) {
        guard case .object(let object) = message else {
            return (nil, .failure(ProtocolViolation("a line that is a JSON \(message.typeName), not an object")))
        }
        let seq = object["seq"]
        switch (object["output"], object["skipped"], object["errored"]) {
        case (let output?, nil, nil):
            return (seq, .success(.output(output)))
        case (nil, let skipped?, nil):
            guard let reason = skipped.stringValue else {
                return (seq, .failure(ProtocolViolation("'skipped' must be a string (the reason)")))
            }
            return (seq, .success(.skipped(reason: reason)))
        case (nil, nil, let errored?):
            guard let message = errored["message"]?.stringValue else {
                return (seq, .failure(ProtocolViolation("'errored' must be an object with a 'message' string")))
            }
            return (seq, .success(.errored(message: message, detail: errored["detail"])))
        case (let output, let skipped, let errored):
            let present = [output.map { _ in "output" }, skipped.map { _ in "skipped" }, errored.map { _ in "errored" }].compactMap { $0 }
            return (seq, .failure(ProtocolViolation(present.isEmpty
                ? "an answer with none of output, skipped, errored"
                : "an answer with \(present.joined(separator: " and ")): exactly one is allowed")))
        }
    }
}

/// How a message broke the protocol.
public struct ProtocolViolation: Error, Sendable, Hashable {
    public let message: String
    public init(_ message: String) { self.message = message }
}
