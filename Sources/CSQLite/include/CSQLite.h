// CSQLite — the system's SQLite (libsqlite3) for the persistence example,
// loaded on first use.
//
// libsqlite3 is opened with dlopen when the first store is opened, never at
// start-up: loading it (and binding its ~1,600 symbols) cost every command
// a sixth of its start-up time, though only the persistence example uses it.
// sqlite3.h gives the types and constants; the functions are called through
// the wrappers below, which reach the library that fh_sqlite_load opened.
#ifndef CSQLITE_H
#define CSQLITE_H

#include <stddef.h>
#include <sqlite3.h>

/// Opens libsqlite3 (once, for the whole process). Returns 0 when it is
/// loaded; otherwise -1, with the reason in `why` (NUL-terminated). Call it
/// (successfully) before any fh_sqlite3_ function.
int fh_sqlite_load(char *why, size_t why_size);

int fh_sqlite3_open_v2(const char *filename, sqlite3 **db, int flags, const char *vfs);
const char *fh_sqlite3_errmsg(sqlite3 *db);
int fh_sqlite3_close(sqlite3 *db);
int fh_sqlite3_close_v2(sqlite3 *db);
int fh_sqlite3_busy_timeout(sqlite3 *db, int ms);
int fh_sqlite3_prepare_v2(sqlite3 *db, const char *sql, int bytes, sqlite3_stmt **statement, const char **tail);
int fh_sqlite3_finalize(sqlite3_stmt *statement);
int fh_sqlite3_bind_null(sqlite3_stmt *statement, int index);
int fh_sqlite3_bind_int64(sqlite3_stmt *statement, int index, sqlite3_int64 value);
int fh_sqlite3_bind_double(sqlite3_stmt *statement, int index, double value);
int fh_sqlite3_bind_text(sqlite3_stmt *statement, int index, const char *text, int bytes, void (*destructor)(void *));
int fh_sqlite3_step(sqlite3_stmt *statement);
int fh_sqlite3_column_count(sqlite3_stmt *statement);
const char *fh_sqlite3_column_name(sqlite3_stmt *statement, int column);
int fh_sqlite3_column_type(sqlite3_stmt *statement, int column);
sqlite3_int64 fh_sqlite3_column_int64(sqlite3_stmt *statement, int column);
double fh_sqlite3_column_double(sqlite3_stmt *statement, int column);
const unsigned char *fh_sqlite3_column_text(sqlite3_stmt *statement, int column);
sqlite3_int64 fh_sqlite3_last_insert_rowid(sqlite3 *db);

#endif
