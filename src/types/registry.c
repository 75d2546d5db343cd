/*
 * registry.c -- lookups over the built-in tables of every type family
 * (builtins.h).
 *
 * The families' BuiltinSets are listed once, below.  Functions,
 * operators and aggregates are found by name through an index built at
 * first use (name_index): a linear strcmp over every operator cost ~6%
 * of the server's CPU on a 10-row SELECT through the simple protocol
 * (BETWEEN resolves two operators, and each lookup compared ~1,000
 * names).  The index holds the entries sorted by name and, within a
 * name, in table order, so candidates come out in the order a scan of
 * the tables gives (overload resolution does not depend on the index).
 * Other lookups (by OID, by types) are rarer and scan.
 */
#include "common/base.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/elog.h"
#include "catalog/pg_type.h"
#include "toast/detoast.h"
#include "types/builtins.h"

extern const BuiltinSet tdb_builtins_bool;
extern const BuiltinSet tdb_builtins_int;
extern const BuiltinSet tdb_builtins_text;
extern const BuiltinSet tdb_builtins_numeric;
extern const BuiltinSet tdb_builtins_misc;
extern const BuiltinSet tdb_builtins_date;
extern const BuiltinSet tdb_builtins_timestamp;
extern const BuiltinSet tdb_builtins_interval;
extern const BuiltinSet tdb_builtins_datetime_fmt;
extern const BuiltinSet tdb_builtins_formatting;
extern const BuiltinSet tdb_builtins_float;
extern const BuiltinSet tdb_builtins_bytea;
extern const BuiltinSet tdb_builtins_convert;
extern const BuiltinSet tdb_builtins_uuid;
extern const BuiltinSet tdb_builtins_regex;
extern const BuiltinSet tdb_builtins_series;
extern const BuiltinSet tdb_builtins_regtypes;
extern const BuiltinSet tdb_builtins_array;
extern const BuiltinSet tdb_builtins_record;

static const BuiltinSet *const builtin_sets[] = {
    &tdb_builtins_bool,         &tdb_builtins_int,
    &tdb_builtins_text,         &tdb_builtins_numeric,
    &tdb_builtins_misc,         &tdb_builtins_date,
    &tdb_builtins_timestamp,    &tdb_builtins_interval,
    &tdb_builtins_datetime_fmt, &tdb_builtins_formatting,
    &tdb_builtins_float,        &tdb_builtins_bytea,
    &tdb_builtins_uuid,         &tdb_builtins_regex,
    &tdb_builtins_series,       &tdb_builtins_regtypes,
    &tdb_builtins_array,        &tdb_builtins_record,
    &tdb_builtins_convert,
};

#define NSETS ((int)(sizeof(builtin_sets) / sizeof(builtin_sets[0])))

const BuiltinSet *const *
tdb_builtin_sets(int *nsets)
{
    *nsets = NSETS;
    return builtin_sets;
}

/* ----------------------------------------------------------------------
 * Name indexes
 * ---------------------------------------------------------------------- */

/* One indexed entry: its name, its position in table order, itself. */
typedef struct NameEntry {
    const char *name;
    int seq;
    const void *item;
} NameEntry;

/* The entries of one kind sorted by (name, seq); NULL when the index
 * could not be allocated (lookups then scan the tables). */
typedef struct NameIndex {
    NameEntry *entries;
    int nentries;
} NameIndex;

static NameIndex func_index, oper_index, agg_index;
static pthread_once_t name_index_once = PTHREAD_ONCE_INIT;

static int
name_entry_cmp(const void *a, const void *b)
{
    const NameEntry *x = a;
    const NameEntry *y = b;
    int c = strcmp(x->name, y->name);

    return c != 0 ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

/*
 * Fill idx with the count entries of every set: item_at(set, i) gives
 * entry i of a set and its name.  The index lives as long as the
 * process (allocated once, with malloc: it is shared by every thread and
 * belongs to no memory context).
 */
static void
name_index_build(NameIndex *idx, int (*count)(const BuiltinSet *),
                 const void *(*item_at)(const BuiltinSet *, int,
                                        const char **))
{
    int n = 0;
    NameEntry *entries;

    for (int s = 0; s < NSETS; s++)
        n += count(builtin_sets[s]);
    entries = malloc(sizeof(NameEntry) * (Size)(n > 0 ? n : 1));
    if (entries == NULL)
        return;
    n = 0;
    for (int s = 0; s < NSETS; s++)
        for (int i = 0; i < count(builtin_sets[s]); i++) {
            entries[n].item = item_at(builtin_sets[s], i, &entries[n].name);
            entries[n].seq = n;
            n++;
        }
    qsort(entries, (size_t)n, sizeof(NameEntry), name_entry_cmp);
    idx->nentries = n;
    idx->entries = entries;
}

static int
count_funcs(const BuiltinSet *set)
{
    return set->nfuncs;
}

static const void *
func_at(const BuiltinSet *set, int i, const char **name)
{
    *name = set->funcs[i].name;
    return &set->funcs[i];
}

static int
count_opers(const BuiltinSet *set)
{
    return set->nopers;
}

static const void *
oper_at(const BuiltinSet *set, int i, const char **name)
{
    *name = set->opers[i].name;
    return &set->opers[i];
}

static int
count_aggs(const BuiltinSet *set)
{
    return set->naggs;
}

static const void *
agg_at(const BuiltinSet *set, int i, const char **name)
{
    *name = set->aggs[i].name;
    return &set->aggs[i];
}

static void
name_index_init(void)
{
    name_index_build(&func_index, count_funcs, func_at);
    name_index_build(&oper_index, count_opers, oper_at);
    name_index_build(&agg_index, count_aggs, agg_at);
}

/*
 * The entries of kind (count, item_at) named name, in table order:
 * pointers stored in out[0..max-1], the total count returned.  Uses idx
 * once built, else scans the tables.
 */
static int
name_candidates(NameIndex *idx, int (*count)(const BuiltinSet *),
                const void *(*item_at)(const BuiltinSet *, int,
                                       const char **),
                const char *name, const void **out, int max)
{
    int n = 0;

    pthread_once(&name_index_once, name_index_init);
    if (idx->entries != NULL) {
        int lo = 0;
        int hi = idx->nentries;

        /* the first entry whose name is >= name */
        while (lo < hi) {
            int mid = lo + (hi - lo) / 2;

            if (strcmp(idx->entries[mid].name, name) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        for (int i = lo; i < idx->nentries &&
                         strcmp(idx->entries[i].name, name) == 0;
             i++) {
            if (n < max)
                out[n] = idx->entries[i].item;
            n++;
        }
        return n;
    }
    for (int s = 0; s < NSETS; s++)
        for (int i = 0; i < count(builtin_sets[s]); i++) {
            const char *item_name;
            const void *item = item_at(builtin_sets[s], i, &item_name);

            if (strcmp(item_name, name) == 0) {
                if (n < max)
                    out[n] = item;
                n++;
            }
        }
    return n;
}

int
tdb_func_candidates(const char *name, const FuncDesc **out, int max)
{
    return name_candidates(&func_index, count_funcs, func_at, name,
                           (const void **)out, max);
}

int
tdb_oper_candidates(const char *name, const OperDesc **out, int max)
{
    return name_candidates(&oper_index, count_opers, oper_at, name,
                           (const void **)out, max);
}

const OperDesc *
tdb_oper_lookup(const char *name, Oid left, Oid right)
{
    for (int s = 0; s < NSETS; s++)
        for (int i = 0; i < builtin_sets[s]->nopers; i++) {
            const OperDesc *op = &builtin_sets[s]->opers[i];

            if (op->left == left && op->right == right &&
                strcmp(op->name, name) == 0)
                return op;
        }
    return NULL;
}

int
tdb_agg_candidates(const char *name, const AggDesc **out, int max)
{
    return name_candidates(&agg_index, count_aggs, agg_at, name,
                           (const void **)out, max);
}

bool
tdb_is_aggregate_name(const char *name)
{
    return tdb_agg_candidates(name, NULL, 0) > 0;
}

const CastDesc *
tdb_cast_lookup(Oid source, Oid target)
{
    for (int s = 0; s < NSETS; s++)
        for (int i = 0; i < builtin_sets[s]->ncasts; i++) {
            const CastDesc *c = &builtin_sets[s]->casts[i];

            if (c->source == source && c->target == target)
                return c;
        }
    return NULL;
}

const TypeSupport *
tdb_type_support(Oid typid)
{
    for (int s = 0; s < NSETS; s++)
        for (int i = 0; i < builtin_sets[s]->ntypes; i++)
            if (builtin_sets[s]->types[i].typid == typid)
                return &builtin_sets[s]->types[i];
    return NULL;
}

/* format_type's SQL-standard spellings of PostgreSQL's internal names. */
static const struct {
    Oid typid;
    const char *name;
} sql_type_names[] = {
    {BOOLOID, "boolean"},
    {CHAROID, "\"char\""},
    {INT2OID, "smallint"},
    {INT4OID, "integer"},
    {INT8OID, "bigint"},
    {FLOAT4OID, "real"},
    {FLOAT8OID, "double precision"},
    {BPCHAROID, "character"},
    {VARCHAROID, "character varying"},
    {TIMEOID, "time without time zone"},
    {TIMESTAMPOID, "timestamp without time zone"},
    {TIMESTAMPTZOID, "timestamp with time zone"},
    {2287, "record[]"},
};

char *
tdb_format_type(Oid typid, int32 typmod)
{
    const TypeInfo *type = tdb_type_lookup(typid);
    const TypeSupport *support = tdb_type_support(typid);
    const char *name = type != NULL ? type->name : "???";
    char *mod = NULL;
    char *result;
    Size len;

    if (type != NULL && type->category == 'A' && type->name[0] == '_') {
        const TypeInfo *elem = tdb_type_lookup_by_name(type->name + 1);

        if (elem != NULL) {
            char *elem_name = tdb_format_type(elem->oid, typmod);

            result = tdb_palloc(strlen(elem_name) + 3);
            snprintf(result, strlen(elem_name) + 3, "%s[]", elem_name);
            return result;
        }
    }
    for (Size i = 0; i < sizeof(sql_type_names) / sizeof(sql_type_names[0]);
         i++)
        if (sql_type_names[i].typid == typid)
            name = sql_type_names[i].name;
    if (typmod >= 0 && support != NULL && support->typmod_out != NULL)
        mod = support->typmod_out(typmod);
    len = strlen(name) + (mod != NULL ? strlen(mod) : 0) + 1;
    result = tdb_palloc(len);
    /* the time types put the precision before " with[out] time zone" */
    if (mod != NULL && strstr(name, " with") != NULL) {
        int head = (int)(strstr(name, " with") - name);

        snprintf(result, len, "%.*s%s%s", head, name, mod, name + head);
        return result;
    }
    snprintf(result, len, "%s%s", name, mod != NULL ? mod : "");
    return result;
}

static const TypeSupport *
support_or_error(Oid typid, const char *what)
{
    const TypeSupport *support = tdb_type_support(typid);

    if (support == NULL || (what[0] == 'i' ? support->input == NULL
                                           : support->output == NULL))
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("type %s has no %s function",
                       tdb_format_type(typid, -1), what));
    return support;
}

Datum
tdb_type_input(Oid typid, const char *str, int32 typmod)
{
    return support_or_error(typid, "input")->input(str, typmod);
}

Datum
tdb_type_detoast(Oid typid, Datum value)
{
    const TypeInfo *type = tdb_type_lookup(typid);

    if (type == NULL || type->len != -1)
        return value;
    return tdb_detoast_datum(value);
}

char *
tdb_type_output(Oid typid, Datum value)
{
    return support_or_error(typid, "output")
        ->output(tdb_type_detoast(typid, value));
}

bool
tdb_type_has_binary(Oid typid)
{
    const TypeSupport *support = tdb_type_support(typid);

    return support != NULL && support->send != NULL && support->recv != NULL;
}

Datum
tdb_type_receive(Oid typid, const char *buf, int len)
{
    const TypeSupport *support = tdb_type_support(typid);

    if (support == NULL || support->recv == NULL)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("no binary input function available for type %s",
                       tdb_format_type(typid, -1)));
    return support->recv(buf, len);
}

char *
tdb_type_send(Oid typid, Datum value, int *len)
{
    const TypeSupport *support = tdb_type_support(typid);

    if (support == NULL || support->send == NULL)
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("no binary output function available for type %s",
                       tdb_format_type(typid, -1)));
    return support->send(tdb_type_detoast(typid, value), len);
}
