/*
 * tablecmds.c -- the table statements: CREATE TABLE (columns, NOT NULL,
 * DEFAULT, CHECK, COMPRESSION), ALTER TABLE (SET STORAGE and SET
 * COMPRESSION of columns), DROP TABLE and TRUNCATE (PostgreSQL's
 * tablecmds.c, for what tupledb has).
 *
 * tcop/utility.c dispatches each statement here after the statement
 * boundary has started its transaction.  DEFAULT and CHECK expressions
 * are analyzed (parser/analyze.h), checked, and stored as the SQL text
 * PostgreSQL's pg_get_expr would print (parser/ruleutils.c).  Messages,
 * warnings and command tags are PostgreSQL's.
 */
#include "common/base.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "catalog/catalog.h"
#include "catalog/pg_type.h"
#include "commands/commands.h"
#include "commands/commands_int.h"
#include "common/elog.h"
#include "parser/analyze.h"
#include "parser/parser.h"
#include "parser/system_views.h"
#include "parser/typename.h"
#include "toast/toast.h"
#include "types/builtins.h"

static char column_compression(Oid typid, const char *name);

/* ----------------------------------------------------------------------
 * CREATE TABLE
 * ---------------------------------------------------------------------- */

/* e in the form CREATE TABLE stores (ruleutils' pretty layout under the
 * default type I/O settings), or fallback. */
static char *
stored_expr(Expr *e, TupleDesc desc, char *fallback)
{
    TypeIOSettings io = tdb_typeio_defaults;
    const TypeIOSettings *old;
    char *sql;

    /* dates and times in ISO, read back the same whatever DateStyle */
    io.catalog = tdb_typeio()->catalog;
    old = tdb_typeio_install(&io);
    sql = tdb_deparse_expr(e, desc, true);
    tdb_typeio_install(old);
    return sql != NULL ? sql : fallback;
}

/*
 * What pg_attrdef stores for col's DEFAULT raw: the analyzed expression
 * as ruleutils prints it or, if it cannot, PostgreSQL's deparse of raw
 * (made only then: analysis has bounded the expression's depth by then).
 */
static char *
default_text(const Statement *st, const ColumnDef *col, PgQuery__Node *raw)
{
    Expr *e =
        tdb_analyze_default((Statement *)st, raw, col->typid, col->typmod);
    char *sql = stored_expr(e, NULL, NULL);

    return sql != NULL ? sql : tdb_sql_deparse_raw_expr(raw);
}

/* A CHECK constraint of CREATE TABLE, added after the table exists. */
typedef struct PendingCheck {
    const char *name;   /* given, or NULL: chosen as PostgreSQL does */
    char *expr;         /* deparsed SQL */
} PendingCheck;

/* A PRIMARY KEY / UNIQUE constraint of CREATE TABLE, added after the
 * table exists. */
typedef struct PendingKey {
    const PgQuery__Constraint *constraint;
    const char *column; /* a column constraint's column, or NULL */
} PendingKey;

/* Apply a column constraint of CREATE TABLE to col (NULL: a table
 * constraint); PRIMARY KEY and UNIQUE go to *keys. */
static void
apply_column_constraint(const Statement *st, ColumnDef *col,
                        const PgQuery__Constraint *c, List **checks,
                        List **keys)
{
    switch (c->contype) {
    case PG_QUERY__CONSTR_TYPE__CONSTR_NOTNULL:
        col->not_null = true;
        return;
    case PG_QUERY__CONSTR_TYPE__CONSTR_NULL:
        col->not_null = false;
        return;
    case PG_QUERY__CONSTR_TYPE__CONSTR_DEFAULT:
        col->default_expr = default_text(st, col, c->raw_expr);
        return;
    case PG_QUERY__CONSTR_TYPE__CONSTR_CHECK: {
        PendingCheck *pc = tdb_palloc0(sizeof(PendingCheck));

        pc->name = c->conname != NULL && c->conname[0] != '\0' ? c->conname
                                                              : NULL;
        pc->expr = tdb_sql_deparse_raw_expr(c->raw_expr);
        *checks = tdb_lappend(*checks, pc);
        return;
    }
    case PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY:
    case PG_QUERY__CONSTR_TYPE__CONSTR_UNIQUE: {
        PendingKey *pk = tdb_palloc0(sizeof(PendingKey));

        pk->constraint = c;
        pk->column = col != NULL ? col->name : NULL;
        if (c->contype == PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY && col != NULL)
            col->not_null = true;
        *keys = tdb_lappend(*keys, pk);
        return;
    }
    default:
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("this kind of constraint is not supported yet"),
                errposition(stmt_errpos(st, c->location)));
    }
}

static void
column_from_parse(const Statement *st, const PgQuery__ColumnDef *def,
                  ColumnDef *col, List **checks, List **keys)
{
    memset(col, 0, sizeof(*col));
    col->name = def->colname;
    tdb_sql_resolve_typename(st, def->type_name, &col->typid, &col->typmod);
    if (!tdb_type_lookup(col->typid)->column_type)
        ereport(ERROR, errcode(ERRCODE_INVALID_TABLE_DEFINITION),
                errmsg("column \"%s\" has pseudo-type %s", def->colname,
                       tdb_type_lookup(col->typid)->name),
                errposition(stmt_errpos(st, def->location)));
    col->not_null = def->is_not_null;
    if (def->compression != NULL && def->compression[0] != '\0')
        col->compression = column_compression(col->typid, def->compression);
    if (def->raw_default != NULL)
        col->default_expr = default_text(st, col, def->raw_default);
    for (size_t i = 0; i < def->n_constraints; i++)
        if (def->constraints[i]->node_case ==
            PG_QUERY__NODE__NODE_CONSTRAINT)
            apply_column_constraint(st, col, def->constraints[i]->constraint,
                                    checks, keys);
}

/* Is name among the constraint names chosen so far? */
static bool
name_taken(List *names, const char *name)
{
    for (int i = 0; i < list_length(names); i++)
        if (strcmp(list_nth(names, i), name) == 0)
            return true;
    return false;
}

/*
 * PostgreSQL's choice of a CHECK constraint name: table_column_check
 * when it reads one column, table_check otherwise, with a number added
 * until it is unique.
 */
static const char *
choose_check_name(const char *table, const char *column, List *taken)
{
    char base[NAMEDATALEN * 3];
    char name[NAMEDATALEN * 3 + 16];

    if (column != NULL)
        snprintf(base, sizeof(base), "%s_%s_check", table, column);
    else
        snprintf(base, sizeof(base), "%s_check", table);
    snprintf(name, sizeof(name), "%s", base);
    for (int n = 1; name_taken(taken, name); n++)
        snprintf(name, sizeof(name), "%s%d", base, n);
    return tdb_mcxt_strdup(tdb_current_mcxt, name);
}

/* Analyze, name and store the CHECK constraints of a new table. */
static void
add_pending_checks(Statement *st, const char *table, Oid relid, List *checks)
{
    Transaction *xact = st->xact;
    Relation rel = tdb_relation_open_by_oid(xact, relid, REL_LOCK_SHARE);
    List *taken = NIL;

    for (int i = 0; i < list_length(checks); i++) {
        PendingCheck *pc = list_nth(checks, i);
        int nvars, attno;
        Expr *e = tdb_analyze_check(st, rel, pc->expr, &nvars, &attno);

        if (pc->name == NULL)
            pc->name = choose_check_name(
                table,
                /* as PostgreSQL: after the one column it reads, column
                 * constraint or not */
                nvars == 1 ? TupleDescAttr(rel->rd_att, attno - 1)->attname
                           : NULL,
                taken);
        else if (name_taken(taken, pc->name))
            ereport(ERROR, errcode(ERRCODE_DUPLICATE_OBJECT),
                    errmsg("constraint \"%s\" for relation \"%s\" already "
                           "exists",
                           pc->name, table));
        taken = tdb_lappend(taken, (void *)pc->name);
        tdb_catalog_add_check(xact, relid, pc->name,
                              stored_expr(e, rel->rd_att, pc->expr));
    }
    tdb_relation_close(rel);
}

/*
 * Before the table exists: one PRIMARY KEY at most (42P16 at the second,
 * as PostgreSQL's transformIndexConstraints), and its columns NOT NULL.
 */
static void
primary_key_columns(const Statement *st, const char *table, ColumnDef *cols,
                    int ncols, List *keys)
{
    bool seen = false;

    for (int i = 0; i < list_length(keys); i++) {
        const PendingKey *pk = list_nth(keys, i);
        const PgQuery__Constraint *c = pk->constraint;

        if (c->contype != PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY)
            continue;
        if (seen)
            ereport(ERROR, errcode(ERRCODE_INVALID_TABLE_DEFINITION),
                    errmsg("multiple primary keys for table \"%s\" are not "
                           "allowed",
                           table),
                    errposition(stmt_errpos(st, c->location)));
        seen = true;
        for (size_t k = 0; k < c->n_keys; k++)
            for (int j = 0; j < ncols; j++)
                if (strcmp(cols[j].name, c->keys[k]->string->sval) == 0)
                    cols[j].not_null = true;
    }
}

/* The PRIMARY KEY and UNIQUE constraints of a new table, in order. */
static void
add_pending_keys(Statement *st, Oid relid, List *keys)
{
    Relation rel;
    List *taken = NIL;

    if (keys == NIL)
        return;
    rel = tdb_relation_open_by_oid(st->xact, relid, REL_LOCK_EXCLUSIVE);
    for (int i = 0; i < list_length(keys); i++) {
        const PendingKey *pk = list_nth(keys, i);

        tdb_sql_add_key_constraint(st, rel, pk->constraint, pk->column, false,
                                   &taken);
    }
    tdb_relation_close(rel);
}

void
tdb_sql_create_table(Statement *st, const PgQuery__CreateStmt *cs)
{
    const char *name = tdb_sql_table_name(st, cs->relation);
    ColumnDef *cols = tdb_palloc0(sizeof(ColumnDef) *
                                  (Size)Max(1, cs->n_table_elts));
    int ncols = 0;
    Oid relid;
    List *checks = NIL;
    List *keys = NIL;

    if (cs->n_inh_relations > 0 || cs->partspec != NULL ||
        cs->of_typename != NULL || cs->n_constraints > 0)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("this form of CREATE TABLE is not supported yet"),
                errposition(stmt_errpos(st, st->parsed->location)));
    if (cs->relation->relpersistence != NULL &&
        cs->relation->relpersistence[0] == 't')
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("temporary tables are not supported yet"),
                errposition(stmt_errpos(st, cs->relation->location)));
    for (size_t i = 0; i < cs->n_table_elts; i++) {
        const PgQuery__Node *elt = cs->table_elts[i];

        if (elt->node_case == PG_QUERY__NODE__NODE_COLUMN_DEF)
            column_from_parse(st, elt->column_def, &cols[ncols++], &checks,
                              &keys);
        else if (elt->node_case == PG_QUERY__NODE__NODE_CONSTRAINT)
            apply_column_constraint(st, NULL, elt->constraint, &checks, &keys);
        else
            ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("LIKE in CREATE TABLE is not supported yet"),
                    errposition(stmt_errpos(st, st->parsed->location)));
    }
    primary_key_columns(st, name, cols, ncols, keys);
    relid = tdb_catalog_create_table(st->xact, name, cols, ncols,
                                     cs->if_not_exists);
    if (relid != InvalidOid) {
        add_pending_checks(st, name, relid, checks);
        add_pending_keys(st, relid, keys);
    }
    tdb_stmt_complete(st, "CREATE TABLE");
}

/* ----------------------------------------------------------------------
 * ALTER TABLE
 * ---------------------------------------------------------------------- */

/*
 * A column's compression method from its name in SET COMPRESSION or
 * CREATE TABLE's COMPRESSION clause (PostgreSQL's GetAttributeCompression):
 * "default" is '\0' (default_toast_compression decides when storing);
 * a method needs a toastable type.  Names are case-sensitive, as there.
 */
static char
column_compression(Oid typid, const char *name)
{
    const TypeInfo *type = tdb_type_lookup(typid);

    if (name == NULL || strcmp(name, "default") == 0)
        return TOAST_COMPRESSION_DEFAULT;
    if (type == NULL || type->storage == TYPSTORAGE_PLAIN)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("column data type %s does not support compression",
                       tdb_format_type(typid, -1)));
    if (strcmp(name, "pglz") == 0)
        return TOAST_COMPRESSION_PGLZ;
    if (strcmp(name, "lz4") == 0)
        return TOAST_COMPRESSION_LZ4;
    ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
            errmsg("invalid compression method \"%s\"", name));
}

/* SET STORAGE's strategy name (any case), as PostgreSQL reads it. */
static char
storage_from_name(const char *name)
{
    static const struct {
        const char *name;
        char storage;
    } names[] = {{"plain", TYPSTORAGE_PLAIN},
                 {"external", TYPSTORAGE_EXTERNAL},
                 {"extended", TYPSTORAGE_EXTENDED},
                 {"main", TYPSTORAGE_MAIN}};

    for (size_t i = 0; i < lengthof(names); i++)
        if (strcasecmp(name, names[i].name) == 0)
            return names[i].storage;
    ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
            errmsg("invalid storage type \"%s\"", name));
}

/*
 * The column of an ALTER COLUMN subcommand: its 0-based index in rel,
 * with PostgreSQL's errors for one that does not exist or is a system
 * column.
 */
static int
alter_column_index(Relation rel, const char *name)
{
    for (int i = 0; i < rel->rd_att->natts; i++) {
        const TupleAttr *att = TupleDescAttr(rel->rd_att, i);

        if (!att->attisdropped && strcmp(att->attname, name) == 0)
            return i;
    }
    if (tdb_catalog_is_system_column(name))
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("cannot alter system column \"%s\"", name));
    ereport(ERROR, errcode(ERRCODE_UNDEFINED_COLUMN),
            errmsg("column \"%s\" of relation \"%s\" does not exist", name,
                   rel->rd_name));
}

/* The string argument of SET STORAGE / SET COMPRESSION. */
static const char *
alter_cmd_string(const PgQuery__AlterTableCmd *cmd)
{
    if (cmd->def == NULL || cmd->def->node_case != PG_QUERY__NODE__NODE_STRING)
        elog(ERROR, "unexpected ALTER TABLE argument");
    return cmd->def->string->sval;
}

/* One SET STORAGE subcommand (PostgreSQL's ATExecSetStorage). */
static void
alter_set_storage(Transaction *xact, Relation rel,
                  const PgQuery__AlterTableCmd *cmd)
{
    char storage = storage_from_name(alter_cmd_string(cmd));
    int i = alter_column_index(rel, cmd->name);
    const TupleAttr *att = TupleDescAttr(rel->rd_att, i);
    const TypeInfo *type = tdb_type_lookup(att->atttypid);

    /* only a TOAST-aware type (typstorage not PLAIN) may leave PLAIN */
    if (storage != TYPSTORAGE_PLAIN && type->storage == TYPSTORAGE_PLAIN)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("column data type %s can only have storage PLAIN",
                       tdb_format_type(att->atttypid, -1)));
    tdb_catalog_set_attstorage(xact, rel->rd_id, i + 1, storage);
}

/* One SET COMPRESSION subcommand (PostgreSQL's ATExecSetCompression). */
static void
alter_set_compression(Transaction *xact, Relation rel,
                      const PgQuery__AlterTableCmd *cmd)
{
    int i = alter_column_index(rel, cmd->name);
    const TupleAttr *att = TupleDescAttr(rel->rd_att, i);
    char method = column_compression(att->atttypid, alter_cmd_string(cmd));

    tdb_catalog_set_attcompression(xact, rel->rd_id, i + 1, method);
}

/* ADD CONSTRAINT of a PRIMARY KEY or UNIQUE constraint? */
static bool
is_key_constraint_cmd(const PgQuery__AlterTableCmd *cmd)
{
    const PgQuery__Constraint *c;

    if (cmd->subtype != PG_QUERY__ALTER_TABLE_TYPE__AT_AddConstraint ||
        cmd->def == NULL ||
        cmd->def->node_case != PG_QUERY__NODE__NODE_CONSTRAINT)
        return false;
    c = cmd->def->constraint;
    return c->contype == PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY ||
           c->contype == PG_QUERY__CONSTR_TYPE__CONSTR_UNIQUE;
}

/* DROP CONSTRAINT [IF EXISTS] name (PostgreSQL's ATExecDropConstraint):
 * a key constraint's index goes with it. */
static void
alter_drop_constraint(Statement *st, Relation rel,
                      const PgQuery__AlterTableCmd *cmd)
{
    ConstraintInfo con;

    if (!tdb_catalog_find_constraint(st->xact, rel->rd_id, cmd->name, &con)) {
        if (cmd->missing_ok) {
            ereport(NOTICE, errcode(ERRCODE_SUCCESSFUL_COMPLETION),
                    errmsg("constraint \"%s\" of relation \"%s\" does not "
                           "exist, skipping",
                           cmd->name, rel->rd_name));
            return;
        }
        ereport(ERROR, errcode(ERRCODE_UNDEFINED_OBJECT),
                errmsg("constraint \"%s\" of relation \"%s\" does not exist",
                       cmd->name, rel->rd_name));
    }
    tdb_catalog_drop_constraint(st->xact, &con);
}

/* The table ALTER TABLE names, locked exclusively; NULL: IF EXISTS and
 * there is none (the NOTICE sent). */
static Relation
alter_table_open(Statement *st, const PgQuery__AlterTableStmt *as)
{
    Transaction *xact = st->xact;
    const PgQuery__RangeVar *rv = as->relation;
    const char *schema = rv->schemaname;
    bool catalog_schema = schema != NULL && strcmp(schema, "pg_catalog") == 0;
    Oid relid;

    /* the catalogs (stored or views) belong to the system */
    if ((catalog_schema || schema == NULL || schema[0] == '\0') &&
        ((relid = tdb_catalog_lookup_table(xact, rv->relname)) != InvalidOid
             ? relid < FirstNormalObjectId
             : tdb_system_view_lookup(st, catalog_schema ? schema : NULL,
                                      rv->relname) != NULL))
        ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
                errmsg("permission denied: \"%s\" is a system catalog",
                       rv->relname));
    if (catalog_schema)
        ereport(ERROR, errcode(ERRCODE_UNDEFINED_TABLE),
                errmsg("relation \"%s.%s\" does not exist", schema,
                       rv->relname));
    if (tdb_catalog_lookup_table(xact, tdb_sql_table_name(st, rv)) ==
            InvalidOid &&
        as->missing_ok) {
        /* PostgreSQL sends this notice with SQLSTATE 00000 */
        ereport(NOTICE, errcode(ERRCODE_SUCCESSFUL_COMPLETION),
                errmsg("relation \"%s\" does not exist, skipping",
                       rv->relname));
        return NULL;
    }
    (void)tdb_xact_assign_xid(xact); /* before the exclusive lock */
    return tdb_relation_open(xact, rv->relname, REL_LOCK_EXCLUSIVE);
}

/*
 * ALTER TABLE: the subcommands in order, then a TOAST relation if the
 * table now needs one (PostgreSQL checks after every ALTER TABLE).
 * Only SET STORAGE and SET COMPRESSION exist yet; a statement with any
 * other subcommand is refused before anything changes.
 */
void
tdb_sql_alter_table(Statement *st, const PgQuery__AlterTableStmt *as)
{
    Transaction *xact = st->xact;
    Relation rel, reopened;
    List *taken = NIL;

    for (size_t i = 0; i < as->n_cmds; i++) {
        const PgQuery__AlterTableCmd *cmd = as->cmds[i]->alter_table_cmd;

        if (as->objtype != PG_QUERY__OBJECT_TYPE__OBJECT_TABLE ||
            as->cmds[i]->node_case != PG_QUERY__NODE__NODE_ALTER_TABLE_CMD ||
            (cmd->subtype != PG_QUERY__ALTER_TABLE_TYPE__AT_SetStorage &&
             cmd->subtype != PG_QUERY__ALTER_TABLE_TYPE__AT_SetCompression &&
             !is_key_constraint_cmd(cmd) &&
             cmd->subtype != PG_QUERY__ALTER_TABLE_TYPE__AT_DropConstraint))
            ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("%s is not supported yet",
                           tdb_sql_node_name(st->parsed->stmt)),
                    errposition(stmt_errpos(st, st->parsed->location)));
    }
    rel = alter_table_open(st, as);
    if (rel != NULL) {
        for (size_t i = 0; i < as->n_cmds; i++) {
            const PgQuery__AlterTableCmd *cmd = as->cmds[i]->alter_table_cmd;

            if (cmd->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_SetStorage)
                alter_set_storage(xact, rel, cmd);
            else if (cmd->subtype ==
                     PG_QUERY__ALTER_TABLE_TYPE__AT_SetCompression)
                alter_set_compression(xact, rel, cmd);
            else if (cmd->subtype ==
                     PG_QUERY__ALTER_TABLE_TYPE__AT_DropConstraint)
                alter_drop_constraint(st, rel, cmd);
            else {
                tdb_sql_add_key_constraint(st, rel, cmd->def->constraint, NULL,
                                           true, &taken);
                /* later subcommands see the new index */
                reopened = tdb_relation_open_by_oid(xact, rel->rd_id,
                                                    REL_LOCK_EXCLUSIVE);
                tdb_relation_close(rel);
                rel = reopened;
            }
        }
        (void)tdb_catalog_ensure_toast(xact, rel->rd_id);
        tdb_relation_close(rel);
    }
    tdb_stmt_complete(st, "ALTER TABLE");
}

/* ----------------------------------------------------------------------
 * DROP, TRUNCATE, VACUUM, ANALYZE
 * ---------------------------------------------------------------------- */

/* The relation name of one DROP object (a list of name parts). */
const char *
tdb_sql_drop_object_name(const Statement *st, const PgQuery__Node *object)
{
    const PgQuery__List *parts;
    const PgQuery__Node *last;

    if (object->node_case != PG_QUERY__NODE__NODE_LIST)
        elog(ERROR, "unexpected DROP object");
    parts = object->list;
    if (parts->n_items == 2 &&
        strcmp(parts->items[0]->string->sval, "public") != 0)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("schemas other than \"public\" are not supported "
                       "yet"),
                errposition(stmt_errpos(st, st->parsed->location)));
    last = parts->items[parts->n_items - 1];
    return last->string->sval;
}

void
tdb_sql_drop(Statement *st, const PgQuery__DropStmt *ds)
{
    if (ds->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_INDEX) {
        tdb_sql_drop_index(st, ds);
        return;
    }
    if (ds->remove_type != PG_QUERY__OBJECT_TYPE__OBJECT_TABLE)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("only DROP TABLE is supported yet"),
                errposition(stmt_errpos(st, st->parsed->location)));
    for (size_t i = 0; i < ds->n_objects; i++) {
        const char *name = tdb_sql_drop_object_name(st, ds->objects[i]);
        bool repeated = false;

        /* a table named twice is dropped once, as in PostgreSQL */
        for (size_t j = 0; j < i && !repeated; j++)
            repeated =
                strcmp(tdb_sql_drop_object_name(st, ds->objects[j]), name) == 0;
        if (!repeated)
            tdb_catalog_drop_table(st->xact, name, ds->missing_ok);
    }
    tdb_stmt_complete(st, "DROP TABLE");
}

void
tdb_sql_truncate(Statement *st, const PgQuery__TruncateStmt *ts)
{
    Transaction *xact = st->xact;

    for (size_t i = 0; i < ts->n_relations; i++) {
        const PgQuery__RangeVar *rv = ts->relations[i]->range_var;
        SystemRelKind kind;
        Relation rel;
        Oid relid, indrelid;
        char relkind;
        const char *name;

        /* the system's relations, with PostgreSQL's messages (whoever
         * asks: tupledb's catalogs are never truncated) */
        kind = tdb_system_relation_kind(st, rv->schemaname, rv->relname);
        if (kind == SYSREL_VIEW)
            ereport(ERROR, errcode(ERRCODE_WRONG_OBJECT_TYPE),
                    errmsg("\"%s\" is not a table", rv->relname));
        if (kind == SYSREL_TABLE)
            ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
                    errmsg("permission denied: \"%s\" is a system catalog",
                           rv->relname));
        name = tdb_sql_table_name(st, rv);
        if (tdb_catalog_lookup_relation(xact, name, &relid, &relkind,
                                        &indrelid) &&
            relkind == RELKIND_INDEX)
            ereport(ERROR, errcode(ERRCODE_WRONG_OBJECT_TYPE),
                    errmsg("\"%s\" is not a table", name));
        rel = tdb_relation_open(xact, name, REL_LOCK_SHARE);
        relid = rel->rd_id;

        tdb_relation_close(rel);
        tdb_catalog_truncate_table(xact, relid);
    }
    tdb_stmt_complete(st, "TRUNCATE TABLE");
}

