import Foundation
import GRDB
import Testing
@testable import ResultsStore
import TestScratch

/// A file that is not a results store is refused with a message that says so, and left as it was.
struct ForeignDatabaseTests {
    func scratch(_ name: String) -> String {
        TestScratch.path("foreign", name)
    }

    @Test func anotherProgramsDatabaseIsRefusedAndLeftUnchanged() throws {
        let path = scratch("customers.db")
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "CREATE TABLE customers(id INTEGER PRIMARY KEY, name TEXT)")
            try db.execute(sql: "INSERT INTO customers(name) VALUES ('Ada')")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(before.count > 0)
        do {
            _ = try ResultsStore(path: path)
            Issue.record("a foreign database was opened as a results store")
        } catch {
            #expect(error.message.contains("not a LinkConform results store"))
            #expect(error.message.contains("customers"))
            #expect(!error.message.contains("writable"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "the file was changed")
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test func aFileThatIsNotSQLiteIsNamedAsSuch() throws {
        let path = scratch("notes.txt")
        try Data("these are my notes, not a database\n".utf8).write(to: URL(fileURLWithPath: path))
        do {
            _ = try ResultsStore(path: path)
            Issue.record("a text file was opened as a results store")
        } catch {
            #expect(error.message.contains("not a SQLite database"))
            #expect(!error.message.contains("writable"))
        }
    }

    @Test func aNewFileAndAnExistingStoreStillOpen() throws {
        let path = scratch("results.sqlite")
        _ = try ResultsStore(path: path)
        #expect(FileManager.default.fileExists(atPath: path))
        _ = try ResultsStore(path: path)
        let empty = scratch("empty.sqlite")
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        _ = try ResultsStore(path: empty)
    }
}
