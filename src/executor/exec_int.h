/*
 * exec_int.h -- the executor's per-node entry points, for the dispatcher
 * (exec_procnode.c).  Each plan node type has one file with
 * tdb_exec_init_<node>, which creates its PlanState and sets its exec /
 * end / rescan functions.
 */
#ifndef TDB_EXECUTOR_EXEC_INT_H
#define TDB_EXECUTOR_EXEC_INT_H

#include "common/base.h"
#include "executor/executor.h"

PlanState *tdb_exec_init_result(Result *plan, EState *estate);
PlanState *tdb_exec_init_valuesscan(ValuesScan *plan, EState *estate);
PlanState *tdb_exec_init_seqscan(SeqScan *plan, EState *estate);
PlanState *tdb_exec_init_indexscan(IndexScan *plan, EState *estate);
PlanState *tdb_exec_init_functionscan(FunctionScan *plan, EState *estate);
PlanState *tdb_exec_init_subqueryscan(SubqueryScan *plan, EState *estate);
PlanState *tdb_exec_init_nestloop(NestLoop *plan, EState *estate);
PlanState *tdb_exec_init_hashjoin(HashJoin *plan, EState *estate);
PlanState *tdb_exec_init_mergejoin(MergeJoin *plan, EState *estate);
PlanState *tdb_exec_init_agg(Agg *plan, EState *estate);
PlanState *tdb_exec_init_sort(Sort *plan, EState *estate);
/* A tuplesort configured from the statement (work_mem, temp files,
 * trace_sort, interrupts), its memory below parent. */
/* estate's detoast cache (toast/detoast.h), made on first use: pushed
 * around whatever detoasts outside tdb_exec_start / _fetch / _finish. */
struct DetoastEnv *tdb_exec_detoast_env(EState *estate);

struct Tuplesort *tdb_exec_begin_sort(EState *estate, TupleDesc desc,
                                      const SortKey *keys, int nkeys,
                                      MemoryContext parent);
/* Limit: only the first bound rows of this Sort node will be read. */
void tdb_exec_sort_set_bound(PlanState *node, int64 bound);
PlanState *tdb_exec_init_material(Material *plan, EState *estate);
PlanState *tdb_exec_init_limit(Limit *plan, EState *estate);
PlanState *tdb_exec_init_unique(Unique *plan, EState *estate);
PlanState *tdb_exec_init_append(Append *plan, EState *estate);
PlanState *tdb_exec_init_projectset(ProjectSet *plan, EState *estate);
PlanState *tdb_exec_init_recursiveunion(RecursiveUnion *plan,
                                        EState *estate);
PlanState *tdb_exec_init_worktablescan(WorkTableScan *plan, EState *estate);
/* The round of the RecursiveUnion whose working table is wt_param: it
 * grows by one each time the working table changes. */
int64 tdb_exec_worktable_round(EState *estate, int wt_param);
PlanState *tdb_exec_init_ctescan(CteScan *plan, EState *estate);
PlanState *tdb_exec_init_setop(SetOp *plan, EState *estate);
PlanState *tdb_exec_init_modifytable(ModifyTable *plan, EState *estate);

/*
 * A SeqScan that returns one column and has no qual (and is not being
 * timed by EXPLAIN ANALYZE) can hand its parent that column of up to max
 * next rows at once (exec_seqscan.c): the count, 0 at the end.
 * By-reference values are valid until the next call.
 */
bool tdb_exec_seqscan_can_batch(PlanState *node);
int tdb_exec_seqscan_batch(PlanState *node, Datum *values, bool *isnull,
                           int max);
/* For a top-N sort over a plain scan (no qual, every column): one
 * column of a page's rows at a time, and the rows it keeps. */
bool tdb_exec_seqscan_can_key_batch(PlanState *node);
int tdb_exec_seqscan_key_batch(PlanState *node, int attnum, Datum *values,
                               bool *isnull, int max);
TupleTableSlot *tdb_exec_seqscan_key_batch_row(PlanState *node, int k);

#endif /* TDB_EXECUTOR_EXEC_INT_H */
