/*
 * regnames.c -- the session's catalog lookups for the types layer
 * (types/regtypes.c reads them through TypeIOSettings.catalog): a
 * relation's name by OID and its OID by name for regclass, and a stored
 * DEFAULT/CHECK expression printed back for pg_get_expr (analyzed over
 * the relation's columns, then ruleutils.c), and pg_get_indexdef /
 * pg_get_constraintdef (indexdefs.c), in the session's current
 * transaction (catalog reads take a fresh snapshot, catalog.h).
 *
 * Every relation name is unique in tupledb (public and pg_catalog share
 * one name space), so a name never needs its schema to be found and
 * regclass prints names unqualified, as PostgreSQL does for visible
 * relations.
 */
#include "common/base.h"

#include <string.h>

#include "catalog/catalog.h"
#include "parser/analyze.h"
#include "tcop/tcop_int.h"

static char *
relation_name(void *arg, Oid relid)
{
    Session *s = arg;

    return tdb_catalog_relation_name(s->xact, relid);
}

static Oid
relation_oid(void *arg, const char *name)
{
    Session *s = arg;

    return tdb_catalog_lookup_table(s->xact, name);
}

char *
tdb_tcop_deparse_stored_expr(Session *s, const char *sql, Oid relid,
                             bool pretty)
{
    Statement st = tdb_tcop_statement(s, sql, NULL, NULL);
    Relation rel = tdb_relation_open_by_oid(s->xact, relid, REL_LOCK_SHARE);
    Expr *e = NULL;
    char *printed;

    /* a column's DEFAULT is analyzed as INSERT does, coerced to the
     * column's type: the (hidden) coercion decides the parentheses, as
     * in PostgreSQL's stored tree.  Equal texts print alike, so the
     * first column with this text will do. */
    for (int attnum = 1; attnum <= rel->rd_att->natts && e == NULL; attnum++) {
        const char *def = tdb_relation_column_default(rel, attnum);

        if (def != NULL && strcmp(def, sql) == 0)
            e = tdb_analyze_column_default(&st, rel, attnum);
    }
    if (e == NULL) /* a CHECK constraint */
        e = tdb_analyze_rel_expr(&st, rel, sql);
    printed = tdb_deparse_expr(e, rel->rd_att, pretty);

    tdb_relation_close(rel);
    return printed != NULL ? printed : tdb_mcxt_strdup(tdb_current_mcxt, sql);
}

static char *
deparse_expr(void *arg, const char *sql, Oid relid, bool pretty)
{
    return tdb_tcop_deparse_stored_expr(arg, sql, relid, pretty);
}

static char *
index_def(void *arg, Oid indexoid, int colno, bool pretty)
{
    return tdb_tcop_index_def(arg, indexoid, colno, pretty);
}

static char *
constraint_def(void *arg, Oid conoid, bool pretty)
{
    return tdb_tcop_constraint_def(arg, conoid, pretty);
}

void
tdb_tcop_init_catalog_lookup(Session *s)
{
    s->catalog_lookup.arg = s;
    s->catalog_lookup.relation_name = relation_name;
    s->catalog_lookup.relation_oid = relation_oid;
    s->catalog_lookup.deparse_expr = deparse_expr;
    s->catalog_lookup.index_def = index_def;
    s->catalog_lookup.constraint_def = constraint_def;
    s->typeio.catalog = &s->catalog_lookup;
}
