import Conformance
import Foundation
import LinkURL
import ULC

func benchSuite() async {
    let start = ContinuousClock.now
    let corpus = Corpus.load(from: "Corpus")
    guard corpus.errors.isEmpty else {
        print("suite: the corpus has errors; run `linkconform corpus lint`")
        return
    }
    let loaded = start.duration(to: ContinuousClock.now)
    var outcomes: [Outcome: Int] = [:]
    let runner = Runner(corpus: corpus)
    _ = try? await runner.run(SwiftImplementation.reference) { batch in
        for r in batch { outcomes[r.outcome, default: 0] += 1 }
    }
    let total = start.duration(to: ContinuousClock.now)
    let summary = outcomes.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")
    print("suite: \(corpus.caseCount) cases in process (\(summary))")
    print("  load + lint corpus  \(loaded)")
    print("  load + run          \(total)   target < 1 s")
}

