/*
 * indexcmds.c -- the index statements: CREATE INDEX, DROP INDEX, ALTER
 * INDEX ... RENAME TO, REINDEX, and the indexes behind PRIMARY KEY and
 * UNIQUE constraints (CREATE TABLE, ALTER TABLE ... ADD / DROP
 * CONSTRAINT: tablecmds.c calls tdb_sql_define_index), as PostgreSQL's
 * indexcmds.c does for what tupledb has.
 *
 * An index definition is resolved here (columns, expressions analyzed
 * and checked immutable, operator classes, DESC / NULLS FIRST options,
 * PostgreSQL's default names), stored by the catalog
 * (catalog/pg_index.c), then filled by the index access method
 * (access/indexam.h: build_index below is the one call site).
 */
#include "common/base.h"

#include <stdio.h>
#include <string.h>

#include "access/heapam.h"
#include "catalog/catalog.h"
#include "catalog/pg_type.h"
#include "commands/commands.h"
#include "commands/commands_int.h"
#include "common/elog.h"
#include "executor/execindex.h"
#include "nodes/primnodes.h"
#include "parser/analyze.h"
#include "parser/parser.h"
#include "parser/system_views.h"
#include "types/builtins.h"

/* ----------------------------------------------------------------------
 * Operator classes
 * ---------------------------------------------------------------------- */

/* The default B-tree operator class of each type (PostgreSQL 15's
 * pg_opclass OIDs; varchar uses text's, as binary coercible). */
static const struct {
    Oid type;
    Oid opclass;
} default_opclasses[] = {
    {INT4OID, 1978},        {INT2OID, 1979},      {OIDOID, 1981},
    {DATEOID, 3122},        {FLOAT8OID, 3123},    {INT8OID, 3124},
    {NUMERICOID, 3125},     {TEXTOID, 3126},      {VARCHAROID, 3126},
    {TIMESTAMPTZOID, 3127}, {TIMESTAMPOID, 3128}, {BOOLOID, 10003},
    {BPCHAROID, 10004},     {BYTEAOID, 10006},    {CHAROID, 10007},
    {FLOAT4OID, 10012},     {INTERVALOID, 10022}, {NAMEOID, 10028},
    {TIMEOID, 10038},       {UUIDOID, 10065},
};

static Oid
default_opclass(Oid type)
{
    for (size_t i = 0; i < lengthof(default_opclasses); i++)
        if (default_opclasses[i].type == type)
            return default_opclasses[i].opclass;
    ereport(ERROR, errcode(ERRCODE_UNDEFINED_OBJECT),
            errmsg("data type %s has no default operator class for access "
                   "method \"btree\"",
                   tdb_format_type(type, -1)),
            errhint("You must specify an operator class for the index or "
                    "define a default operator class for the data type."));
}

/* The collation of a key of this type: "default" for the text types
 * (100), "C" for name (950), none otherwise. */
static Oid
type_collation(Oid type)
{
    if (type == TEXTOID || type == VARCHAROID || type == BPCHAROID)
        return 100;
    if (type == NAMEOID)
        return 950;
    return InvalidOid;
}

/* ----------------------------------------------------------------------
 * Names (PostgreSQL's ChooseRelationName and friends)
 * ---------------------------------------------------------------------- */

/*
 * name1_name2_label, name1 and name2 shortened (the longer one first, a
 * byte at a time) so the whole fits in NAMEDATALEN - 1 bytes, as
 * PostgreSQL's makeObjectName does.  name2 may be NULL.
 */
static char *
make_object_name(const char *name1, const char *name2, const char *label)
{
    int overhead = (int)strlen(label) + 1 + (name2 != NULL ? 1 : 0);
    int n1 = (int)strlen(name1);
    int n2 = name2 != NULL ? (int)strlen(name2) : 0;
    int avail = NAMEDATALEN - 1 - overhead;
    char buf[NAMEDATALEN * 3];

    while (n1 + n2 > avail) {
        if (n1 > n2)
            n1--;
        else
            n2--;
    }
    /* not inside a UTF-8 character */
    while (n1 > 0 && ((unsigned char)name1[n1] & 0xC0) == 0x80)
        n1--;
    while (n2 > 0 && ((unsigned char)name2[n2] & 0xC0) == 0x80)
        n2--;
    if (name2 != NULL)
        snprintf(buf, sizeof(buf), "%.*s_%.*s_%s", n1, name1, n2, name2, label);
    else
        snprintf(buf, sizeof(buf), "%.*s_%s", n1, name1, label);
    return tdb_mcxt_strdup(tdb_current_mcxt, buf);
}

/*
 * A relation name not yet taken: name1_name2_label, else with label1,
 * label2, ... (ChooseRelationName).  taken: names already chosen in this
 * statement (not in the catalog yet), or NIL.
 */
static char *
choose_relation_name(Transaction *xact, const char *name1, const char *name2,
                     const char *label, List *taken)
{
    char modlabel[NAMEDATALEN];

    snprintf(modlabel, sizeof(modlabel), "%s", label);
    for (int pass = 1;; pass++) {
        char *name = make_object_name(name1, name2, modlabel);
        bool used = tdb_catalog_lookup_table(xact, name) != InvalidOid;

        for (int i = 0; !used && i < list_length(taken); i++)
            used = strcmp(list_nth(taken, i), name) == 0;
        if (!used)
            return name;
        snprintf(modlabel, sizeof(modlabel), "%s%d", label, pass);
    }
}

/* The index's column names joined by "_", cut at NAMEDATALEN
 * (ChooseIndexNameAddition). */
static char *
name_addition(char *const *colnames, int n)
{
    char buf[NAMEDATALEN * 2];
    Size len = 0;

    buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        if (len > 0)
            buf[len++] = '_';
        snprintf(buf + len, NAMEDATALEN, "%s", colnames[i]);
        len += strlen(buf + len);
        if (len >= NAMEDATALEN)
            break;
    }
    buf[Min(len, sizeof(buf) - 1)] = '\0';
    return tdb_mcxt_strdup(tdb_current_mcxt, buf);
}

/* colnames[i] made unique among colnames[0..i-1] by a number
 * (ChooseIndexColumnNames). */
static void
unique_column_name(char **colnames, int i)
{
    char *orig = colnames[i];

    for (int n = 0;; n++) {
        char buf[NAMEDATALEN + 16];
        bool used = false;

        if (n == 0)
            snprintf(buf, sizeof(buf), "%s", orig);
        else {
            char suffix[16];
            int keep;

            snprintf(suffix, sizeof(suffix), "%d", n);
            keep =
                Min((int)strlen(orig), NAMEDATALEN - 1 - (int)strlen(suffix));
            snprintf(buf, sizeof(buf), "%.*s%s", keep, orig, suffix);
        }
        buf[NAMEDATALEN - 1] = '\0';
        for (int j = 0; j < i && !used; j++)
            used = strcmp(colnames[j], buf) == 0;
        if (!used) {
            colnames[i] = tdb_mcxt_strdup(tdb_current_mcxt, buf);
            return;
        }
    }
}

/* ----------------------------------------------------------------------
 * Resolving an index definition
 * ---------------------------------------------------------------------- */

/* Does e call a function or operator that is not immutable? */
static bool
has_mutable(Node *node, void *arg)
{
    if (node == NULL)
        return false;
    if (IsA(node, FuncExpr) &&
        ((FuncExpr *)node)->func->volatility != PROVOLATILE_IMMUTABLE)
        return true;
    if (IsA(node, OpExpr) &&
        ((OpExpr *)node)->op->volatility != PROVOLATILE_IMMUTABLE)
        return true;
    return tdb_expr_walk_children(node, has_mutable, arg);
}

/* The 1-based number of rel's column name, with PostgreSQL's errors. */
static int
column_number(const Statement *st, Relation rel, const char *name,
              bool in_key_constraint, int location)
{
    for (int i = 0; i < rel->rd_att->natts; i++) {
        const TupleAttr *att = TupleDescAttr(rel->rd_att, i);

        if (!att->attisdropped && strcmp(att->attname, name) == 0)
            return i + 1;
    }
    if (tdb_catalog_is_system_column(name))
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("index creation on system columns is not supported"));
    if (in_key_constraint && location == -2)
        /* ALTER TABLE ADD PRIMARY KEY: PostgreSQL's SET NOT NULL says */
        ereport(ERROR, errcode(ERRCODE_UNDEFINED_COLUMN),
                errmsg("column \"%s\" of relation \"%s\" does not exist", name,
                       rel->rd_name));
    if (in_key_constraint)
        ereport(ERROR, errcode(ERRCODE_UNDEFINED_COLUMN),
                errmsg("column \"%s\" named in key does not exist", name),
                errposition(stmt_errpos(st, location)));
    ereport(ERROR, errcode(ERRCODE_UNDEFINED_COLUMN),
            errmsg("column \"%s\" does not exist", name));
}

/* One column of an index being defined. */
typedef struct IndexColumn {
    int16 attnum;   /* 0: expression */
    char *expr_sql; /* the expression's stored SQL */
    char *name;
    Oid type;
    int32 typmod;
    int16 option;
} IndexColumn;

/* A column of an index from IndexElem elem (or a bare column name). */
static void
resolve_column(Statement *st, Relation rel, const PgQuery__IndexElem *elem,
               bool is_key, IndexColumn *col)
{
    const char *colname = elem->name;
    PgQuery__Node *expr = elem->expr;

    memset(col, 0, sizeof(*col));
    /* (a) is the column a, as in PostgreSQL */
    if (expr != NULL && expr->node_case == PG_QUERY__NODE__NODE_COLUMN_REF &&
        expr->column_ref->n_fields == 1 &&
        expr->column_ref->fields[0]->node_case == PG_QUERY__NODE__NODE_STRING)
        colname = expr->column_ref->fields[0]->string->sval;
    if (colname != NULL && colname[0] != '\0') {
        const TupleAttr *att;

        col->attnum = (int16)column_number(st, rel, colname, false, -1);
        att = TupleDescAttr(rel->rd_att, col->attnum - 1);
        col->name = tdb_mcxt_strdup(tdb_current_mcxt, colname);
        col->type = att->atttypid;
        col->typmod = att->atttypmod;
    } else {
        char *sql = tdb_sql_deparse_raw_expr(expr);
        Expr *e = tdb_analyze_rel_expr(st, rel, sql);
        const char *figured = tdb_figure_colname(expr);

        if (has_mutable((Node *)e, NULL))
            ereport(ERROR, errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
                    errmsg("functions in index expression must be marked "
                           "IMMUTABLE"));
        col->expr_sql = tdb_deparse_expr(e, rel->rd_att, false);
        if (col->expr_sql == NULL)
            col->expr_sql = sql;
        col->name = tdb_mcxt_strdup(
            tdb_current_mcxt,
            figured != NULL && strcmp(figured, "?column?") != 0 ? figured
                                                                : "expr");
        col->type = exprType(e);
        col->typmod = -1;
    }
    if (!is_key)
        return;
    if (elem->ordering == PG_QUERY__SORT_BY_DIR__SORTBY_DESC)
        col->option |= INDOPTION_DESC;
    if (elem->nulls_ordering == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_FIRST ||
        (elem->nulls_ordering != PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_LAST &&
         (col->option & INDOPTION_DESC)))
        col->option |= INDOPTION_NULLS_FIRST;
    if (elem->n_opclass > 0 || elem->n_collation > 0 ||
        elem->ordering == PG_QUERY__SORT_BY_DIR__SORTBY_USING)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("operator classes and collations in an index are not "
                       "supported yet"));
}

/* What tdb_sql_define_index builds an index from. */
typedef struct IndexRequest {
    const char *name; /* or NULL: chosen */
    const char *table;
    PgQuery__IndexElem **keys; /* the key columns */
    int nkeys;
    PgQuery__IndexElem **include;
    int ninclude;
    PgQuery__Node *where; /* or NULL */
    bool unique;
    bool primary;
    bool constraint; /* a PRIMARY KEY / UNIQUE constraint */
    bool nulls_not_distinct;
    bool if_not_exists;
} IndexRequest;

/* The index's key and INCLUDE columns, resolved. */
static IndexColumn *
resolve_columns(Statement *st, Relation rel, const IndexRequest *req)
{
    int natts = req->nkeys + req->ninclude;
    IndexColumn *cols = tdb_palloc0(sizeof(IndexColumn) * (Size)natts);

    if (natts > INDEX_MAX_KEYS)
        ereport(ERROR, errcode(ERRCODE_TOO_MANY_COLUMNS),
                errmsg("cannot use more than %d columns in an index",
                       INDEX_MAX_KEYS));
    for (int i = 0; i < natts; i++) {
        bool is_key = i < req->nkeys;
        const PgQuery__IndexElem *elem =
            is_key ? req->keys[i] : req->include[i - req->nkeys];

        resolve_column(st, rel, elem, is_key, &cols[i]);
        if (!is_key && cols[i].attnum == 0)
            ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("expressions are not supported in included "
                           "columns"));
    }
    return cols;
}

/* rel opened again (exclusive lock), with its index indexoid just
 * defined, into *index; close with tdb_relation_close. */
static Relation
reopen_with_index(Statement *st, Relation rel, Oid indexoid,
                  const RelationIndex **index)
{
    Relation fresh =
        tdb_relation_open_by_oid(st->xact, rel->rd_id, REL_LOCK_EXCLUSIVE);

    *index = tdb_relation_index(fresh, indexoid);
    if (*index == NULL)
        elog(ERROR, "index %u of \"%s\" vanished", indexoid, rel->rd_name);
    return fresh;
}

IndexWriters *
tdb_sql_open_indexes(Statement *st, EState *estate, Relation rel)
{
    List *exprs, *keycols, *scan = NIL;

    if (rel->rd_nindexes == 0)
        return NULL;
    tdb_analyze_index_exprs(st, rel, &exprs, &keycols);
    for (int i = 0; i < list_length(exprs); i++)
        scan =
            tdb_lappend(scan, tdb_sql_vars_to_scan((Node *)list_nth(exprs, i)));
    return tdb_exec_open_indexes(estate, rel, scan, keycols);
}

/*
 * Fill the index's (empty) file from its table: the executor's bottom-up
 * build (executor/execindex.h) in maintenance_work_mem.
 *
 * Which rows: every row some snapshot may still see (execindex.h), under
 * the table's exclusive lock and the writer lock, so no other writer's
 * row is in progress.
 */
static void
build_index(Statement *st, Relation rel, Oid indexoid)
{
    const RelationIndex *index;
    Relation fresh = reopen_with_index(st, rel, indexoid, &index);
    EState *estate =
        tdb_sql_create_estate(st, tdb_palloc0(sizeof(PlannedStmt)));
    IndexWriters *iw;

    estate->work_mem = st->settings->maintenance_work_mem;
    iw = tdb_sql_open_indexes(st, estate, fresh);
    for (int i = 0; i < iw->n; i++)
        if (iw->w[i].ri->ri_oid == indexoid)
            tdb_exec_build_index(iw, i, estate);
    tdb_exec_free_estate(estate);
    tdb_relation_close(fresh);
}

/*
 * Define an index on rel (locked exclusively) from req: resolve, name,
 * store, constraint row for PRIMARY KEY / UNIQUE, build.  taken: names
 * chosen earlier in the same statement.  Returns the index's OID
 * (InvalidOid: IF NOT EXISTS and the name was taken).
 */
static Oid
define_index(Statement *st, Relation rel, const IndexRequest *req, List **taken)
{
    int natts = req->nkeys + req->ninclude;
    IndexColumn *cols = resolve_columns(st, rel, req);
    char **colnames = tdb_palloc(sizeof(char *) * (Size)natts);
    int16 *attnums = tdb_palloc(sizeof(int16) * (Size)natts);
    Oid *types = tdb_palloc(sizeof(Oid) * (Size)natts);
    int32 *typmods = tdb_palloc(sizeof(int32) * (Size)natts);
    Oid *opclasses = tdb_palloc(sizeof(Oid) * (Size)req->nkeys);
    Oid *collations = tdb_palloc(sizeof(Oid) * (Size)req->nkeys);
    int16 *options = tdb_palloc(sizeof(int16) * (Size)req->nkeys);
    char *exprs = NULL;
    char *pred = NULL;
    const char *name = req->name;
    IndexDef def;
    Oid indexoid;

    for (int i = 0; i < natts; i++) {
        colnames[i] = cols[i].name;
        unique_column_name(colnames, i);
        attnums[i] = cols[i].attnum;
        types[i] = cols[i].type;
        typmods[i] = cols[i].typmod;
        if (cols[i].expr_sql != NULL) {
            Size len = (exprs != NULL ? strlen(exprs) + 2 : 0) +
                       strlen(cols[i].expr_sql) + 1;
            char *joined = tdb_palloc(len);

            snprintf(joined, len, "%s%s%s", exprs != NULL ? exprs : "",
                     exprs != NULL ? ", " : "", cols[i].expr_sql);
            exprs = joined;
        }
        if (i < req->nkeys) {
            opclasses[i] = default_opclass(types[i]);
            collations[i] = type_collation(types[i]);
            options[i] = cols[i].option;
        }
    }
    if (req->where != NULL) {
        char *sql = tdb_sql_deparse_raw_expr(req->where);
        Expr *e = tdb_analyze_rel_expr(st, rel, sql);

        if (has_mutable((Node *)e, NULL))
            ereport(ERROR, errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
                    errmsg("functions in index predicate must be marked "
                           "IMMUTABLE"));
        pred = tdb_deparse_expr(e, rel->rd_att, false);
        if (pred == NULL)
            pred = sql;
    }
    if (req->primary)
        for (int i = 0; i < req->nkeys; i++)
            if (attnums[i] == 0)
                elog(ERROR, "primary key on an expression");
    if (name == NULL) {
        if (req->primary)
            name = choose_relation_name(st->xact, req->table, NULL, "pkey",
                                        *taken);
        else
            name = choose_relation_name(
                st->xact, req->table,
                name_addition(colnames, req->constraint ? req->nkeys : natts),
                req->constraint ? "key" : "idx", *taken);
    }
    memset(&def, 0, sizeof(def));
    def.name = name;
    def.relid = rel->rd_id;
    def.natts = natts;
    def.nkeyatts = req->nkeys;
    def.attnums = attnums;
    def.colnames = (const char *const *)colnames;
    def.coltypes = types;
    def.coltypmods = typmods;
    def.collations = collations;
    def.opclasses = opclasses;
    def.options = options;
    def.exprs = exprs;
    def.pred = pred;
    def.unique = req->unique || req->primary;
    def.primary = req->primary;
    def.nulls_not_distinct = req->nulls_not_distinct;
    indexoid = tdb_catalog_create_index(st->xact, &def, req->if_not_exists);
    if (indexoid == InvalidOid)
        return InvalidOid;
    *taken = tdb_lappend(*taken, (void *)name);
    if (req->constraint)
        tdb_catalog_add_index_constraint(st->xact, rel->rd_id, indexoid, name,
                                         req->primary ? CONSTRAINT_PRIMARY
                                                      : CONSTRAINT_UNIQUE,
                                         attnums, req->nkeys);
    build_index(st, rel, indexoid);
    return indexoid;
}

/* ----------------------------------------------------------------------
 * Key constraints (CREATE TABLE, ALTER TABLE ADD CONSTRAINT)
 * ---------------------------------------------------------------------- */

/* IndexElems for the column names of a constraint's key list. */
static PgQuery__IndexElem **
constraint_elems(Statement *st, Relation rel, PgQuery__Node **names, int n,
                 bool alter_primary)
{
    PgQuery__IndexElem **elems =
        tdb_palloc0(sizeof(PgQuery__IndexElem *) * (Size)Max(n, 1));

    for (int i = 0; i < n; i++) {
        PgQuery__IndexElem *e = tdb_palloc(sizeof(PgQuery__IndexElem));

        pg_query__index_elem__init(e);
        e->name = names[i]->string->sval;
        /* the error names the key, as PostgreSQL's does */
        (void)column_number(st, rel, e->name, true, alter_primary ? -2 : -1);
        for (int j = 0; j < i; j++)
            if (strcmp(elems[j]->name, e->name) == 0)
                ereport(ERROR, errcode(ERRCODE_DUPLICATE_COLUMN),
                        errmsg("column \"%s\" appears twice in %s constraint",
                               e->name, "key"));
        elems[i] = e;
    }
    return elems;
}

/*
 * ALTER TABLE ... ADD PRIMARY KEY: the key columns are NOT NULL now, so
 * every row must have them set; else PostgreSQL's 23502 naming, in the
 * first such row, the first of them (in column order) that is NULL.
 * After the index is built, where PostgreSQL checks it (its ALTER
 * TABLE's last phase, which verifies the new NOT NULL columns).
 */
static void
check_key_not_null(Statement *st, Relation rel, Oid indexoid)
{
    const RelationIndex *index;
    Relation fresh = reopen_with_index(st, rel, indexoid, &index);
    bool *in_key = tdb_palloc0(sizeof(bool) * (Size)fresh->rd_att->natts);
    Snapshot snap = tdb_snapshot_take(tdb_xact_manager_of(st->xact), st->xact,
                                      tdb_current_mcxt);
    TupleTableSlot *slot = tdb_slot_create(fresh->rd_att, &tdb_tts_ops_heap);
    HeapScanDesc scan;

    for (int i = 0; i < index->ri_nkeyatts; i++)
        in_key[index->ri_attnums[i] - 1] = true;
    scan = tdb_heap_beginscan(fresh, snap);
    while (tdb_heap_getnextslot(scan, slot)) {
        tdb_slot_getallattrs(slot);
        for (int i = 0; i < fresh->rd_att->natts; i++)
            if (in_key[i] && slot->tts_isnull[i])
                ereport(ERROR, errcode(ERRCODE_NOT_NULL_VIOLATION),
                        errmsg("column \"%s\" of relation \"%s\" contains "
                               "null values",
                               TupleDescAttr(fresh->rd_att, i)->attname,
                               fresh->rd_name));
    }
    tdb_heap_endscan(scan);
    tdb_slot_drop(slot);
    tdb_relation_close(fresh);
}

void
tdb_sql_add_key_constraint(Statement *st, Relation rel,
                           const PgQuery__Constraint *c, const char *column,
                           bool altering, List **taken)
{
    IndexRequest req;
    PgQuery__Node *one;
    PgQuery__Node **keys = c->keys;
    int nkeys = (int)c->n_keys;
    bool primary = c->contype == PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY;
    Oid indexoid;

    if (c->indexname != NULL && c->indexname[0] != '\0')
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("USING INDEX in a constraint is not supported yet"),
                errposition(stmt_errpos(st, c->location)));
    if (c->deferrable || c->initdeferred)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("deferrable constraints are not supported yet"),
                errposition(stmt_errpos(st, c->location)));
    if (primary && tdb_catalog_has_primary_key(st->xact, rel->rd_id))
        ereport(ERROR, errcode(ERRCODE_INVALID_TABLE_DEFINITION),
                errmsg("multiple primary keys for table \"%s\" are not "
                       "allowed",
                       rel->rd_name)); /* no position, as PostgreSQL */
    if (column != NULL) {
        PgQuery__String *s = tdb_palloc(sizeof(PgQuery__String));

        pg_query__string__init(s);
        s->sval = (char *)column;
        one = tdb_palloc(sizeof(PgQuery__Node));
        pg_query__node__init(one);
        one->node_case = PG_QUERY__NODE__NODE_STRING;
        one->string = s;
        keys = &one;
        nkeys = 1;
    }
    memset(&req, 0, sizeof(req));
    req.name = c->conname != NULL && c->conname[0] != '\0' ? c->conname : NULL;
    if (req.name != NULL &&
        tdb_catalog_find_constraint(st->xact, rel->rd_id, req.name, NULL))
        ereport(ERROR, errcode(ERRCODE_DUPLICATE_OBJECT),
                errmsg("constraint \"%s\" for relation \"%s\" already exists",
                       req.name, rel->rd_name));
    req.table = rel->rd_name;
    req.keys = constraint_elems(st, rel, keys, nkeys, altering && primary);
    req.nkeys = nkeys;
    req.include =
        constraint_elems(st, rel, c->including, (int)c->n_including, false);
    req.ninclude = (int)c->n_including;
    req.unique = true;
    req.primary = primary;
    req.constraint = true;
    req.nulls_not_distinct = c->nulls_not_distinct;
    indexoid = define_index(st, rel, &req, taken);
    if (primary && altering)
        check_key_not_null(st, rel, indexoid);
}

/* ----------------------------------------------------------------------
 * CREATE INDEX
 * ---------------------------------------------------------------------- */

/* The access method of USING, checked: only btree is built in. */
static void
check_access_method(const char *am)
{
    static const char *const others[] = {"hash", "gist", "gin", "spgist",
                                         "brin"};

    if (am == NULL || am[0] == '\0' || strcmp(am, "btree") == 0)
        return;
    for (size_t i = 0; i < lengthof(others); i++)
        if (strcmp(am, others[i]) == 0)
            ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("access method \"%s\" is not supported yet", am));
    if (strcmp(am, "heap") == 0)
        ereport(ERROR, errcode(ERRCODE_WRONG_OBJECT_TYPE),
                errmsg("access method \"%s\" is not of type %s", am, "INDEX"));
    ereport(ERROR, errcode(ERRCODE_UNDEFINED_OBJECT),
            errmsg("access method \"%s\" does not exist", am));
}

/* The table an index statement names, locked exclusively, with
 * PostgreSQL's errors for the system's relations and indexes. */
static Relation
open_index_table(Statement *st, const PgQuery__RangeVar *rv)
{
    SystemRelKind kind =
        tdb_system_relation_kind(st, rv->schemaname, rv->relname);
    Oid relid, indrelid;
    char relkind;
    const char *name;

    if (kind != SYSREL_NONE)
        ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
                errmsg("permission denied: \"%s\" is a system catalog",
                       rv->relname));
    name = tdb_sql_table_name(st, rv);
    if (tdb_catalog_lookup_relation(st->xact, name, &relid, &relkind,
                                    &indrelid) &&
        relkind == RELKIND_INDEX)
        ereport(ERROR, errcode(ERRCODE_WRONG_OBJECT_TYPE),
                errmsg("cannot create index on relation \"%s\"", name),
                errdetail("This operation is not supported for indexes."));
    (void)tdb_xact_assign_xid(st->xact);
    return tdb_relation_open(st->xact, name, REL_LOCK_EXCLUSIVE);
}

static PgQuery__IndexElem **
index_elems(PgQuery__Node **nodes, size_t n)
{
    PgQuery__IndexElem **elems =
        tdb_palloc0(sizeof(PgQuery__IndexElem *) * Max(n, 1));

    for (size_t i = 0; i < n; i++)
        elems[i] = nodes[i]->index_elem;
    return elems;
}

void
tdb_sql_create_index(Statement *st, const PgQuery__IndexStmt *is)
{
    IndexRequest req;
    Relation rel;
    List *taken = NIL;

    if (is->concurrent)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("CREATE INDEX CONCURRENTLY is not supported yet"));
    if (is->n_options > 0 || (is->table_space && is->table_space[0]))
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("index storage parameters and tablespaces are not "
                       "supported yet"));
    check_access_method(is->access_method);
    rel = open_index_table(st, is->relation);
    memset(&req, 0, sizeof(req));
    req.name =
        is->idxname != NULL && is->idxname[0] != '\0' ? is->idxname : NULL;
    req.table = rel->rd_name;
    req.keys = index_elems(is->index_params, is->n_index_params);
    req.nkeys = (int)is->n_index_params;
    req.include =
        index_elems(is->index_including_params, is->n_index_including_params);
    req.ninclude = (int)is->n_index_including_params;
    req.where = is->where_clause;
    req.unique = is->unique;
    req.nulls_not_distinct = is->nulls_not_distinct;
    req.if_not_exists = is->if_not_exists;
    (void)define_index(st, rel, &req, &taken);
    tdb_relation_close(rel);
    tdb_stmt_complete(st, "CREATE INDEX");
}

/* ----------------------------------------------------------------------
 * DROP INDEX, ALTER INDEX ... RENAME TO, REINDEX
 * ---------------------------------------------------------------------- */

/* Drop index `name`: 42704 if there is none (missing_ok: a NOTICE), and
 * PostgreSQL's 2BP01 when a constraint needs it. */
static void
drop_index(Statement *st, const char *name, bool missing_ok)
{
    Transaction *xact = st->xact;
    Oid relid, indrelid;
    char relkind;
    ConstraintInfo con;

    if (!tdb_catalog_lookup_relation(xact, name, &relid, &relkind, &indrelid)) {
        if (missing_ok) {
            ereport(NOTICE, errcode(ERRCODE_SUCCESSFUL_COMPLETION),
                    errmsg("index \"%s\" does not exist, skipping", name));
            return;
        }
        ereport(ERROR, errcode(ERRCODE_UNDEFINED_OBJECT),
                errmsg("index \"%s\" does not exist", name));
    }
    if (relkind != RELKIND_INDEX)
        ereport(ERROR, errcode(ERRCODE_WRONG_OBJECT_TYPE),
                errmsg("\"%s\" is not an index", name),
                errhint("Use DROP TABLE to remove a table."));
    (void)tdb_xact_assign_xid(xact);
    /* the table first, as every user of the index takes them */
    tdb_lock_relation(xact, indrelid, REL_LOCK_EXCLUSIVE);
    if (tdb_catalog_index_constraint(xact, relid, &con)) {
        char *table = tdb_catalog_relation_name(xact, indrelid);

        ereport(ERROR, errcode(ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST),
                errmsg("cannot drop index %s because constraint %s on table "
                       "%s requires it",
                       name, con.name, table),
                errhint("You can drop constraint %s on table %s instead.",
                        con.name, table));
    }
    tdb_catalog_drop_index(xact, relid);
}

void
tdb_sql_drop_index(Statement *st, const PgQuery__DropStmt *ds)
{
    if (ds->concurrent)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("DROP INDEX CONCURRENTLY is not supported yet"));
    for (size_t i = 0; i < ds->n_objects; i++)
        drop_index(st, tdb_sql_drop_object_name(st, ds->objects[i]),
                   ds->missing_ok);
    tdb_stmt_complete(st, "DROP INDEX");
}

void
tdb_sql_rename(Statement *st, const PgQuery__RenameStmt *rs)
{
    Transaction *xact = st->xact;
    const char *name;
    Oid relid, indrelid;
    char relkind;

    if (rs->rename_type != PG_QUERY__OBJECT_TYPE__OBJECT_INDEX)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("%s is not supported yet",
                       tdb_sql_node_name(st->parsed->stmt)),
                errposition(stmt_errpos(st, st->parsed->location)));
    name = tdb_sql_table_name(st, rs->relation);
    if (!tdb_catalog_lookup_relation(xact, name, &relid, &relkind, &indrelid)) {
        if (rs->missing_ok) {
            ereport(NOTICE, errcode(ERRCODE_SUCCESSFUL_COMPLETION),
                    errmsg("relation \"%s\" does not exist, skipping", name));
            tdb_stmt_complete(st, "ALTER INDEX");
            return;
        }
        ereport(ERROR, errcode(ERRCODE_UNDEFINED_TABLE),
                errmsg("relation \"%s\" does not exist", name));
    }
    if (relid < FirstNormalObjectId)
        ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
                errmsg("permission denied: \"%s\" is a system catalog", name));
    (void)tdb_xact_assign_xid(xact);
    if (indrelid != InvalidOid)
        tdb_lock_relation(xact, indrelid, REL_LOCK_EXCLUSIVE);
    tdb_catalog_rename_relation(xact, relid, rs->newname);
    tdb_stmt_complete(st, "ALTER INDEX");
}

void
tdb_sql_reindex(Statement *st, const PgQuery__ReindexStmt *rs)
{
    Transaction *xact = st->xact;
    const char *name;
    Oid relid, indrelid;
    char relkind;
    Relation rel;

    if (rs->kind != PG_QUERY__REINDEX_OBJECT_TYPE__REINDEX_OBJECT_INDEX &&
        rs->kind != PG_QUERY__REINDEX_OBJECT_TYPE__REINDEX_OBJECT_TABLE)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("only REINDEX INDEX and REINDEX TABLE are supported "
                       "yet"));
    name = tdb_sql_table_name(st, rs->relation);
    if (!tdb_catalog_lookup_relation(xact, name, &relid, &relkind, &indrelid))
        ereport(ERROR, errcode(ERRCODE_UNDEFINED_TABLE),
                errmsg("relation \"%s\" does not exist", name));
    if (rs->kind == PG_QUERY__REINDEX_OBJECT_TYPE__REINDEX_OBJECT_INDEX &&
        relkind != RELKIND_INDEX)
        ereport(ERROR, errcode(ERRCODE_WRONG_OBJECT_TYPE),
                errmsg("\"%s\" is not an index", name));
    if (rs->kind == PG_QUERY__REINDEX_OBJECT_TYPE__REINDEX_OBJECT_TABLE &&
        relkind == RELKIND_INDEX)
        ereport(ERROR, errcode(ERRCODE_WRONG_OBJECT_TYPE),
                errmsg("\"%s\" is not a table or materialized view", name));
    if (relid < FirstNormalObjectId)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("REINDEX of a system catalog is not supported"));
    (void)tdb_xact_assign_xid(xact);
    rel = tdb_relation_open_by_oid(
        xact, relkind == RELKIND_INDEX ? indrelid : relid, REL_LOCK_EXCLUSIVE);
    for (int i = 0; i < rel->rd_nindexes; i++) {
        Oid indexoid = rel->rd_indexes[i].ri_oid;

        if (relkind == RELKIND_INDEX && indexoid != relid)
            continue;
        (void)tdb_catalog_index_new_file(xact, indexoid);
        build_index(st, rel, indexoid);
    }
    tdb_relation_close(rel);
    tdb_stmt_complete(st, "REINDEX");
}
