import Conformance
import GRDB
#if canImport(GRDBSQLite)
import GRDBSQLite   // the SQLite that GRDB links (SwiftPM)
#else
import SQLite3
#endif

// The enumerations the store keeps in text columns are bound as themselves (`SQLArgument.raw`),
// so a status, kind, outcome or level is never written or compared as a string in Swift. Reading
// goes through each type's raw value (`ExactRow.value(_:or:)`); where a newer version may have
// written a value this one does not know, the reader documents its fallback (a level reads as
// INFO, an implementation status as ok). Their GRDB conformances below serve code that queries
// through GRDB (tests, and queries on columns that hold only these values).

extension RunStatus: DatabaseValueConvertible {}
extension ImplementationStatus: DatabaseValueConvertible {}
extension Outcome: DatabaseValueConvertible {}
extension RequirementLevel: DatabaseValueConvertible {}
extension Finding.Kind: DatabaseValueConvertible {}
extension Finding.Status: DatabaseValueConvertible {}

// MARK: texts, whole
//
// GRDB binds a Swift `String` with length -1 and reads a text column with `String(cString:)`,
// so a text that holds U+0000 is cut at the first one on the way in and again on the way out.
// Names, versions, skip reasons, error messages, adapter notes and fuzz messages come from
// outside and may hold one. So every statement that writes or reads a text column of the store
// goes through `Database.exactExecute` and `Database.exactRows` below: a text is bound with
// `sqlite3_bind_text64` and its UTF-8 byte count (SQLITE_TRANSIENT: SQLite copies it), and read
// with `sqlite3_column_text` and `sqlite3_column_bytes`. The columns stay TEXT and hold the same
// bytes as before for any text without a NUL, so older databases, `=` comparisons and UNIQUE
// constraints (SQLite compares whole byte strings) are unchanged. GRDB still opens the database,
// migrates it and runs the transactions; only the binding and reading of values is ours. (A GRDB
// `fetch` or `arguments:` on a text column of this store is the bug this avoids.)

/// A value bound to a `?` of an ``Database/exactExecute(_:_:)`` or ``Database/exactRows(_:_:_:)``
/// statement.
enum SQLArgument {
    case text(String?)
    case integer(Int64)
    case blob([UInt8])

    static func int(_ value: Int) -> SQLArgument { .integer(Int64(value)) }
    static func bool(_ value: Bool) -> SQLArgument { .integer(value ? 1 : 0) }
    static func raw<T: RawRepresentable>(_ value: T) -> SQLArgument where T.RawValue == String { .text(value.rawValue) }

    /// Tells SQLite to copy a bound text or blob (the Swift storage is only lent for the call).
    static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    /// Binds `text` (NULL for nil) to parameter `index` of `statement`, every byte of it.
    static func bind(_ statement: OpaquePointer, _ index: Int32, _ text: String?) {
        guard var text else {
            sqlite3_bind_null(statement, index)
            return
        }
        text.withUTF8 { bytes in
            // An empty text from a valid pointer, so that it stays '' and does not become NULL.
            let start = bytes.baseAddress.map(UnsafeRawPointer.init) ?? UnsafeRawPointer(("" as StaticString).utf8Start)
            _ = sqlite3_bind_text64(statement, index, start.assumingMemoryBound(to: CChar.self), UInt64(bytes.count),
                                    transient, UInt8(SQLITE_UTF8))
        }
    }

    func bind(to statement: OpaquePointer, at index: Int32) {
        switch self {
        case .text(let text): Self.bind(statement, index, text)
        case .integer(let value): sqlite3_bind_int64(statement, index, value)
        case .blob(let bytes):
            bytes.withUnsafeBytes { buffer in
                // Like a text, an empty blob from a valid pointer stays an empty blob.
                let start = buffer.baseAddress ?? UnsafeRawPointer(("" as StaticString).utf8Start)
                _ = sqlite3_bind_blob64(statement, index, start, UInt64(buffer.count), Self.transient)
            }
        }
    }
}

/// The current row of an ``Database/exactRows(_:_:_:)`` query, read by column name.
struct ExactRow {
    let statement: OpaquePointer
    let columns: [String: Int32]

    private func index(_ name: String) -> Int32 {
        guard let index = columns[name] else { preconditionFailure("the query has no column \(name)") }
        return index
    }

    func optionalText(_ name: String) -> String? {
        let i = index(name)
        guard sqlite3_column_type(statement, i) != SQLITE_NULL else { return nil }
        // sqlite3_column_text first, then the byte count of that text (SQLite's documented order).
        guard let start = sqlite3_column_text(statement, i) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, i))
        return String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    }

    /// A text column that is never NULL ('' if it is).
    func text(_ name: String) -> String { optionalText(name) ?? "" }

    func int64(_ name: String) -> Int64 { sqlite3_column_int64(statement, index(name)) }
    func int(_ name: String) -> Int { Int(int64(name)) }
    func bool(_ name: String) -> Bool { int64(name) != 0 }

    func bytes(_ name: String) -> [UInt8] {
        let i = index(name)
        guard let start = sqlite3_column_blob(statement, i) else { return [] }
        return Array(UnsafeRawBufferPointer(start: start, count: Int(sqlite3_column_bytes(statement, i))))
    }

    /// An enumeration kept as its raw text, or `fallback` for a value this version does not know.
    func value<T: RawRepresentable>(_ name: String, or fallback: T) -> T where T.RawValue == String {
        T(rawValue: text(name)) ?? fallback
    }
}

extension Database {
    /// Runs a statement that returns no rows, with its arguments bound whole.
    func exactExecute(_ sql: String, _ arguments: [SQLArgument]) throws {
        _ = try exactRows(sql, arguments) { _ in () }
    }

    /// Runs a query with its arguments bound whole and turns each row into a value with `read`,
    /// texts read whole.
    func exactRows<T>(_ sql: String, _ arguments: [SQLArgument], _ read: (ExactRow) throws -> T) throws -> [T] {
        var values: [T] = []
        try exactEach(sql, arguments) { values.append(try read($0)) }
        return values
    }

    /// Runs a query with its arguments bound whole and hands each row to `body` as it is
    /// stepped to, keeping none: what streams a run's results.
    func exactEach(_ sql: String, _ arguments: [SQLArgument], _ body: (ExactRow) throws -> Void) throws {
        let s = try cachedStatement(sql: sql).sqliteStatement
        defer {
            sqlite3_reset(s)
            sqlite3_clear_bindings(s)
        }
        precondition(Int(sqlite3_bind_parameter_count(s)) == arguments.count, "\(arguments.count) arguments for: \(sql)")
        for (i, argument) in arguments.enumerated() { argument.bind(to: s, at: Int32(i + 1)) }
        var columns: [String: Int32] = [:]
        for i in 0..<sqlite3_column_count(s) { columns[String(cString: sqlite3_column_name(s, i))] = i }
        let row = ExactRow(statement: s, columns: columns)
        while true {
            let code = sqlite3_step(s)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: lastErrorMessage, sql: sql) }
            try body(row)
        }
    }
}
