import LinkJSON
import Testing
@testable import Conformance

/// The harness writes `run` requests straight into bytes; they must be the same text as the
/// request built as a JSON value and serialized, whatever the strings hold.
struct AdapterProtocolTests {
    static let awkward = ["ulc/plain", "quote\"back\\slash", "tab\tnewline\ncr\r", "\u{0}\u{1F}\u{7F}", "é€😀", ""]

    @Test(arguments: awkward)
    func writtenRunRequestIsTheSerializedOne(text: String) throws {
        let input: JSONValue = ["link": .string("https://a.example/l?x=" + text), "n": 3, "list": [.string(text), .null]]
        for encoded in [nil, Array(input.serialized().utf8)] {
            let request = Request(caseID: "case/" + text, operation: "op." + text, input: input, encodedInput: encoded)
            var line: [UInt8] = []
            AdapterProtocol.writeRunRequest(seq: 41, request, to: &line)
            #expect(line == Array((AdapterProtocol.runRequest(seq: 41, request).serialized() + "\n").utf8))
            // And the adapter side reads back what was sent.
            guard case .run(let seq, let read) = AdapterProtocol.readRequest(try JSONParser.parse(Array(line.dropLast()))) else {
                Issue.record("not read as a run request")
                continue
            }
            #expect(seq == 41 && read.caseID == request.caseID && read.operation == request.operation && read.input == input)
        }
    }

    @Test func casesCarryTheirInputAsText() {
        let corpus = Corpus.load(from: TemporaryCorpus.repositoryCorpus)
        for c in corpus.suites.flatMap(\.cases) {
            #expect(c.encodedInput == Array(c.input.serialized().utf8), "\(c.id)")
        }
        // Renamed copies (a repeated corpus) carry their original's.
        let originals = Dictionary(uniqueKeysWithValues: corpus.suites.flatMap(\.cases).map { ($0.id, $0.encodedInput) })
        let copies = corpus.repeated(to: corpus.caseCount * 2).suites.flatMap(\.cases).filter { $0.id.hasSuffix("#2") }
        #expect(copies.count == corpus.caseCount)
        for copy in copies {
            #expect(copy.encodedInput == originals[String(copy.id.dropLast(2))])
        }
    }
}
