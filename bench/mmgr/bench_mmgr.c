/*
 * bench_mmgr.c -- memory-context micro-benchmarks: tupledb's contexts
 * (src/mmgr) against the malloc/free this process runs with.
 *
 * A benchmark, never a pass/fail test: it prints figures and exits 0
 * whatever they are (non-zero only for a usage or setup error).
 * bench/mmgr/run.sh runs it once per malloc -- glibc, then jemalloc and
 * mimalloc through LD_PRELOAD -- alternating them over several rounds,
 * takes medians and per-process (paired) ratios and writes the "Memory
 * contexts" section of bench/RESULTS.md.  See bench/README.md for how to
 * read the output.
 *
 * Timing workloads.  Each runs twice per process: variant "tdb" with the
 * context type named below, variant "malloc" doing the same work with
 * malloc/free.  Both variants read the same pseudo-random size sequence
 * (fixed seed), touch every chunk (first and last byte) and pass it
 * through a compiler barrier, so neither the stores nor the allocation
 * can be optimised away.
 *
 *   workload     context     one op is                what happens
 *   per_row      AllocSet    one allocation           a "row" allocates
 *                                                     10-50 chunks of 8-200
 *                                                     bytes, then the context
 *                                                     is reset (malloc: every
 *                                                     chunk freed)
 *   pair_64      AllocSet    alloc + free             p = alloc(64); free(p)
 *   pair_mixed   AllocSet    alloc + free             the same, 8-512 bytes
 *   batch_100    AllocSet    alloc + free             100 allocs of 8-512
 *                                                     bytes, then 100 frees
 *                                                     in LIFO order
 *   fifo_tuples  Generation  alloc + free             queue of 1000 live
 *                                                     chunks of 100-300
 *                                                     bytes: free the oldest,
 *                                                     allocate a new one
 *   slab_random  Slab        one alloc or one free    10,000 slots of 64
 *                                                     bytes: a random slot is
 *                                                     freed if occupied,
 *                                                     else allocated
 *   bump_fill    Bump        one allocation           1000 chunks of 16-128
 *                                                     bytes, then reset
 *                                                     (malloc: all freed)
 *
 * Each measurement first calibrates (doubling the iteration count until a
 * run takes a tenth of the target; those runs double as warm-up), then
 * times one run of about --time seconds (default 0.2) with
 * CLOCK_MONOTONIC.  Reset and free costs are inside the timed region;
 * creating the context, prefilling queues and freeing what is left at the
 * end are not.
 *
 * Space (--overhead).  For every variant and chunk size (16, 24, 64, 100,
 * 256) a forked child -- so each starts from an untouched heap -- reads
 * its RSS, allocates N chunks (default 1,000,000), writes the first and
 * last byte of each, and reports:
 *   capacity     bytes the caller may use: malloc_usable_size() for the
 *                mallocs; for contexts the class size (AllocSet rounds to a
 *                power of two >= 8, the others to MAXALIGN)
 *   stride       the most common distance between consecutive chunks
 *                (over the first 4096): what one chunk really occupies
 *   header       stride - capacity: bytes per chunk the caller cannot use
 *                beyond the size-class rounding (the chunk header for
 *                contexts, malloc's hidden header)
 *   chunk_space  tdb_mcxt_chunk_space() (contexts but Bump)
 *   used         contexts: growth of (totalspace - freespace) from
 *                tdb_mcxt_stats_collect() per chunk -- header, rounding
 *                and block headers, but not the unused tail of the last
 *                block
 *   rss          RSS growth / N: what the OS really had to provide per
 *                chunk, all metadata included
 *
 * Output: one record per line, whitespace-separated, first word the type
 * ("-" where a field does not apply):
 *   info <key> <value...>
 *   time <workload> <context> <variant> <ns_per_op> <ops>
 *   ovh <variant> <size> <n> <capacity> <stride> <header> <chunk_space>
 *       <used> <rss>                                  (one line)
 *
 * Usage: bench_mmgr [--time SEC | --iters N] [--round R] [--only WORKLOAD]
 *        bench_mmgr --overhead all|malloc [--n N]
 *        bench_mmgr --info
 * --round R only decides the order: odd rounds time "malloc" before
 * "tdb", so that neither always runs on a colder machine.  --iters N
 * replaces calibration by exactly N iterations (rows, pairs, batches,
 * operations or fills), for profiling:
 *   valgrind --tool=callgrind --toggle-collect=run_per_row_tdb \
 *       bench_mmgr --only per_row --iters 20000
 * gives the instructions of exactly the printed number of ops.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <gnu/libc-version.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/base.h"
#include "mmgr/mcxt.h"

#include "bench.h"

/* ----- pseudo-random size sequences (identical for every variant) ----- */

#define SEQ_LEN 65536 /* power of two: positions wrap with SEQ_MASK */
#define SEQ_MASK (SEQ_LEN - 1)

static uint16 seq_row_count[SEQ_LEN];  /* 10..50 chunks per row */
static uint16 seq_row_size[SEQ_LEN];   /* 8..200 bytes */
static uint16 seq_mixed_size[SEQ_LEN]; /* 8..512 bytes */
static uint16 seq_tuple_size[SEQ_LEN]; /* 100..300 bytes */
static uint16 seq_bump_size[SEQ_LEN];  /* 16..128 bytes */

#define ROW_MAX_CHUNKS 50
#define BATCH_CHUNKS 100
#define FIFO_WINDOW 1000
#define SLAB_SLOTS 10000
#define SLAB_CHUNK 64
#define BUMP_CHUNKS 1000

/* Uniform integer in [lo, hi] from a 64-bit random word. */
static uint16
in_range(uint64 r, unsigned lo, unsigned hi)
{
    return (uint16)(lo + (unsigned)(((r >> 32) * (hi - lo + 1)) >> 32));
}

static void
fill_sequences(void)
{
    uint64 state = UINT64_C(20240601);

    for (int i = 0; i < SEQ_LEN; i++) {
        seq_row_count[i] =
            in_range(tdb_bench_splitmix64(&state), 10, ROW_MAX_CHUNKS);
        seq_row_size[i] = in_range(tdb_bench_splitmix64(&state), 8, 200);
        seq_mixed_size[i] = in_range(tdb_bench_splitmix64(&state), 8, 512);
        seq_tuple_size[i] = in_range(tdb_bench_splitmix64(&state), 100, 300);
        seq_bump_size[i] = in_range(tdb_bench_splitmix64(&state), 16, 128);
    }
}

/* ----- helpers ----- */

/*
 * Write the first and last byte of a fresh chunk, then let it escape
 * through the compiler barrier: without the barrier GCC deletes the stores
 * before free() and may drop a malloc/free pair entirely.
 */
static TDB_ALWAYS_INLINE void
touch(void *p, Size size)
{
    char *c = p;

    c[0] = (char)size;
    c[size - 1] = (char)size;
    tdb_bench_escape(p);
}

/*
 * The allocation primitives.  `tdb` is a compile-time constant in every
 * caller (the run functions below are instantiated once per variant), so
 * each instantiation calls exactly one allocator with no branch.
 */
static TDB_ALWAYS_INLINE void *
bench_alloc(bool tdb, MemoryContext cxt, Size size)
{
    void *p;

    if (tdb)
        return tdb_mcxt_alloc(cxt, size);
    p = malloc(size);
    if (unlikely(p == NULL))
        tdb_bench_die("malloc(%zu) failed", size);
    return p;
}

static TDB_ALWAYS_INLINE void
bench_free(bool tdb, void *p)
{
    if (tdb)
        tdb_pfree(p);
    else
        free(p);
}

/* ----- workloads ----- */

/* State one measurement carries from calibration into the timed run. */
typedef struct BenchState {
    bool tdb;          /* variant: contexts (true) or malloc/free */
    MemoryContext cxt; /* the variant's context (NULL for malloc) */
    void **slots;      /* live chunks, workload-specific meaning */
    Size nslots;
    uint64 pos;  /* position in the size sequence */
    uint64 row;  /* position in seq_row_count */
    uint64 head; /* next FIFO slot */
    uint64 rng;  /* slab_random's slot generator */
} BenchState;

typedef uint64 (*RunFn)(BenchState *st, uint64 iters);

typedef struct Workload {
    const char *name;    /* record key */
    const char *context; /* context type of the tdb variant */
    MemoryContext (*create)(void);
    Size nslots;                   /* size of st->slots */
    bool slots_live;               /* after a run, slots hold live chunks */
    void (*setup)(BenchState *st); /* untimed, may be NULL */
    RunFn run_tdb;                 /* returns the number of ops done */
    RunFn run_malloc;
} Workload;

static MemoryContext
create_aset(void)
{
    return tdb_aset_create(tdb_top_mcxt, "bench aset", ALLOCSET_DEFAULT_SIZES);
}

static MemoryContext
create_generation(void)
{
    return tdb_generation_create(tdb_top_mcxt, "bench generation",
                                 ALLOCSET_DEFAULT_SIZES);
}

static MemoryContext
create_slab(void)
{
    return tdb_slab_create(tdb_top_mcxt, "bench slab", SLAB_DEFAULT_BLOCK_SIZE,
                           SLAB_CHUNK);
}

static MemoryContext
create_bump(void)
{
    return tdb_bump_create(tdb_top_mcxt, "bench bump", ALLOCSET_DEFAULT_SIZES);
}

/* per_row: iters rows; returns allocations. */
static TDB_ALWAYS_INLINE uint64
per_row(bool tdb, BenchState *st, uint64 iters)
{
    MemoryContext cxt = st->cxt;
    void **ptrs = st->slots;
    uint64 pos = st->pos;
    uint64 nallocs = 0;

    for (uint64 r = 0; r < iters; r++) {
        int nchunks = seq_row_count[st->row++ & SEQ_MASK];

        for (int i = 0; i < nchunks; i++) {
            Size size = seq_row_size[pos++ & SEQ_MASK];
            void *p = bench_alloc(tdb, cxt, size);

            touch(p, size);
            ptrs[i] = p;
        }
        if (tdb)
            tdb_mcxt_reset(cxt);
        else
            for (int i = 0; i < nchunks; i++)
                free(ptrs[i]);
        nallocs += (uint64)nchunks;
    }
    st->pos = pos;
    return nallocs;
}

/* pair_64 / pair_mixed: iters alloc+free pairs. */
static TDB_ALWAYS_INLINE uint64
pair(bool tdb, BenchState *st, uint64 iters, bool mixed)
{
    MemoryContext cxt = st->cxt;
    uint64 pos = st->pos;

    for (uint64 i = 0; i < iters; i++) {
        Size size = mixed ? seq_mixed_size[pos++ & SEQ_MASK] : 64;
        void *p = bench_alloc(tdb, cxt, size);

        touch(p, size);
        bench_free(tdb, p);
    }
    st->pos = pos;
    return iters;
}

/* batch_100: iters batches; returns alloc+free pairs. */
static TDB_ALWAYS_INLINE uint64
batch(bool tdb, BenchState *st, uint64 iters)
{
    MemoryContext cxt = st->cxt;
    void **ptrs = st->slots;
    uint64 pos = st->pos;

    for (uint64 b = 0; b < iters; b++) {
        for (int i = 0; i < BATCH_CHUNKS; i++) {
            Size size = seq_mixed_size[pos++ & SEQ_MASK];
            void *p = bench_alloc(tdb, cxt, size);

            touch(p, size);
            ptrs[i] = p;
        }
        for (int i = BATCH_CHUNKS - 1; i >= 0; i--)
            bench_free(tdb, ptrs[i]);
    }
    st->pos = pos;
    return iters * BATCH_CHUNKS;
}

/* fifo_tuples: iters (free oldest, allocate newest) pairs. */
static TDB_ALWAYS_INLINE uint64
fifo(bool tdb, BenchState *st, uint64 iters)
{
    MemoryContext cxt = st->cxt;
    void **ring = st->slots;
    uint64 pos = st->pos;
    uint64 head = st->head;

    for (uint64 i = 0; i < iters; i++) {
        Size size = seq_tuple_size[pos++ & SEQ_MASK];
        void *p;

        bench_free(tdb, ring[head]);
        p = bench_alloc(tdb, cxt, size);
        touch(p, size);
        ring[head] = p;
        head = head + 1 == FIFO_WINDOW ? 0 : head + 1;
    }
    st->pos = pos;
    st->head = head;
    return iters;
}

/* slab_random: iters operations, each one alloc or one free. */
static TDB_ALWAYS_INLINE uint64
slab_random(bool tdb, BenchState *st, uint64 iters)
{
    MemoryContext cxt = st->cxt;
    void **slots = st->slots;
    uint64 x = st->rng;

    for (uint64 i = 0; i < iters; i++) {
        uint64 slot;

        /* xorshift64: cheap and identical for both variants */
        slot = ((tdb_bench_xorshift64(&x) >> 32) * SLAB_SLOTS) >> 32;
        if (slots[slot] != NULL) {
            bench_free(tdb, slots[slot]);
            slots[slot] = NULL;
        } else {
            void *p = bench_alloc(tdb, cxt, SLAB_CHUNK);

            touch(p, SLAB_CHUNK);
            slots[slot] = p;
        }
    }
    st->rng = x;
    return iters;
}

/* bump_fill: iters fills of BUMP_CHUNKS chunks; returns allocations. */
static TDB_ALWAYS_INLINE uint64
bump_fill(bool tdb, BenchState *st, uint64 iters)
{
    MemoryContext cxt = st->cxt;
    void **ptrs = st->slots;
    uint64 pos = st->pos;

    for (uint64 f = 0; f < iters; f++) {
        for (int i = 0; i < BUMP_CHUNKS; i++) {
            Size size = seq_bump_size[pos++ & SEQ_MASK];
            void *p = bench_alloc(tdb, cxt, size);

            touch(p, size);
            ptrs[i] = p;
        }
        if (tdb)
            tdb_mcxt_reset(cxt);
        else
            for (int i = 0; i < BUMP_CHUNKS; i++)
                free(ptrs[i]);
    }
    st->pos = pos;
    return iters * BUMP_CHUNKS;
}

/* One out-of-line instance per (workload, variant). */
#define INSTANTIATE(fn, call)                                                  \
    static TDB_NOINLINE uint64 fn##_tdb(BenchState *st, uint64 iters)          \
    {                                                                          \
        const bool tdb = true;                                                 \
        return call;                                                           \
    }                                                                          \
    static TDB_NOINLINE uint64 fn##_malloc(BenchState *st, uint64 iters)       \
    {                                                                          \
        const bool tdb = false;                                                \
        return call;                                                           \
    }

INSTANTIATE(run_per_row, per_row(tdb, st, iters))
INSTANTIATE(run_pair_64, pair(tdb, st, iters, false))
INSTANTIATE(run_pair_mixed, pair(tdb, st, iters, true))
INSTANTIATE(run_batch, batch(tdb, st, iters))
INSTANTIATE(run_fifo, fifo(tdb, st, iters))
INSTANTIATE(run_slab, slab_random(tdb, st, iters))
INSTANTIATE(run_bump, bump_fill(tdb, st, iters))

/* fifo_tuples: start with a full window. */
static void
setup_fifo(BenchState *st)
{
    for (Size i = 0; i < FIFO_WINDOW; i++) {
        Size size = seq_tuple_size[st->pos++ & SEQ_MASK];

        st->slots[i] = st->tdb ? tdb_mcxt_alloc(st->cxt, size) : malloc(size);
        if (st->slots[i] == NULL)
            tdb_bench_die("out of memory");
        touch(st->slots[i], size);
    }
}

/*
 * slab_random: reach the steady state (about half the slots live).  Not
 * through run_slab_*, so that a profile restricted to those functions
 * (callgrind --toggle-collect) sees only the measured operations.
 */
static void
setup_slab(BenchState *st)
{
    st->rng = UINT64_C(0x2545F4914F6CDD1D);
    slab_random(st->tdb, st, 20 * SLAB_SLOTS);
}

static const Workload workloads[] = {
    {"per_row", "AllocSet", create_aset, ROW_MAX_CHUNKS, false, NULL,
     run_per_row_tdb, run_per_row_malloc},
    {"pair_64", "AllocSet", create_aset, 0, false, NULL, run_pair_64_tdb,
     run_pair_64_malloc},
    {"pair_mixed", "AllocSet", create_aset, 0, false, NULL, run_pair_mixed_tdb,
     run_pair_mixed_malloc},
    {"batch_100", "AllocSet", create_aset, BATCH_CHUNKS, false, NULL,
     run_batch_tdb, run_batch_malloc},
    {"fifo_tuples", "Generation", create_generation, FIFO_WINDOW, true,
     setup_fifo, run_fifo_tdb, run_fifo_malloc},
    {"slab_random", "Slab", create_slab, SLAB_SLOTS, true, setup_slab,
     run_slab_tdb, run_slab_malloc},
    {"bump_fill", "Bump", create_bump, BUMP_CHUNKS, false, NULL, run_bump_tdb,
     run_bump_malloc},
};

/*
 * Time one (workload, variant): calibrate, then one run of about
 * target_ns.  With fixed_iters > 0, skip the calibration and run exactly
 * that many iterations (for profiling: instruction counts divide by the
 * printed op count).  Prints a "time" record.
 */
static void
measure(const Workload *w, bool tdb, uint64 target_ns, uint64 fixed_iters)
{
    BenchState st;
    RunFn run = tdb ? w->run_tdb : w->run_malloc;
    uint64 iters = 1;
    uint64 t0, elapsed, nops;

    memset(&st, 0, sizeof(st));
    st.tdb = tdb;
    st.cxt = tdb ? w->create() : NULL;
    st.nslots = w->nslots;
    if (w->nslots > 0) {
        st.slots = calloc(w->nslots, sizeof(void *));
        if (st.slots == NULL)
            tdb_bench_die("out of memory");
    }
    if (w->setup != NULL)
        w->setup(&st);

    if (fixed_iters > 0)
        iters = fixed_iters;
    else {
        for (;;) {
            t0 = tdb_bench_now_ns();
            run(&st, iters);
            elapsed = tdb_bench_now_ns() - t0;
            if (elapsed >= target_ns / 10)
                break;
            iters *= 2;
        }
        iters = iters * target_ns / (elapsed > 0 ? elapsed : 1);
        if (iters == 0)
            iters = 1;
    }

    t0 = tdb_bench_now_ns();
    nops = run(&st, iters);
    elapsed = tdb_bench_now_ns() - t0;

    printf("time %s %s %s %.3f %llu\n", w->name, w->context,
           tdb ? "tdb" : "malloc", (double)elapsed / (double)nops,
           (unsigned long long)nops);
    fflush(stdout);

    /* Untimed cleanup: the context goes with everything in it. */
    if (tdb)
        tdb_mcxt_delete(st.cxt);
    else if (w->slots_live)
        for (Size i = 0; i < st.nslots; i++)
            free(st.slots[i]);
    free(st.slots);
}

/* ----- space overhead ----- */

#define STRIDE_SAMPLES 4096

static int64 stride_samples[STRIDE_SAMPLES];

/* Resident set size in bytes, read without allocating. */
static Size
rss_bytes(void)
{
    char buf[128];
    int fd = open("/proc/self/statm", O_RDONLY);
    ssize_t len;
    unsigned long long pages_total, pages_resident;

    if (fd < 0)
        tdb_bench_die("cannot open /proc/self/statm: %s", strerror(errno));
    len = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    if (len <= 0)
        tdb_bench_die("cannot read /proc/self/statm");
    buf[len] = '\0';
    if (sscanf(buf, "%llu %llu", &pages_total, &pages_resident) != 2)
        tdb_bench_die("cannot parse /proc/self/statm");
    return (Size)pages_resident * (Size)sysconf(_SC_PAGESIZE);
}

static int
cmp_int64(const void *a, const void *b)
{
    int64 x = *(const int64 *)a, y = *(const int64 *)b;

    return (x > y) - (x < y);
}

/* The most frequent value among n samples (sorts them). */
static int64
mode_of(int64 *samples, int n)
{
    int64 best = samples[0];
    int best_run = 0;

    qsort(samples, (size_t)n, sizeof(int64), cmp_int64);
    for (int i = 0; i < n;) {
        int j = i;

        while (j < n && samples[j] == samples[i])
            j++;
        if (j - i > best_run) {
            best_run = j - i;
            best = samples[i];
        }
        i = j;
    }
    return best;
}

/* Space used by the context's blocks minus their free space. */
static Size
context_used(MemoryContext cxt)
{
    MemoryContextCounters c;

    memset(&c, 0, sizeof(c));
    tdb_mcxt_stats_collect(cxt, false, &c);
    return c.totalspace - c.freespace;
}

/*
 * Measure one (variant, size) in the current (freshly forked) process and
 * print its "ovh" record.  variant: aset, generation, slab, bump, malloc.
 * The chunks are never freed: the child exits.
 */
static void
overhead_one(const char *variant, Size size, Size n)
{
    MemoryContext cxt = NULL;
    bool is_malloc = strcmp(variant, "malloc") == 0;
    bool is_bump = strcmp(variant, "bump") == 0;
    Size capacity = MAXALIGN(size), chunk_space = 0;
    Size used0 = 0, used1 = 0, rss0, rss1;
    char *prev = NULL;
    int64 stride;

    if (strcmp(variant, "aset") == 0) {
        cxt = create_aset();
        capacity = size <= 8 ? 8 : (Size)tdb_next_power_of_2_64(size);
    } else if (strcmp(variant, "generation") == 0)
        cxt = create_generation();
    else if (strcmp(variant, "slab") == 0)
        cxt = tdb_slab_create(tdb_top_mcxt, "bench slab",
                              SLAB_DEFAULT_BLOCK_SIZE, size);
    else if (is_bump)
        cxt = create_bump();
    else if (!is_malloc)
        tdb_bench_die("unknown overhead variant %s", variant);

    memset(stride_samples, 0, sizeof(stride_samples)); /* fault it in now */
    if (cxt != NULL)
        used0 = context_used(cxt);
    rss0 = rss_bytes();

    for (Size i = 0; i < n; i++) {
        char *p = is_malloc ? malloc(size) : tdb_mcxt_alloc(cxt, size);

        if (p == NULL)
            tdb_bench_die("out of memory");
        touch(p, size);
        if (i > 0 && i <= STRIDE_SAMPLES)
            stride_samples[i - 1] = (int64)(p - prev);
        if (i == 0) {
            if (is_malloc)
                capacity = malloc_usable_size(p);
            else if (!is_bump)
                chunk_space = tdb_mcxt_chunk_space(p);
        }
        prev = p;
    }

    rss1 = rss_bytes();
    if (cxt != NULL)
        used1 = context_used(cxt);
    stride = mode_of(stride_samples,
                     n - 1 < STRIDE_SAMPLES ? (int)(n - 1) : STRIDE_SAMPLES);

    printf("ovh %s %zu %zu %zu %lld %lld ", variant, size, n, capacity,
           (long long)stride, (long long)stride - (long long)capacity);
    if (chunk_space > 0)
        printf("%zu ", chunk_space);
    else
        printf("- ");
    if (cxt != NULL)
        printf("%.2f ", (double)(used1 - used0) / (double)n);
    else
        printf("- ");
    printf("%.2f\n", ((double)rss1 - (double)rss0) / (double)n);
    fflush(stdout);
}

static void
run_overhead(bool malloc_only, Size n)
{
    static const char *const variants[] = {"aset", "generation", "slab", "bump",
                                           "malloc"};
    static const Size sizes[] = {16, 24, 64, 100, 256};

    for (size_t v = 0; v < lengthof(variants); v++) {
        if (malloc_only && strcmp(variants[v], "malloc") != 0)
            continue;
        for (size_t s = 0; s < lengthof(sizes); s++) {
            pid_t pid;
            int status;

            fflush(stdout);
            pid = fork();
            if (pid < 0)
                tdb_bench_die("fork: %s", strerror(errno));
            if (pid == 0) {
                overhead_one(variants[v], sizes[s], n);
                _exit(0);
            }
            if (waitpid(pid, &status, 0) < 0)
                tdb_bench_die("waitpid: %s", strerror(errno));
            if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
                fprintf(stderr, "bench_mmgr: overhead child %s/%zu failed\n",
                        variants[v], sizes[s]);
        }
    }
}

/* ----- identification ----- */

/*
 * Which malloc is this process using?  jemalloc exports mallctl(),
 * mimalloc mi_version(); otherwise it is glibc's.  run.sh checks this
 * against the LD_PRELOAD it set, so a failed preload cannot silently
 * relabel glibc's figures.
 */
static void
print_info(void)
{
    typedef int (*MallctlFn)(const char *, void *, size_t *, void *, size_t);
    typedef int (*MiVersionFn)(void);
    MallctlFn mallctl_fn = (MallctlFn)dlsym(RTLD_DEFAULT, "mallctl");
    MiVersionFn mi_version_fn = (MiVersionFn)dlsym(RTLD_DEFAULT, "mi_version");

    if (mallctl_fn != NULL) {
        const char *version = "?";
        size_t len = sizeof(version);

        if (mallctl_fn("version", &version, &len, NULL, 0) != 0)
            version = "?";
        printf("info malloc jemalloc %s\n", version);
    } else if (mi_version_fn != NULL) {
        int v = mi_version_fn();

        printf("info malloc mimalloc %d.%d.%d\n", v / 100, (v / 10) % 10,
               v % 10);
    } else
        printf("info malloc glibc %s\n", gnu_get_libc_version());
    printf("info glibc %s\n", gnu_get_libc_version());
    fflush(stdout);
}

int
main(int argc, char **argv)
{
    double time_sec = 0.2;
    long round = 0;
    const char *only = NULL;
    const char *overhead = NULL;
    Size overhead_n = 1000000;
    uint64 fixed_iters = 0;
    bool info_only = false;

    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;

        if (strcmp(arg, "--info") == 0) {
            info_only = true;
            continue;
        }
        if (val == NULL)
            tdb_bench_die(
                "usage: bench_mmgr [--time SEC | --iters N] [--round R]"
                " [--only WORKLOAD] | --overhead all|malloc [--n N] | --info");
        if (strcmp(arg, "--time") == 0)
            time_sec = atof(val);
        else if (strcmp(arg, "--round") == 0)
            round = atol(val);
        else if (strcmp(arg, "--only") == 0)
            only = val;
        else if (strcmp(arg, "--overhead") == 0)
            overhead = val;
        else if (strcmp(arg, "--n") == 0)
            overhead_n = (Size)atoll(val);
        else if (strcmp(arg, "--iters") == 0)
            fixed_iters = (uint64)atoll(val);
        else
            tdb_bench_die("unknown option %s", arg);
        i++;
    }
    if (time_sec <= 0 || overhead_n < 2)
        tdb_bench_die("bad --time or --n");

    tdb_mcxt_thread_init();
    fill_sequences();
    print_info();
    if (info_only)
        return 0;

    if (overhead != NULL) {
        if (strcmp(overhead, "all") != 0 && strcmp(overhead, "malloc") != 0)
            tdb_bench_die("--overhead takes all or malloc");
        run_overhead(strcmp(overhead, "malloc") == 0, overhead_n);
        return 0;
    }

    for (size_t w = 0; w < lengthof(workloads); w++) {
        uint64 target_ns = (uint64)(time_sec * 1e9);

        if (only != NULL && strcmp(only, workloads[w].name) != 0)
            continue;
        if (round % 2 == 0) {
            measure(&workloads[w], true, target_ns, fixed_iters);
            measure(&workloads[w], false, target_ns, fixed_iters);
        } else {
            measure(&workloads[w], false, target_ns, fixed_iters);
            measure(&workloads[w], true, target_ns, fixed_iters);
        }
    }

    {
        struct rusage ru;

        if (getrusage(RUSAGE_SELF, &ru) == 0)
            printf("info maxrss_kb %ld\n", ru.ru_maxrss);
    }
    tdb_mcxt_thread_done();
    return 0;
}
