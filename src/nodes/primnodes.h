/*
 * primnodes.h -- expression trees (PostgreSQL's primnodes.h, trimmed).
 *
 * The analyzer builds these with every node typed (Expr.type_oid /
 * typmod) and every function and operator resolved to its descriptor;
 * the planner rewrites Vars to point at plan inputs; the executor
 * compiles them into flat step programs (expr.h).
 *
 * Vars: during analysis and planning a Var names a range-table entry
 * (varno, 1-based) and a column (varattno, 1-based) at query level
 * varlevelsup (0 = this query).  In a finished plan, varno is one of
 * SCAN_VAR / OUTER_VAR / INNER_VAR (which input slot of the plan node)
 * and varattno the column of that slot.
 */
#ifndef TDB_NODES_PRIMNODES_H
#define TDB_NODES_PRIMNODES_H

#include "common/base.h"
#include "nodes/nodes.h"
#include "tuple/datum.h"
#include "types/builtins.h"

/* varattno of the row's TID (a scan's "ctid" system column). */
#define SelfItemPointerAttributeNumber (-1)

/* Special varno values in finished plans. */
#define SCAN_VAR (-1)  /* the node's scan tuple */
#define OUTER_VAR (-2) /* the left input's tuple */
#define INNER_VAR (-3) /* the right input's tuple */

/* Every expression node starts with this. */
typedef struct Expr {
    NodeTag tag;
    Oid type_oid;  /* result type */
    int32 typmod;  /* result typmod, -1 if none */
    int location;  /* byte offset in the statement text, -1 if none */
} Expr;

#define exprType(e) (((const Expr *)(e))->type_oid)
#define exprTypmod(e) (((const Expr *)(e))->typmod)
#define exprLocation(e) (((const Expr *)(e))->location)

typedef struct Var {
    Expr xpr;
    int varno;       /* range-table index, or SCAN/OUTER/INNER_VAR */
    int varattno;    /* column, 1-based */
    int varlevelsup; /* 0: this query; n: n levels out (correlation) */
} Var;

typedef struct Const {
    Expr xpr;
    int16 constlen;  /* the type's typlen */
    bool constbyval;
    bool constisnull;
    Datum constvalue;
} Const;

typedef enum ParamKind {
    PARAM_EXTERN, /* $n of a prepared statement */
    PARAM_EXEC,   /* a value passed into a subplan / from an initplan */
    PARAM_SUBLINK, /* analysis only: column paramid of an ANY/ALL
                    * sublink's subquery (the planner renumbers) */
} ParamKind;

typedef struct Param {
    Expr xpr;
    ParamKind paramkind;
    int paramid; /* 1-based for EXTERN; index into the exec params */
} Param;

/* A function call (or an operator, which is a function with a name). */
typedef struct FuncExpr {
    Expr xpr;
    const FuncDesc *func; /* the resolved function */
    List *args;           /* argument expressions */
    bool is_cast;         /* shown as a cast by EXPLAIN */
    bool funcvariadic;    /* VARIADIC: the last argument is the array of
                           * the variadic ones (FuncDesc.variadic_any) */
} FuncExpr;

typedef struct OpExpr {
    Expr xpr;
    const OperDesc *op;
    List *args; /* one (prefix) or two */
} OpExpr;

typedef enum BoolExprType {
    AND_EXPR,
    OR_EXPR,
    NOT_EXPR,
} BoolExprType;

typedef struct BoolExpr {
    Expr xpr;
    BoolExprType boolop;
    List *args;
} BoolExpr;

/* CASE [arg] WHEN ... THEN ... [ELSE defresult] END */
typedef struct CaseExpr {
    Expr xpr;
    Expr *arg;        /* simple CASE's test value, or NULL */
    List *whens;      /* CaseWhen */
    Expr *defresult;  /* ELSE, or a NULL Const */
} CaseExpr;

typedef struct CaseWhen {
    Expr xpr;
    Expr *expr;   /* condition (with CaseTestExpr for a simple CASE) */
    Expr *result;
} CaseWhen;

/* The simple CASE's test value inside a WHEN condition. */
typedef struct CaseTestExpr {
    Expr xpr;
} CaseTestExpr;

typedef struct NullTest {
    Expr xpr;
    Expr *arg;
    bool is_not_null; /* IS NOT NULL (else IS NULL) */
} NullTest;

typedef enum BoolTestType {
    IS_TRUE,
    IS_NOT_TRUE,
    IS_FALSE,
    IS_NOT_FALSE,
    IS_UNKNOWN,
    IS_NOT_UNKNOWN,
} BoolTestType;

typedef struct BooleanTest {
    Expr xpr;
    Expr *arg;
    BoolTestType booltesttype;
} BooleanTest;

typedef struct CoalesceExpr {
    Expr xpr;
    List *args;
} CoalesceExpr;

/* NULLIF(a, b): the equality operator of a and b, NULL if equal. */
typedef struct NullIfExpr {
    Expr xpr;
    const OperDesc *op;
    List *args;
} NullIfExpr;

/* a IS [NOT] DISTINCT FROM b: uses the equality operator. */
typedef struct DistinctExpr {
    Expr xpr;
    const OperDesc *op;
    List *args;
    bool is_not; /* IS NOT DISTINCT FROM */
} DistinctExpr;

/* GREATEST / LEAST */
typedef struct MinMaxExpr {
    Expr xpr;
    bool is_greatest;
    const TypeSupport *support; /* cmp of the common type */
    List *args;
} MinMaxExpr;

/*
 * ROW(a, b, ...) as one value: an anonymous record (type record) of the
 * arguments, in types/record.c's layout.  Made by the WITH RECURSIVE
 * SEARCH / CYCLE rewrite (parser/analyze.c); SQL's ROW constructor is
 * not analyzed into one yet.
 */
typedef struct RowExpr {
    Expr xpr;
    List *args;
} RowExpr;

/* Same bits, new type (binary-coercible casts, e.g. varchar -> text). */
typedef struct RelabelType {
    Expr xpr;
    Expr *arg;
} RelabelType;

/* Cast by output then input function (e.g. int4 -> text). */
typedef struct CoerceViaIO {
    Expr xpr;
    Expr *arg;
} CoerceViaIO;

/* Apply a typmod (varchar(n), numeric(p,s)) to a value of the type. */
typedef struct CoerceToTypmod {
    Expr xpr;
    Expr *arg;
    bool is_explicit;
} CoerceToTypmod;

/* x [NOT] IN (v1, v2, ...): ORed equalities with NULL semantics. */
typedef struct InListExpr {
    Expr xpr;
    Expr *arg;
    const OperDesc *op; /* = between arg's and the items' common type */
    List *items;
    bool is_not;
} InListExpr;

/*
 * x op ANY (array) / x op ALL (array) (PostgreSQL's ScalarArrayOpExpr):
 * op applied to x and each element, ORed (ANY) or ANDed (ALL); NULL for
 * a NULL array, false (ANY) / true (ALL) for an empty one.
 */
typedef struct ScalarArrayOpExpr {
    Expr xpr;
    const OperDesc *op; /* between x's type and the element type */
    bool use_or;        /* ANY; ALL if false */
    List *args;         /* x, then the array (of op's right type) */
} ScalarArrayOpExpr;

/* ARRAY[e1, e2, ...]: a one-dimensional array of the elements. */
typedef struct ArrayExpr {
    Expr xpr; /* type_oid: the array type */
    Oid element_type;
    List *elements;
} ArrayExpr;

/* An aggregate call, evaluated by the Agg node above. */
typedef struct Aggref {
    Expr xpr;
    const AggDesc *agg;
    List *args;        /* input expressions (TargetEntries in plans) */
    bool is_star;      /* count(*) */
    bool distinct;     /* agg(DISTINCT ...) */
    Expr *filter;      /* FILTER (WHERE ...), or NULL */
    List *order_exprs; /* ORDER BY inside the call: the key expressions */
    List *order_keys;  /* ... and their SortKeys (plannodes.h), whose col
                        * counts the arguments first: nargs + 1 is the
                        * first ORDER BY expression */
    int agglevelsup;   /* query level the aggregate belongs to */
    int aggno;         /* index in the Agg node's aggregate array */
} Aggref;

typedef enum SubLinkType {
    EXISTS_SUBLINK, /* EXISTS (subquery) */
    ANY_SUBLINK,    /* x IN (subquery), x op ANY (subquery) */
    ALL_SUBLINK,    /* x op ALL (subquery) */
    EXPR_SUBLINK,   /* (subquery) as a scalar */
    ARRAY_SUBLINK,  /* ARRAY(subquery): its rows' one column as an array */
    CTE_SUBLINK,    /* a WITH query computed once (an initplan that only
                     * EXPLAIN lists: its CTE Scans run it) */
} SubLinkType;

/* A subquery in an expression, as the analyzer leaves it. */
typedef struct SubLink {
    Expr xpr;
    SubLinkType sublink_type;
    Expr *testexpr; /* ANY/ALL: the comparison, with Params for the
                     * subquery's output columns */
    Node *subselect; /* the analyzed Query */
} SubLink;

/* A SubLink after planning: its plan and how to run it. */
typedef struct SubPlan {
    Expr xpr;
    SubLinkType sublink_type;
    Expr *testexpr;
    int plan_id;       /* 1-based index into the statement's subplans */
    List *param_ids;   /* Params the subquery's output columns feed
                        * (testexpr refers to them) */
    List *par_param;   /* correlated: the Params the subplan reads */
    List *args;        /* ... and the outer expressions that set them */
    bool is_initplan;  /* uncorrelated: computed once */
    List *set_param;   /* initplan: the Params it sets */
    bool use_hash;     /* IN / NOT IN by hashing the subquery's rows */
    const char *plan_name; /* CTE_SUBLINK: "CTE name", EXPLAIN's label */
} SubPlan;

/* A column of a target list (SELECT list, plan node output). */
typedef struct TargetEntry {
    Expr xpr;
    Expr *expr;
    int resno;           /* 1-based position */
    const char *resname; /* column label, or NULL */
    int ressortgroupref; /* > 0: referenced by ORDER/GROUP BY clauses */
    bool resjunk;        /* not part of the visible result */
    Oid resorigtbl;      /* source table and column for RowDescription */
    int resorigcol;
} TargetEntry;

/* ----- building ----- */

Const *tdb_make_const(Oid type_oid, int32 typmod, Datum value, bool isnull);
Const *tdb_make_null_const(Oid type_oid, int32 typmod);
Const *tdb_make_bool_const(bool value, bool isnull);
Var *tdb_make_var(int varno, int varattno, Oid type_oid, int32 typmod,
                  int varlevelsup);
TargetEntry *tdb_make_target_entry(Expr *expr, int resno, const char *name,
                                   bool resjunk);

/*
 * Structural equality of two expression trees (locations ignored):
 * GROUP BY matching, ORDER BY reuse of select-list entries.
 */
bool tdb_expr_equal(const Node *a, const Node *b);

/* The AND-ed parts of a condition (nested ANDs flattened) appended to
 * into, which is returned; NULL adds nothing. */
List *tdb_expr_conjuncts(Expr *e, List *into);

/* Shallow copy of an expression node (children shared). */
Node *tdb_copy_node_shallow(const Node *node);

/*
 * Walk / rewrite expression trees.  The walker is called for each child
 * node; returning true stops the walk.  The mutator returns the
 * replacement for each child (build a new node to change it); both
 * recurse only when the callback asks (PostgreSQL's
 * expression_tree_walker/mutator style).
 */
typedef bool (*ExprWalker)(Node *node, void *context);
bool tdb_expr_walk_children(Node *node, ExprWalker walker, void *context);

typedef Node *(*ExprMutator)(Node *node, void *context);
Node *tdb_expr_mutate_children(Node *node, ExprMutator mutator,
                               void *context);

#endif /* TDB_NODES_PRIMNODES_H */
