/*
 * expr_int.h -- the step format of compiled expressions, shared by the
 * compiler (exec_expr.c) and the interpreter (exec_interp.c).
 */
#ifndef TDB_EXECUTOR_EXPR_INT_H
#define TDB_EXECUTOR_EXPR_INT_H

#include "common/base.h"
#include "executor/expr.h"

typedef enum ExprEvalOp {
    EEOP_DONE,
    /* deform an input slot up to a column */
    EEOP_FETCH_SCAN,
    EEOP_FETCH_OUTER,
    EEOP_FETCH_INNER,
    /* read a column of an input slot */
    EEOP_SCAN_VAR,
    EEOP_OUTER_VAR,
    EEOP_INNER_VAR,
    EEOP_SCAN_CTID, /* the scan row's TID, as a pointer into the slot */
    /* the one column an expression reads of the scan row, fetched
     * without deforming the columns before it (tdb_slot_fetch_attr) */
    EEOP_SCAN_VAR_FETCH,
    /* projections: a column straight into the result slot */
    EEOP_ASSIGN_SCAN_VAR,
    EEOP_ASSIGN_OUTER_VAR,
    EEOP_ASSIGN_INNER_VAR,
    /* projections: the state's result into the result slot */
    EEOP_ASSIGN_TMP,
    EEOP_CONST,
    EEOP_FUNC,
    EEOP_FUNC_STRICT,
    EEOP_FUNC_STRICT_1, /* the same, specialised by argument count */
    EEOP_FUNC_STRICT_2,
    EEOP_BOOL_AND_STEP_FIRST, /* also resets anynull */
    EEOP_BOOL_AND_STEP,
    EEOP_BOOL_AND_LAST,
    EEOP_BOOL_OR_STEP_FIRST,
    EEOP_BOOL_OR_STEP,
    EEOP_BOOL_OR_LAST,
    EEOP_BOOL_NOT,
    EEOP_QUAL,
    EEOP_JUMP,
    EEOP_JUMP_IF_NULL,
    EEOP_JUMP_IF_NOT_NULL,
    EEOP_JUMP_IF_NOT_TRUE,
    EEOP_NULLTEST_ISNULL,
    EEOP_NULLTEST_ISNOTNULL,
    EEOP_BOOLTEST,
    EEOP_CASE_TESTVAL,
    EEOP_SET_CASEVAL,
    EEOP_PARAM_EXEC,
    EEOP_AGGREF,
    EEOP_IOCOERCE,
    EEOP_TYPMOD,
    EEOP_DISTINCT,
    EEOP_NULLIF,
    EEOP_MINMAX,
    EEOP_ROW,
    EEOP_INLIST_ARG,
    EEOP_INLIST_HASHED,
    EEOP_SUBPLAN,
    EEOP_SCALARARRAYOP, /* x op ANY / ALL (array) */
    EEOP_ARRAY,         /* ARRAY[...] */
    /* an Agg node's transitions (tdb_exec_init_agg_trans) */
    EEOP_AGG_COUNT_STAR,
    EEOP_AGG_COUNT,
    EEOP_AGG_SUM_INT2,
    EEOP_AGG_SUM_INT4,
    EEOP_AGG_CALL,
    /* the value just read into resvalue (a column or parameter of a
     * varlena type): detoast it if it is compressed or external, through
     * the query's detoast cache (toast/detoast.h) */
    EEOP_DETOAST,
    EEOP_LAST
} ExprEvalOp;

/*
 * An IN list of constants, hashed (PostgreSQL 14+'s hashed
 * ScalarArrayOpExpr): the list's non-NULL values in an open-addressing
 * table, probed once per row instead of compared one by one.
 */
typedef struct InListHashEntry {
    Datum value;
    uint32 hash;
    bool used;
} InListHashEntry;

typedef struct InListHash {
    InListHashEntry *entries;
    uint32 mask;           /* entries - 1, a power of two minus one */
    PGFunction hash_fn;    /* the type's hash support function */
    PGFunction eq_fn;      /* the list's "=" */
    bool has_null;         /* a NULL in the list: "not found" is NULL */
    bool is_not;           /* NOT IN */
} InListHash;

/* Is v in the hashed list (hash computed here)? */
bool tdb_inlist_hash_contains(const InListHash *h, Datum v);

/*
 * x op ANY (array) / x op ALL (array) (EEOP_SCALARARRAYOP): the
 * operator's call with x in args[0], each element put in args[1].
 */
typedef struct ScalarArrayOpState {
    FunctionCallInfo fcinfo;
    PGFunction fn;
    bool use_or;   /* ANY */
    bool strict;   /* a NULL x gives NULL (unless the array is empty) */
    bool is_const; /* the array was a constant: elems read once */
    Datum array;   /* the array, evaluated per row (not is_const) */
    bool array_isnull;
    int nelems; /* is_const: the constant's elements */
    Datum *elems;
} ScalarArrayOpState;

struct ExprEvalStep {
    intptr_t opcode; /* label address once the state is ready, or an
                      * ExprEvalOp before */
    Datum *resvalue; /* where the step's result goes */
    bool *resnull;
    union {
        struct {
            int last_var; /* deform columns 1..last_var */
        } fetch;
        struct {
            int attnum; /* 0-based column of the input slot */
        } var;
        struct {
            int attnum;    /* 0-based input column */
            int resultnum; /* 0-based result slot column */
        } assign_var;
        struct {
            int resultnum;
        } assign_tmp;
        struct {
            Datum value;
            bool isnull;
        } constval;
        struct {
            FunctionCallInfo fcinfo;
            PGFunction fn;
            int nargs;
        } func;
        struct {
            bool *anynull; /* shared by the steps of one AND/OR */
            int jumpdone;  /* step to go to when the result is known */
        } boolexpr;
        struct {
            int jumpdone;
        } qual;
        struct {
            int jumpdone;
        } jump;
        struct {
            int test; /* BoolTestType */
        } booltest;
        struct {
            Datum *value; /* the innermost CASE's test value */
            bool *isnull;
        } casetest;
        struct {
            int paramid;
        } param;
        struct {
            int aggno;
        } aggref;
        struct {
            const TypeSupport *out; /* source output */
            const TypeSupport *in;  /* target input */
            int32 typmod;
        } iocoerce;
        struct {
            const TypeSupport *support;
            int32 typmod;
            bool is_explicit;
        } typmod;
        struct {
            FunctionCallInfo fcinfo; /* equality, two args */
            PGFunction fn;
            bool is_not; /* IS NOT DISTINCT FROM */
        } distinct;
        struct {
            Datum *values; /* the arguments, evaluated */
            bool *nulls;
            int nargs;
            const TypeSupport *support;
            bool is_greatest;
        } minmax;
        struct {
            Datum *values; /* the fields, evaluated */
            bool *nulls;
            Oid *types;
            int nargs;
        } row;
        struct {
            Datum *value; /* IN list: the tested value, evaluated once */
            bool *isnull;
        } inlist;
        struct {
            Datum *value; /* the tested value */
            bool *isnull;
            struct InListHash *hash; /* the list's constants (exec_expr.c) */
        } inlist_hashed;
        struct {
            struct SubPlanState *sstate;
        } subplan;
        struct {
            ScalarArrayOpState *state;
        } saop;
        struct {
            Datum *values; /* the elements, evaluated */
            bool *nulls;
            int nelems;
            Oid elemtype;
        } array;
        struct {
            int aggno;               /* transition state number */
            FunctionCallInfo fcinfo; /* args[1..]: the inputs */
            PGFunction fallback;     /* overflow: raises the error */
            void (*callback)(void *arg, int aggno); /* EEOP_AGG_CALL */
            void *callback_arg;
        } agg;
    } d;
};

/* The interpreter's label table (exec_interp.c), for the compiler. */
const void *const *tdb_exec_interp_labels(void);

#endif /* TDB_EXECUTOR_EXPR_INT_H */
