import GRDB

extension ResultsStore {
    /// Every schema change, in order. A migration that has shipped is never edited: a change
    /// to the schema is a new migration at the end, so databases written by older versions keep
    /// opening.
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: implementations, runs, requirements, case results") { db in
            try db.execute(sql: """
                CREATE TABLE implementation (
                    id INTEGER PRIMARY KEY,
                    name TEXT NOT NULL,
                    version TEXT NOT NULL,
                    language TEXT NOT NULL,
                    homepage TEXT NOT NULL,
                    UNIQUE (name, version, language, homepage)
                );
                CREATE TABLE run (
                    id INTEGER PRIMARY KEY,
                    startedAt TEXT NOT NULL,
                    finishedAt TEXT,
                    status TEXT NOT NULL CHECK (status IN ('running', 'completed', 'interrupted', 'failed')),
                    corpusFingerprint TEXT NOT NULL,
                    gitCommit TEXT,
                    toolVersion TEXT NOT NULL,
                    options TEXT NOT NULL,
                    host TEXT NOT NULL,
                    pid INTEGER NOT NULL
                );
                CREATE TABLE runImplementation (
                    runId INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
                    implementationId INTEGER NOT NULL REFERENCES implementation(id),
                    PRIMARY KEY (runId, implementationId)
                );
                CREATE TABLE runRequirement (
                    runId INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
                    suite TEXT NOT NULL,
                    requirementId TEXT NOT NULL,
                    level TEXT NOT NULL,
                    title TEXT NOT NULL,
                    decided INTEGER NOT NULL,
                    PRIMARY KEY (runId, suite, requirementId)
                );
                CREATE TABLE caseResult (
                    id INTEGER PRIMARY KEY,
                    runId INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
                    implementationId INTEGER NOT NULL REFERENCES implementation(id),
                    suite TEXT NOT NULL,
                    caseId TEXT NOT NULL,
                    operation TEXT NOT NULL,
                    requirementId TEXT NOT NULL,
                    level TEXT NOT NULL,
                    outcome TEXT NOT NULL,
                    nullWouldPass INTEGER NOT NULL,
                    actual TEXT,
                    expected TEXT NOT NULL,
                    message TEXT,
                    durationNanos INTEGER NOT NULL,
                    UNIQUE (runId, implementationId, caseId)
                );
                CREATE INDEX caseResult_byRun ON caseResult (runId, implementationId, suite, outcome);
                """)
        }
        migrator.registerMigration("v2: how each implementation fared in a run") { db in
            try db.execute(sql: """
                ALTER TABLE runImplementation ADD COLUMN status TEXT NOT NULL DEFAULT 'ok';
                ALTER TABLE runImplementation ADD COLUMN notes TEXT NOT NULL DEFAULT '[]';
                ALTER TABLE runImplementation ADD COLUMN expectedFailures TEXT;
                """)
        }
        migrator.registerMigration("v3: fuzz findings") { db in
            try db.execute(sql: """
                CREATE TABLE finding (
                    id INTEGER PRIMARY KEY,
                    target TEXT NOT NULL,
                    implementation TEXT NOT NULL,
                    kind TEXT NOT NULL CHECK (kind IN ('crash', 'invariant', 'leak', 'timeout', 'oom')),
                    signature TEXT NOT NULL,
                    message TEXT NOT NULL,
                    input BLOB NOT NULL,
                    reproducerPath TEXT NOT NULL,
                    firstSeen TEXT NOT NULL,
                    lastSeen TEXT NOT NULL,
                    count INTEGER NOT NULL,
                    status TEXT NOT NULL CHECK (status IN ('open', 'fixed')),
                    UNIQUE (target, implementation, signature)
                );
                """)
        }
        migrator.registerMigration("v4: large outputs stored once by content; one index fewer on case results") { db in
            // An output of `CaseResultRow.sharedOutputBytes` or more is kept once in outputText,
            // keyed by its SHA-256, and the result names it in actualRef (actual stays NULL):
            // the same large output of every night, implementation and repeated case costs its
            // bytes once. caseResult_byRun served only the summary query, which the UNIQUE
            // index's (runId, ...) prefix serves as well; every result inserted paid for it.
            try db.execute(sql: """
                CREATE TABLE outputText (
                    sha256 TEXT PRIMARY KEY,
                    text TEXT NOT NULL
                ) WITHOUT ROWID;
                ALTER TABLE caseResult ADD COLUMN actualRef TEXT;
                DROP INDEX caseResult_byRun;
                """)
        }
        migrator.registerMigration("v5: what the corpus said about each case, once per corpus fingerprint") { db in
            // A case's title, place and input (cut to `ResultsStore.storedInputBytes`), kept once
            // for every corpus a run used: a report shows the input of a case that did not pass.
            // Runs over an unchanged corpus add nothing.
            try db.execute(sql: """
                CREATE TABLE corpusCase (
                    corpusFingerprint TEXT NOT NULL,
                    suite TEXT NOT NULL,
                    caseId TEXT NOT NULL,
                    title TEXT NOT NULL,
                    file TEXT NOT NULL,
                    line INTEGER NOT NULL,
                    input TEXT NOT NULL,
                    PRIMARY KEY (corpusFingerprint, suite, caseId)
                ) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("v6: differential fuzzing findings") { db in
            // A table of their own rather than more columns on `finding`: a disagreement with the
            // reference has an operation, a JSON input and its minimised form, both answers and
            // the reference's violation codes, none of which a libFuzzer crash has, and `finding`'s
            // kind is fixed by a CHECK that SQLite cannot alter without rebuilding the table.
            // One row per (implementation, signature): seen again, it counts up.
            try db.execute(sql: """
                CREATE TABLE differentialFinding (
                    id INTEGER PRIMARY KEY,
                    implementation TEXT NOT NULL,
                    implementationVersion TEXT NOT NULL,
                    suite TEXT NOT NULL,
                    operation TEXT NOT NULL,
                    kind TEXT NOT NULL CHECK (kind IN ('differs', 'malformed', 'errored', 'crashed', 'timedOut', 'protocolError')),
                    signature TEXT NOT NULL,
                    fields TEXT NOT NULL,
                    referenceCodes TEXT NOT NULL,
                    message TEXT NOT NULL,
                    input TEXT NOT NULL,
                    minimisedInput TEXT NOT NULL,
                    referenceOutput TEXT NOT NULL,
                    implementationAnswer TEXT NOT NULL,
                    firstSeen TEXT NOT NULL,
                    lastSeen TEXT NOT NULL,
                    count INTEGER NOT NULL,
                    status TEXT NOT NULL CHECK (status IN ('open', 'promoted')),
                    promotedCase TEXT,
                    UNIQUE (implementation, signature)
                );
                """)
        }
        migrator.registerMigration("v7: what each requirement of a corpus says, once per corpus fingerprint") { db in
            // Its statement and source (document title and section, and a decision's rationale),
            // so that a report can say what a failed case's requirement asks and where it comes
            // from without the corpus at hand. Runs over an unchanged corpus add nothing.
            try db.execute(sql: """
                CREATE TABLE corpusRequirement (
                    corpusFingerprint TEXT NOT NULL,
                    suite TEXT NOT NULL,
                    requirementId TEXT NOT NULL,
                    statement TEXT NOT NULL,
                    document TEXT NOT NULL,
                    section TEXT NOT NULL,
                    rationale TEXT,
                    PRIMARY KEY (corpusFingerprint, suite, requirementId)
                ) WITHOUT ROWID;
                """)
        }
        return migrator
    }()
}
