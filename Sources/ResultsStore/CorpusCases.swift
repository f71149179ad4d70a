import Conformance
import GRDB

/// What the corpus said about a case when a run used it: the facts a report shows beside a
/// result that did not pass (the store keeps them once per corpus fingerprint, table
/// `corpusCase`).
public struct StoredCase: Sendable, Hashable {
    public let title: String
    /// Where the case is written: its file relative to the corpus root, and its line.
    public let file: String
    public let line: Int
    /// The input's compact JSON text (string generators expanded), cut to
    /// ``ResultsStore/storedInputBytes`` with a note of its length when longer.
    public let input: String
}

extension ResultsStore {
    /// The most of a case's input text kept: inputs built by generators reach hundreds of
    /// kilobytes, and a report shows the beginning.
    public static let storedInputBytes = 4_096

    /// Records the title, place and input of every case of `corpus` under its fingerprint.
    /// Cases already recorded for that fingerprint are left as they are, so a run over an
    /// unchanged corpus writes nothing new.
    public func recordCases(corpus: Corpus) throws {
        try writing { db in
            let known = try db.exactRows("SELECT COUNT(*) AS n FROM corpusCase WHERE corpusFingerprint = ?", [.text(corpus.fingerprint)]) {
                $0.int("n")
            }
            if known.first == corpus.caseCount { return }
            for suite in corpus.suites {
                for c in suite.cases {
                    let input = ResultLimits.cut(String(decoding: c.encodedInput, as: UTF8.self), toBytes: Self.storedInputBytes)
                    try db.exactExecute("""
                        INSERT OR IGNORE INTO corpusCase (corpusFingerprint, suite, caseId, title, file, line, input)
                        VALUES (?, ?, ?, ?, ?, ?, ?)
                        """, [.text(corpus.fingerprint), .text(suite.name), .text(c.id), .text(c.title), .text(c.file), .int(c.line),
                              .text(input)])
                }
            }
        }
    }
}
