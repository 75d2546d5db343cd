/*
 * pg_authid.c -- roles: the rows of pg_authid (catalog.h, "Roles").
 *
 * A role is one pg_authid row: its name, SUPERUSER and LOGIN flags and
 * its password verifier (NULL, or PostgreSQL's SCRAM-SHA-256 text; the
 * commands/role.c hashes a plain password before it gets here).  The other
 * flag columns exist so that PostgreSQL's queries on pg_authid read the
 * same; tupledb enforces only SUPERUSER and LOGIN.  Changes are heap
 * inserts, updates and deletes in the caller's transaction, under the
 * writer lock (tdb_xact_assign_xid), like every other DDL: two role
 * changes never race, and a rolled-back CREATE ROLE never existed.
 * Reads use a fresh snapshot (catalog.h).  Role names are unique; the
 * bootstrap superuser has OID 10 and cannot be dropped.
 *
 * Messages and SQLSTATEs are PostgreSQL 15's (user.c there).
 */
#include "common/base.h"

#include <string.h>

#include "catalog/catalog.h"
#include "catalog/catalog_int.h"
#include "common/elog.h"
#include "storage/datadir.h"
#include "tuple/heaptuple.h"
#include "tuple/varlena.h"

/* Copy the current row of a pg_authid scan into out. */
static void
role_from_row(const CatalogScan *cs, RoleInfo *out)
{
    out->oid = DatumGetObjectId(cs->values[Anum_pg_authid_oid - 1]);
    tdb_catalog_copy_name(out->name, tdb_catalog_datum_name(
                                         cs->values[Anum_pg_authid_rolname - 1]));
    out->superuser = DatumGetBool(cs->values[Anum_pg_authid_rolsuper - 1]);
    out->canlogin = DatumGetBool(cs->values[Anum_pg_authid_rolcanlogin - 1]);
    out->password =
        cs->isnull[Anum_pg_authid_rolpassword - 1]
            ? NULL
            : tdb_text_to_cstring(DatumGetPointer(
                  cs->values[Anum_pg_authid_rolpassword - 1]));
}

/*
 * Find a role by name (oid InvalidOid) or OID.  With a scan to keep
 * (cs non-NULL), the scan is left open on the row (the caller ends it);
 * otherwise it is ended here.
 */
static bool
find_role(Transaction *xact, const char *name, Oid oid, RoleInfo *out,
          CatalogScan *keep)
{
    CatalogScan local, *cs = keep != NULL ? keep : &local;
    bool found = false;

    tdb_catscan_begin(cs, xact, AuthIdRelationId);
    while (!found && tdb_catscan_next(cs)) {
        if (name != NULL
                ? strcmp(tdb_catalog_datum_name(
                             cs->values[Anum_pg_authid_rolname - 1]),
                         name) == 0
                : DatumGetObjectId(cs->values[Anum_pg_authid_oid - 1]) == oid)
            found = true;
    }
    if (found && out != NULL)
        role_from_row(cs, out);
    if (keep == NULL || !found)
        tdb_catscan_end(cs);
    return found;
}

bool
tdb_catalog_role_lookup(Transaction *xact, const char *name, RoleInfo *out)
{
    return find_role(xact, name, InvalidOid, out, NULL);
}

bool
tdb_catalog_role_lookup_oid(Transaction *xact, Oid oid, RoleInfo *out)
{
    return find_role(xact, NULL, oid, out, NULL);
}

/* PostgreSQL's limit on names, as for tables. */
static void
check_role_name(const char *name)
{
    if (strlen(name) >= NAMEDATALEN)
        ereport(ERROR, errcode(ERRCODE_NAME_TOO_LONG),
                errmsg("identifier \"%s\" is too long", name),
                errdetail("Names are at most %d bytes.", NAMEDATALEN - 1));
}

/* A whole pg_authid row's values and nulls, from a role's flags. */
static void
row_values(Datum *values, bool *isnull, Oid oid, const char *name,
           bool superuser, bool all_flags, bool canlogin,
           const char *password)
{
    values[Anum_pg_authid_oid - 1] = ObjectIdGetDatum(oid);
    values[Anum_pg_authid_rolname - 1] = tdb_catalog_name_datum(name);
    values[Anum_pg_authid_rolsuper - 1] = BoolGetDatum(superuser);
    values[Anum_pg_authid_rolinherit - 1] = BoolGetDatum(true);
    values[Anum_pg_authid_rolcreaterole - 1] = BoolGetDatum(all_flags);
    values[Anum_pg_authid_rolcreatedb - 1] = BoolGetDatum(all_flags);
    values[Anum_pg_authid_rolcanlogin - 1] = BoolGetDatum(canlogin);
    values[Anum_pg_authid_rolreplication - 1] = BoolGetDatum(all_flags);
    values[Anum_pg_authid_rolbypassrls - 1] = BoolGetDatum(all_flags);
    values[Anum_pg_authid_rolconnlimit - 1] = Int32GetDatum(-1);
    for (int i = 0; i < Natts_pg_authid; i++)
        isnull[i] = false;
    if (password != NULL)
        values[Anum_pg_authid_rolpassword - 1] =
            PointerGetDatum(tdb_text_from_cstring(password));
    else {
        values[Anum_pg_authid_rolpassword - 1] = (Datum)0;
        isnull[Anum_pg_authid_rolpassword - 1] = true;
    }
}

void
tdb_catalog_insert_bootstrap_role(Transaction *xact, const char *name)
{
    Datum values[Natts_pg_authid];
    bool isnull[Natts_pg_authid];

    check_role_name(name);
    row_values(values, isnull, BOOTSTRAP_SUPERUSERID, name, true, true, true,
               NULL);
    tdb_catalog_insert_nulls(xact, AuthIdRelationId, values, isnull);
}

static void
role_does_not_exist(const char *name)
{
    ereport(ERROR, errcode(ERRCODE_UNDEFINED_OBJECT),
            errmsg("role \"%s\" does not exist", name));
}

Oid
tdb_catalog_create_role(Transaction *xact, const char *name,
                        const RoleOptions *opts)
{
    Datum values[Natts_pg_authid];
    bool isnull[Natts_pg_authid];
    Oid oid;

    check_role_name(name);
    (void)tdb_xact_assign_xid(xact); /* the writer lock: no racing DDL */
    if (find_role(xact, name, InvalidOid, NULL, NULL))
        ereport(ERROR, errcode(ERRCODE_DUPLICATE_OBJECT),
                errmsg("role \"%s\" already exists", name));
    oid = tdb_datadir_alloc_relfilenumber(
        tdb_xact_manager_datadir(tdb_xact_manager_of(xact)));
    row_values(values, isnull, oid, name, opts->superuser == 1, false,
               opts->canlogin == 1, opts->set_password ? opts->password : NULL);
    tdb_catalog_insert_nulls(xact, AuthIdRelationId, values, isnull);
    tdb_xact_command_counter_increment(xact);
    return oid;
}

/* Replace the row the scan is on with values/isnull. */
static void
update_current(CatalogScan *cs, Transaction *xact, const Datum *values,
               const bool *isnull)
{
    HeapTuple tup = tdb_heap_form_tuple(cs->rel->rd_att, values, isnull);
    TM_FailureData tmfd;

    if (tdb_heap_update(cs->rel, &cs->tid, tup, xact, &tmfd) != TM_OK)
        elog(ERROR, "could not update a pg_authid row");
}

/*
 * Find role name for a change: the scan is left on its row, with the
 * row's values (name and password copied out of the page) in
 * values/isnull.  42704 if there is no such role.
 */
static void
open_role_for_update(Transaction *xact, const char *name, CatalogScan *cs,
                     Datum *values, bool *isnull)
{
    (void)tdb_xact_assign_xid(xact);
    if (!find_role(xact, name, InvalidOid, NULL, cs))
        role_does_not_exist(name);
    memcpy(values, cs->values, sizeof(Datum) * Natts_pg_authid);
    memcpy(isnull, cs->isnull, sizeof(bool) * Natts_pg_authid);
    values[Anum_pg_authid_rolname - 1] = tdb_catalog_name_datum(name);
    if (!isnull[Anum_pg_authid_rolpassword - 1])
        values[Anum_pg_authid_rolpassword - 1] =
            PointerGetDatum(tdb_text_from_cstring(tdb_text_to_cstring(
                DatumGetPointer(values[Anum_pg_authid_rolpassword - 1]))));
}

void
tdb_catalog_alter_role(Transaction *xact, const char *name,
                       const RoleOptions *opts)
{
    CatalogScan cs;
    Datum values[Natts_pg_authid];
    bool isnull[Natts_pg_authid];

    open_role_for_update(xact, name, &cs, values, isnull);
    if (opts->superuser >= 0)
        values[Anum_pg_authid_rolsuper - 1] = BoolGetDatum(opts->superuser);
    if (opts->canlogin >= 0)
        values[Anum_pg_authid_rolcanlogin - 1] = BoolGetDatum(opts->canlogin);
    if (opts->set_password) {
        isnull[Anum_pg_authid_rolpassword - 1] = opts->password == NULL;
        values[Anum_pg_authid_rolpassword - 1] =
            opts->password == NULL
                ? (Datum)0
                : PointerGetDatum(tdb_text_from_cstring(opts->password));
    }
    update_current(&cs, xact, values, isnull);
    tdb_catscan_end(&cs);
    tdb_xact_command_counter_increment(xact);
}

void
tdb_catalog_rename_role(Transaction *xact, const char *name,
                        const char *newname)
{
    CatalogScan cs;
    Datum values[Natts_pg_authid];
    bool isnull[Natts_pg_authid];

    check_role_name(newname);
    (void)tdb_xact_assign_xid(xact);
    if (!find_role(xact, name, InvalidOid, NULL, NULL))
        role_does_not_exist(name);
    if (find_role(xact, newname, InvalidOid, NULL, NULL))
        ereport(ERROR, errcode(ERRCODE_DUPLICATE_OBJECT),
                errmsg("role \"%s\" already exists", newname));
    open_role_for_update(xact, name, &cs, values, isnull);
    values[Anum_pg_authid_rolname - 1] = tdb_catalog_name_datum(newname);
    update_current(&cs, xact, values, isnull);
    tdb_catscan_end(&cs);
    tdb_xact_command_counter_increment(xact);
}

bool
tdb_catalog_drop_role(Transaction *xact, const char *name, bool missing_ok)
{
    CatalogScan cs;
    RoleInfo role;

    (void)tdb_xact_assign_xid(xact);
    if (!find_role(xact, name, InvalidOid, &role, &cs)) {
        if (missing_ok) {
            /* PostgreSQL sends this notice with SQLSTATE 00000 */
            ereport(NOTICE, errcode(ERRCODE_SUCCESSFUL_COMPLETION),
                    errmsg("role \"%s\" does not exist, skipping", name));
            return false;
        }
        role_does_not_exist(name);
    }
    if (role.oid == BOOTSTRAP_SUPERUSERID) {
        tdb_catscan_end(&cs);
        ereport(ERROR, errcode(ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST),
                errmsg("cannot drop role %s because it is required by the "
                       "database system",
                       name));
    }
    tdb_catscan_delete_current(&cs, xact);
    tdb_catscan_end(&cs);
    tdb_xact_command_counter_increment(xact);
    return true;
}

const char *
tdb_catalog_superuser_only(Oid relid)
{
    return relid == AuthIdRelationId ? "pg_authid" : NULL;
}
