/*
 * builtins.h -- the built-in functions, operators, casts, aggregates and
 * per-type support routines: tupledb's pg_proc, pg_operator, pg_cast,
 * pg_aggregate and the type I/O columns of pg_type, as C tables.
 *
 * Each type family's file (bool.c, int.c, text.c, numeric.c, ...)
 * defines one BuiltinSet with its tables; registry.c lists the sets and
 * answers lookups over all of them.  Adding a function is adding a row
 * to its family's table: nothing else changes.
 *
 * What the layers above do with these:
 *   - the analyzer (parser/) resolves a call or operator by name and argument
 *     types with PostgreSQL's rules (exact match, then implicit casts,
 *     unknown literals, preferred types), using the candidate lists,
 *     the cast table and the type categories of catalog/pg_type.h;
 *   - the executor calls FuncDesc.fn / OperDesc.fn through fmgr.h, the
 *     type's output function to print results, its cmp / hash / eq
 *     functions to sort, group and join.
 *
 * Text comparison is bytewise (the "C" collation): tupledb's regression
 * tests compare against a PostgreSQL cluster created with --locale=C.
 */
#ifndef TDB_TYPES_BUILTINS_H
#define TDB_TYPES_BUILTINS_H

#include "common/base.h"
#include "catalog/pg_type.h"
#include "types/fmgr.h"

/* pg_proc.provolatile */
#define PROVOLATILE_IMMUTABLE 'i'
#define PROVOLATILE_STABLE 's'
#define PROVOLATILE_VOLATILE 'v'

/*
 * A function callable from SQL by name (pg_proc).  Overloads are
 * separate rows with the same name.  Argument type ANYOID accepts any
 * type (e.g. count("any")); ANYELEMENTOID binds to one type across the
 * arguments and the result.
 */
typedef struct FuncDesc {
    Oid oid;          /* PostgreSQL's pg_proc OID, 0 if it has none */
    const char *name; /* the SQL name, e.g. "length", "generate_series" */
    Oid rettype;
    int16 nargs;
    Oid argtypes[FUNC_MAX_ARGS];
    bool strict;     /* NULL in any argument -> NULL, fn not called */
    bool retset;     /* set-returning: see SRFCallContext */
    char volatility; /* PROVOLATILE_* */
    PGFunction fn;
    /* proargnames (NULL: the arguments have no names, so calls cannot
     * name them), and the last nargdefaults arguments' defaults (by-value
     * constants of their types) for calls that leave them out */
    const char *const *argnames;
    int16 nargdefaults;
    const Datum *argdefaults;
    /* Its varlena arguments may arrive toasted (compressed or external):
     * the function detoasts them itself -- or only a slice of them, or
     * only measures them (toast/detoast.h) */
    bool toast_aware;
    /* Declared VARIADIC "any" (concat, concat_ws): its arguments from the
     * first of type "any" on are the variadic ones, one row per count of
     * them; a VARIADIC call passes them as one array instead
     * (FmgrInfo.fn_expr_variadic) */
    bool variadic_any;
} FuncDesc;

/*
 * A set-returning function is called once per result row with
 * fcinfo->context pointing at this.  It returns the next value, or sets
 * is_done (and returns anything) when the set is exhausted.  state is
 * the function's own, allocated in multi_call_mcxt on the first call
 * (call_no == 0); it lives until the set is done or the scan is
 * rescanned.
 */
typedef struct SRFCallContext {
    uint64 call_no;
    bool is_done;
    void *state;
    MemoryContext multi_call_mcxt;
} SRFCallContext;

/*
 * An operator (pg_operator).  left == InvalidOid for a prefix operator
 * (unary minus).  fn implements it with the same calling convention as
 * a function of (left, right), strict as stated.
 */
typedef struct OperDesc {
    Oid oid;          /* PostgreSQL's pg_operator OID, 0 if none */
    const char *name; /* "+", "=", "~~" (LIKE), "||" ... */
    Oid left;
    Oid right;
    Oid result;
    PGFunction fn;
    bool strict;
    const char *commutator; /* name of the commutator with swapped
                             * argument types, or NULL */
    const char *negator;    /* name of the negator, same types, or NULL */
    bool is_equality;       /* an "=" that hashing and grouping may use */
    char volatility;        /* PROVOLATILE_* of the function behind it
                             * (stable where the result depends on a
                             * setting such as TimeZone) */
} OperDesc;

/* pg_cast.castcontext */
#define CAST_IMPLICIT 'i'
#define CAST_ASSIGNMENT 'a'
#define CAST_EXPLICIT 'e'

/* pg_cast.castmethod */
#define CAST_METHOD_FUNCTION 'f' /* call fn(value) */
#define CAST_METHOD_BINARY 'b'   /* same bits: relabel only */
#define CAST_METHOD_INOUT 'i'    /* source output -> target input */

typedef struct CastDesc {
    Oid source;
    Oid target;
    char context; /* CAST_IMPLICIT / ASSIGNMENT / EXPLICIT */
    char method;  /* CAST_METHOD_* */
    PGFunction fn; /* for CAST_METHOD_FUNCTION; strict */
    char volatility; /* PROVOLATILE_* of fn (stable casts read settings,
                      * e.g. timestamptz -> date reads TimeZone) */
} CastDesc;

/*
 * An aggregate (pg_aggregate + its pg_proc row).  Evaluation, as
 * PostgreSQL's:
 *   state = initval (input function of transtype applied to the text),
 *           or NULL if initval is NULL;
 *   per row: if strict_trans and any input is NULL: skip the row;
 *            if strict_trans and state is NULL: state = the first input
 *            (copied into the group's memory);
 *            else state = transfn(state, inputs...);
 *   result: finalfn(state) if finalfn (not called with a NULL state if
 *           strict_final: the result is NULL), else state.
 * Transition functions with transtype INTERNALOID keep a pointer to a
 * struct they allocate in AggCallContext.group_mcxt (reached through
 * fcinfo->context); by-reference states of other types must also be
 * allocated there, never in the per-row context.
 */
typedef struct AggDesc {
    Oid oid; /* PostgreSQL's pg_proc OID of the aggregate, 0 if none */
    const char *name;
    int16 nargs; /* 0 for count(*) */
    Oid argtypes[2];
    Oid rettype;
    Oid transtype;
    PGFunction transfn;
    bool strict_trans;
    PGFunction finalfn; /* NULL: the state is the result */
    bool strict_final;
    const char *initval; /* NULL: the state starts NULL */
} AggDesc;

/* fcinfo->context of aggregate transition and final functions. */
typedef struct AggCallContext {
    MemoryContext group_mcxt; /* lives as long as the group's state */
} AggCallContext;

/* The group memory of an aggregate support function's call. */
static inline MemoryContext
tdb_agg_group_mcxt(FunctionCallInfo fcinfo)
{
    return ((AggCallContext *)fcinfo->context)->group_mcxt;
}

/*
 * Per-type support (pg_type's typinput/typoutput/typmodin..., the btree
 * and hash opclass support functions).
 */
typedef struct TypeSupport {
    Oid typid;
    /*
     * Text to value, in the current memory context.  typmod -1 or the
     * column's typmod.  Raises 22P02 (invalid_text_representation) or
     * 22003 (out of range) with PostgreSQL's messages.
     */
    Datum (*input)(const char *str, int32 typmod);
    /* Value to text, palloc'd in the current memory context. */
    char *(*output)(Datum value);
    /* int32 compare(a, b): < 0, 0, > 0 (btree support 1); NULL if the
     * type has no ordering. */
    PGFunction cmp;
    /* int32 hash(a) (hash support 1): equal values hash equal. */
    PGFunction hash;
    /* bool eq(a, b). */
    PGFunction eq;
    /*
     * Apply a typmod (varchar(n) length, numeric(p,s) scale): returns the
     * value made to fit, or raises (22001 "value too long for type
     * character varying(3)", 22003).  is_explicit: an explicit cast
     * truncates where an assignment raises.  NULL: no typmods.
     */
    Datum (*apply_typmod)(Datum value, int32 typmod, bool is_explicit);
    /* The typmod part of the type's name, e.g. "(20)" or "(10,2)";
     * NULL: no typmods.  palloc'd. */
    char *(*typmod_out)(int32 typmod);
    /*
     * The binary wire format (pg_type's typsend / typreceive), byte for
     * byte PostgreSQL's: send returns the bytes palloc'd in the current
     * memory context and their count in *len; recv reads exactly len
     * bytes at buf (22P03 invalid_binary_representation for a wrong
     * length or value).  NULL: the type has no binary format yet.
     */
    char *(*send)(Datum value, int *len);
    Datum (*recv)(const char *buf, int len);
} TypeSupport;

/* One type family's tables (a file's contribution). */
typedef struct BuiltinSet {
    const char *name; /* the family, for messages */
    const FuncDesc *funcs;
    int nfuncs;
    const OperDesc *opers;
    int nopers;
    const CastDesc *casts;
    int ncasts;
    const AggDesc *aggs;
    int naggs;
    const TypeSupport *types;
    int ntypes;
} BuiltinSet;

/* ----- lookups (registry.c) ----- */

/*
 * Every function named name: pointers stored in out[0..max-1], the total
 * count returned (which may exceed max).  Names are compared exactly
 * (the parser lower-cases unquoted identifiers).
 */
int tdb_func_candidates(const char *name, const FuncDesc **out, int max);

/* Every operator named name (any argument types), as above. */
int tdb_oper_candidates(const char *name, const OperDesc **out, int max);

/* The operator with exactly these argument types, or NULL. */
const OperDesc *tdb_oper_lookup(const char *name, Oid left, Oid right);

/* Every aggregate named name, as above. */
int tdb_agg_candidates(const char *name, const AggDesc **out, int max);

/* Is name an aggregate (so a call is an aggregate call)? */
bool tdb_is_aggregate_name(const char *name);

/* The cast from source to target, or NULL (same types: NULL too). */
const CastDesc *tdb_cast_lookup(Oid source, Oid target);

/* Every family's BuiltinSet (registry order); *nsets receives the count. */
const BuiltinSet *const *tdb_builtin_sets(int *nsets);

/* The support routines of typid, or NULL if it has none. */
const TypeSupport *tdb_type_support(Oid typid);

/*
 * The type's name as format_type prints it ("integer", "character
 * varying(20)", "numeric(10,2)", "text"), palloc'd.  Unknown OIDs print
 * as "???".
 */
char *tdb_format_type(Oid typid, int32 typmod);

/*
 * A one-dimensional array of n non-NULL elements of elemtype (array.c),
 * numbered from lbound, in the current memory context.
 */
Datum tdb_array_construct(Oid elemtype, const Datum *values, int n,
                          int lbound);

/* A one-dimensional array's elements, read out (values point into the
 * array, or into an aligned copy of it in the current memory context;
 * palloc'd there).  tupledb's arrays have no NULL elements. */
typedef struct ArrayValues {
    Oid elemtype;
    int n;
    int lbound;
    Datum *values;
} ArrayValues;
ArrayValues tdb_array_values(Datum array);
/* array_out: "{a,"b c"}", palloc'd. */
char *tdb_array_output(Datum array);

/*
 * Anonymous records (record.c): a record of natts fields of the given
 * types (values detoasted; NULL where nulls[i]), palloc'd.
 */
Datum tdb_record_construct(int natts, const Oid *types, const Datum *values,
                           const bool *nulls);
/* The functions WITH RECURSIVE's SEARCH and CYCLE rewrite calls
 * (record.c; found by these names with tdb_func_candidates). */
#define TDB_RECORD_PATH_START "record path start"       /* ARRAY[row] */
#define TDB_RECORD_PATH_APPEND "record path append"     /* path || row */
#define TDB_RECORD_PATH_CONTAINS "record path contains" /* row = ANY(path) */
#define TDB_RECORD_PATH_DEPTH "record path depth"       /* (row).depth */

/* Shorthands over tdb_type_support (raise if the type has none). */
Datum tdb_type_input(Oid typid, const char *str, int32 typmod);
/* value detoasted if typid is a varlena type (toast/detoast.h: valid
 * as long as the current memory context), else value. */
Datum tdb_type_detoast(Oid typid, Datum value);
char *tdb_type_output(Oid typid, Datum value);
/* The binary forms (0A000 if the type has none). */
Datum tdb_type_receive(Oid typid, const char *buf, int len);
char *tdb_type_send(Oid typid, Datum value, int *len);
/* Does the type have a binary send / receive function? */
bool tdb_type_has_binary(Oid typid);

#endif /* TDB_TYPES_BUILTINS_H */
