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

/// What a requirement of the corpus a run used says, and where it comes from (table
/// `corpusRequirement`, once per corpus fingerprint): what a report shows beside a case that
/// did not pass.
public struct StoredRequirementText: Sendable, Hashable {
    public let statement: String
    /// The source document's title (its key when the registry does not list it).
    public let document: String
    public let section: String
    /// Why LinkConform decided so, for a decided requirement.
    public let rationale: String?
}

extension ResultsStore {
    /// The most of a case's input text kept: inputs built by generators reach hundreds of
    /// kilobytes, and a report shows the beginning.
    public static let storedInputBytes = 4_096

    /// Records the title, place and input of every case of `corpus` under its fingerprint, and
    /// what each of its requirements says (``StoredRequirementText``).
    /// Cases already recorded for that fingerprint are left as they are, so a run over an
    /// unchanged corpus writes nothing new.
    public func recordCases(corpus: Corpus) throws {
        try writing { db in
            let known = try db.exactRows("SELECT COUNT(*) AS n FROM corpusCase WHERE corpusFingerprint = ?", [.text(corpus.fingerprint)]) {
                $0.int("n")
            }
            let requirements = corpus.suites.reduce(0) { $0 + $1.registry.requirements.count }
            let knownRequirements = try db.exactRows("SELECT COUNT(*) AS n FROM corpusRequirement WHERE corpusFingerprint = ?",
                                                     [.text(corpus.fingerprint)]) { $0.int("n") }
            if knownRequirements.first != requirements {
                for suite in corpus.suites {
                    let titles = Dictionary(suite.registry.documents.map { ($0.key, $0.title) }, uniquingKeysWith: { a, _ in a })
                    for r in suite.registry.requirements {
                        try db.exactExecute("""
                            INSERT OR IGNORE INTO corpusRequirement (corpusFingerprint, suite, requirementId, statement, document, section, rationale)
                            VALUES (?, ?, ?, ?, ?, ?, ?)
                            """, [.text(corpus.fingerprint), .text(suite.name), .text(r.id), .text(r.statement),
                                  .text(titles[r.document] ?? r.document), .text(r.section), .text(r.rationale)])
                    }
                }
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

    /// What each requirement of the run's corpus says, by suite and requirement id; empty for a
    /// run stored before the store kept it.
    public func requirementTexts(run: Int64) throws -> [String: [String: StoredRequirementText]] {
        try reading { db in
            var texts: [String: [String: StoredRequirementText]] = [:]
            try db.exactEach("""
                SELECT q.suite, q.requirementId, q.statement, q.document, q.section, q.rationale
                FROM corpusRequirement q JOIN run r ON r.corpusFingerprint = q.corpusFingerprint WHERE r.id = ?
                """, [.integer(run)]) { row in
                texts[row.text("suite"), default: [:]][row.text("requirementId")] =
                    StoredRequirementText(statement: row.text("statement"), document: row.text("document"), section: row.text("section"),
                                          rationale: row.optionalText("rationale"))
            }
            return texts
        }
    }
}
