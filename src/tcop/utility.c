/*
 * utility.c -- statements that are not queries: transaction control,
 * SET / SHOW / RESET, CREATE / DROP / TRUNCATE TABLE, ALTER TABLE (SET
 * STORAGE and SET COMPRESSION of columns), VACUUM and ANALYZE
 * (PostgreSQL's ProcessUtility, for what tupledb has); the role
 * statements are role.c's.
 *
 * Each statement kind has a small function; tdb_sql_run_utility
 * dispatches on the parse node.  Messages, warnings and command tags are
 * PostgreSQL's.
 */
#include "common/base.h"

#include <pg_query.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "access/heapam.h"
#include "access/vacuum.h"
#include "catalog/catalog.h"
#include "catalog/pg_type.h"
#include "common/elog.h"
#include "commands/copy.h"
#include "tcop/tcop_int.h"
#include "parser/analyze.h"
#include "parser/system_views.h"
#include "parser/typename.h"
#include "toast/toast.h"
#include "tuple/heaptuple.h"
#include "tuple/varlena.h"
#include "types/builtins.h"

/* ----------------------------------------------------------------------
 * Helpers
 * ---------------------------------------------------------------------- */

static void
complete(Statement *st, const char *tag)
{
    if (st->dest->complete != NULL)
        st->dest->complete(st->dest, tag);
}

void
tdb_sql_send_text_result(Statement *st, const char *label,
                         const char *const *values, int nvalues)
{
    TupleDesc desc = tdb_tupdesc_create(1);
    TupleTableSlot *slot;

    tdb_tupdesc_init_attr(desc, 0, label, TEXTOID, -1, -1, false, 'i', 'x');
    tdb_tupdesc_finalize(desc);
    slot = tdb_slot_create(desc, &tdb_tts_ops_virtual);
    if (st->dest->startup != NULL)
        st->dest->startup(st->dest, desc);
    for (int i = 0; i < nvalues; i++) {
        tdb_slot_clear(slot);
        slot->tts_values[0] =
            PointerGetDatum(tdb_text_from_cstring(values[i]));
        slot->tts_isnull[0] = false;
        tdb_slot_store_virtual(slot);
        if (st->dest->receive != NULL)
            st->dest->receive(st->dest, slot);
    }
    tdb_slot_drop(slot);
}

const char *
tdb_sql_table_name(const Statement *st, const PgQuery__RangeVar *rv)
{
    if (rv->schemaname != NULL && rv->schemaname[0] != '\0' &&
        strcmp(rv->schemaname, "public") != 0)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("schemas other than \"public\" are not supported "
                       "yet"),
                errposition(stmt_errpos(st, rv->location)));
    return rv->relname;
}

/* ----------------------------------------------------------------------
 * Transaction control
 * ---------------------------------------------------------------------- */

bool
tdb_sql_is_transaction_end(const PgQuery__Node *stmt)
{
    PgQuery__TransactionStmtKind kind;

    if (stmt->node_case != PG_QUERY__NODE__NODE_TRANSACTION_STMT)
        return false;
    kind = stmt->transaction_stmt->kind;
    return kind == PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_COMMIT ||
           kind == PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK;
}

static void
no_transaction_warning(void)
{
    ereport(WARNING, errcode(ERRCODE_NO_ACTIVE_SQL_TRANSACTION),
            errmsg("there is no transaction in progress"));
}

static void
begin_block(Statement *st)
{
    Session *s = st->session;

    if (s->explicit_block)
        ereport(WARNING, errcode(ERRCODE_ACTIVE_SQL_TRANSACTION),
                errmsg("there is already a transaction in progress"));
    s->explicit_block = true;
    complete(st, "BEGIN");
}

static void
end_block(Statement *st, bool commit)
{
    Session *s = st->session;
    bool was_block = s->explicit_block;
    bool committed = false;

    if (!was_block)
        no_transaction_warning();
    s->explicit_block = false;
    if (tdb_xact_state(s->xact) == XACT_STATE_IDLE) {
        complete(st, commit ? "COMMIT" : "ROLLBACK");
        return;
    }
    if (commit)
        committed = tdb_xact_commit(s->xact);
    else
        tdb_xact_abort(s->xact);
    complete(st, committed ? "COMMIT" : "ROLLBACK");
}

static void
run_transaction_stmt(Statement *st, const PgQuery__TransactionStmt *ts)
{
    switch (ts->kind) {
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_BEGIN:
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_START:
        begin_block(st);
        return;
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_COMMIT:
        end_block(st, true);
        return;
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK:
        end_block(st, false);
        return;
    default:
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("savepoints and prepared transactions are not "
                       "supported yet"),
                errposition(stmt_errpos(st, st->parsed->location)));
    }
}

/* ----------------------------------------------------------------------
 * SET / SHOW / RESET
 * ---------------------------------------------------------------------- */

/*
 * SET TIME ZONE INTERVAL '...' [HOUR TO MINUTE]: the literal read as an
 * interval of that typmod and written back in the current IntervalStyle,
 * as "INTERVAL '...'" (the form PostgreSQL hands to TimeZone).
 */
static bool
append_interval_arg(const Statement *st, const PgQuery__TypeCast *tc,
                    char *buf, Size size)
{
    Size len = strlen(buf);
    Oid typid;
    int32 typmod;
    const PgQuery__Node *arg = tc->arg;

    if (tc->type_name == NULL || arg == NULL ||
        arg->node_case != PG_QUERY__NODE__NODE_A_CONST ||
        arg->a_const->val_case != PG_QUERY__A__CONST__VAL_SVAL)
        return false;
    tdb_sql_resolve_typename(st, tc->type_name, &typid, &typmod);
    if (typid != INTERVALOID)
        return false;
    snprintf(buf + len, size - len, "INTERVAL '%s'",
             tdb_type_output(INTERVALOID,
                             tdb_type_input(INTERVALOID,
                                            arg->a_const->sval->sval,
                                            typmod)));
    return true;
}

/* The text of one SET argument (a constant), appended to buf. */
static void
append_set_arg(const Statement *st, const PgQuery__Node *arg, char *buf,
               Size size)
{
    Size len = strlen(buf);
    const PgQuery__AConst *c;

    if (arg->node_case == PG_QUERY__NODE__NODE_TYPE_CAST) {
        if (append_interval_arg(st, arg->type_cast, buf, size))
            return;
        arg = arg->type_cast->arg;
    }
    if (arg->node_case != PG_QUERY__NODE__NODE_A_CONST)
        ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
                errmsg("SET requires a constant value"),
                errposition(stmt_errpos(st, st->parsed->location)));
    c = arg->a_const;
    switch (c->val_case) {
    case PG_QUERY__A__CONST__VAL_IVAL:
        snprintf(buf + len, size - len, "%d", c->ival->ival);
        break;
    case PG_QUERY__A__CONST__VAL_FVAL:
        snprintf(buf + len, size - len, "%s", c->fval->fval);
        break;
    case PG_QUERY__A__CONST__VAL_SVAL:
        snprintf(buf + len, size - len, "%s", c->sval->sval);
        break;
    case PG_QUERY__A__CONST__VAL_BOOLVAL:
        snprintf(buf + len, size - len, "%s",
                 c->boolval->boolval ? "on" : "off");
        break;
    default:
        ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
                errmsg("SET requires a constant value"),
                errposition(stmt_errpos(st, c->location)));
    }
}

/* End of the transaction: SET LOCALs end (commit), or every SET of the
 * transaction is undone (abort). */
static void
settings_at_xact_end(XactEvent event, void *arg)
{
    Session *s = arg;

    if (event == XACT_EVENT_COMMIT)
        s->settings = s->session_settings;
    else if (event == XACT_EVENT_ABORT)
        s->settings = s->xact_start_settings;
    else
        return;
    s->settings_saved = false;
    tdb_sql_sync_typeio(s);
}

/* Before the transaction's first SET: remember how to undo it. */
static void
save_settings(Session *s)
{
    if (s->settings_saved)
        return;
    s->xact_start_settings = s->settings;
    s->session_settings = s->settings;
    s->settings_saved = true;
    tdb_xact_register_callback(s->xact, settings_at_xact_end, s);
}

/* Apply one SET/RESET to the current values and, unless it is LOCAL, to
 * the values that survive the transaction. */
static void
apply_set(Session *s, const char *name, const char *value, bool is_local)
{
    tdb_guc_set(&s->settings, name, value);
    /* the value as computed now (DateStyle keeps parts it does not set) */
    if (!is_local)
        tdb_guc_copy(&s->session_settings, &s->settings, name);
}

static void
run_set(Statement *st, const PgQuery__VariableSetStmt *vs)
{
    Session *s = st->session;
    Settings *settings = &s->settings;
    char value[256] = "";

    if (vs->is_local && !s->explicit_block) {
        ereport(WARNING, errcode(ERRCODE_NO_ACTIVE_SQL_TRANSACTION),
                errmsg("SET LOCAL can only be used in transaction blocks"));
        complete(st, "SET");
        return;
    }
    save_settings(s);

    switch (vs->kind) {
    case PG_QUERY__VARIABLE_SET_KIND__VAR_SET_VALUE:
        for (size_t i = 0; i < vs->n_args; i++) {
            if (i > 0)
                strncat(value, ", ", sizeof(value) - strlen(value) - 1);
            append_set_arg(st, vs->args[i], value, sizeof(value));
        }
        apply_set(s, vs->name, value, vs->is_local);
        break;
    case PG_QUERY__VARIABLE_SET_KIND__VAR_SET_DEFAULT:
    case PG_QUERY__VARIABLE_SET_KIND__VAR_RESET:
        apply_set(s, vs->name, NULL, vs->is_local);
        break;
    case PG_QUERY__VARIABLE_SET_KIND__VAR_RESET_ALL:
        tdb_guc_init(settings, settings->zones);
        tdb_guc_init(&s->session_settings, settings->zones);
        break;
    default:
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("this form of SET is not supported yet"),
                errposition(stmt_errpos(st, st->parsed->location)));
    }
    if (strcasecmp(vs->name != NULL ? vs->name : "", "lock_timeout") == 0)
        tdb_xact_set_lock_timeout(st->session->xact, settings->lock_timeout);
    tdb_sql_sync_typeio(s);
    complete(st,
             vs->kind == PG_QUERY__VARIABLE_SET_KIND__VAR_RESET ||
                     vs->kind == PG_QUERY__VARIABLE_SET_KIND__VAR_RESET_ALL
                 ? "RESET"
                 : "SET");
}

static void
run_show(Statement *st, const PgQuery__VariableShowStmt *vs)
{
    const char *label;
    const char *value;

    if (strcasecmp(vs->name, "all") == 0)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("SHOW ALL is not supported yet"));
    value = tdb_guc_show(&st->session->settings, vs->name, &label);
    tdb_sql_send_text_result(st, label, &value, 1);
    complete(st, "SHOW");
}

/* ----------------------------------------------------------------------
 * CREATE TABLE
 * ---------------------------------------------------------------------- */

/*
 * The SQL text of an expression parse tree (PostgreSQL's deparser, as
 * libpg_query provides it): what pg_attrdef stores for a DEFAULT.
 */
static char *
deparse_expression(PgQuery__Node *expr)
{
    PgQuery__ResTarget target = PG_QUERY__RES_TARGET__INIT;
    PgQuery__Node target_node = PG_QUERY__NODE__INIT;
    PgQuery__Node *targets[1] = {&target_node};
    PgQuery__SelectStmt select = PG_QUERY__SELECT_STMT__INIT;
    PgQuery__Node select_node = PG_QUERY__NODE__INIT;
    PgQuery__RawStmt raw = PG_QUERY__RAW_STMT__INIT;
    PgQuery__RawStmt *raws[1] = {&raw};
    PgQuery__ParseResult result = PG_QUERY__PARSE_RESULT__INIT;
    PgQueryProtobuf pbuf;
    PgQueryDeparseResult deparsed;
    char *sql;

    target.val = expr;
    target_node.node_case = PG_QUERY__NODE__NODE_RES_TARGET;
    target_node.res_target = &target;
    select.n_target_list = 1;
    select.target_list = targets;
    select.limit_option = PG_QUERY__LIMIT_OPTION__LIMIT_OPTION_DEFAULT;
    select.op = PG_QUERY__SET_OPERATION__SETOP_NONE;
    select_node.node_case = PG_QUERY__NODE__NODE_SELECT_STMT;
    select_node.select_stmt = &select;
    raw.stmt = &select_node;
    result.version = PG_VERSION_NUM;
    result.n_stmts = 1;
    result.stmts = raws;

    pbuf.len = pg_query__parse_result__get_packed_size(&result);
    pbuf.data = tdb_palloc(pbuf.len);
    pg_query__parse_result__pack(&result, (uint8_t *)pbuf.data);
    deparsed = pg_query_deparse_protobuf(pbuf);
    if (deparsed.error != NULL) {
        char message[ERRMSG_MAX];

        snprintf(message, sizeof(message), "%s", deparsed.error->message);
        pg_query_free_deparse_result(deparsed);
        elog(ERROR, "could not deparse an expression: %s", message);
    }
    sql = tdb_mcxt_strdup(tdb_current_mcxt,
                          deparsed.query + strlen("SELECT "));
    pg_query_free_deparse_result(deparsed);
    return sql;
}

char *
tdb_sql_stored_expr(Expr *e, TupleDesc desc, char *fallback)
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

/* A CHECK constraint of CREATE TABLE, added after the table exists. */
typedef struct PendingCheck {
    const char *name;   /* given, or NULL: chosen as PostgreSQL does */
    char *expr;         /* deparsed SQL */
} PendingCheck;

/* Apply a column constraint of CREATE TABLE to col. */
static void
apply_column_constraint(const Statement *st, ColumnDef *col,
                        const PgQuery__Constraint *c, List **checks)
{
    switch (c->contype) {
    case PG_QUERY__CONSTR_TYPE__CONSTR_NOTNULL:
        col->not_null = true;
        return;
    case PG_QUERY__CONSTR_TYPE__CONSTR_NULL:
        col->not_null = false;
        return;
    case PG_QUERY__CONSTR_TYPE__CONSTR_DEFAULT:
        col->default_expr = tdb_sql_stored_expr(
            tdb_analyze_default((Statement *)st, c->raw_expr, col->typid,
                                col->typmod),
            NULL, deparse_expression(c->raw_expr));
        return;
    case PG_QUERY__CONSTR_TYPE__CONSTR_CHECK: {
        PendingCheck *pc = tdb_palloc0(sizeof(PendingCheck));

        pc->name = c->conname != NULL && c->conname[0] != '\0' ? c->conname
                                                              : NULL;
        pc->expr = deparse_expression(c->raw_expr);
        *checks = tdb_lappend(*checks, pc);
        return;
    }
    case PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY:
    case PG_QUERY__CONSTR_TYPE__CONSTR_UNIQUE:
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("PRIMARY KEY and UNIQUE constraints are not "
                       "supported yet (they need indexes)"),
                errposition(stmt_errpos(st, c->location)));
        break;
    default:
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("this kind of constraint is not supported yet"),
                errposition(stmt_errpos(st, c->location)));
    }
}

static void
column_from_parse(const Statement *st, const PgQuery__ColumnDef *def,
                  ColumnDef *col, List **checks)
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
        col->compression = tdb_sql_column_compression(col->typid,
                                                      def->compression);
    if (def->raw_default != NULL) {
        col->default_expr = tdb_sql_stored_expr(
            tdb_analyze_default((Statement *)st, def->raw_default,
                                col->typid, col->typmod),
            NULL, deparse_expression(def->raw_default));
    }
    for (size_t i = 0; i < def->n_constraints; i++)
        if (def->constraints[i]->node_case ==
            PG_QUERY__NODE__NODE_CONSTRAINT)
            apply_column_constraint(st, col, def->constraints[i]->constraint,
                                    checks);
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
    Transaction *xact = st->session->xact;
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
                              tdb_sql_stored_expr(e, rel->rd_att, pc->expr));
    }
    tdb_relation_close(rel);
}

static void
run_create_table(Statement *st, const PgQuery__CreateStmt *cs)
{
    const char *name = tdb_sql_table_name(st, cs->relation);
    ColumnDef *cols = tdb_palloc0(sizeof(ColumnDef) *
                                  (Size)Max(1, cs->n_table_elts));
    int ncols = 0;
    Oid relid;
    List *checks = NIL;

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
            column_from_parse(st, elt->column_def, &cols[ncols++], &checks);
        else if (elt->node_case == PG_QUERY__NODE__NODE_CONSTRAINT)
            apply_column_constraint(st, NULL, elt->constraint, &checks);
        else
            ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("LIKE in CREATE TABLE is not supported yet"),
                    errposition(stmt_errpos(st, st->parsed->location)));
    }
    relid = tdb_catalog_create_table(st->session->xact, name, cols, ncols,
                                     cs->if_not_exists);
    if (relid != InvalidOid)
        add_pending_checks(st, name, relid, checks);
    complete(st, "CREATE TABLE");
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
char
tdb_sql_column_compression(Oid typid, const char *name)
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

/* PostgreSQL's system columns: they exist, but cannot be altered. */
static bool
is_system_column(const char *name)
{
    static const char *const names[] = {"ctid", "xmin", "cmin",
                                        "xmax", "cmax", "tableoid"};

    for (size_t i = 0; i < lengthof(names); i++)
        if (strcmp(name, names[i]) == 0)
            return true;
    return false;
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
    if (is_system_column(name))
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
    char method =
        tdb_sql_column_compression(att->atttypid, alter_cmd_string(cmd));

    tdb_catalog_set_attcompression(xact, rel->rd_id, i + 1, method);
}

/* The table ALTER TABLE names, locked exclusively; NULL: IF EXISTS and
 * there is none (the NOTICE sent). */
static Relation
alter_table_open(Statement *st, const PgQuery__AlterTableStmt *as)
{
    Transaction *xact = st->session->xact;
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
static void
run_alter_table(Statement *st, const PgQuery__AlterTableStmt *as)
{
    Transaction *xact = st->session->xact;
    Relation rel;

    for (size_t i = 0; i < as->n_cmds; i++) {
        const PgQuery__AlterTableCmd *cmd = as->cmds[i]->alter_table_cmd;

        if (as->objtype != PG_QUERY__OBJECT_TYPE__OBJECT_TABLE ||
            as->cmds[i]->node_case != PG_QUERY__NODE__NODE_ALTER_TABLE_CMD ||
            (cmd->subtype != PG_QUERY__ALTER_TABLE_TYPE__AT_SetStorage &&
             cmd->subtype != PG_QUERY__ALTER_TABLE_TYPE__AT_SetCompression))
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
            else
                alter_set_compression(xact, rel, cmd);
        }
        (void)tdb_catalog_ensure_toast(xact, rel->rd_id);
        tdb_relation_close(rel);
    }
    complete(st, "ALTER TABLE");
}

/* ----------------------------------------------------------------------
 * DROP, TRUNCATE, VACUUM, ANALYZE
 * ---------------------------------------------------------------------- */

/* The table name of one DROP object (a list of name parts). */
static const char *
drop_object_name(const Statement *st, const PgQuery__Node *object)
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

static void
run_drop(Statement *st, const PgQuery__DropStmt *ds)
{
    if (ds->remove_type != PG_QUERY__OBJECT_TYPE__OBJECT_TABLE)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("only DROP TABLE is supported yet"),
                errposition(stmt_errpos(st, st->parsed->location)));
    for (size_t i = 0; i < ds->n_objects; i++) {
        const char *name = drop_object_name(st, ds->objects[i]);
        bool repeated = false;

        /* a table named twice is dropped once, as in PostgreSQL */
        for (size_t j = 0; j < i && !repeated; j++)
            repeated = strcmp(drop_object_name(st, ds->objects[j]), name) == 0;
        if (!repeated)
            tdb_catalog_drop_table(st->session->xact, name, ds->missing_ok);
    }
    complete(st, "DROP TABLE");
}

static void
run_truncate(Statement *st, const PgQuery__TruncateStmt *ts)
{
    Transaction *xact = st->session->xact;

    for (size_t i = 0; i < ts->n_relations; i++) {
        const PgQuery__RangeVar *rv = ts->relations[i]->range_var;
        Relation rel = tdb_relation_open(xact, tdb_sql_table_name(st, rv),
                                         REL_LOCK_SHARE);
        Oid relid = rel->rd_id;

        tdb_relation_close(rel);
        tdb_catalog_truncate_table(xact, relid);
    }
    complete(st, "TRUNCATE TABLE");
}

/* A VACUUM option's boolean value: no argument means true. */
static bool
vacuum_option_bool(const PgQuery__DefElem *def)
{
    const PgQuery__Node *arg = def->arg;

    if (arg == NULL)
        return true;
    if (arg->node_case == PG_QUERY__NODE__NODE_BOOLEAN)
        return arg->boolean->boolval;
    if (arg->node_case == PG_QUERY__NODE__NODE_INTEGER)
        return arg->integer->ival != 0;
    if (arg->node_case == PG_QUERY__NODE__NODE_STRING)
        return !(strcasecmp(arg->string->sval, "false") == 0 ||
                 strcasecmp(arg->string->sval, "off") == 0 ||
                 strcmp(arg->string->sval, "0") == 0);
    return true;
}

/*
 * Vacuum the relation with OID relid (tdb_heap_vacuum), if it still
 * exists; with verbose, PostgreSQL's INFO line.  Takes REL_LOCK_SHARE
 * until the end of the transaction: PostgreSQL's VACUUM takes
 * ShareUpdateExclusiveLock, which lets reads and writes go on but keeps
 * DROP, TRUNCATE and ALTER out; tupledb's weakest mode does exactly
 * that (its file stays in place), and VACUUM needs nothing stronger: it
 * moves rows only under each page's cleanup lock and writes no rows, so
 * it needs no xid and not the writer lock (access/vacuum.h).  Two
 * VACUUMs of one table, which ShareUpdateExclusiveLock would serialize,
 * are harmless here: the cleanup locks serialize them page by page.
 *
 * The table's TOAST relation is vacuumed right after it: its chunk rows
 * die with the row's xmax (toast/toaster.h), so this reclaims them
 * exactly when it reclaims the row -- never while a snapshot still sees
 * the row (the horizon is the same).
 */
static void
vacuum_one(Transaction *xact, Relation rel, const char *schema, bool verbose)
{
    VacuumStats stats;

    tdb_heap_vacuum(rel, xact, &stats);
    if (verbose)
        ereport(INFO, errmsg("vacuuming \"%s.%s\"", schema, rel->rd_name),
                errdetail("\"%s\": found %llu removable, %llu nonremovable "
                          "row versions in %u out of %u pages "
                          "(%llu dead but not yet removable; %u pages "
                          "skipped as pinned, %u with free space).",
                          rel->rd_name,
                          (unsigned long long)stats.tuples_removed,
                          (unsigned long long)stats.tuples_remaining,
                          stats.scanned_pages, stats.rel_pages,
                          (unsigned long long)stats.recently_dead,
                          stats.skipped_pages, stats.fsm_pages));
}

static void
vacuum_relation_oid(Transaction *xact, Oid relid, bool verbose)
{
    Relation rel, toast;

    tdb_lock_relation(xact, relid, REL_LOCK_SHARE);
    if (tdb_catalog_relation_name(xact, relid) == NULL)
        return; /* dropped since it was listed */
    rel = tdb_relation_open_by_oid(xact, relid, REL_LOCK_SHARE);
    vacuum_one(xact, rel, "public", verbose);
    toast = tdb_relation_open_toast(xact, rel, REL_LOCK_SHARE);
    if (toast != NULL) {
        vacuum_one(xact, toast, "pg_toast", verbose);
        tdb_relation_close(toast);
    }
    tdb_relation_close(rel);
}

/* The OIDs of every user table (pg_class rows of relkind 'r' from
 * FirstNormalObjectId up), into *oids (current context); their number. */
static int
list_user_tables(Transaction *xact, Oid **oids)
{
    Relation pg_class = tdb_relation_open_by_oid(xact, RelationRelationId,
                                                 REL_LOCK_SHARE);
    Snapshot snap = tdb_snapshot_take(tdb_xact_manager_of(xact), xact,
                                      tdb_current_mcxt);
    int oid_att = 0, kind_att = 0, n = 0, size = 16;
    HeapScanDesc scan;
    HeapTuple tup;

    for (int i = 0; i < pg_class->rd_att->natts; i++) {
        const char *name = TupleDescAttr(pg_class->rd_att, i)->attname;

        if (strcmp(name, "oid") == 0)
            oid_att = i + 1;
        else if (strcmp(name, "relkind") == 0)
            kind_att = i + 1;
    }
    if (oid_att == 0 || kind_att == 0)
        elog(ERROR, "pg_class lacks oid or relkind");
    *oids = tdb_palloc(size * sizeof(Oid));
    scan = tdb_heap_beginscan(pg_class, snap);
    while ((tup = tdb_heap_getnext(scan)) != NULL) {
        bool isnull;
        Oid oid = DatumGetObjectId(
            tdb_heap_getattr(tup, oid_att, pg_class->rd_att, &isnull));
        char kind = DatumGetChar(
            tdb_heap_getattr(tup, kind_att, pg_class->rd_att, &isnull));

        if (kind != 'r' || oid < FirstNormalObjectId)
            continue;
        if (n == size) {
            size *= 2;
            *oids = tdb_repalloc(*oids, size * sizeof(Oid));
        }
        (*oids)[n++] = oid;
    }
    tdb_heap_endscan(scan);
    tdb_relation_close(pg_class);
    return n;
}

/*
 * VACUUM [VERBOSE] [table, ...]: a lazy vacuum (access/vacuum.h) of the
 * named tables, or of every user table.  FULL is accepted and does the
 * same (the space is reused, the file does not shrink); ANALYZE is
 * accepted (tupledb keeps no statistics).  ANALYZE alone only checks
 * that the named tables exist.
 */
static void
run_vacuum(Statement *st, const PgQuery__VacuumStmt *vs)
{
    Transaction *xact = st->session->xact;
    bool verbose = false;
    Oid *oids;
    int n = 0;

    if (vs->is_vacuumcmd && st->session->explicit_block)
        ereport(ERROR, errcode(ERRCODE_ACTIVE_SQL_TRANSACTION),
                errmsg("VACUUM cannot run inside a transaction block"));
    for (size_t i = 0; i < vs->n_options; i++) {
        const PgQuery__Node *o = vs->options[i];

        if (o->node_case == PG_QUERY__NODE__NODE_DEF_ELEM &&
            strcmp(o->def_elem->defname, "verbose") == 0)
            verbose = vacuum_option_bool(o->def_elem);
    }
    oids = tdb_palloc(Max(vs->n_rels, 1) * sizeof(Oid));
    for (size_t i = 0; i < vs->n_rels; i++) {
        const PgQuery__Node *node = vs->rels[i];
        Relation rel;

        if (node->node_case != PG_QUERY__NODE__NODE_VACUUM_RELATION)
            continue;
        rel = tdb_relation_open(
            xact, tdb_sql_table_name(st, node->vacuum_relation->relation),
            REL_LOCK_SHARE);
        oids[n++] = rel->rd_id;
        tdb_relation_close(rel);
    }
    if (vs->is_vacuumcmd) {
        if (vs->n_rels == 0) {
            tdb_pfree(oids);
            n = list_user_tables(xact, &oids);
        }
        for (int i = 0; i < n; i++)
            vacuum_relation_oid(xact, oids[i], verbose);
    }
    tdb_pfree(oids);
    complete(st, vs->is_vacuumcmd ? "VACUUM" : "ANALYZE");
}

/* ----------------------------------------------------------------------
 * Dispatch
 * ---------------------------------------------------------------------- */

bool
tdb_sql_run_utility(Statement *st)
{
    const PgQuery__Node *n = st->parsed->stmt;

    switch (n->node_case) {
    case PG_QUERY__NODE__NODE_TRANSACTION_STMT:
        run_transaction_stmt(st, n->transaction_stmt);
        return true;
    case PG_QUERY__NODE__NODE_VARIABLE_SET_STMT:
        run_set(st, n->variable_set_stmt);
        return true;
    case PG_QUERY__NODE__NODE_VARIABLE_SHOW_STMT:
        run_show(st, n->variable_show_stmt);
        return true;
    case PG_QUERY__NODE__NODE_CREATE_STMT:
        run_create_table(st, n->create_stmt);
        return true;
    case PG_QUERY__NODE__NODE_DROP_STMT:
        run_drop(st, n->drop_stmt);
        return true;
    case PG_QUERY__NODE__NODE_TRUNCATE_STMT:
        run_truncate(st, n->truncate_stmt);
        return true;
    case PG_QUERY__NODE__NODE_ALTER_TABLE_STMT:
        run_alter_table(st, n->alter_table_stmt);
        return true;
    case PG_QUERY__NODE__NODE_VACUUM_STMT:
        run_vacuum(st, n->vacuum_stmt);
        return true;
    case PG_QUERY__NODE__NODE_COPY_STMT:
        tdb_sql_copy(st, n->copy_stmt); /* copy.c */
        return true;
    default:
        return tdb_sql_run_role_utility(st); /* role.c */
    }
}
