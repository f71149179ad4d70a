import Conformance
import DifferentialFuzzing
import Foundation
import LinkJSON
import SeededRandom

/// What making fuzzing inputs costs, before any adapter sees them: each link mutation on the
/// corpus's ULC and x-callback-url links, then a whole input (one to four stacked mutations,
/// checked as the operation's input) for every operation. A mutation that costs far more than
/// the others shows here first (an oversized part built byte by byte once cost more than the
/// rest of a fuzzing step).
func benchMutations(count: Int) {
    let corpus = Corpus.load(from: "Corpus")
    guard corpus.errors.isEmpty else { return print("mutations: the corpus has errors; run `linkconform corpus lint`") }
    func seeds(_ operation: String) -> [JSONValue] {
        corpus.suites.flatMap(\.cases).filter { $0.operation == operation }.map(\.input)
    }
    let operations = SuiteRegistry.all.flatMap(\.operations)
    let links = operations.filter { $0.name == "ulc.parse" || $0.name == "xcallback.parse" }
        .flatMap { InputMutator(operation: $0, seeds: seeds($0.name)).seeds }
        .compactMap { $0.objectValue?["link"]?.stringValue.map { Array($0.utf8) } }
    guard !links.isEmpty else { return print("mutations: no ULC or x-callback-url links in the corpus") }
    var rng = SeededGenerator(seed: 3)
    print("mutations: \(links.count) corpus links, \(count) mutations each; then \(count / 4) inputs per operation")
    for mutation in LinkMutation.allCases {
        var bytes = 0
        let start = ContinuousClock.now
        for i in 0..<count { bytes &+= LinkMutator.mutate(links[i % links.count], mutation, donors: links, rng: &rng).count }
        let micros = start.duration(to: .now).seconds / Double(count) * 1e6
        print(String(format: "  %@ %8.2f us a mutation   %7d bytes out on average", mutation.rawValue.padding(toLength: 22, withPad: " ", startingAt: 0), micros, bytes / count))
    }
    for operation in operations {
        let mutator = InputMutator(operation: operation, seeds: seeds(operation.name))
        guard !mutator.seeds.isEmpty else { continue }
        let inputs = max(1, count / 4)
        var bytes = 0
        let start = ContinuousClock.now
        for _ in 0..<inputs { if let input = mutator.next(&rng) { bytes &+= input.serialized().utf8.count } }
        let micros = start.duration(to: .now).seconds / Double(inputs) * 1e6
        print(String(format: "  %@ %8.2f us an input      %7d bytes on average", operation.name.padding(toLength: 22, withPad: " ", startingAt: 0), micros, bytes / inputs))
    }
}
