/*
 * mmgr_test.h -- helpers shared by the memory-context unit tests
 * (tests/unit/mmgr/test_*.c).  Header-only: every test binary links just
 * its own object, test.o and libtupledb.a.
 *
 *   MmgrKind / mmgr_kinds[]   one entry per context type (AllocSet,
 *                             Generation, Slab, Bump) with a constructor and
 *                             what the type supports, so that a test can
 *                             loop over all four instead of being copied.
 *   fill_pattern/check_pattern  a per-chunk byte pattern that proves a
 *                             chunk's contents survived other operations.
 *   CountingHooks             MemoryContextOsHooks that pass through to
 *                             malloc/realloc/free and record every live
 *                             block and its size (or refuse on demand).
 *   NoticeCapture/Outcome     run a statement, catching an ERROR and
 *                             collecting the WARNINGs it emits.
 *   running_under_valgrind()  to skip the >1 GB and corruption tests.
 *
 * Everything is `static TDB_UNUSED`: each test file uses a subset.
 */
#ifndef TDB_TESTS_MMGR_TEST_H
#define TDB_TESTS_MMGR_TEST_H

#include "common/base.h"

#include <stdio.h>
#include <stdlib.h>
#include <valgrind/valgrind.h>

#include "mmgr/mcxt.h"
#include "mmgr/mcxt_int.h"
#include "test.h"

#if defined(__SANITIZE_ADDRESS__)
#define MMGR_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MMGR_TEST_ASAN 1
#endif
#endif
#ifndef MMGR_TEST_ASAN
#define MMGR_TEST_ASAN 0
#endif

/* Header size in front of every AllocSet/Generation/Slab chunk. */
#define CHUNK_HDR ((Size)MEMORYCHUNK_HDRSZ)

static TDB_UNUSED bool
running_under_valgrind(void)
{
    return RUNNING_ON_VALGRIND != 0;
}

/* ----------------------------------------------------------------------
 * The four context types
 * ---------------------------------------------------------------------- */

/* The one chunk size the test Slab contexts are created with. */
#define SLAB_TEST_CHUNK ((Size)100)

typedef struct MmgrKind {
    const char *label;        /* "AllocSet", ... */
    MemoryContextMethodID id; /* method id in the chunk header */
    MemoryContext (*create)(MemoryContext parent, const char *name);
    Size fixed_size;   /* Slab: the only size it allocates; 0 = any size */
    bool can_free;     /* pfree/repalloc/chunk queries allowed (not Bump) */
    bool any_size;     /* large, MaxAllocSize and HUGE requests allowed */
    bool reuses_freed; /* a freed chunk is handed out again (AllocSet, Slab) */
} MmgrKind;

static TDB_UNUSED MemoryContext
create_aset(MemoryContext parent, const char *name)
{
    return tdb_aset_create(parent, name, ALLOCSET_DEFAULT_SIZES);
}

static TDB_UNUSED MemoryContext
create_generation(MemoryContext parent, const char *name)
{
    return tdb_generation_create(parent, name, ALLOCSET_DEFAULT_SIZES);
}

static TDB_UNUSED MemoryContext
create_slab(MemoryContext parent, const char *name)
{
    return tdb_slab_create(parent, name, SLAB_DEFAULT_BLOCK_SIZE,
                           SLAB_TEST_CHUNK);
}

static TDB_UNUSED MemoryContext
create_bump(MemoryContext parent, const char *name)
{
    return tdb_bump_create(parent, name, ALLOCSET_DEFAULT_SIZES);
}

static const MmgrKind mmgr_kinds[] TDB_UNUSED = {
    {"AllocSet", MCTX_ASET_ID, create_aset, 0, true, true, true},
    {"Generation", MCTX_GENERATION_ID, create_generation, 0, true, true, false},
    {"Slab", MCTX_SLAB_ID, create_slab, SLAB_TEST_CHUNK, true, false, true},
    {"Bump", MCTX_BUMP_ID, create_bump, 0, false, true, false},
};
#define N_MMGR_KINDS ((int)lengthof(mmgr_kinds))

/* A size the kind accepts: `wanted`, or the Slab's fixed chunk size. */
static TDB_UNUSED Size
kind_size(const MmgrKind *kind, Size wanted)
{
    return kind->fixed_size ? kind->fixed_size : wanted;
}

/*
 * Chunk queries are legal on every chunk except a Bump one; in checking
 * builds a Bump chunk has a header but the queries raise, so tests skip
 * them for Bump in both builds.
 */
static TDB_UNUSED bool
kind_has_chunk_queries(const MmgrKind *kind)
{
    return kind->can_free;
}

/* ----------------------------------------------------------------------
 * Byte patterns
 * ---------------------------------------------------------------------- */

static inline uint8
pattern_byte(uint32 tag, Size i)
{
    return (uint8)(tag * 131u + i * 7u + (i >> 8) * 13u + 1u);
}

static TDB_UNUSED void
fill_pattern(void *p, Size n, uint32 tag)
{
    uint8 *b = p;

    for (Size i = 0; i < n; i++)
        b[i] = pattern_byte(tag, i);
}

/* Index of the first byte that differs from the pattern, or n. */
static TDB_UNUSED Size
check_pattern(const void *p, Size n, uint32 tag)
{
    const uint8 *b = p;

    for (Size i = 0; i < n; i++)
        if (b[i] != pattern_byte(tag, i))
            return i;
    return n;
}

static TDB_UNUSED bool
all_bytes_are(const void *p, Size n, uint8 value)
{
    const uint8 *b = p;

    for (Size i = 0; i < n; i++)
        if (b[i] != value)
            return false;
    return true;
}

/* expect_pattern(p, n, tag): the n bytes at p still hold pattern `tag`. */
static TDB_UNUSED void
expect_pattern_at(const char *file, int line, const void *p, Size n, uint32 tag)
{
    Size at = check_pattern(p, n, tag);

    if (at != n)
        tdb_test_fail(file, line,
                      "chunk %p: pattern %u damaged at byte %zu of %zu", p, tag,
                      at, n);
}
#define expect_pattern(p, n, tag)                                              \
    expect_pattern_at(__FILE__, __LINE__, (p), (n), (tag))

/* ----------------------------------------------------------------------
 * Counting OS hooks
 *
 * They pass every call through to malloc/realloc/free, so blocks made
 * before the hooks were installed (TopMemoryContext's) may be freed while
 * they are installed and vice versa; a block unknown to the table is just
 * freed (counted in unknown_frees).  The table lets a test compare a
 * context's mem_allocated with the bytes really held from the OS.
 * ---------------------------------------------------------------------- */

/* Open-addressing table of live blocks (linear probing, backward-shift
 * deletion); at most half full. */
#define HOOK_TABLE_SIZE (1 << 16)
#define HOOK_MAX_LIVE (HOOK_TABLE_SIZE / 2)

typedef struct HookBlock {
    void *block; /* NULL = empty slot */
    Size size;
} HookBlock;

typedef struct CountingHooks {
    HookBlock table[HOOK_TABLE_SIZE];
    int nlive;       /* blocks obtained through the hooks, not freed */
    Size live_bytes; /* their total size */
    uint64 nallocs, nreallocs, nfrees;
    uint64 unknown_frees;   /* blocks freed that the table never saw */
    uint64 size_mismatches; /* block_free/realloc passed the wrong size */
    bool overflow;          /* table full: counts are no longer exact */
    bool refuse;            /* return NULL from block_alloc/realloc */
    Size refuse_above;      /* if nonzero: refuse blocks larger than this */
    uint64 nrefused;
    Size last_refused;     /* size of the last refused request */
    Size alloc_sizes[256]; /* sizes of the first 256 block_alloc calls */
    bool quarantine;       /* keep freed blocks mapped until hooks_remove */
    int nquarantined;
    void *quarantined[64];
} CountingHooks;

static CountingHooks counting_hooks TDB_UNUSED;

static inline Size
hook_slot(const void *block)
{
    return (Size)(((uintptr_t)block >> 4) * UINT64_C(0x9E3779B97F4A7C15) >>
                  40) &
           (HOOK_TABLE_SIZE - 1);
}

/* Slot holding block, or -1. */
static TDB_UNUSED long
hook_find(const void *block)
{
    Size i = hook_slot(block);

    while (counting_hooks.table[i].block != NULL) {
        if (counting_hooks.table[i].block == block)
            return (long)i;
        i = (i + 1) & (HOOK_TABLE_SIZE - 1);
    }
    return -1;
}

static TDB_UNUSED void
hook_record(void *block, Size size)
{
    Size i;

    if (counting_hooks.nlive >= HOOK_MAX_LIVE) {
        counting_hooks.overflow = true;
        return;
    }
    i = hook_slot(block);
    while (counting_hooks.table[i].block != NULL)
        i = (i + 1) & (HOOK_TABLE_SIZE - 1);
    counting_hooks.table[i].block = block;
    counting_hooks.table[i].size = size;
    counting_hooks.nlive++;
    counting_hooks.live_bytes += size;
}

/* Remove slot i (backward-shift deletion keeps probe chains intact). */
static TDB_UNUSED void
hook_forget(Size i)
{
    Size j = i;

    counting_hooks.live_bytes -= counting_hooks.table[i].size;
    counting_hooks.nlive--;
    for (;;) {
        Size home;

        j = (j + 1) & (HOOK_TABLE_SIZE - 1);
        if (counting_hooks.table[j].block == NULL)
            break;
        home = hook_slot(counting_hooks.table[j].block);
        if (((j - home) & (HOOK_TABLE_SIZE - 1)) >=
            ((j - i) & (HOOK_TABLE_SIZE - 1))) {
            counting_hooks.table[i] = counting_hooks.table[j];
            i = j;
        }
    }
    counting_hooks.table[i].block = NULL;
    counting_hooks.table[i].size = 0;
}

/* Start and size of the live hooked block containing p, or false. */
static TDB_UNUSED bool
hook_block_of(const void *p, void **start, Size *size)
{
    for (Size i = 0; i < HOOK_TABLE_SIZE; i++) {
        const char *b = counting_hooks.table[i].block;

        if (b != NULL && (const char *)p >= b &&
            (const char *)p < b + counting_hooks.table[i].size) {
            *start = (void *)b;
            *size = counting_hooks.table[i].size;
            return true;
        }
    }
    return false;
}

static inline bool
hook_refuses(Size size)
{
    if (counting_hooks.refuse || (counting_hooks.refuse_above != 0 &&
                                  size > counting_hooks.refuse_above)) {
        counting_hooks.last_refused = size;
        return true;
    }
    return false;
}

static TDB_UNUSED void *
hook_block_alloc(Size size)
{
    void *p;

    if (hook_refuses(size)) {
        counting_hooks.nrefused++;
        return NULL;
    }
    p = malloc(size);
    if (p == NULL)
        return NULL;
    if (counting_hooks.nallocs < lengthof(counting_hooks.alloc_sizes))
        counting_hooks.alloc_sizes[counting_hooks.nallocs] = size;
    counting_hooks.nallocs++;
    hook_record(p, size);
    return p;
}

static TDB_UNUSED void *
hook_block_realloc(void *block, Size old_size, Size new_size)
{
    long i = hook_find(block);
    void *p;

    if (hook_refuses(new_size)) {
        counting_hooks.nrefused++;
        return NULL;
    }
    p = realloc(block, new_size);
    if (p == NULL)
        return NULL;
    counting_hooks.nreallocs++;
    if (i >= 0) {
        if (counting_hooks.table[i].size != old_size)
            counting_hooks.size_mismatches++;
        hook_forget((Size)i);
        hook_record(p, new_size);
    }
    return p;
}

static TDB_UNUSED void
hook_block_free(void *block, Size size)
{
    long i = hook_find(block);

    counting_hooks.nfrees++;
    if (i >= 0) {
        if (counting_hooks.table[i].size != size)
            counting_hooks.size_mismatches++;
        hook_forget((Size)i);
    } else
        counting_hooks.unknown_frees++;
    if (counting_hooks.quarantine &&
        counting_hooks.nquarantined < (int)lengthof(counting_hooks.quarantined))
        counting_hooks.quarantined[counting_hooks.nquarantined++] = block;
    else
        free(block);
}

static const MemoryContextOsHooks counting_os_hooks TDB_UNUSED = {
    hook_block_alloc, hook_block_realloc, hook_block_free};

/* Start counting from an empty table. */
static TDB_UNUSED void
hooks_install(void)
{
    memset(&counting_hooks, 0, sizeof(counting_hooks));
    tdb_mcxt_set_os_hooks(&counting_os_hooks);
}

/*
 * Back to malloc/realloc/free (blocks still in the table stay valid);
 * quarantined blocks are really freed now.
 */
static TDB_UNUSED void
hooks_remove(void)
{
    counting_hooks.refuse = false;
    counting_hooks.refuse_above = 0;
    tdb_mcxt_set_os_hooks(NULL);
    for (int i = 0; i < counting_hooks.nquarantined; i++)
        free(counting_hooks.quarantined[i]);
    counting_hooks.nquarantined = 0;
    counting_hooks.quarantine = false;
}

/* ----------------------------------------------------------------------
 * Capturing WARNINGs and ERRORs
 * ---------------------------------------------------------------------- */

typedef struct NoticeCapture {
    int count;                 /* reports received */
    int nwarnings;             /* of which WARNING */
    char text[4 * ERRMSG_MAX]; /* "message | detail\n" per report */
    ErrorNoticeHook old_hook;
    void *old_arg;
} NoticeCapture;

static TDB_UNUSED void
notice_capture_hook(const ErrorData *edata, void *arg)
{
    NoticeCapture *cap = arg;
    Size used = strlen(cap->text);

    cap->count++;
    if (edata->elevel == WARNING)
        cap->nwarnings++;
    if (used + 1 < sizeof(cap->text))
        snprintf(cap->text + used, sizeof(cap->text) - used, "%s | %s\n",
                 edata->message, edata->detail);
}

static TDB_UNUSED void
notice_capture_begin(NoticeCapture *cap)
{
    memset(cap, 0, sizeof(*cap));
    cap->old_hook =
        tdb_error_set_notice_hook(notice_capture_hook, cap, &cap->old_arg);
}

static TDB_UNUSED void
notice_capture_end(NoticeCapture *cap)
{
    tdb_error_set_notice_hook(cap->old_hook, cap->old_arg, NULL);
}

/* What one statement did: raised an ERROR and/or emitted notices. */
typedef struct Outcome {
    bool raised;
    ErrorData error; /* valid if raised */
    NoticeCapture notices;
} Outcome;

/*
 * run_capturing(&outcome, stmt): run stmt with notices captured, catching
 * (and flushing) an ERROR.  `outcome` must not be a register local.
 */
#define run_capturing(out, stmt)                                               \
    do {                                                                       \
        Outcome *run_out_ = (out);                                             \
        run_out_->raised = false;                                              \
        notice_capture_begin(&run_out_->notices);                              \
        TDB_TRY();                                                             \
        {                                                                      \
            stmt;                                                              \
        }                                                                      \
        TDB_CATCH();                                                           \
        {                                                                      \
            run_out_->raised = true;                                           \
            run_out_->error = *tdb_error_current();                            \
            tdb_error_flush();                                                 \
        }                                                                      \
        TDB_END_TRY();                                                         \
        notice_capture_end(&run_out_->notices);                                \
    } while (0)

/* True if the outcome's ERROR (message or detail) or a notice has needle. */
static TDB_UNUSED bool
outcome_mentions(const Outcome *out, const char *needle)
{
    if (out->raised && (strstr(out->error.message, needle) ||
                        strstr(out->error.detail, needle)))
        return true;
    return strstr(out->notices.text, needle) != NULL;
}

/* Something was reported: an ERROR or at least one WARNING. */
static TDB_UNUSED bool
outcome_reported(const Outcome *out)
{
    return out->raised || out->notices.nwarnings > 0;
}

static TDB_UNUSED const char *
outcome_text(const Outcome *out)
{
    static char buf[8 * ERRMSG_MAX];

    snprintf(buf, sizeof(buf), "%s%s%s%s%s", out->raised ? "ERROR: " : "",
             out->raised ? out->error.message : "", out->raised ? " | " : "",
             out->raised ? out->error.detail : "", out->notices.text);
    return buf;
}

/*
 * expect_reported(&outcome, "needle"): an ERROR or WARNING was raised and
 * its text contains needle.
 */
#define expect_reported(out, needle)                                           \
    do {                                                                       \
        if (!outcome_reported(out))                                            \
            tdb_test_fail(__FILE__, __LINE__,                                  \
                          "expected an ERROR or WARNING mentioning \"%s\"",    \
                          (needle));                                           \
        else if (!outcome_mentions((out), (needle)))                           \
            tdb_test_fail(__FILE__, __LINE__,                                  \
                          "expected the report to mention \"%s\", got: %s",    \
                          (needle), outcome_text(out));                        \
    } while (0)

/* Nothing was reported: no ERROR and no notice at all. */
#define expect_silent(out)                                                     \
    do {                                                                       \
        if ((out)->raised || (out)->notices.count > 0)                         \
            tdb_test_fail(__FILE__, __LINE__, "expected no report, got: %s",   \
                          outcome_text(out));                                  \
    } while (0)

#endif /* TDB_TESTS_MMGR_TEST_H */
