/*
 * nodes.h -- node tags and lists: the vocabulary shared by the analyzer,
 * the planner and the executor.
 *
 * Every expression, plan and executor-state struct starts with a
 * NodeTag, so code can ask what a `Node *` is (nodeTag / IsA), as in
 * PostgreSQL.  Lists are PostgreSQL's (13+) kind: an array of pointers
 * that grows by doubling, so indexing is O(1) and appending amortized
 * O(1); they live in the memory context that was current when they were
 * created.
 */
#ifndef TDB_NODES_NODES_H
#define TDB_NODES_NODES_H

#include "common/base.h"
#include "mmgr/mcxt.h"

typedef enum NodeTag {
    T_Invalid = 0,
    T_List,

    /* expressions (primnodes.h) */
    T_Var,
    T_Const,
    T_Param,
    T_FuncExpr,
    T_OpExpr,
    T_BoolExpr,
    T_CaseExpr,
    T_CaseWhen,
    T_CaseTestExpr,
    T_NullTest,
    T_BooleanTest,
    T_CoalesceExpr,
    T_NullIfExpr,
    T_DistinctExpr,
    T_MinMaxExpr,
    T_RowExpr,
    T_RelabelType,
    T_CoerceViaIO,
    T_CoerceToTypmod,
    T_InListExpr,
    T_ScalarArrayOpExpr,
    T_ArrayExpr,
    T_Aggref,
    T_SubLink,
    T_SubPlan,
    T_TargetEntry,

    /* query structure (parser/query.h) */
    T_Query,
    T_RangeTblEntry,
    T_RangeTblRef,
    T_JoinExpr,
    T_FromExpr,
    T_SortGroupClause,
    T_SetOperationStmt,
    T_CommonTableExpr,

    /* plans (plannodes.h) */
    T_Result,
    T_ValuesScan,
    T_SeqScan,
    T_IndexScan,
    T_FunctionScan,
    T_SubqueryScan,
    T_CteScan,
    T_WorkTableScan,
    T_NestLoop,
    T_HashJoin,
    T_MergeJoin,
    T_Hash,
    T_Agg,
    T_Sort,
    T_Limit,
    T_Unique,
    T_Append,
    T_RecursiveUnion,
    T_SetOp,
    T_ProjectSet,
    T_ModifyTable,
    T_Material,

    /* executor states (execnodes.h) */
    T_PlanState,
} NodeTag;

typedef struct Node {
    NodeTag type;
} Node;

#define nodeTag(n) (((const Node *)(n))->type)
#define IsA(n, t) ((n) != NULL && nodeTag(n) == T_##t)

/* A zeroed node of struct type `t` with tag T_t, in the current context. */
#define makeNode(t) ((t *)tdb_new_node(sizeof(t), T_##t))
void *tdb_new_node(Size size, NodeTag tag);

/* ----------------------------------------------------------------------
 * Lists
 * ---------------------------------------------------------------------- */

typedef union ListCell {
    void *ptr;
    int ival;
} ListCell;

typedef struct List {
    NodeTag type; /* T_List, so a list can stand where a Node can */
    int length;
    int max_length;
    ListCell *elements;
} List;

#define NIL ((List *)NULL)

static inline int
list_length(const List *l)
{
    return l != NULL ? l->length : 0;
}

static inline void *
list_nth(const List *l, int n)
{
    Assert(l != NULL && n >= 0 && n < l->length);
    return l->elements[n].ptr;
}

static inline int
list_nth_int(const List *l, int n)
{
    Assert(l != NULL && n >= 0 && n < l->length);
    return l->elements[n].ival;
}

static inline void *
linitial(const List *l)
{
    return list_nth(l, 0);
}

static inline void *
llast(const List *l)
{
    return list_nth(l, l->length - 1);
}

List *tdb_lappend(List *list, void *datum);
List *tdb_lappend_int(List *list, int datum);
List *tdb_lprepend(List *list, void *datum);
List *tdb_list_make1(void *datum);
List *tdb_list_make2(void *a, void *b);
List *tdb_list_concat(List *a, const List *b); /* appends b to a */
List *tdb_list_copy(const List *list);
bool tdb_list_member_ptr(const List *list, const void *datum);
bool tdb_list_member_int(const List *list, int datum);
List *tdb_list_delete_nth(List *list, int n);

#endif /* TDB_NODES_NODES_H */
