/*
 * database.c -- opening and closing a database as one unit (database.h).
 *
 * Open order: data directory (lock, control file), buffer pool,
 * transaction manager, then a bootstrap session that creates the catalog
 * if this is a new directory.  Close order is the reverse, with a full
 * flush first.  An error part-way through open undoes what was opened.
 *
 * The database's name is the base name of the directory's real path,
 * found at open (database.h, tdb_database_name).
 */
#include "common/base.h"

#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "access/heapam.h"
#include "catalog/catalog.h"
#include "catalog/database.h"
#include "common/elog.h"
#include "storage/bufmgr.h"
#include "storage/datadir.h"

struct Database {
    MemoryContext cxt;
    DataDir *dd;
    TransactionManager *tm;
    char name[NAMEDATALEN]; /* tdb_database_name */
};

/*
 * Name the database after its directory: the last component of the
 * directory's real path (so "." and "db/" name it too), clipped to
 * NAMEDATALEN - 1 bytes on a UTF-8 character boundary, as a name is.
 * A directory whose real path cannot be had (it was just opened, so
 * only a race) is named by the path as given.  "/" gives "".
 */
static void
name_database(Database *db, const char *path)
{
    char real[PATH_MAX];
    const char *dir = realpath(path, real) != NULL ? real : path;
    const char *base;
    Size len;

    len = strlen(dir);
    while (len > 1 && dir[len - 1] == '/')
        len--; /* "db/" as given */
    base = dir + len;
    while (base > dir && base[-1] != '/')
        base--;
    len -= (Size)(base - dir);
    if (len > NAMEDATALEN - 1) {
        len = NAMEDATALEN - 1;
        while (len > 0 && ((unsigned char)base[len] & 0xC0) == 0x80)
            len--; /* base[len] continues a character: cut before it */
    }
    memcpy(db->name, base, len);
    db->name[len] = '\0';
}

/*
 * The bootstrap superuser's name: the option, else the name of the OS
 * user creating the directory (what initdb does), else "postgres".
 */
static const char *
bootstrap_superuser(const DatabaseOptions *options)
{
    struct passwd *pw;

    if (options != NULL && options->superuser != NULL &&
        options->superuser[0] != '\0')
        return options->superuser;
    pw = getpwuid(geteuid());
    return pw != NULL && pw->pw_name[0] != '\0' ? pw->pw_name : "postgres";
}

/* Create the catalog in a new data directory, or check it is there (and
 * add the catalogs that came later). */
static void
ensure_catalog(Database *db, const DatabaseOptions *options)
{
    Transaction *volatile xact = tdb_xact_create(db->tm, db->cxt);

    TDB_TRY();
    {
        tdb_xact_begin(xact);
        if (!tdb_catalog_is_bootstrapped(xact)) {
            tdb_catalog_bootstrap(xact, bootstrap_superuser(options));
            tdb_xact_commit(xact);
            tdb_buf_flush_all();
            tdb_xact_begin(xact);
            tdb_catalog_load_lengths(xact);
            tdb_xact_commit(xact);
        } else {
            /* first, so a catalog file cut short is refused */
            tdb_catalog_load_lengths(xact);
            if (tdb_catalog_add_missing(xact, bootstrap_superuser(options))) {
                tdb_xact_commit(xact);
                tdb_buf_flush_all();
            } else
                tdb_xact_commit(xact);
        }
    }
    TDB_CATCH();
    {
        tdb_xact_destroy(xact);
        TDB_RE_THROW();
    }
    TDB_END_TRY();
    tdb_xact_destroy(xact);
}

Database *
tdb_database_open(const char *path, const DatabaseOptions *options)
{
    MemoryContext cxt =
        tdb_aset_create(NULL, "Database", ALLOCSET_SMALL_SIZES);
    Database *volatile db = tdb_mcxt_alloc_zero(cxt, sizeof(Database));
    int nbuffers = options != NULL && options->nbuffers > 0
                       ? options->nbuffers
                       : TDB_DEFAULT_NBUFFERS;
    volatile bool pool_started = false;

    db->cxt = cxt;
    TDB_TRY();
    {
        db->dd = tdb_datadir_open_or_create(cxt, path);
        name_database(db, path);
        tdb_bufmgr_init(tdb_datadir_path(db->dd), nbuffers, true);
        pool_started = true;
        db->tm = tdb_xact_manager_open(db->dd, cxt);
        tdb_heap_set_commit_length_hook(tdb_catalog_record_length);
        ensure_catalog(db, options);
    }
    TDB_CATCH();
    {
        /* as a crash would: nothing half-written is made durable */
        tdb_heap_set_commit_length_hook(NULL);
        tdb_catalog_forget_lengths();
        if (pool_started)
            tdb_bufmgr_discard();
        if (db->dd != NULL)
            tdb_datadir_close(db->dd);
        tdb_mcxt_delete(cxt);
        TDB_RE_THROW();
    }
    TDB_END_TRY();
    return db;
}

void
tdb_database_close(Database *db)
{
    tdb_buf_flush_all();
    tdb_xact_manager_close(db->tm);
    tdb_bufmgr_shutdown();
    tdb_heap_set_commit_length_hook(NULL);
    tdb_catalog_forget_lengths();
    tdb_datadir_close(db->dd);
    tdb_mcxt_delete(db->cxt);
}

void
tdb_database_abandon(Database *db)
{
    tdb_bufmgr_discard();
    tdb_heap_set_commit_length_hook(NULL);
    tdb_catalog_forget_lengths();
    tdb_mcxt_delete(db->cxt); /* the directory's reset callback unlocks */
}

Transaction *
tdb_database_session(Database *db, MemoryContext parent)
{
    return tdb_xact_create(db->tm, parent);
}

TransactionManager *
tdb_database_xact_manager(Database *db)
{
    return db->tm;
}

const char *
tdb_database_path(Database *db)
{
    return tdb_datadir_path(db->dd);
}

const char *
tdb_database_name(Database *db)
{
    return db->name;
}

const char *
tdb_database_temp_dir(Database *db)
{
    return tdb_datadir_temp_dir(db->dd);
}
