/*
 * database.h -- an open tupledb database: the data directory, the
 * process's buffer pool, the transaction manager and a bootstrapped
 * catalog, opened and closed as one.  This is what a C program (and the
 * shell, and the server) holds; each session (connection) on it has a
 * Transaction (xact.h) from tdb_database_session.
 *
 *     Database *db = tdb_database_open("mydb", NULL);   creates if needed
 *     Transaction *s = tdb_database_session(db, NULL);
 *     tdb_xact_begin(s);
 *     tdb_catalog_create_table(s, "t", cols, 2, false);
 *     ... tdb_relation_open(s, "t", REL_LOCK_SHARE), heapam.h ...
 *     tdb_xact_commit(s);
 *     tdb_xact_destroy(s);
 *     tdb_database_close(db);
 *
 * The buffer pool is per process, so a process has at most one database
 * open at a time (a second open raises).  A second process opening the
 * same directory gets datadir.h's "in use" error.
 */
#ifndef TDB_CATALOG_DATABASE_H
#define TDB_CATALOG_DATABASE_H

#include "common/base.h"
#include "access/xact.h"
#include "mmgr/mcxt.h"

typedef struct Database Database;

typedef struct DatabaseOptions {
    int nbuffers; /* buffer pool size in 8 kB pages; 0: the default
                   * (TDB_DEFAULT_NBUFFERS, 128 MB) */
    const char *superuser; /* the bootstrap superuser's name when the
                            * directory is created (initdb's -U); NULL:
                            * the OS user's name */
} DatabaseOptions;

/*
 * Open the database at path, creating the directory and bootstrapping
 * its catalog if it does not exist (or is an empty directory).  options
 * may be NULL.  Everything lives in a new top-level memory context.
 * Raises datadir.h's errors (not a database, newer version, in use),
 * and leaves nothing open when it does.
 */
Database *tdb_database_open(const char *path, const DatabaseOptions *options);

/*
 * Close cleanly: write every dirty page and fsync, close the transaction
 * manager (raises if a session still has a writing transaction; then
 * nothing is closed), mark the data directory shut down.  Sessions must
 * be destroyed first.
 */
void tdb_database_close(Database *db);

/*
 * What a crash leaves, for tests: drop the buffer pool without writing
 * anything, release the directory lock and free everything, without
 * touching a file.  Sessions must be gone (or abandoned with their
 * contexts).
 */
void tdb_database_abandon(Database *db);

/* A new session's transaction state, IDLE (tdb_xact_destroy frees it). */
Transaction *tdb_database_session(Database *db, MemoryContext parent);

TransactionManager *tdb_database_xact_manager(Database *db);
const char *tdb_database_path(Database *db);
/*
 * The database's name (borrowed, lives as long as db): the base name of
 * the data directory's real path, found at open -- `tupledb serve .` in
 * /srv/shop is "shop", and renaming the directory renames the database.
 * At most NAMEDATALEN - 1 bytes (a longer base name is clipped at a
 * character boundary, as PostgreSQL clips a name); "" for "/".  A data
 * directory holds one database (the server also accepts "postgres" for
 * it: src/server/README.md).
 */
const char *tdb_database_name(Database *db);
/* Where statements on this database put their temporary files:
 * "<path>/base/pgsql_tmp" (borrowed, lives as long as db; tempfile.h). */
const char *tdb_database_temp_dir(Database *db);

#endif /* TDB_CATALOG_DATABASE_H */
