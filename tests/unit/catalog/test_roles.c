/*
 * test_roles.c -- roles in pg_authid (catalog/pg_authid.c) through the
 * catalog API, below SQL.
 *
 *   test_bootstrap_role  a new directory has the superuser with OID 10,
 *       named as DatabaseOptions.superuser says, every flag on.
 *   test_create_alter    create, look up by name and OID, alter flags and
 *       password (NULL and back), rename; 42710 / 42704.
 *   test_transactional   an aborted CREATE / DROP never happened; a
 *       committed one survives a reopen.
 *   test_drop            DROP, IF EXISTS's notice, the bootstrap
 *       superuser refused (2BP01).
 */
#include "common/base.h"

#include <stdio.h>
#include <string.h>

#include "access/xact.h"
#include "catalog/catalog.h"
#include "catalog/catalog_test.h"
#include "catalog/database.h"
#include "common/elog.h"
#include "storage/bufmgr.h"
#include "storage/storage_test.h"
#include "test.h"

/* Open (creating) the database at path with superuser "boss". */
static Transaction *
open_session(const char *path, Database **db)
{
    DatabaseOptions options = {.nbuffers = 64, .superuser = "boss"};

    *db = catalog_test_open_db(path, &options);
    return tdb_database_session(*db, NULL);
}

static void
close_session(Database *db, Transaction *s)
{
    tdb_xact_destroy(s);
    tdb_database_close(db);
}

static const RoleOptions no_options = {-1, -1, false, NULL};

TEST_BEGIN(test_bootstrap_role)
{
    Database *db;
    Transaction *s = open_session(test_path(test_tmpdir(), "db"), &db);
    RoleInfo role;

    tdb_xact_begin(s);
    expect_true(tdb_catalog_role_lookup(s, "boss", &role));
    expect_int_eq(role.oid, BOOTSTRAP_SUPERUSERID);
    expect_true(role.superuser);
    expect_true(role.canlogin);
    expect_ptr_null(role.password);
    expect_true(tdb_catalog_role_lookup_oid(s, BOOTSTRAP_SUPERUSERID, &role));
    expect_str_eq(role.name, "boss");
    expect_false(tdb_catalog_role_lookup(s, "nobody", &role));
    tdb_xact_commit(s);
    close_session(db, s);
}
TEST_END

TEST_BEGIN(test_create_alter)
{
    Database *db;
    Transaction *s = open_session(test_path(test_tmpdir(), "db"), &db);
    RoleOptions opts = {0, 1, true, "SCRAM-SHA-256$verifier-as-given"};
    RoleOptions change = no_options;
    RoleInfo role;
    Oid oid;

    tdb_xact_begin(s);
    oid = tdb_catalog_create_role(s, "alice", &opts);
    expect_u64_ge(oid, 16384);
    expect_true(tdb_catalog_role_lookup(s, "alice", &role));
    expect_int_eq(role.oid, oid);
    expect_false(role.superuser);
    expect_true(role.canlogin);
    expect_str_eq(role.password, "SCRAM-SHA-256$verifier-as-given");
    expect_error(tdb_catalog_create_role(s, "alice", &no_options),
                 ERRCODE_DUPLICATE_OBJECT, "role \"alice\" already exists");
    tdb_xact_commit(s);

    tdb_xact_begin(s);
    change.superuser = 1;
    change.set_password = true; /* PASSWORD NULL */
    tdb_catalog_alter_role(s, "alice", &change);
    expect_true(tdb_catalog_role_lookup(s, "alice", &role));
    expect_true(role.superuser);
    expect_true(role.canlogin); /* not given: unchanged */
    expect_ptr_null(role.password);
    change = no_options;
    change.canlogin = 0;
    change.set_password = true;
    change.password = "v2";
    tdb_catalog_alter_role(s, "alice", &change);
    expect_true(tdb_catalog_role_lookup(s, "alice", &role));
    expect_false(role.canlogin);
    expect_str_eq(role.password, "v2");
    expect_error(tdb_catalog_alter_role(s, "nobody", &change),
                 ERRCODE_UNDEFINED_OBJECT, "role \"nobody\" does not exist");
    tdb_xact_commit(s);

    tdb_xact_begin(s);
    tdb_catalog_rename_role(s, "alice", "alicia");
    expect_false(tdb_catalog_role_lookup(s, "alice", &role));
    expect_true(tdb_catalog_role_lookup(s, "alicia", &role));
    expect_int_eq(role.oid, oid);
    expect_str_eq(role.password, "v2"); /* a SCRAM verifier survives */
    expect_error(tdb_catalog_rename_role(s, "alicia", "boss"),
                 ERRCODE_DUPLICATE_OBJECT, "role \"boss\" already exists");
    tdb_xact_abort(s);
    tdb_xact_begin(s);
    expect_error(tdb_catalog_rename_role(s, "nobody", "x"),
                 ERRCODE_UNDEFINED_OBJECT, "role \"nobody\" does not exist");
    tdb_xact_abort(s);
    close_session(db, s);
}
TEST_END

TEST_BEGIN(test_transactional)
{
    const char *path = test_path(test_tmpdir(), "db");
    Database *db;
    Transaction *s = open_session(path, &db);
    RoleInfo role;

    tdb_xact_begin(s);
    (void)tdb_catalog_create_role(s, "gone", &no_options);
    tdb_xact_abort(s);
    tdb_xact_begin(s);
    expect_false(tdb_catalog_role_lookup(s, "gone", &role));
    (void)tdb_catalog_create_role(s, "kept", &no_options);
    tdb_xact_commit(s);
    tdb_xact_begin(s);
    expect_true(tdb_catalog_drop_role(s, "kept", false));
    tdb_xact_abort(s);
    close_session(db, s);

    s = open_session(path, &db);
    tdb_xact_begin(s);
    expect_true(tdb_catalog_role_lookup(s, "kept", &role));
    expect_false(role.canlogin); /* -1: not given, so NOLOGIN */
    expect_false(tdb_catalog_role_lookup(s, "gone", &role));
    tdb_xact_commit(s);
    close_session(db, s);
}
TEST_END

TEST_BEGIN(test_drop)
{
    Database *db;
    Transaction *s = open_session(test_path(test_tmpdir(), "db"), &db);
    NoticeCapture notices;
    RoleInfo role;

    tdb_xact_begin(s);
    (void)tdb_catalog_create_role(s, "r", &no_options);
    expect_true(tdb_catalog_drop_role(s, "r", false));
    expect_false(tdb_catalog_role_lookup(s, "r", &role));
    notice_capture_begin(&notices);
    expect_false(tdb_catalog_drop_role(s, "r", true));
    notice_capture_end(&notices);
    expect_str_eq(notices.last, "role \"r\" does not exist, skipping");
    expect_error(tdb_catalog_drop_role(s, "r", false),
                 ERRCODE_UNDEFINED_OBJECT, "role \"r\" does not exist");
    tdb_xact_abort(s);
    tdb_xact_begin(s);
    expect_error(tdb_catalog_drop_role(s, "boss", false),
                 ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST,
                 "cannot drop role boss because it is required by the "
                 "database system");
    tdb_xact_abort(s);
    close_session(db, s);
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(argc, argv, "catalog_roles",
                     TEST_CASE(test_bootstrap_role),
                     TEST_CASE(test_create_alter),
                     TEST_CASE(test_transactional), TEST_CASE(test_drop));
}
