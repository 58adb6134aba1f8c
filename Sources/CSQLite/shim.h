// The system's SQLite (libsqlite3), for the persistence example plugin.
#include <sqlite3.h>
