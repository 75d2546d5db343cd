/*
 * indexdefs.c -- pg_get_indexdef and pg_get_constraintdef: an index's
 * CREATE INDEX statement (or one of its columns) and a constraint's
 * definition, printed from the catalog as PostgreSQL 15 prints them, for
 * the types layer (TypeIOSettings.catalog, hooked up in regnames.c).
 *
 *   CREATE [UNIQUE] INDEX name ON public.t USING btree
 *       (key [DESC] [NULLS FIRST|LAST], ...) [INCLUDE (col, ...)]
 *       [NULLS NOT DISTINCT] [WHERE predicate]
 *   PRIMARY KEY (cols) [INCLUDE (cols)]
 *   UNIQUE [NULLS NOT DISTINCT] (cols) [INCLUDE (cols)]
 *   CHECK (expr)
 *
 * pretty leaves the table's schema out (every tupledb relation is
 * visible) and prints expressions with ruleutils.c's pretty layout.  An
 * expression key is printed bare when it is a function call and in
 * parentheses otherwise, as PostgreSQL does.  Every index uses its
 * column type's default operator class and collation, which PostgreSQL
 * leaves out of the text, so neither ever appears.
 *
 * The stored expressions and predicate (SQL text, catalog/pg_index.c)
 * are analyzed again over the table's columns and printed in the layout
 * asked for.  Both run in the session's current transaction.
 */
#include "common/base.h"

#include <string.h>

#include "catalog/catalog.h"
#include "nodes/primnodes.h"
#include "parser/analyze.h"
#include "parser/parser.h"
#include "tcop/tcop_int.h"

/* Growing output text, in the current context. */
typedef struct DefBuf {
    char *data;
    Size len, size;
} DefBuf;

static void
put(DefBuf *b, const char *s)
{
    Size n = strlen(s);

    if (b->len + n + 1 > b->size) {
        Size size = Max(b->size * 2, b->len + n + 64);

        b->data =
            b->data == NULL ? tdb_palloc(size) : tdb_repalloc(b->data, size);
        b->size = size;
    }
    memcpy(b->data + b->len, s, n + 1);
    b->len += n;
}

/* An identifier, in double quotes when it needs them. */
static void
put_ident(DefBuf *b, const char *name)
{
    char one[2] = {0, 0};

    if (!tdb_sql_ident_needs_quotes(name)) {
        put(b, name);
        return;
    }
    put(b, "\"");
    for (const char *c = name; *c != '\0'; c++) {
        one[0] = *c;
        put(b, *c == '"' ? "\"\"" : one);
    }
    put(b, "\"");
}

/* One column of index ri on rel: its name, or its expression (exprs[*next]
 * advanced past it). */
static void
put_index_column(DefBuf *b, Relation rel, const RelationIndex *ri, int i,
                 Expr **exprs, int *next, bool pretty)
{
    Expr *e = ri->ri_attnums[i] == 0 ? exprs[(*next)++] : NULL;

    put(b, tdb_deparse_index_column(rel, ri, i, e, pretty));
}

/* DESC / NULLS FIRST / NULLS LAST of key column i, where they differ from
 * the defaults (ASC NULLS LAST, DESC NULLS FIRST). */
static void
put_index_options(DefBuf *b, const RelationIndex *ri, int i)
{
    int16 opt = ri->ri_options[i];

    if (opt & INDOPTION_DESC) {
        put(b, " DESC");
        if (!(opt & INDOPTION_NULLS_FIRST))
            put(b, " NULLS LAST");
    } else if (opt & INDOPTION_NULLS_FIRST)
        put(b, " NULLS FIRST");
}

/* Index ri of rel: the whole statement (colno 0) or column colno. */
static char *
index_def_of(Session *s, Relation rel, const RelationIndex *ri, int colno,
             bool pretty)
{
    Statement st = tdb_tcop_statement(s, "", NULL, NULL);
    Expr **exprs = NULL;
    int next = 0;
    DefBuf b = {NULL, 0, 0};

    if (ri->ri_exprs != NULL)
        (void)tdb_analyze_rel_exprs(&st, rel, ri->ri_exprs, &exprs);
    if (colno != 0) {
        put(&b, "");
        for (int i = 0; i < colno; i++) {
            b.len = 0;
            b.data[0] = '\0';
            put_index_column(&b, rel, ri, i, exprs, &next, pretty);
        }
        return b.data;
    }
    put(&b, ri->ri_unique ? "CREATE UNIQUE INDEX " : "CREATE INDEX ");
    put_ident(&b, ri->ri_name);
    put(&b, " ON ");
    if (!pretty)
        put(&b, "public.");
    put_ident(&b, rel->rd_name);
    put(&b, " USING btree (");
    for (int i = 0; i < ri->ri_natts; i++) {
        if (i == ri->ri_nkeyatts)
            put(&b, ") INCLUDE (");
        else if (i > 0)
            put(&b, ", ");
        put_index_column(&b, rel, ri, i, exprs, &next, pretty);
        if (i < ri->ri_nkeyatts)
            put_index_options(&b, ri, i);
    }
    put(&b, ")");
    if (ri->ri_nulls_not_distinct)
        put(&b, " NULLS NOT DISTINCT");
    if (ri->ri_pred != NULL) {
        Expr *pred = tdb_analyze_rel_expr(&st, rel, ri->ri_pred);
        char *printed = tdb_deparse_expr(pred, rel->rd_att, pretty);

        put(&b, " WHERE ");
        put(&b, printed != NULL ? printed : ri->ri_pred);
    }
    return b.data;
}

/* The open table of index indexoid (share lock), or NULL if indexoid is
 * no index. */
static Relation
open_index_table(Session *s, Oid indexoid)
{
    char *name = tdb_catalog_relation_name(s->xact, indexoid);
    Oid relid, indrelid;
    char relkind;

    if (name == NULL ||
        !tdb_catalog_lookup_relation(s->xact, name, &relid, &relkind,
                                     &indrelid) ||
        relkind != RELKIND_INDEX || indrelid == InvalidOid)
        return NULL;
    return tdb_relation_open_by_oid(s->xact, indrelid, REL_LOCK_SHARE);
}

char *
tdb_tcop_index_def(Session *s, Oid indexoid, int colno, bool pretty)
{
    Relation rel = open_index_table(s, indexoid);
    const RelationIndex *ri;
    char *def = NULL;

    if (rel == NULL)
        return NULL;
    ri = tdb_relation_index(rel, indexoid);
    if (ri != NULL && colno >= 0 && colno <= ri->ri_natts)
        def = index_def_of(s, rel, ri, colno, pretty);
    tdb_relation_close(rel);
    return def;
}

/* "(a, b)": columns from..to-1 of index ri on rel, by name. */
static void
put_column_list(DefBuf *b, Relation rel, const RelationIndex *ri, int from,
                int to)
{
    put(b, "(");
    for (int i = from; i < to; i++) {
        if (i > from)
            put(b, ", ");
        put_ident(b,
                  TupleDescAttr(rel->rd_att, ri->ri_attnums[i] - 1)->attname);
    }
    put(b, ")");
}

char *
tdb_tcop_constraint_def(Session *s, Oid conoid, bool pretty)
{
    ConstraintInfo con;
    char *conbin = NULL;
    Relation rel;
    const RelationIndex *ri;
    DefBuf b = {NULL, 0, 0};

    if (!tdb_catalog_constraint_by_oid(s->xact, conoid, &con, &conbin))
        return NULL;
    if (con.contype == CONSTRAINT_CHECK) {
        put(&b, "CHECK (");
        put(&b, conbin != NULL
                    ? tdb_tcop_deparse_stored_expr(s, conbin, con.relid, pretty)
                    : "");
        put(&b, ")");
        return b.data;
    }
    rel = tdb_relation_open_by_oid(s->xact, con.relid, REL_LOCK_SHARE);
    ri = tdb_relation_index(rel, con.indexoid);
    if (ri == NULL)
        elog(ERROR, "cache lookup failed for index %u", con.indexoid);
    put(&b, con.contype == CONSTRAINT_PRIMARY ? "PRIMARY KEY " : "UNIQUE ");
    if (ri->ri_nulls_not_distinct)
        put(&b, "NULLS NOT DISTINCT ");
    put_column_list(&b, rel, ri, 0, ri->ri_nkeyatts);
    if (ri->ri_natts > ri->ri_nkeyatts) {
        put(&b, " INCLUDE ");
        put_column_list(&b, rel, ri, ri->ri_nkeyatts, ri->ri_natts);
    }
    tdb_relation_close(rel);
    return b.data;
}
