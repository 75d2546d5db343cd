/*
 * createas.c -- CREATE TABLE ... AS SELECT and SELECT ... INTO.
 *
 * Both make a table shaped like a query's result and fill it with the
 * rows:
 *
 *   1. analyze the query (SELECT INTO's SelectStmt without its INTO);
 *   2. the columns: the result's visible columns, named by the INTO
 *      column list where given (more names than columns is 42601 "too
 *      many column names were specified"), else by their labels
 *      ("?column?" included, as in PostgreSQL), with the result types and
 *      typmods (an unresolved literal becomes text);
 *   3. create the table (IF NOT EXISTS: an existing table is a NOTICE and
 *      nothing else happens);
 *   4. unless WITH NO DATA, plan and run the query into a receiver that
 *      inserts each row through the bulk-insert path.
 *
 * Everything happens in the statement's transaction, so a failure part
 * way (a division by zero in row 1000) leaves no table behind.  The
 * command tag is PostgreSQL's: "SELECT n" (the rows stored), or "CREATE
 * TABLE AS" when no rows were asked for or the table existed.
 */
#include "common/base.h"

#include <string.h>

#include "access/heapam.h"
#include "catalog/catalog.h"
#include "catalog/pg_type.h"
#include "commands/commands_int.h"
#include "common/elog.h"
#include "executor/executor.h"
#include "optimizer/planner.h"
#include "parser/analyze.h"
#include "toast/toaster.h"

/* A receiver storing each row it is sent in a table. */
typedef struct InsertReceiver {
    DestReceiver pub;
    Relation rel;
    ToastTarget toast;
    MemoryContext row_cxt; /* reset per row */
    BulkInsertState bistate;
    uint64 rows;
} InsertReceiver;

static void
insert_row(DestReceiver *self, TupleTableSlot *slot)
{
    InsertReceiver *r = (InsertReceiver *)self;
    MemoryContext old = tdb_mcxt_switch_to(r->row_cxt);
    HeapTuple tup;

    tdb_slot_getallattrs(slot);
    tup = tdb_toast_form_tuple(&r->toast, slot->tts_values, slot->tts_isnull,
                               NULL, NULL, NULL);
    tdb_heap_insert(r->rel, tup, r->toast.xact, r->bistate);
    tdb_mcxt_switch_to(old);
    tdb_mcxt_reset(r->row_cxt);
    r->rows++;
}

static const char *
column_name(const PgQuery__IntoClause *into, int i, const TargetEntry *te)
{
    if ((size_t)i < into->n_col_names)
        return into->col_names[i]->string->sval;
    return te->resname != NULL ? te->resname : "?column?";
}

/* The new table's columns: the query's visible result columns. */
static ColumnDef *
result_columns(Query *q, const PgQuery__IntoClause *into,
               int *ncols)
{
    ColumnDef *cols =
        tdb_palloc0(sizeof(ColumnDef) *
                    (Size)Max(1, list_length(q->target_list)));
    int n = 0;

    for (int i = 0; i < list_length(q->target_list); i++) {
        TargetEntry *te = list_nth(q->target_list, i);
        Oid type = exprType(te->expr);

        if (te->resjunk)
            continue;
        cols[n].name = column_name(into, n, te);
        cols[n].typid = type == UNKNOWNOID ? TEXTOID : type;
        cols[n].typmod = type == UNKNOWNOID ? -1 : exprTypmod(te->expr);
        n++;
    }
    if (into->n_col_names > (size_t)n)
        ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
                errmsg("too many column names were specified"));
    *ncols = n;
    return cols;
}

/* Run the planned query into the new table; the number of rows stored. */
static uint64
fill_table(Statement *st, Query *q, Oid relid)
{
    PlannedStmt *stmt = tdb_plan_query(st, q);
    EState *estate = tdb_sql_create_estate(st, stmt);
    InsertReceiver receiver;

    memset(&receiver, 0, sizeof(receiver));
    receiver.pub.receive = insert_row;
    receiver.rel = tdb_exec_open_relation(estate, relid);
    tdb_exec_init_toast_target(estate, receiver.rel, &receiver.toast);
    receiver.row_cxt = tdb_aset_create(estate->query_mcxt, "CreateAsRow",
                                       ALLOCSET_DEFAULT_SIZES);
    receiver.bistate = tdb_heap_bulk_insert_begin();
    (void)tdb_exec_run(stmt, estate, &receiver.pub);
    tdb_heap_bulk_insert_end(receiver.bistate);
    tdb_exec_free_estate(estate);
    return receiver.rows;
}

static void
create_as(Statement *st, PgQuery__Node *select, PgQuery__IntoClause *into,
          bool if_not_exists)
{
    Query *q = tdb_analyze_statement(st, select);
    const char *name = tdb_sql_table_name(st, into->rel);
    ColumnDef *cols;
    int ncols;
    Oid relid;
    char tag[64];

    if (into->rel->relpersistence != NULL &&
        into->rel->relpersistence[0] == 't')
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("temporary tables are not supported yet"),
                errposition(stmt_errpos(st, into->rel->location)));
    cols = result_columns(q, into, &ncols);
    relid =
        tdb_catalog_create_table(st->xact, name, cols, ncols, if_not_exists);
    if (relid == InvalidOid || into->skip_data)
        strcpy(tag, "CREATE TABLE AS");
    else
        snprintf(tag, sizeof(tag), "SELECT %llu",
                 (unsigned long long)fill_table(st, q, relid));
    tdb_stmt_complete(st, tag);
}

bool
tdb_sql_run_create_as(Statement *st)
{
    PgQuery__Node *node = st->parsed->stmt;

    if (node->node_case == PG_QUERY__NODE__NODE_CREATE_TABLE_AS_STMT) {
        PgQuery__CreateTableAsStmt *cs = node->create_table_as_stmt;

        if (cs->objtype != PG_QUERY__OBJECT_TYPE__OBJECT_TABLE)
            ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("materialized views are not supported yet"),
                    errposition(stmt_errpos(st, st->parsed->location)));
        create_as(st, cs->query, cs->into, cs->if_not_exists);
        return true;
    }
    if (node->node_case == PG_QUERY__NODE__NODE_SELECT_STMT &&
        node->select_stmt->into_clause != NULL) {
        PgQuery__SelectStmt select = *node->select_stmt;
        PgQuery__Node query = *node;

        /* the query is the SELECT without its INTO (the tree is kept) */
        select.into_clause = NULL;
        query.select_stmt = &select;
        create_as(st, &query, node->select_stmt->into_clause, false);
        return true;
    }
    return false;
}
