/*
 * builtin_rows.h -- shorthands for the rows of the families' built-in
 * tables (builtins.h), so that a table reads as one line per function,
 * operator or cast.  Only the types/ files that define BuiltinSets
 * include this.
 */
#ifndef TDB_TYPES_BUILTIN_ROWS_H
#define TDB_TYPES_BUILTIN_ROWS_H

#include "types/builtins.h"

/* A strict function (the common case) of the given volatility. */
#define FUNC_V(oid_, name_, fn_, vol_, ret_, nargs_, ...)                   \
    {                                                                       \
        .oid = (oid_), .name = (name_), .rettype = (ret_),                  \
        .nargs = (nargs_), .argtypes = {__VA_ARGS__}, .strict = true,       \
        .retset = false, .volatility = (vol_), .fn = (fn_)                  \
    }

/* A strict, immutable function that reads its varlena arguments as they
 * are stored (toasted): it detoasts a slice, or only measures them. */
#define FUNC_TOAST(oid_, name_, fn_, ret_, nargs_, ...)                     \
    {                                                                       \
        .oid = (oid_), .name = (name_), .rettype = (ret_),                  \
        .nargs = (nargs_), .argtypes = {__VA_ARGS__}, .strict = true,       \
        .retset = false, .volatility = PROVOLATILE_IMMUTABLE, .fn = (fn_),  \
        .toast_aware = true                                                 \
    }

/* A strict, immutable function. */
#define FUNC(oid_, name_, fn_, ret_, nargs_, ...)                           \
    FUNC_V(oid_, name_, fn_, PROVOLATILE_IMMUTABLE, ret_, nargs_,           \
           __VA_ARGS__)

/* A strict, immutable set-returning function (SRFCallContext). */
#define FUNC_SRF(oid_, name_, fn_, ret_, nargs_, ...)                       \
    {                                                                       \
        .oid = (oid_), .name = (name_), .rettype = (ret_),                  \
        .nargs = (nargs_), .argtypes = {__VA_ARGS__}, .strict = true,       \
        .retset = true, .volatility = PROVOLATILE_IMMUTABLE, .fn = (fn_)    \
    }

/*
 * A strict operator of the given volatility; eq_: may hashing and
 * grouping use it.
 */
#define OPER_ROW_V(oid_, name_, left_, right_, result_, fn_, com_, neg_,    \
                   eq_, vol_)                                               \
    {                                                                       \
        .oid = (oid_), .name = (name_), .left = (left_),                    \
        .right = (right_), .result = (result_), .fn = (fn_),                \
        .strict = true, .commutator = (com_), .negator = (neg_),            \
        .is_equality = (eq_), .volatility = (vol_)                          \
    }
/* A strict, immutable operator (the common case). */
#define OPER_ROW(oid_, name_, left_, right_, result_, fn_, com_, neg_, eq_) \
    OPER_ROW_V(oid_, name_, left_, right_, result_, fn_, com_, neg_, eq_,   \
               PROVOLATILE_IMMUTABLE)
#define OPER(oid_, name_, left_, right_, result_, fn_, com_, neg_)          \
    OPER_ROW(oid_, name_, left_, right_, result_, fn_, com_, neg_, false)
/* A strict, stable operator (its result depends on a setting). */
#define OPER_S(oid_, name_, left_, right_, result_, fn_, com_, neg_)        \
    OPER_ROW_V(oid_, name_, left_, right_, result_, fn_, com_, neg_, false, \
               PROVOLATILE_STABLE)
/* The six comparison operators have fixed commutators and negators. */
#define OPER_EQ(oid_, l_, r_, fn_)                                          \
    OPER_ROW(oid_, "=", l_, r_, BOOLOID, fn_, "=", "<>", true)
#define OPER_NE(oid_, l_, r_, fn_) OPER(oid_, "<>", l_, r_, BOOLOID, fn_, "<>", "=")
#define OPER_LT(oid_, l_, r_, fn_) OPER(oid_, "<", l_, r_, BOOLOID, fn_, ">", ">=")
#define OPER_GT(oid_, l_, r_, fn_) OPER(oid_, ">", l_, r_, BOOLOID, fn_, "<", "<=")
#define OPER_LE(oid_, l_, r_, fn_) OPER(oid_, "<=", l_, r_, BOOLOID, fn_, ">=", ">")
#define OPER_GE(oid_, l_, r_, fn_) OPER(oid_, ">=", l_, r_, BOOLOID, fn_, "<=", "<")
/* Stable comparisons (across types whose comparison reads TimeZone);
 * their "=" is not hashable (equal values need not hash alike). */
#define OPER_EQ_S(oid_, l_, r_, fn_)                                        \
    OPER_ROW_V(oid_, "=", l_, r_, BOOLOID, fn_, "=", "<>", false,           \
               PROVOLATILE_STABLE)
#define OPER_NE_S(oid_, l_, r_, fn_) OPER_S(oid_, "<>", l_, r_, BOOLOID, fn_, "<>", "=")
#define OPER_LT_S(oid_, l_, r_, fn_) OPER_S(oid_, "<", l_, r_, BOOLOID, fn_, ">", ">=")
#define OPER_GT_S(oid_, l_, r_, fn_) OPER_S(oid_, ">", l_, r_, BOOLOID, fn_, "<", "<=")
#define OPER_LE_S(oid_, l_, r_, fn_) OPER_S(oid_, "<=", l_, r_, BOOLOID, fn_, ">=", ">")
#define OPER_GE_S(oid_, l_, r_, fn_) OPER_S(oid_, ">=", l_, r_, BOOLOID, fn_, "<=", "<")

/* A cast through an immutable function (the common case). */
#define CAST(source_, target_, context_, fn_)                               \
    {                                                                       \
        .source = (source_), .target = (target_), .context = (context_),    \
        .method = CAST_METHOD_FUNCTION, .fn = (fn_),                        \
        .volatility = PROVOLATILE_IMMUTABLE                                 \
    }
/* A cast through a stable function (it reads a setting). */
#define CAST_S(source_, target_, context_, fn_)                             \
    {                                                                       \
        .source = (source_), .target = (target_), .context = (context_),    \
        .method = CAST_METHOD_FUNCTION, .fn = (fn_),                        \
        .volatility = PROVOLATILE_STABLE                                    \
    }
#define CAST_BINARY(source_, target_, context_)                             \
    {                                                                       \
        .source = (source_), .target = (target_), .context = (context_),    \
        .method = CAST_METHOD_BINARY, .fn = NULL,                           \
        .volatility = PROVOLATILE_IMMUTABLE                                 \
    }
/* An I/O conversion cast: its volatility is that of the output and
 * input functions (clauses.c knows which types' are stable). */
#define CAST_INOUT(source_, target_, context_)                              \
    {                                                                       \
        .source = (source_), .target = (target_), .context = (context_),    \
        .method = CAST_METHOD_INOUT, .fn = NULL,                            \
        .volatility = PROVOLATILE_IMMUTABLE                                 \
    }

/*
 * PostgreSQL's automatic I/O conversion casts, which have no pg_cast
 * rows there (the analyzer makes them up): any type to a string type on
 * assignment, a string type to any type explicitly.  tupledb lists them
 * so that tdb_cast_lookup finds every cast PostgreSQL allows.
 */
#define CASTS_INOUT_TO_STRINGS(t_)                                          \
    CAST_INOUT(t_, TEXTOID, CAST_ASSIGNMENT),                               \
        CAST_INOUT(t_, VARCHAROID, CAST_ASSIGNMENT),                        \
        CAST_INOUT(t_, BPCHAROID, CAST_ASSIGNMENT),                         \
        CAST_INOUT(t_, NAMEOID, CAST_ASSIGNMENT)
#define CASTS_INOUT_FROM_STRINGS(t_)                                        \
    CAST_INOUT(TEXTOID, t_, CAST_EXPLICIT),                                 \
        CAST_INOUT(VARCHAROID, t_, CAST_EXPLICIT),                          \
        CAST_INOUT(BPCHAROID, t_, CAST_EXPLICIT),                           \
        CAST_INOUT(NAMEOID, t_, CAST_EXPLICIT)

/* An aggregate of one or two arguments (nargs_ 0 for count(*)). */
#define AGG(oid_, name_, nargs_, arg0_, arg1_, ret_, trans_, transfn_,      \
            strict_trans_, finalfn_, initval_)                              \
    {                                                                       \
        .oid = (oid_), .name = (name_), .nargs = (nargs_),                  \
        .argtypes = {(arg0_), (arg1_)}, .rettype = (ret_),                  \
        .transtype = (trans_), .transfn = (transfn_),                       \
        .strict_trans = (strict_trans_), .finalfn = (finalfn_),             \
        .strict_final = false, .initval = (initval_)                        \
    }

/* The BuiltinSet of a family from its five static tables. */
#define BUILTIN_SET(name_, funcs_, opers_, casts_, aggs_, types_)           \
    {                                                                       \
        .name = (name_), .funcs = (funcs_), .nfuncs = (int)lengthof(funcs_),\
        .opers = (opers_), .nopers = (int)lengthof(opers_),                 \
        .casts = (casts_), .ncasts = (int)lengthof(casts_),                 \
        .aggs = (aggs_), .naggs = (int)lengthof(aggs_),                     \
        .types = (types_), .ntypes = (int)lengthof(types_)                  \
    }

#endif /* TDB_TYPES_BUILTIN_ROWS_H */
