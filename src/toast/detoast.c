/*
 * detoast.c -- detoasting through the per-query cache (detoast.h).
 *
 * The cache is a chained hash table of entries, each holding one
 * detoasted value, on one of two LRU lists (most recent first): the
 * probationary list of values used once and the protected list of
 * values used again (detoast.h: a segmented LRU, so that scans do not
 * flush it).  An entry's key
 * is the external pointer (16 bytes) or a copy of the compressed bytes.
 * Everything lives in the env's own context, a child of the query's
 * (made at the first detoast): the cache goes when the query's context
 * does.
 *
 * Pins.  tdb_detoast() pins the entry to CurrentMemoryContext with a
 * small ContextPin allocated there and a reset callback that unpins it;
 * a second use in the same context before its reset reuses the pin.
 * tdb_detoast_acquire() pins by count.  Eviction skips pinned entries,
 * so the cache may run over its budget while every entry is in use --
 * never by freeing something a caller still reads.  When the env goes
 * first (its context is deleted before a context holding pins), it
 * detaches the pins still live, whose callbacks then do nothing.
 *
 * A value larger than the whole budget is not kept: it is detoasted
 * into the caller's context, as PostgreSQL always does (counted as
 * "uncached").
 */
#include "common/base.h"

#include "common/dlist.h"
#include "common/elog.h"
#include "common/hashmix.h"
#include "toast/compress.h"
#include "toast/detoast.h"
#include "toast/toast_store.h"

typedef struct ContextPin ContextPin;

typedef struct CacheEntry {
    struct CacheEntry *next_in_bucket;
    dlist_node lru;
    uint64 hash;
    bool external;
    varatt_external ptr; /* key of an external value */
    varlena *compressed; /* key of a compressed inline value (a copy) */
    varlena *value;      /* the detoasted value, 4-byte header */
    Size charge;         /* bytes counted against the budget */
    bool is_protected;   /* used twice: on the protected list */
    int pins;
    ContextPin *last_pin; /* the latest context pin, reused in place */
} CacheEntry;

struct ContextPin {
    MemoryContextCallback cb;
    DetoastEnv *env; /* NULL once the env is gone */
    CacheEntry *entry;
    MemoryContext cxt;
    dlist_node node; /* in env->pins */
};

typedef struct OpenToastRel {
    Oid relid;
    Relation rel;
} OpenToastRel;

struct DetoastEnv {
    MemoryContext parent; /* the query's: holds this struct */
    MemoryContext cxt;    /* "DetoastCache": entries, values (lazily) */
    DetoastOpenRelFn open_rel;
    void *open_arg;
    Size budget;
    Size bytes;
    CacheEntry **buckets;
    uint32 nbuckets; /* a power of two */
    uint32 nentries;
    dlist_head probation; /* entries used once, most recent first */
    dlist_head lru;       /* protected: entries used again, most recent
                           * first */
    Size probation_bytes;
    Size probation_budget;
    dlist_head pins;
    OpenToastRel *rels;
    int nrels;
    DetoastStats stats;
    DetoastEnv *previous; /* the env this one replaced while active */
    bool active;
    MemoryContextCallback destroy_cb; /* on parent */
    MemoryContextCallback cache_cb;   /* on cxt */
};

static __thread DetoastEnv *active_env;

#define INITIAL_BUCKETS 64
/* The probationary segment: 1/64 of the budget, at least 1 MB. */
#define PROBATION_FRACTION 64
#define PROBATION_MIN ((Size)1024 * 1024)
#define ENTRY_OVERHEAD (sizeof(CacheEntry) + 32)

/* ----------------------------------------------------------------------
 * The env
 * ---------------------------------------------------------------------- */

/* Pins still live point at entries about to be freed: detach them (their
 * callbacks then do nothing). */
static void
detach_pins(DetoastEnv *env)
{
    dlist_node *n;

    while ((n = dlist_first(&env->pins)) != NULL) {
        ContextPin *pin = dlist_container(ContextPin, node, n);

        dlist_delete(n);
        pin->env = NULL;
    }
}

/*
 * The cache's context is going (it goes first when the query's context
 * is deleted or reset, before the callbacks of pins held there run):
 * detach the pins, forget the entries.
 */
static void
cache_context_callback(void *arg)
{
    DetoastEnv *env = arg;

    detach_pins(env);
    env->cxt = NULL;
    env->buckets = NULL;
    env->nbuckets = 0;
    env->nentries = 0;
    env->bytes = 0;
    env->probation_bytes = 0;
    env->rels = NULL;
    env->nrels = 0;
    dlist_init(&env->probation);
    dlist_init(&env->lru);
}

/* The env's own memory is going: deactivate it. */
static void
env_destroy_callback(void *arg)
{
    DetoastEnv *env = arg;

    detach_pins(env);
    if (active_env == env)
        active_env = env->previous;
    env->active = false;
}

DetoastEnv *
tdb_detoast_env_create(MemoryContext parent, Size budget,
                       DetoastOpenRelFn open_rel, void *arg)
{
    DetoastEnv *env = tdb_mcxt_alloc_zero(parent, sizeof(DetoastEnv));

    env->parent = parent;
    env->open_rel = open_rel;
    env->open_arg = arg;
    env->budget = budget;
    env->probation_budget = Min(budget, Max(budget / PROBATION_FRACTION,
                                            PROBATION_MIN));
    dlist_init(&env->probation);
    dlist_init(&env->lru);
    dlist_init(&env->pins);
    /* on the parent: its children (the cache's context, per-row contexts
     * holding pins) go first, then this detaches what is left */
    env->destroy_cb.func = env_destroy_callback;
    env->destroy_cb.arg = env;
    tdb_mcxt_register_reset_callback(parent, &env->destroy_cb);
    return env;
}

/* The cache's own context and table, made when first needed (most
 * queries never detoast anything). */
static MemoryContext
env_context(DetoastEnv *env)
{
    if (env->cxt == NULL) {
        env->cxt = tdb_aset_create(env->parent, "DetoastCache",
                                   ALLOCSET_DEFAULT_SIZES);
        env->cache_cb.func = cache_context_callback;
        env->cache_cb.arg = env;
        tdb_mcxt_register_reset_callback(env->cxt, &env->cache_cb);
        env->nbuckets = INITIAL_BUCKETS;
        env->buckets = tdb_mcxt_alloc_zero(
            env->cxt, sizeof(CacheEntry *) * env->nbuckets);
    }
    return env->cxt;
}

DetoastEnv *
tdb_detoast_env_push(DetoastEnv *env)
{
    DetoastEnv *previous = active_env;

    if (env == previous)
        return previous;
    env->previous = previous;
    env->active = true;
    active_env = env;
    return previous;
}

void
tdb_detoast_env_pop(DetoastEnv *previous)
{
    if (active_env != NULL && active_env != previous)
        active_env->active = false;
    active_env = previous;
}

DetoastEnv *
tdb_detoast_env_current(void)
{
    return active_env;
}

const DetoastStats *
tdb_detoast_env_stats(const DetoastEnv *env)
{
    return &env->stats;
}

/* ----------------------------------------------------------------------
 * Reading stored data (no caching)
 * ---------------------------------------------------------------------- */

static Relation
toast_relation(DetoastEnv *env, Oid relid)
{
    MemoryContext old;
    Relation rel;

    if (env == NULL || env->open_rel == NULL)
        ereport(ERROR, errcode(ERRCODE_INTERNAL_ERROR),
                errmsg("cannot read toast value of relation %u outside a "
                       "query",
                       relid));
    for (int i = 0; i < env->nrels; i++)
        if (env->rels[i].relid == relid)
            return env->rels[i].rel;
    rel = env->open_rel(env->open_arg, relid);
    old = tdb_mcxt_switch_to(env_context(env));
    env->rels = env->rels == NULL
                    ? tdb_palloc(sizeof(OpenToastRel))
                    : tdb_repalloc(env->rels, sizeof(OpenToastRel) *
                                                  (Size)(env->nrels + 1));
    tdb_mcxt_switch_to(old);
    env->rels[env->nrels].relid = relid;
    env->rels[env->nrels].rel = rel;
    env->nrels++;
    return rel;
}

static void
check_ondisk(const varlena *v)
{
    if (!VARATT_IS_EXTERNAL_ONDISK(v))
        ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
                errmsg("unrecognized TOAST vartag %u", VARTAG_1B_E(v)));
}

varlena *
tdb_detoast_fetch_stored(const varlena *v)
{
    varatt_external ptr;
    DetoastEnv *env = active_env;

    if (!VARATT_IS_EXTERNAL(v))
        return (varlena *)v;
    check_ondisk(v);
    tdb_toast_pointer_get(v, &ptr);
    if (env != NULL)
        env->stats.fetches++;
    return tdb_toast_fetch_value(toast_relation(env, ptr.va_toastrelid),
                                 &ptr);
}

/* Detoast v completely into the current context (no cache). */
static varlena *
detoast_uncached(DetoastEnv *env, const varlena *v)
{
    varlena *stored = (varlena *)v;
    varlena *result;

    if (VARATT_IS_EXTERNAL(v)) {
        varatt_external ptr;

        check_ondisk(v);
        tdb_toast_pointer_get(v, &ptr);
        if (env != NULL)
            env->stats.fetches++;
        stored = tdb_toast_fetch_value(toast_relation(env, ptr.va_toastrelid),
                                       &ptr);
        if (!VARATT_IS_COMPRESSED(stored))
            return stored;
    }
    if (env != NULL)
        env->stats.decompressions++;
    result = tdb_toast_decompress(stored);
    if (stored != v)
        tdb_pfree(stored);
    return result;
}

/* ----------------------------------------------------------------------
 * The cache
 * ---------------------------------------------------------------------- */

/* A fast 64-bit hash of the compressed bytes (8 at a time). */
static uint64
hash_bytes64(const char *p, Size len)
{
    uint64 h = 0x9E3779B97F4A7C15ULL ^ (uint64)len;
    Size i = 0;

    for (; i + 8 <= len; i += 8) {
        uint64 w;

        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0xFF51AFD7ED558CCDULL;
        h ^= h >> 29;
    }
    for (; i < len; i++)
        h = (h ^ (uint8)p[i]) * 0x100000001B3ULL;
    return tdb_murmurhash64(h);
}

static uint64
hash_external(const varatt_external *p)
{
    return tdb_murmurhash64(((uint64)p->va_toastrelid << 32) | p->va_valueid);
}

/* The key of v (external or compressed inline) and its hash. */
typedef struct CacheKey {
    bool external;
    varatt_external ptr;
    const varlena *compressed;
    uint64 hash;
} CacheKey;

static void
make_key(const varlena *v, CacheKey *key)
{
    if (VARATT_IS_EXTERNAL(v)) {
        check_ondisk(v);
        key->external = true;
        tdb_toast_pointer_get(v, &key->ptr);
        key->compressed = NULL;
        key->hash = hash_external(&key->ptr);
    } else {
        key->external = false;
        key->compressed = v;
        key->hash = hash_bytes64((const char *)v, VARSIZE_4B(v));
    }
}

static bool
key_matches(const CacheEntry *e, const CacheKey *key)
{
    if (e->hash != key->hash || e->external != key->external)
        return false;
    if (key->external)
        return memcmp(&e->ptr, &key->ptr, sizeof(varatt_external)) == 0;
    return VARSIZE_4B(e->compressed) == VARSIZE_4B(key->compressed) &&
           memcmp(e->compressed, key->compressed,
                  VARSIZE_4B(key->compressed)) == 0;
}

static CacheEntry *
cache_lookup(DetoastEnv *env, const CacheKey *key)
{
    CacheEntry *e;

    if (env->nentries == 0)
        return NULL;
    e = env->buckets[key->hash & (env->nbuckets - 1)];

    for (; e != NULL; e = e->next_in_bucket)
        if (key_matches(e, key))
            return e;
    return NULL;
}

static void
cache_grow(DetoastEnv *env)
{
    uint32 n = env->nbuckets * 2;
    CacheEntry **b = tdb_mcxt_alloc_zero(env->cxt, sizeof(CacheEntry *) * n);

    for (uint32 i = 0; i < env->nbuckets; i++) {
        CacheEntry *e = env->buckets[i];

        while (e != NULL) {
            CacheEntry *next = e->next_in_bucket;
            CacheEntry **head = &b[e->hash & (n - 1)];

            e->next_in_bucket = *head;
            *head = e;
            e = next;
        }
    }
    tdb_pfree(env->buckets);
    env->buckets = b;
    env->nbuckets = n;
}

static void
cache_remove(DetoastEnv *env, CacheEntry *e)
{
    CacheEntry **p = &env->buckets[e->hash & (env->nbuckets - 1)];

    while (*p != e)
        p = &(*p)->next_in_bucket;
    *p = e->next_in_bucket;
    dlist_delete(&e->lru);
    env->nentries--;
    env->bytes -= e->charge;
    if (!e->is_protected)
        env->probation_bytes -= e->charge;
    tdb_pfree(e->value);
    if (e->compressed != NULL)
        tdb_pfree(e->compressed);
    tdb_pfree(e);
}

/*
 * Drop unpinned entries of list, least recently used first, while
 * *bytes + need exceeds limit.
 */
static void
evict_from(DetoastEnv *env, dlist_head *list, const Size *bytes, Size need,
           Size limit)
{
    dlist_node *n = list->head.prev;

    while (*bytes + need > limit && n != &list->head) {
        CacheEntry *e = dlist_container(CacheEntry, lru, n);

        n = n->prev;
        if (e->pins > 0)
            continue;
        cache_remove(env, e);
        env->stats.evictions++;
    }
}

/* Room for need more bytes within the budget: probation first. */
static void
cache_make_room(DetoastEnv *env, Size need)
{
    evict_from(env, &env->probation, &env->bytes, need, env->budget);
    evict_from(env, &env->lru, &env->bytes, need, env->budget);
}

/* A hit: the entry moves to the head of the protected list. */
static void
cache_touch(DetoastEnv *env, CacheEntry *e)
{
    dlist_delete(&e->lru);
    if (!e->is_protected) {
        e->is_protected = true;
        env->probation_bytes -= e->charge;
    }
    dlist_push_head(&env->lru, &e->lru);
}

/* Detoast v into a new entry (the caller has checked it is absent). */
static CacheEntry *
cache_fill(DetoastEnv *env, const varlena *v, const CacheKey *key,
           Size raw_size)
{
    Size key_bytes = key->external ? 0 : VARSIZE_4B(key->compressed);
    Size charge = raw_size + key_bytes + ENTRY_OVERHEAD;
    bool probation = charge <= env->probation_budget;
    MemoryContext old;
    CacheEntry *e;

    /* a new value goes on probation (unless it is larger than the whole
     * segment): a scan that reads each value once cycles through this
     * small segment instead of the whole budget */
    if (probation)
        evict_from(env, &env->probation, &env->probation_bytes, charge,
                   env->probation_budget);
    cache_make_room(env, charge);
    old = tdb_mcxt_switch_to(env_context(env));
    e = tdb_palloc0(sizeof(CacheEntry));
    e->value = detoast_uncached(env, v);
    if (!key->external) {
        e->compressed = tdb_palloc(key_bytes);
        memcpy(e->compressed, key->compressed, key_bytes);
    }
    tdb_mcxt_switch_to(old);
    e->external = key->external;
    e->ptr = key->ptr;
    e->hash = key->hash;
    e->charge = charge;
    e->is_protected = !probation;
    if (env->nentries >= env->nbuckets)
        cache_grow(env);
    e->next_in_bucket = env->buckets[e->hash & (env->nbuckets - 1)];
    env->buckets[e->hash & (env->nbuckets - 1)] = e;
    dlist_push_head(probation ? &env->probation : &env->lru, &e->lru);
    env->nentries++;
    env->bytes += charge;
    if (probation)
        env->probation_bytes += charge;
    if (env->bytes > env->stats.bytes_peak)
        env->stats.bytes_peak = env->bytes;
    return e;
}

/*
 * The cached entry for v, detoasting it on a miss; NULL when v cannot be
 * cached (no env, no budget, larger than the budget).
 */
static CacheEntry *
cache_get(DetoastEnv *env, const varlena *v)
{
    CacheKey key;
    CacheEntry *e;
    Size raw_size;

    if (env == NULL)
        return NULL;
    env->stats.requests++;
    if (env->budget == 0)
        return NULL;
    raw_size = tdb_toast_raw_datum_size(v);
    if (raw_size + ENTRY_OVERHEAD > env->budget) {
        env->stats.uncached++;
        return NULL;
    }
    make_key(v, &key);
    e = cache_lookup(env, &key);
    if (e != NULL) {
        env->stats.hits++;
        cache_touch(env, e);
        /* over the budget while values were pinned: back under it now
         * that some may have been released (never this one: it is the
         * most recently used, and is pinned by the caller next) */
        if (env->bytes > env->budget) {
            e->pins++;
            cache_make_room(env, 0);
            e->pins--;
        }
        return e;
    }
    return cache_fill(env, v, &key, raw_size);
}

/* ----------------------------------------------------------------------
 * Pins
 * ---------------------------------------------------------------------- */

static void
context_pin_release(void *arg)
{
    ContextPin *pin = arg;

    if (pin->env == NULL)
        return;
    dlist_delete(&pin->node);
    pin->entry->pins--;
    if (pin->entry->last_pin == pin)
        pin->entry->last_pin = NULL;
}

static void
pin_to_current_context(DetoastEnv *env, CacheEntry *e)
{
    MemoryContext cxt = tdb_current_mcxt;
    ContextPin *pin;

    if (e->last_pin != NULL && e->last_pin->cxt == cxt)
        return;
    pin = tdb_mcxt_alloc(cxt, sizeof(ContextPin));
    pin->cb.func = context_pin_release;
    pin->cb.arg = pin;
    pin->env = env;
    pin->entry = e;
    pin->cxt = cxt;
    dlist_push_head(&env->pins, &pin->node);
    tdb_mcxt_register_reset_callback(cxt, &pin->cb);
    e->pins++;
    e->last_pin = pin;
}

/* ----------------------------------------------------------------------
 * Public reading functions
 * ---------------------------------------------------------------------- */

varlena *
tdb_detoast(const varlena *v)
{
    DetoastEnv *env = active_env;
    CacheEntry *e;

    if (!VARATT_IS_EXTENDED(v))
        return (varlena *)v;
    e = cache_get(env, v);
    if (e == NULL)
        return detoast_uncached(env, v);
    pin_to_current_context(env, e);
    return e->value;
}

varlena *
tdb_detoast_acquire(const varlena *v, DetoastRef *ref)
{
    DetoastEnv *env = active_env;
    CacheEntry *e;

    ref->entry = NULL;
    ref->copy = NULL;
    if (!VARATT_IS_EXTENDED(v))
        return (varlena *)v;
    e = cache_get(env, v);
    if (e == NULL) {
        ref->copy = detoast_uncached(env, v);
        return ref->copy;
    }
    e->pins++;
    ref->entry = e;
    return e->value;
}

void
tdb_detoast_release(DetoastRef *ref)
{
    if (ref->entry != NULL)
        ((CacheEntry *)ref->entry)->pins--;
    else if (ref->copy != NULL)
        tdb_pfree(ref->copy);
    ref->entry = NULL;
    ref->copy = NULL;
}

/* A new plain value holding data[offset, offset + length) clipped. */
static varlena *
slice_of(const char *data, Size size, int32 offset, int32 length)
{
    Size start = offset < 0 ? 0 : (Size)offset;
    Size n;
    varlena *r;

    if (start > size)
        start = size;
    n = size - start;
    if (length >= 0 && (Size)length < n)
        n = (Size)length;
    r = tdb_palloc(VARHDRSZ + n);
    SET_VARSIZE(r, VARHDRSZ + n);
    memcpy(VARDATA(r), data + start, n);
    return r;
}

/* The cached entry of v if there is one (no detoasting, no stats). */
static CacheEntry *
cache_peek(DetoastEnv *env, const varlena *v)
{
    CacheKey key;

    if (env == NULL || env->nentries == 0)
        return NULL;
    make_key(v, &key);
    return cache_lookup(env, &key);
}

varlena *
tdb_detoast_slice(const varlena *v, int32 offset, int32 length)
{
    DetoastEnv *env = active_env;
    CacheEntry *e;
    varatt_external ptr;
    DetoastRef ref;
    varlena *whole;
    varlena *r;

    if (!VARATT_IS_EXTENDED(v))
        return slice_of(VARDATA_ANY(v), VARSIZE_ANY_EXHDR(v), offset, length);
    e = cache_peek(env, v);
    if (e != NULL) {
        env->stats.requests++;
        env->stats.hits++;
        cache_touch(env, e);
        return slice_of(VARDATA(e->value), VARSIZE_4B(e->value) - VARHDRSZ,
                        offset, length);
    }
    if (VARATT_IS_EXTERNAL(v)) {
        check_ondisk(v);
        tdb_toast_pointer_get(v, &ptr);
        if (!VARATT_EXTERNAL_IS_COMPRESSED(&ptr)) {
            if (env != NULL)
                env->stats.slice_fetches++;
            if (offset < 0)
                offset = 0;
            return tdb_toast_fetch_slice(toast_relation(env, ptr.va_toastrelid),
                                         &ptr, offset, length);
        }
    }
    whole = tdb_detoast_acquire(v, &ref);
    r = slice_of(VARDATA(whole), VARSIZE_4B(whole) - VARHDRSZ, offset,
                 length);
    tdb_detoast_release(&ref);
    return r;
}

Size
tdb_toast_raw_datum_size(const varlena *v)
{
    if (VARATT_IS_EXTERNAL_ONDISK(v)) {
        varatt_external ptr;

        tdb_toast_pointer_get(v, &ptr);
        return (Size)ptr.va_rawsize;
    }
    if (VARATT_IS_COMPRESSED(v))
        return VARDATA_COMPRESSED_GET_EXTSIZE(v) + VARHDRSZ;
    if (VARATT_IS_SHORT(v))
        return VARSIZE_1B(v) - VARHDRSZ_SHORT + VARHDRSZ;
    return VARSIZE_ANY(v);
}

Size
tdb_toast_datum_size(const varlena *v)
{
    if (VARATT_IS_EXTERNAL_ONDISK(v)) {
        varatt_external ptr;

        tdb_toast_pointer_get(v, &ptr);
        return VARATT_EXTERNAL_GET_EXTSIZE(&ptr);
    }
    return VARSIZE_ANY(v);
}
