import CSQLite
import FactoryhostSupport
import LuaBridge

/// A value in a SQLite row.
enum SQLValue: Equatable {
    case null
    case integer(Int)
    case real(Double)
    case text(String)

    init(_ value: LuaValue, column: String) throws {
        switch value {
        case .nil: self = .null
        case .integer(let n): self = .integer(n)
        case .number(let x): self = .real(x)
        case .boolean(let b): self = .integer(b ? 1 : 0)
        case .string(let s): self = .text(s.description)
        default: throw LuaError(.typeMismatch, "column '\(column)': \(value.typeName) cannot be stored (a string, number, boolean or nil)")
        }
    }

    var luaValue: LuaValue {
        switch self {
        case .null: return .nil
        case .integer(let n): return .integer(n)
        case .real(let x): return .number(x)
        case .text(let s): return LuaValue(s)
        }
    }
}

/// One connection to a SQLite database through the C API: a file, or
/// `:memory:` (private to this connection). `@unchecked Sendable`: `handle` is read and written only under
/// `lock` (init runs before the database is shared), and each `run` holds it for its whole statement (so
/// `lastID` is its own insert's).
final class SQLiteDatabase: @unchecked Sendable {
    private let lock = Lock()
    private var handle: OpaquePointer?
    let path: String
    let isReadOnly: Bool

    init(path: String, readOnly: Bool, create: Bool) throws {
        self.path = path
        self.isReadOnly = readOnly
        var why = [CChar](repeating: 0, count: 256)
        guard fh_sqlite_load(&why, why.count) == 0 else {
            throw LuaError(.runtime, "cannot open the store '\(path)': \(String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
        }
        let flags = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0))
        let status = fh_sqlite3_open_v2(path, &handle, flags | SQLITE_OPEN_FULLMUTEX, nil)
        guard status == SQLITE_OK else {
            let message = handle.map { String(cString: fh_sqlite3_errmsg($0)) } ?? "out of memory"
            fh_sqlite3_close(handle)
            handle = nil
            throw LuaError(.runtime, "cannot open the store '\(path)': \(message)")
        }
        fh_sqlite3_busy_timeout(handle, 2000)
    }

    deinit { close() }

    func close() {
        lock.withLock {
            if let handle { fh_sqlite3_close_v2(handle) }
            handle = nil
        }
    }

    var isOpen: Bool { lock.withLock { handle != nil } }

    /// Runs `sql` with `values` bound to its `?`s; returns the rows (column
    /// names in order, values) and the last inserted row id.
    @discardableResult
    func run(_ sql: String, _ values: [SQLValue] = []) throws -> (columns: [String], rows: [[SQLValue]], lastID: Int) {
        try lock.withLock { try runLocked(sql, values) }
    }

    /// ``run(_:_:)``'s body, with `lock` held.
    private func runLocked(_ sql: String, _ values: [SQLValue]) throws -> (columns: [String], rows: [[SQLValue]], lastID: Int) {
        guard let handle else { throw LuaError(.runtime, "the store '\(path)' is closed") }
        var statement: OpaquePointer?
        guard fh_sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw LuaError(.runtime, "store '\(path)': \(String(cString: fh_sqlite3_errmsg(handle)))")
        }
        defer { fh_sqlite3_finalize(statement) }
        // unsafeBitCast: SQLITE_TRANSIENT is the C macro ((sqlite3_destructor_type)-1), which Swift cannot import.
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for (i, value) in values.enumerated() {
            let index = Int32(i + 1)
            switch value {
            case .null: fh_sqlite3_bind_null(statement, index)
            case .integer(let n): fh_sqlite3_bind_int64(statement, index, sqlite3_int64(n))
            case .real(let x): fh_sqlite3_bind_double(statement, index, x)
            case .text(let s): fh_sqlite3_bind_text(statement, index, s, -1, transient)
            }
        }
        let count = fh_sqlite3_column_count(statement)
        let columns = (0..<count).map { String(cString: fh_sqlite3_column_name(statement, $0)) }
        var rows: [[SQLValue]] = []
        while true {
            let status = fh_sqlite3_step(statement)
            if status == SQLITE_DONE { break }
            guard status == SQLITE_ROW else {
                throw LuaError(.runtime, "store '\(path)': \(String(cString: fh_sqlite3_errmsg(handle)))")
            }
            rows.append((0..<count).map { column in
                switch fh_sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: return .integer(Int(fh_sqlite3_column_int64(statement, column)))
                case SQLITE_FLOAT: return .real(fh_sqlite3_column_double(statement, column))
                case SQLITE_NULL: return .null
                default: return .text(fh_sqlite3_column_text(statement, column).map { String(cString: $0) } ?? "")
                }
            })
        }
        return (columns, rows, Int(fh_sqlite3_last_insert_rowid(handle)))
    }
}
