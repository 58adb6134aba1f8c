// CSQLite — see include/CSQLite.h.
#include "CSQLite.h"
#include "CLibraryLoader.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

// Every function the persistence example calls: result type, name, parameters, arguments.
#define FH_SQLITE_FUNCTIONS(X) \
    X(int, open_v2, (const char *filename, sqlite3 **db, int flags, const char *vfs), (filename, db, flags, vfs)) \
    X(const char *, errmsg, (sqlite3 *db), (db)) \
    X(int, close, (sqlite3 *db), (db)) \
    X(int, close_v2, (sqlite3 *db), (db)) \
    X(int, busy_timeout, (sqlite3 *db, int ms), (db, ms)) \
    X(int, prepare_v2, (sqlite3 *db, const char *sql, int bytes, sqlite3_stmt **statement, const char **tail), \
      (db, sql, bytes, statement, tail)) \
    X(int, finalize, (sqlite3_stmt *statement), (statement)) \
    X(int, bind_null, (sqlite3_stmt *statement, int index), (statement, index)) \
    X(int, bind_int64, (sqlite3_stmt *statement, int index, sqlite3_int64 value), (statement, index, value)) \
    X(int, bind_double, (sqlite3_stmt *statement, int index, double value), (statement, index, value)) \
    X(int, bind_text, (sqlite3_stmt *statement, int index, const char *text, int bytes, void (*destructor)(void *)), \
      (statement, index, text, bytes, destructor)) \
    X(int, step, (sqlite3_stmt *statement), (statement)) \
    X(int, column_count, (sqlite3_stmt *statement), (statement)) \
    X(const char *, column_name, (sqlite3_stmt *statement, int column), (statement, column)) \
    X(int, column_type, (sqlite3_stmt *statement, int column), (statement, column)) \
    X(sqlite3_int64, column_int64, (sqlite3_stmt *statement, int column), (statement, column)) \
    X(double, column_double, (sqlite3_stmt *statement, int column), (statement, column)) \
    X(const unsigned char *, column_text, (sqlite3_stmt *statement, int column), (statement, column)) \
    X(sqlite3_int64, last_insert_rowid, (sqlite3 *db), (db))

// MARK: - libsqlite3, loaded once

static struct {
#define FIELD(result, name, parameters, arguments) result (*name) parameters;
    FH_SQLITE_FUNCTIONS(FIELD)
#undef FIELD
    char failure[256];          /* why loading failed ("" if it did not) */
} sqlite;

static pthread_once_t sqlite_once = PTHREAD_ONCE_INIT;

static void load_sqlite(void) {
    static const char *const names[] = {
        "libsqlite3.so.0", "libsqlite3.so", "libsqlite3.0.dylib", "libsqlite3.dylib", "/usr/lib/libsqlite3.dylib", NULL
    };
    char reason[512];
    void *lib = fh_dlopen_first(names, reason, sizeof reason);
    if (lib == NULL) {
        snprintf(sqlite.failure, sizeof sqlite.failure, "libsqlite3 could not be loaded (%s)", reason[0] != 0 ? reason : "not found");
        return;
    }
#define SYMBOL(result, name, parameters, arguments) { "sqlite3_" #name, (void **)&sqlite.name },
    const fh_symbol symbols[] = { FH_SQLITE_FUNCTIONS(SYMBOL) };
#undef SYMBOL
    fh_load_symbols(lib, symbols, sizeof symbols / sizeof symbols[0], "libsqlite3", sqlite.failure, sizeof sqlite.failure);
}

int fh_sqlite_load(char *why, size_t why_size) {
    pthread_once(&sqlite_once, load_sqlite);
    if (sqlite.failure[0] == 0) return 0;
    if (why != NULL && why_size > 0) snprintf(why, why_size, "%s", sqlite.failure);
    return -1;
}

// MARK: - The wrappers (called only after a successful fh_sqlite_load)

#define WRAPPER(result, name, parameters, arguments) \
    result fh_sqlite3_##name parameters { return sqlite.name arguments; }
FH_SQLITE_FUNCTIONS(WRAPPER)
#undef WRAPPER
