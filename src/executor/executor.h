/*
 * executor.h -- running plans: the executor's state, the node
 * interface, and the entry point that runs a planned statement.
 *
 * Execution is pull-based (Volcano): every plan node has a PlanState
 * with an exec function that returns its next row in a slot, or NULL at
 * the end.  A node's slot stays valid until its next call.  Nodes that
 * compute values (projections, quals) do so in their ExprContext's
 * per-row memory, reset at the start of each row.
 *
 * Memory: an EState owns the "ExecutorState" context, which holds every
 * PlanState, compiled expression and slot; ending the executor deletes
 * it.  Errors unwind to the statement boundary, which deletes the
 * context and releases buffer pins; nodes hold nothing else that needs
 * releasing (scans' pins are the thread's, temp files have callbacks).
 */
#ifndef TDB_EXECUTOR_EXECUTOR_H
#define TDB_EXECUTOR_EXECUTOR_H

#include "common/base.h"
#include "access/snapshot.h"
#include "access/xact.h"
#include "executor/dest.h"
#include "executor/expr.h"
#include "nodes/plannodes.h"

/* EXPLAIN ANALYZE's per-node counters. */
typedef struct Instrumentation {
    bool running;        /* first row produced */
    double startup_ms;   /* time to the first row, this loop */
    double total_ms;     /* time in the node, all loops */
    double ntuples;      /* rows returned, all loops */
    double nloops;
    double first_row_ms; /* accumulated startup over loops */
    double loop_start;   /* clock at the current call */
    double tuples_this_loop;
    double nfiltered;    /* rows the node's qual removed, all loops */
    double nfiltered_join; /* pairs a join's join qual rejected */
} Instrumentation;

/* Per-statement execution state. */
typedef struct EState {
    MemoryContext query_mcxt; /* "ExecutorState" */
    Transaction *xact;
    Snapshot snapshot;
    CommandId cid;            /* the statement's command id */
    List *subplans;           /* Plan, from the PlannedStmt */
    List *subplan_states;     /* PlanState per subplan (lazily) */
    ParamExecData *params;    /* PARAM_EXEC values */
    int nparams;
    /* PARAM_EXTERN values ($1 = [0]), borrowed from the portal; the
     * expression compiler reads them (they are fixed per execution) */
    const ParamExternData *ext_params;
    int n_ext_params;
    uint64 processed;         /* rows returned / changed (command tag) */
    int work_mem;             /* kB */
    double hash_mem_multiplier;
    bool trace_sort;          /* LOG lines from sorts (tuplesort.h) */
    /* directory for spill files (storage/tempfile.h), borrowed: the
     * database's "<datadir>/base/pgsql_tmp"; NULL without a database
     * (executor unit tests): use tdb_tempfile_default_dir() */
    const char *temp_dir;
    bool instrument;          /* EXPLAIN ANALYZE: time every node */
    /* Interrupt check (cancel): called once per row in scans. */
    void (*check_interrupts)(void *arg);
    void *check_interrupts_arg;
    List *relations;          /* Relation, opened for the statement */
    /* TOAST: the query's detoast cache (created at tdb_exec_start, active
     * while the executor runs: toast/detoast.h), its budget in kB (0: no
     * cache), LOG its counters at the end (trace_detoast), and the
     * compression method for values stored without a column setting */
    struct DetoastEnv *detoast_env;
    int detoast_cache_kb;
    bool trace_detoast;
    char default_toast_compression;
} EState;

struct PlanState;
typedef TupleTableSlot *(*ExecProcFunc)(struct PlanState *node);

typedef struct PlanState {
    NodeTag tag;
    Plan *plan;
    EState *estate;
    ExecProcFunc exec;
    void (*end)(struct PlanState *node);
    void (*rescan)(struct PlanState *node);
    /* Remember the position of the row last returned / go back to it, so
     * the next call returns the row after it again (merge join's inner
     * side).  NULL for nodes that cannot (tdb_exec_supports_mark). */
    void (*mark_pos)(struct PlanState *node);
    void (*restore_pos)(struct PlanState *node);
    struct PlanState *lefttree;
    struct PlanState *righttree;
    ExprContext *econtext;
    ExprState *qual;
    ExprState *projection;
    TupleTableSlot *result_slot; /* the projection's output */
    TupleDesc result_desc;
    Instrumentation *instr;      /* EXPLAIN ANALYZE, else NULL */
    /* false (as allocated) until the node's first call has checked the
     * stack depth; then true unless instr: the one test
     * tdb_exec_proc_node makes per row */
    bool exec_fast;
} PlanState;

/* ----- node interface (exec_procnode.c) ----- */

/* Create the state of plan and (recursively) its children. */
PlanState *tdb_exec_init_node(Plan *plan, EState *estate);

/*
 * The node's next row, or NULL at the end.  The first call of each node
 * checks the stack depth (the plan's depth is the statement's, and a
 * node's call to its child recurses), as PostgreSQL's first call does;
 * EXPLAIN ANALYZE's nodes take the slow path every time, to be timed.
 */
TupleTableSlot *tdb_exec_proc_node_slow(PlanState *node);

static inline TupleTableSlot *
tdb_exec_proc_node(PlanState *node)
{
    if (unlikely(!node->exec_fast))
        return tdb_exec_proc_node_slow(node);
    return node->exec(node);
}

void tdb_exec_end_node(PlanState *node);
void tdb_exec_rescan(PlanState *node);

/*
 * Mark / restore: tdb_exec_mark_pos remembers the row the node returned
 * last; after tdb_exec_restore_pos the node's next call returns the row
 * that followed it, as at the time of marking.  Only for nodes whose plan
 * tdb_exec_supports_mark accepts (Sort, Material).  A rescan forgets the mark.
 */
void tdb_exec_mark_pos(PlanState *node);
void tdb_exec_restore_pos(PlanState *node);
bool tdb_exec_supports_mark(const Plan *plan);

/* ----- helpers for nodes (exec_util.c) ----- */

/* Common initialization: econtext, result descriptor/slot from the
 * target list, projection and qual over the given input slots. */
void tdb_exec_init_common(PlanState *ps, Plan *plan, EState *estate,
                          size_t size);
/* A TupleDesc with the target list's shape (names, types). */
TupleDesc tdb_exec_type_from_tlist(List *targetlist);
/* Build the projection and qual after the node set its econtext slots. */
void tdb_exec_assign_projection(PlanState *ps);
/* Reset the per-row memory of a node's ExprContext. */
static inline void
tdb_exec_reset_row(ExprContext *econtext)
{
    tdb_mcxt_reset(econtext->per_row_mcxt);
}
/* Is the node's projection a no-op over slot (so slot can be returned)? */
TupleTableSlot *tdb_exec_project_or_pass(PlanState *ps, TupleTableSlot *in);

/*
 * Are rows a and b equal on the given 1-based columns, by the given
 * equality operators, NULL equal to NULL (DISTINCT, GROUP BY, set
 * operations)?
 */
bool tdb_exec_rows_equal(TupleTableSlot *a, TupleTableSlot *b, int ncols,
                         const int *cols, const OperDesc *const *eq_ops);

/* An all-NULL row shaped like ps's result (outer joins). */
TupleTableSlot *tdb_exec_null_slot(PlanState *ps);

/* The node's qual over its econtext; a removed row is counted for
 * EXPLAIN ANALYZE's "Rows Removed by Filter". */
static inline bool
tdb_exec_filter(PlanState *node)
{
    if (tdb_exec_qual(node->qual, node->econtext))
        return true;
    if (unlikely(node->instr != NULL))
        node->instr->nfiltered += 1;
    return false;
}

/* A join's join qual over its econtext; a rejected pair is counted for
 * EXPLAIN ANALYZE's "Rows Removed by Join Filter". */
static inline bool
tdb_exec_join_filter(PlanState *node, ExprState *joinqual)
{
    if (tdb_exec_qual(joinqual, node->econtext))
        return true;
    if (unlikely(node->instr != NULL))
        node->instr->nfiltered_join += 1;
    return false;
}

/* Check for cancel (the statement's interrupt hook). */
static inline void
tdb_exec_check_interrupts(EState *estate)
{
    if (estate->check_interrupts != NULL)
        estate->check_interrupts(estate->check_interrupts_arg);
}

/* ----- subplans and params (exec_subplan.c) ----- */

typedef struct SubPlanState SubPlanState;

SubPlanState *tdb_exec_init_subplan(SubPlan *subplan, EState *estate);
Datum tdb_exec_subplan(SubPlanState *sstate, ExprContext *econtext,
                       bool *isnull);
/* A PARAM_EXEC's value (running its initplan first if needed). */
void tdb_exec_eval_param(ExprContext *econtext, int paramid, Datum *value,
                         bool *isnull);
/*
 * Can a hashed subplan (SubPlan.use_hash) compare by op, a strict
 * equality whose arguments are the outer value (left) and the subquery's
 * (right)?  The planner asks before hashing (exec_subplan.c has the
 * types it handles).
 */
bool tdb_exec_subplan_op_hashable(const OperDesc *op);
/*
 * EXPLAIN ANALYZE: the node state that ran subplan plan_id (1-based; the
 * first, if its expression was compiled more than once), or NULL if it
 * was never set up.
 */
PlanState *tdb_exec_subplan_planstate(EState *estate, int plan_id);

/* ----- what EXPLAIN ANALYZE reads of a node's run ----- */

/* EXPLAIN ANALYZE: a hashed Agg's batches, peak memory and peak disk
 * space in kB; false if node does not aggregate by hashing. */
bool tdb_exec_agg_hash_stats(PlanState *node, int *batches, int64 *peak_kb,
                             int64 *disk_kb);

/* EXPLAIN ANALYZE: a hashed SetOp's batches, peak memory and peak disk
 * space in kB; false if node is not a hashed SetOp. */
bool tdb_exec_setop_hash_stats(PlanState *node, int *batches, int64 *peak_kb,
                               int64 *disk_kb);

/* EXPLAIN ANALYZE of INSERT ... ON CONFLICT (a ModifyTable node): the
 * rows inserted, the rows that met a conflict, and those of them DO
 * UPDATE's WHERE filtered out. */
void tdb_exec_modifytable_conflict_stats(PlanState *node, double *inserted,
                                         double *conflicting, double *filtered);

/* EXPLAIN ANALYZE: a Hash node's table size (buckets, bytes). */
void tdb_exec_hash_stats(PlanState *hash, int64 *nbuckets, int64 *bytes);

/* EXPLAIN ANALYZE: an Index Only Scan's heap visits ("Heap Fetches"). */
double tdb_exec_indexscan_heap_fetches(PlanState *node);

/* The children of an Append state (EXPLAIN). */
int tdb_exec_append_children(PlanState *node, PlanState ***children);

/* ----- running a statement (exec_main.c) ----- */

/*
 * Run stmt to completion, sending rows to dest (SELECT, RETURNING),
 * counting processed rows in estate.  estate must have been prepared by
 * tdb_exec_create_estate.  Returns the top PlanState (for EXPLAIN
 * ANALYZE), valid until the estate is freed.
 */
EState *tdb_exec_create_estate(Transaction *xact, Snapshot snapshot,
                               PlannedStmt *stmt);
PlanState *tdb_exec_run(PlannedStmt *stmt, EState *estate,
                        DestReceiver *dest);

/*
 * The same, a few rows at a time (a portal of the extended protocol):
 * tdb_exec_start builds the PlanState tree and calls dest->startup (if
 * the statement returns rows); tdb_exec_fetch sends up to count rows
 * (count <= 0: all) and returns true when the plan is exhausted (and
 * then ends its nodes); tdb_exec_finish ends the nodes if a fetch has
 * not.  Between calls the estate's memory holds the scan positions;
 * buffer pins of the thread stay held by the scans.  The caller keeps
 * estate->processed as the total so far.
 */
PlanState *tdb_exec_start(PlannedStmt *stmt, EState *estate,
                          DestReceiver *dest);
bool tdb_exec_fetch(PlannedStmt *stmt, EState *estate, PlanState *top,
                    DestReceiver *dest, int64 count);
void tdb_exec_finish(EState *estate, PlanState *top);
void tdb_exec_free_estate(EState *estate);

/* Open a relation for the statement (cached per relid in the estate). */
Relation tdb_exec_open_relation(EState *estate, Oid relid);

/* Where rows of rel go, for the toaster (toast/toaster.h): its toast
 * relation opened for the statement, the statement's transaction and
 * default compression. */
struct ToastTarget;
void tdb_exec_init_toast_target(EState *estate, Relation rel,
                                struct ToastTarget *target);

/* After an error at the statement boundary: no query runs any more
 * (forget the detoast cache the error left active). */
void tdb_exec_forget_running_query(void);

#endif /* TDB_EXECUTOR_EXECUTOR_H */
