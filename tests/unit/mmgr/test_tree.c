/*
 * test_tree.c -- the context tree: reset/delete semantics, reset callbacks,
 * set_parent, names, mem_allocated over subtrees, statistics (collect and
 * the printed PostgreSQL-style report), tdb_mcxt_check on a healthy tree,
 * and very deep and very wide trees.
 *
 * Semantics under test (mcxt.h):
 *   reset            deletes the children, runs the callbacks, frees chunks
 *   reset_only       the same without touching the children
 *   reset_children   reset_only on every descendant; they survive
 *   delete           bottom-up, without recursion (checked on a thread
 *                    whose stack is too small for a recursive walk)
 *   callbacks        most recently registered first, each exactly once, on
 *                    reset and on delete
 */
#include "common/base.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "mmgr_test.h"

/* ----------------------------------------------------------------------
 * Callback recording
 * ---------------------------------------------------------------------- */

#define MAX_CALLS 64

static struct {
    int n;
    int ids[MAX_CALLS];
} calls;

static void
record_call(void *arg)
{
    if (calls.n < MAX_CALLS)
        calls.ids[calls.n] = (int)(intptr_t)arg;
    calls.n++;
}

static void
count_call(void *arg)
{
    (*(int *)arg)++;
}

static void
calls_clear(void)
{
    memset(&calls, 0, sizeof(calls));
}

/* Register record_call(id) on cxt with a struct allocated in `where`. */
static void
add_recorder(MemoryContext cxt, MemoryContext where, int id)
{
    MemoryContextCallback *cb =
        tdb_mcxt_alloc(where, sizeof(MemoryContextCallback));

    cb->func = record_call;
    cb->arg = (void *)(intptr_t)id;
    tdb_mcxt_register_reset_callback(cxt, cb);
}

#define expect_calls(...)                                                      \
    do {                                                                       \
        const int expected_[] = {__VA_ARGS__};                                 \
        expect_int_eq(calls.n, (int)lengthof(expected_));                      \
        for (int i_ = 0; i_ < (int)lengthof(expected_) && i_ < calls.n; i_++)  \
            expect_int_eq(calls.ids[i_], expected_[i_]);                       \
    } while (0)

static MemoryContext
new_aset(MemoryContext parent, const char *name)
{
    return tdb_aset_create(parent, name, ALLOCSET_SMALL_SIZES);
}

/* A chunk with a pattern, so tests can tell whether it survived. */
static void *
marked_chunk(MemoryContext cxt, Size size, uint32 tag)
{
    void *p = tdb_mcxt_alloc(cxt, size);

    fill_pattern(p, size, tag);
    return p;
}

/* ----------------------------------------------------------------------
 * Callbacks
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_callbacks_newest_first_once)
{
    MemoryContext cxt = new_aset(tdb_top_mcxt, "cb");

    calls_clear();
    add_recorder(cxt, tdb_top_mcxt, 1);
    add_recorder(cxt, tdb_top_mcxt, 2);
    add_recorder(cxt, tdb_top_mcxt, 3);
    tdb_mcxt_reset(cxt);
    expect_calls(3, 2, 1);

    /* they were consumed: a second reset (after new allocations) runs none */
    tdb_mcxt_alloc(cxt, 10);
    tdb_mcxt_reset(cxt);
    expect_int_eq(calls.n, 3);

    /* and they run on delete too */
    add_recorder(cxt, tdb_top_mcxt, 4);
    add_recorder(cxt, tdb_top_mcxt, 5);
    tdb_mcxt_delete(cxt);
    expect_calls(3, 2, 1, 5, 4);
}
TEST_END

TEST_BEGIN(test_callback_on_context_never_allocated_from)
{
    MemoryContext cxt = new_aset(tdb_top_mcxt, "untouched");

    calls_clear();
    add_recorder(cxt, tdb_top_mcxt, 7);
    tdb_mcxt_reset_only(cxt);
    expect_calls(7);
    tdb_mcxt_delete(cxt);
    expect_calls(7);
}
TEST_END

TEST_BEGIN(test_callback_struct_allocated_in_its_context)
{
    /* the usual pattern: the callback lives in the memory it watches */
    for (int k = 0; k < N_MMGR_KINDS; k++) {
        const MmgrKind *kind = &mmgr_kinds[k];
        MemoryContext cxt = kind->create(tdb_top_mcxt, kind->label);
        int ncalls = 0;
        MemoryContextCallback *cb =
            tdb_mcxt_alloc(cxt, kind_size(kind, sizeof(MemoryContextCallback)));

        cb->func = count_call;
        cb->arg = &ncalls;
        tdb_mcxt_register_reset_callback(cxt, cb);
        tdb_mcxt_reset(cxt);
        expect_int_eq(ncalls, 1);

        cb = tdb_mcxt_alloc(cxt, kind_size(kind, sizeof(*cb)));
        cb->func = count_call;
        cb->arg = &ncalls;
        tdb_mcxt_register_reset_callback(cxt, cb);
        tdb_mcxt_delete(cxt);
        expect_int_eq(ncalls, 2);
    }
}
TEST_END

TEST_BEGIN(test_callback_may_allocate_elsewhere)
{
    /* a callback that allocates in another context must work */
    MemoryContext cxt = new_aset(tdb_top_mcxt, "cb");
    MemoryContextCallback cb = {.func = record_call, .arg = (void *)11};

    calls_clear();
    tdb_mcxt_register_reset_callback(cxt, &cb);
    tdb_mcxt_alloc(cxt, 100);
    tdb_mcxt_delete(cxt);
    expect_calls(11);
}
TEST_END

/* ----------------------------------------------------------------------
 * Reset and delete semantics
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_reset_deletes_children_bottom_up)
{
    MemoryContext p = new_aset(tdb_top_mcxt, "P");
    MemoryContext c = new_aset(p, "C");
    MemoryContext g = new_aset(c, "G");
    Size p_fresh = tdb_mcxt_mem_allocated(p, false);

    calls_clear();
    add_recorder(p, tdb_top_mcxt, 1);
    add_recorder(c, tdb_top_mcxt, 2);
    add_recorder(g, tdb_top_mcxt, 3);
    marked_chunk(p, 5000, 1);
    marked_chunk(g, 100, 3);
    expect_u64_gt(tdb_mcxt_mem_allocated(p, true),
                  tdb_mcxt_mem_allocated(p, false));

    tdb_mcxt_reset(p);
    /* grandchild, child, then the context's own callbacks */
    expect_calls(3, 2, 1);
    expect_u64_eq(tdb_mcxt_mem_allocated(p, true), p_fresh);
    expect_u64_eq(tdb_mcxt_mem_allocated(p, false), p_fresh);
    expect_true(tdb_mcxt_is_empty(p));
    /* p itself survives and works */
    marked_chunk(p, 10, 4);
    tdb_mcxt_delete(p);
    expect_calls(3, 2, 1);
}
TEST_END

TEST_BEGIN(test_reset_only_keeps_children)
{
    MemoryContext p = new_aset(tdb_top_mcxt, "P");
    MemoryContext c = new_aset(p, "C");
    void *cp = marked_chunk(c, 300, 9);
    Size c_mem = tdb_mcxt_mem_allocated(c, false);

    calls_clear();
    add_recorder(p, tdb_top_mcxt, 1);
    add_recorder(c, tdb_top_mcxt, 2);
    marked_chunk(p, 300, 8);
    tdb_mcxt_reset_only(p);
    expect_calls(1);
    expect_ptr_eq(tdb_mcxt_parent(c), p);
    expect_pattern(cp, 300, 9);
    expect_u64_eq(tdb_mcxt_mem_allocated(c, false), c_mem);
    expect_u64_eq(tdb_mcxt_mem_allocated(p, true),
                  tdb_mcxt_mem_allocated(p, false) + c_mem);
    tdb_mcxt_delete(p);
    expect_calls(1, 2);
}
TEST_END

TEST_BEGIN(test_reset_children_keeps_them)
{
    MemoryContext p = new_aset(tdb_top_mcxt, "P");
    MemoryContext c1 = new_aset(p, "C1");
    MemoryContext c2 = new_aset(p, "C2");
    MemoryContext g = new_aset(c1, "G");
    Size fresh = tdb_mcxt_mem_allocated(c1, false);
    void *pp = marked_chunk(p, 2000, 1);
    void *gp;

    calls_clear();
    add_recorder(p, tdb_top_mcxt, 1);
    add_recorder(c1, tdb_top_mcxt, 2);
    add_recorder(c2, tdb_top_mcxt, 3);
    add_recorder(g, tdb_top_mcxt, 4);
    marked_chunk(c1, 20000, 2);
    marked_chunk(c2, 30, 3);
    marked_chunk(g, 9000, 4);

    tdb_mcxt_reset_children(p);
    /* every descendant was reset once; p's own callback did not run */
    expect_int_eq(calls.n, 3);
    for (int i = 0; i < calls.n && i < 3; i++)
        expect_true(calls.ids[i] >= 2 && calls.ids[i] <= 4);
    expect_pattern(pp, 2000, 1);
    /* the children survive, emptied, still linked */
    expect_ptr_eq(tdb_mcxt_parent(c1), p);
    expect_ptr_eq(tdb_mcxt_parent(c2), p);
    expect_ptr_eq(tdb_mcxt_parent(g), c1);
    expect_u64_eq(tdb_mcxt_mem_allocated(c1, false), fresh);
    expect_u64_eq(tdb_mcxt_mem_allocated(g, false), fresh);
    expect_true(tdb_mcxt_is_empty(c1));
    expect_true(tdb_mcxt_is_empty(g));
    gp = marked_chunk(g, 50, 5);
    expect_pattern(gp, 50, 5);

    tdb_mcxt_delete(p);
    expect_int_eq(calls.n, 4);
    expect_int_eq(calls.ids[3], 1);
}
TEST_END

TEST_BEGIN(test_delete_children)
{
    MemoryContext p = new_aset(tdb_top_mcxt, "P");
    void *pp = marked_chunk(p, 64, 1);
    int ncalls = 0;
    MemoryContextCallback cbs[3];

    for (int i = 0; i < 3; i++) {
        MemoryContext c = new_aset(p, "C");
        MemoryContext g = new_aset(c, "G");

        marked_chunk(g, 100, 2);
        cbs[i].func = count_call;
        cbs[i].arg = &ncalls;
        tdb_mcxt_register_reset_callback(g, &cbs[i]);
    }
    expect_u64_gt(tdb_mcxt_mem_allocated(p, true),
                  tdb_mcxt_mem_allocated(p, false));
    tdb_mcxt_delete_children(p);
    expect_int_eq(ncalls, 3);
    expect_u64_eq(tdb_mcxt_mem_allocated(p, true),
                  tdb_mcxt_mem_allocated(p, false));
    expect_pattern(pp, 64, 1);
    tdb_mcxt_delete(p);
}
TEST_END

TEST_BEGIN(test_reset_deletes_children_of_every_kind)
{
    /* each type as parent, and each type as the deleted child */
    for (int k = 0; k < N_MMGR_KINDS; k++) {
        const MmgrKind *kind = &mmgr_kinds[k];
        MemoryContext parent = kind->create(tdb_top_mcxt, kind->label);
        Size fresh = tdb_mcxt_mem_allocated(parent, false);

        calls_clear();
        for (int j = 0; j < N_MMGR_KINDS; j++) {
            MemoryContext child = mmgr_kinds[j].create(parent, "child");

            tdb_mcxt_alloc(child, kind_size(&mmgr_kinds[j], 40));
            add_recorder(child, tdb_top_mcxt, j);
        }
        tdb_mcxt_alloc(parent, kind_size(kind, 40));
        tdb_mcxt_reset(parent);
        expect_int_eq(calls.n, N_MMGR_KINDS);
        expect_u64_eq(tdb_mcxt_mem_allocated(parent, true), fresh);
        tdb_mcxt_delete(parent);
    }
}
TEST_END

TEST_BEGIN(test_set_parent_moves_subtree)
{
    MemoryContext a = new_aset(tdb_top_mcxt, "A");
    MemoryContext b = new_aset(tdb_top_mcxt, "B");
    MemoryContext c = new_aset(a, "C");
    MemoryContext d = new_aset(c, "D");
    Size b_before = tdb_mcxt_mem_allocated(b, true);
    Size c_tree;
    void *dp = marked_chunk(d, 4000, 6);

    calls_clear();
    add_recorder(c, tdb_top_mcxt, 3);
    add_recorder(d, tdb_top_mcxt, 4);
    c_tree = tdb_mcxt_mem_allocated(c, true);

    tdb_mcxt_set_parent(c, b);
    expect_ptr_eq(tdb_mcxt_parent(c), b);
    expect_ptr_eq(tdb_mcxt_parent(d), c);
    expect_u64_eq(tdb_mcxt_mem_allocated(b, true), b_before + c_tree);
    expect_u64_eq(tdb_mcxt_mem_allocated(a, true),
                  tdb_mcxt_mem_allocated(a, false));

    /* deleting the old parent leaves the moved subtree alone */
    tdb_mcxt_delete(a);
    expect_int_eq(calls.n, 0);
    expect_pattern(dp, 4000, 6);

    /* deleting the new parent takes it along */
    tdb_mcxt_delete(b);
    expect_calls(4, 3);
}
TEST_END

TEST_BEGIN(test_set_parent_null_makes_root)
{
    MemoryContext a = new_aset(tdb_top_mcxt, "A");
    MemoryContext c = new_aset(a, "C");
    void *cp = marked_chunk(c, 100, 2);

    calls_clear();
    add_recorder(c, tdb_top_mcxt, 1);
    tdb_mcxt_set_parent(c, NULL);
    expect_ptr_null(tdb_mcxt_parent(c));
    tdb_mcxt_reset(a);
    tdb_mcxt_delete(a);
    expect_int_eq(calls.n, 0);
    expect_pattern(cp, 100, 2);

    /* and back under a parent */
    tdb_mcxt_set_parent(c, tdb_top_mcxt);
    expect_ptr_eq(tdb_mcxt_parent(c), tdb_top_mcxt);
    tdb_mcxt_delete(c);
    expect_calls(1);
}
TEST_END

TEST_BEGIN(test_set_parent_middle_sibling)
{
    /* unlinking a child from the middle of its sibling list */
    MemoryContext p = new_aset(tdb_top_mcxt, "P");
    MemoryContext q = new_aset(tdb_top_mcxt, "Q");
    MemoryContext kids[5];
    Size own = tdb_mcxt_mem_allocated(p, false);
    Size each;

    for (int i = 0; i < 5; i++)
        kids[i] = new_aset(p, "kid");
    each = tdb_mcxt_mem_allocated(kids[0], false);
    tdb_mcxt_set_parent(kids[2], q);
    tdb_mcxt_set_parent(kids[0], q);
    tdb_mcxt_set_parent(kids[4], q);
    expect_u64_eq(tdb_mcxt_mem_allocated(p, true), own + 2 * each);
    expect_u64_eq(tdb_mcxt_mem_allocated(q, true),
                  tdb_mcxt_mem_allocated(q, false) + 3 * each);
    tdb_mcxt_delete(p);
    expect_u64_eq(tdb_mcxt_mem_allocated(q, true),
                  tdb_mcxt_mem_allocated(q, false) + 3 * each);
    tdb_mcxt_delete(q);
}
TEST_END

TEST_BEGIN(test_names_parents_and_switching)
{
    MemoryContext a = new_aset(tdb_top_mcxt, "alpha");
    MemoryContext old;

    expect_str_eq(tdb_mcxt_name(tdb_top_mcxt), "TopMemoryContext");
    expect_ptr_null(tdb_mcxt_parent(tdb_top_mcxt));
    expect_ptr_eq(tdb_current_mcxt, tdb_top_mcxt);
    expect_str_eq(tdb_mcxt_name(a), "alpha");
    expect_ptr_eq(tdb_mcxt_parent(a), tdb_top_mcxt);

    old = tdb_mcxt_switch_to(a);
    expect_ptr_eq(old, tdb_top_mcxt);
    expect_ptr_eq(tdb_current_mcxt, a);
    expect_ptr_eq(tdb_mcxt_chunk_context(tdb_palloc(10)), a);
    expect_ptr_eq(tdb_mcxt_chunk_context(tdb_pstrdup("x")), a);
    expect_ptr_eq(tdb_mcxt_switch_to(old), a);
    expect_ptr_eq(tdb_current_mcxt, tdb_top_mcxt);
    tdb_mcxt_delete(a);
}
TEST_END

TEST_BEGIN(test_thread_init_is_idempotent)
{
    MemoryContext top = tdb_top_mcxt;

    expect_ptr_not_null(top);
    tdb_mcxt_thread_init();
    expect_ptr_eq(tdb_top_mcxt, top);
}
TEST_END

/* ----------------------------------------------------------------------
 * Accounting over subtrees
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_mem_allocated_recursive)
{
    MemoryContext p = new_aset(tdb_top_mcxt, "P");
    MemoryContext c[3];
    Size sum;

    c[0] = tdb_generation_create(p, "gen", ALLOCSET_DEFAULT_SIZES);
    c[1] = tdb_bump_create(c[0], "bump", ALLOCSET_DEFAULT_SIZES);
    c[2] = tdb_slab_create(p, "slab", 1024, 48);
    tdb_mcxt_alloc(p, 100000);
    tdb_mcxt_alloc(c[0], 3000);
    tdb_mcxt_alloc(c[1], 200000);
    for (int i = 0; i < 50; i++)
        tdb_mcxt_alloc(c[2], 48);

    sum = tdb_mcxt_mem_allocated(p, false);
    for (int i = 0; i < 3; i++)
        sum += tdb_mcxt_mem_allocated(c[i], false);
    expect_u64_eq(tdb_mcxt_mem_allocated(p, true), sum);
    expect_u64_eq(tdb_mcxt_mem_allocated(c[0], true),
                  tdb_mcxt_mem_allocated(c[0], false) +
                      tdb_mcxt_mem_allocated(c[1], false));
    expect_u64_ge(tdb_mcxt_mem_allocated(c[1], false), 200000);
    expect_u64_ge(tdb_mcxt_mem_allocated(c[2], false), 50 * 48);
    tdb_mcxt_delete(p);
}
TEST_END

TEST_BEGIN(test_stats_collect)
{
    MemoryContext p = new_aset(tdb_top_mcxt, "P");
    MemoryContext c = tdb_generation_create(p, "C", ALLOCSET_DEFAULT_SIZES);
    MemoryContextCounters own, all, child;
    void *ptrs[20];

    for (int i = 0; i < 20; i++)
        ptrs[i] = tdb_mcxt_alloc(p, 100 + 50 * (Size)i);
    for (int i = 0; i < 20; i += 2)
        tdb_pfree(ptrs[i]);
    tdb_mcxt_alloc(c, 5000);

    memset(&own, 0, sizeof(own));
    memset(&all, 0, sizeof(all));
    memset(&child, 0, sizeof(child));
    tdb_mcxt_stats_collect(p, false, &own);
    tdb_mcxt_stats_collect(p, true, &all);
    tdb_mcxt_stats_collect(c, false, &child);

    expect_u64_eq(own.totalspace, tdb_mcxt_mem_allocated(p, false));
    expect_u64_eq(all.totalspace, tdb_mcxt_mem_allocated(p, true));
    expect_u64_eq(all.totalspace, own.totalspace + child.totalspace);
    expect_u64_eq(all.nblocks, own.nblocks + child.nblocks);
    expect_u64_eq(all.freespace, own.freespace + child.freespace);
    expect_u64_eq(all.freechunks, own.freechunks + child.freechunks);
    expect_u64_ge(own.nblocks, 1);
    /* ten chunks were freed onto the free lists */
    expect_u64_ge(own.freechunks, 10);
    expect_u64_lt(own.freespace, own.totalspace);

    /* collect adds to what is already there */
    tdb_mcxt_stats_collect(p, false, &own);
    expect_u64_eq(own.totalspace, 2 * tdb_mcxt_mem_allocated(p, false));
    tdb_mcxt_delete(p);
}
TEST_END

/* ----------------------------------------------------------------------
 * The printed report
 * ---------------------------------------------------------------------- */

typedef struct StatsLine {
    int indent;
    char name[128];
    bool is_grand;
    bool is_more;
    int nmore;
    Size total, blocks, freespace, freechunks, used;
} StatsLine;

/*
 * Parse one line of tdb_mcxt_stats_print output:
 *   "<indent>name: T total in B blocks; F free (C chunks); U used"
 *   "<indent>N more child contexts containing T total in ... used"
 *   "Grand total: T bytes in B blocks; F free (C chunks); U used"
 */
static bool
parse_stats_line(const char *line, StatsLine *out)
{
    const char *p = line;
    const char *num;
    const char *rest;
    int consumed = 0;

    memset(out, 0, sizeof(*out));
    while (*p == ' ')
        p++;
    out->indent = (int)(p - line);
    if (strncmp(p, "Grand total: ", 13) == 0) {
        out->is_grand = true;
        return sscanf(p,
                      "Grand total: %zu bytes in %zu blocks; %zu free "
                      "(%zu chunks); %zu used%n",
                      &out->total, &out->blocks, &out->freespace,
                      &out->freechunks, &out->used, &consumed) == 5 &&
               consumed > 0;
    }
    if (strstr(p, " more child contexts containing ") != NULL) {
        out->is_more = true;
        return sscanf(p,
                      "%d more child contexts containing %zu total in %zu "
                      "blocks; %zu free (%zu chunks); %zu used%n",
                      &out->nmore, &out->total, &out->blocks, &out->freespace,
                      &out->freechunks, &out->used, &consumed) == 6 &&
               consumed > 0;
    }
    rest = strstr(p, " total in ");
    if (rest == NULL)
        return false;
    num = rest;
    while (num > p && num[-1] >= '0' && num[-1] <= '9')
        num--;
    if (num - p < 3 || num[-1] != ' ' || num[-2] != ':')
        return false;
    snprintf(out->name, sizeof(out->name), "%.*s", (int)(num - 2 - p), p);
    return sscanf(num,
                  "%zu total in %zu blocks; %zu free (%zu chunks); "
                  "%zu used%n",
                  &out->total, &out->blocks, &out->freespace, &out->freechunks,
                  &out->used, &consumed) == 5 &&
           consumed > 0;
}

/* tdb_mcxt_stats_print into a malloc'd string (caller frees). */
static char *
print_to_string(MemoryContext cxt, int max_children)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);

    tdb_mcxt_stats_print(cxt, f, max_children);
    fclose(f);
    return text;
}

/* Print cxt's report and parse it into lines[]; returns the line count. */
static int
print_and_parse(MemoryContext cxt, int max_children, StatsLine *lines,
                int max_lines)
{
    char *text = print_to_string(cxt, max_children);
    char *save = NULL;
    int n = 0;

    for (char *line = strtok_r(text, "\n", &save); line != NULL;
         line = strtok_r(NULL, "\n", &save)) {
        if (n < max_lines && !parse_stats_line(line, &lines[n]))
            tdb_test_fail(__FILE__, __LINE__, "unparsable stats line: %s",
                          line);
        n++;
    }
    free(text);
    return n;
}

/* The printed numbers of one context line match its counters. */
static void
expect_line_matches(const StatsLine *line, MemoryContext cxt)
{
    MemoryContextCounters c;

    memset(&c, 0, sizeof(c));
    tdb_mcxt_stats_collect(cxt, false, &c);
    expect_str_eq(line->name, tdb_mcxt_name(cxt));
    expect_u64_eq(line->total, tdb_mcxt_mem_allocated(cxt, false));
    expect_u64_eq(line->blocks, c.nblocks);
    expect_u64_eq(line->freespace, c.freespace);
    expect_u64_eq(line->freechunks, c.freechunks);
    expect_u64_eq(line->used, line->total - line->freespace);
}

TEST_BEGIN(test_stats_print_format)
{
    MemoryContext p = new_aset(tdb_top_mcxt, "StatsParent");
    MemoryContext c =
        tdb_generation_create(p, "StatsChild", ALLOCSET_DEFAULT_SIZES);
    MemoryContext g = tdb_slab_create(c, "StatsGrandchild", 2048, 64);
    MemoryContext b = tdb_bump_create(g, "StatsBump", ALLOCSET_SMALL_SIZES);
    StatsLine lines[8];
    MemoryContextCounters all;
    void *x;
    int n;

    x = tdb_mcxt_alloc(p, 1000);
    tdb_mcxt_alloc(p, 20000);
    tdb_pfree(x);
    tdb_mcxt_alloc(c, 700);
    tdb_mcxt_alloc(g, 64);
    tdb_mcxt_alloc(b, 5000);

    n = print_and_parse(p, 100, lines, 8);
    expect_int_eq(n, 5);
    if (n != 5)
        return;
    expect_int_eq(lines[0].indent, 0);
    expect_line_matches(&lines[0], p);
    expect_true(lines[1].indent > lines[0].indent);
    expect_line_matches(&lines[1], c);
    expect_true(lines[2].indent > lines[1].indent);
    expect_line_matches(&lines[2], g);
    expect_true(lines[3].indent > lines[2].indent);
    expect_line_matches(&lines[3], b);
    /* the freed 1000-byte chunk is on a free list */
    expect_u64_ge(lines[0].freechunks, 1);

    expect_true(lines[4].is_grand);
    memset(&all, 0, sizeof(all));
    tdb_mcxt_stats_collect(p, true, &all);
    expect_u64_eq(lines[4].total, tdb_mcxt_mem_allocated(p, true));
    expect_u64_eq(lines[4].blocks, all.nblocks);
    expect_u64_eq(lines[4].freespace, all.freespace);
    expect_u64_eq(lines[4].freechunks, all.freechunks);
    expect_u64_eq(lines[4].used, all.totalspace - all.freespace);
    tdb_mcxt_delete(p);
}
TEST_END

TEST_BEGIN(test_stats_print_ident)
{
    /*
     * PostgreSQL prints the ident after the counters:
     *   "CachedPlanSource: 4096 total in 3 blocks; ...; 2848 used: SELECT 1"
     * so the "name: counters" shape of the line is kept.
     */
    MemoryContext p = new_aset(tdb_top_mcxt, "Portal");
    StatsLine line;
    char *text;
    char first[256];
    size_t len;

    tdb_mcxt_set_ident(p, "my_cursor");
    text = print_to_string(p, 10);
    snprintf(first, sizeof(first), "%.*s", (int)strcspn(text, "\n"), text);
    free(text);
    len = strlen(first);
    expect_str_contains(first, "my_cursor");
    expect_true(parse_stats_line(first, &line));
    expect_str_eq(line.name, "Portal");
    expect_true(len > 16 && strcmp(first + len - 16, " used: my_cursor") == 0);
    if (tdb_test_state.nfailed_expects > 0)
        printf("    line: %s\n", first);
    tdb_mcxt_delete(p);
}
TEST_END

TEST_BEGIN(test_stats_print_max_children)
{
    MemoryContext p = new_aset(tdb_top_mcxt, "P");
    StatsLine lines[16];
    Size printed = 0;
    int n, nmore_lines = 0;

    for (int i = 0; i < 5; i++) {
        MemoryContext c = new_aset(p, "kid");

        tdb_mcxt_alloc(c, 3000 * (Size)(i + 1));
        new_aset(c, "grandkid");
    }
    n = print_and_parse(p, 2, lines, 16);
    /* P, 2 x (kid, grandkid), "3 more" summary, grand total */
    expect_int_eq(n, 7);
    for (int i = 0; i < n && i < 16; i++) {
        if (lines[i].is_grand)
            continue;
        printed += lines[i].total;
        if (lines[i].is_more) {
            nmore_lines++;
            /* three kids (and their three grandkids, if counted) */
            expect_true(lines[i].nmore == 3 || lines[i].nmore == 6);
            expect_int_eq(lines[i].indent, 2);
        }
    }
    expect_int_eq(nmore_lines, 1);
    expect_true(n > 0 && lines[n - 1].is_grand);
    if (n > 0 && n <= 16)
        expect_u64_eq(lines[n - 1].total, tdb_mcxt_mem_allocated(p, true));
    expect_u64_eq(printed, tdb_mcxt_mem_allocated(p, true));

    /* max_children = 0: everything below P is summarised */
    n = print_and_parse(p, 0, lines, 16);
    expect_int_eq(n, 3);
    if (n == 3) {
        expect_true(lines[1].is_more);
        expect_true(lines[1].nmore == 5 || lines[1].nmore == 10);
        expect_u64_eq(lines[1].total + lines[0].total,
                      tdb_mcxt_mem_allocated(p, true));
    }
    tdb_mcxt_delete(p);
}
TEST_END

/* ----------------------------------------------------------------------
 * tdb_mcxt_check on a healthy tree
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_check_healthy_tree_reports_nothing)
{
    MemoryContext p = new_aset(tdb_top_mcxt, "P");
    Outcome out;
    volatile int problems = -1;

    for (int k = 0; k < N_MMGR_KINDS; k++) {
        const MmgrKind *kind = &mmgr_kinds[k];
        MemoryContext c = kind->create(p, kind->label);
        void *ptrs[40];

        for (int i = 0; i < 40; i++) {
            Size size = kind_size(kind, (Size)i * 37);

            ptrs[i] = tdb_mcxt_alloc(c, size);
            memset(ptrs[i], 0x5A, size);
        }
        if (kind->can_free)
            for (int i = 0; i < 40; i += 3)
                tdb_pfree(ptrs[i]);
        tdb_mcxt_alloc(c, kind_size(kind, 20000));
    }
    run_capturing(&out, problems = tdb_mcxt_check(p));
    expect_silent(&out);
    expect_int_eq(problems, 0);
    tdb_mcxt_delete(p);
}
TEST_END

/* ----------------------------------------------------------------------
 * Deep and wide trees
 * ---------------------------------------------------------------------- */

#define DEEP_DEPTH 10000
/*
 * Big enough for the library's non-recursive paths (and the thread's TLS),
 * too small for a recursion DEEP_DEPTH levels deep: even 16 bytes a frame
 * would need 160 kB.
 */
#define DEEP_STACK_SIZE (128 * 1024)

typedef struct DeepResult {
    bool raised;
    char message[ERRMSG_MAX];
    int ncallbacks;
    Size chain_total;
    Size chain_printed_total;
    Size root_after_reset;
    Size root_fresh;
} DeepResult;

/* Build a chain of depth DEEP_DEPTH under root, one callback per level. */
static void
build_chain(MemoryContext root, int *counter)
{
    /* in root: alive until after the chain's callbacks have run */
    MemoryContextCallback *cbs =
        tdb_mcxt_alloc(root, sizeof(*cbs) * DEEP_DEPTH);
    MemoryContext cur = root;

    for (int i = 0; i < DEEP_DEPTH; i++) {
        cur = tdb_slab_create(cur, "deep", 1024, 32);
        tdb_mcxt_alloc(cur, 32);
        cbs[i].func = count_call;
        cbs[i].arg = counter;
        tdb_mcxt_register_reset_callback(cur, &cbs[i]);
    }
}

/* Thread body: build, reset and delete chains on a small stack. */
static void *
deep_thread(void *arg)
{
    DeepResult *res = arg;
    int *counter = &res->ncallbacks;

    TDB_TRY();
    {
        MemoryContext root =
            tdb_aset_create(NULL, "DeepRoot", ALLOCSET_SMALL_SIZES);
        MemoryContextCounters c;

        res->root_fresh = tdb_mcxt_mem_allocated(root, false);

        /* reset must delete the whole chain without recursing */
        build_chain(root, counter);
        res->chain_total = tdb_mcxt_mem_allocated(root, true);
        memset(&c, 0, sizeof(c));
        tdb_mcxt_stats_collect(root, true, &c);
        res->chain_printed_total = c.totalspace;
        tdb_mcxt_reset(root);
        res->root_after_reset = tdb_mcxt_mem_allocated(root, true);

        /* and so must delete */
        build_chain(root, counter);
        tdb_mcxt_delete(root);
    }
    TDB_CATCH();
    {
        res->raised = true;
        snprintf(res->message, sizeof(res->message), "%s",
                 tdb_error_current()->message);
        tdb_error_flush();
    }
    TDB_END_TRY();
    return NULL;
}

TEST_BEGIN(test_deep_chain_reset_and_delete_do_not_recurse)
{
    pthread_attr_t attr;
    pthread_t thread;
    DeepResult res;
    int rc;

    memset(&res, 0, sizeof(res));
    hooks_install();
    pthread_attr_init(&attr);
    rc = pthread_attr_setstacksize(&attr, DEEP_STACK_SIZE);
    expect_int_eq(rc, 0);
    rc = pthread_create(&thread, &attr, deep_thread, &res);
    expect_int_eq(rc, 0);
    if (rc == 0)
        pthread_join(thread, NULL);
    pthread_attr_destroy(&attr);
    hooks_remove();

    expect_false(res.raised);
    if (res.raised)
        printf("    error in thread: %s\n", res.message);
    expect_int_eq(res.ncallbacks, 2 * DEEP_DEPTH);
    expect_u64_eq(res.chain_printed_total, res.chain_total);
    expect_u64_gt(res.chain_total, res.root_fresh + DEEP_DEPTH * 32);
    expect_u64_eq(res.root_after_reset, res.root_fresh);
    /* every block the thread's contexts obtained went back */
    expect_false(counting_hooks.overflow);
    expect_int_eq(counting_hooks.nlive, 0);
    expect_u64_eq(counting_hooks.live_bytes, 0);
    expect_u64_eq(counting_hooks.size_mismatches, 0);
}
TEST_END

TEST_BEGIN(test_deep_chain_stats_and_check)
{
    /* stats, mem_allocated and check walk a deep chain iteratively */
    MemoryContext root = new_aset(tdb_top_mcxt, "root");
    MemoryContext cur = root;
    StatsLine *lines;
    Outcome out;
    volatile int problems = -1;
    int n;

    for (int i = 0; i < 2000; i++) {
        cur = tdb_bump_create(cur, "level", 1024, 1024, 8192);
        tdb_mcxt_alloc(cur, 16);
    }
    lines = tdb_mcxt_alloc(tdb_top_mcxt, sizeof(StatsLine) * 2100);
    n = print_and_parse(root, 10, lines, 2100);
    expect_true(n >= 2 && n <= 2100);
    if (n >= 2 && n <= 2100) {
        expect_true(lines[n - 1].is_grand);
        expect_u64_eq(lines[n - 1].total, tdb_mcxt_mem_allocated(root, true));
    }
    run_capturing(&out, problems = tdb_mcxt_check(root));
    expect_silent(&out);
    expect_int_eq(problems, 0);
    tdb_mcxt_delete(root);
}
TEST_END

#define WIDE_CHILDREN 2000

TEST_BEGIN(test_wide_tree)
{
    MemoryContext p = new_aset(tdb_top_mcxt, "wide");
    MemoryContext *kids =
        tdb_mcxt_alloc(tdb_top_mcxt, sizeof(MemoryContext) * WIDE_CHILDREN);
    MemoryContextCallback *cbs = tdb_mcxt_alloc(
        tdb_top_mcxt, sizeof(MemoryContextCallback) * WIDE_CHILDREN);
    MemoryContextCounters c;
    Size sum, fresh;
    int ncalls = 0;

    for (int i = 0; i < WIDE_CHILDREN; i++) {
        const MmgrKind *kind = &mmgr_kinds[i % N_MMGR_KINDS];

        kids[i] = kind->create(p, "kid");
        tdb_mcxt_alloc(kids[i], kind_size(kind, (Size)(i % 300) + 1));
        cbs[i].func = count_call;
        cbs[i].arg = &ncalls;
        tdb_mcxt_register_reset_callback(kids[i], &cbs[i]);
    }
    sum = tdb_mcxt_mem_allocated(p, false);
    for (int i = 0; i < WIDE_CHILDREN; i++)
        sum += tdb_mcxt_mem_allocated(kids[i], false);
    expect_u64_eq(tdb_mcxt_mem_allocated(p, true), sum);
    memset(&c, 0, sizeof(c));
    tdb_mcxt_stats_collect(p, true, &c);
    expect_u64_eq(c.totalspace, sum);

    /* reset_children resets each child once and keeps all of them */
    tdb_mcxt_reset_children(p);
    expect_int_eq(ncalls, WIDE_CHILDREN);
    fresh = tdb_mcxt_mem_allocated(p, false);
    for (int i = 0; i < WIDE_CHILDREN; i++) {
        expect_ptr_eq(tdb_mcxt_parent(kids[i]), p);
        fresh += tdb_mcxt_mem_allocated(kids[i], false);
    }
    expect_u64_eq(tdb_mcxt_mem_allocated(p, true), fresh);

    /* callbacks again, then delete them all */
    for (int i = 0; i < WIDE_CHILDREN; i++)
        tdb_mcxt_register_reset_callback(kids[i], &cbs[i]);
    tdb_mcxt_delete_children(p);
    expect_int_eq(ncalls, 2 * WIDE_CHILDREN);
    expect_u64_eq(tdb_mcxt_mem_allocated(p, true),
                  tdb_mcxt_mem_allocated(p, false));
    tdb_mcxt_delete(p);
}
TEST_END

/* ----------------------------------------------------------------------
 * One tree per thread
 * ---------------------------------------------------------------------- */

#define N_THREADS 4

typedef struct ThreadResult {
    uint64 seed;
    MemoryContext top;
    bool raised;
    int damaged;
    int problems;
} ThreadResult;

/* Each thread churns chunks in its own tree (the block registry of
 * checking builds is shared between them). */
static void *
churn_thread(void *arg)
{
    ThreadResult *res = arg;
    uint64 rng = res->seed;

    tdb_mcxt_thread_init();
    res->top = tdb_top_mcxt;
    TDB_TRY();
    {
        for (int k = 0; k < N_MMGR_KINDS; k++) {
            const MmgrKind *kind = &mmgr_kinds[k];
            MemoryContext cxt = kind->create(tdb_top_mcxt, kind->label);
            void *ptrs[64] = {0};
            Size sizes[64] = {0};

            for (int step = 0; step < 4000; step++) {
                int slot = (int)(tdb_test_rand(&rng) % 64);

                if (ptrs[slot] != NULL) {
                    if (check_pattern(ptrs[slot], sizes[slot], (uint32)slot) !=
                        sizes[slot])
                        res->damaged++;
                    if (kind->can_free)
                        tdb_pfree(ptrs[slot]);
                }
                sizes[slot] = kind_size(kind, tdb_test_rand(&rng) % 3000);
                ptrs[slot] = tdb_mcxt_alloc(cxt, sizes[slot]);
                fill_pattern(ptrs[slot], sizes[slot], (uint32)slot);
            }
            res->problems += tdb_mcxt_check(tdb_top_mcxt);
            tdb_mcxt_delete(cxt);
        }
    }
    TDB_CATCH();
    {
        res->raised = true;
        tdb_error_flush();
    }
    TDB_END_TRY();
    tdb_mcxt_thread_done();
    return NULL;
}

TEST_BEGIN(test_each_thread_has_its_own_tree)
{
    pthread_t threads[N_THREADS];
    ThreadResult res[N_THREADS];

    memset(res, 0, sizeof(res));
    for (int i = 0; i < N_THREADS; i++) {
        res[i].seed = (tdb_test_seed() + (uint64)i * 7919) | 1;
        expect_int_eq(pthread_create(&threads[i], NULL, churn_thread, &res[i]),
                      0);
    }
    for (int i = 0; i < N_THREADS; i++)
        pthread_join(threads[i], NULL);
    for (int i = 0; i < N_THREADS; i++) {
        expect_false(res[i].raised);
        expect_int_eq(res[i].damaged, 0);
        expect_int_eq(res[i].problems, 0);
        expect_ptr_not_null(res[i].top);
        expect_ptr_ne(res[i].top, tdb_top_mcxt);
        for (int j = 0; j < i; j++)
            expect_ptr_ne(res[i].top, res[j].top);
    }
    /* this thread's tree was not touched */
    expect_ptr_eq(tdb_current_mcxt, tdb_top_mcxt);
    expect_u64_eq(tdb_mcxt_mem_allocated(tdb_top_mcxt, true),
                  tdb_mcxt_mem_allocated(tdb_top_mcxt, false));
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(
        argc, argv, "mmgr_tree", TEST_CASE(test_callbacks_newest_first_once),
        TEST_CASE(test_callback_on_context_never_allocated_from),
        TEST_CASE(test_callback_struct_allocated_in_its_context),
        TEST_CASE(test_callback_may_allocate_elsewhere),
        TEST_CASE(test_reset_deletes_children_bottom_up),
        TEST_CASE(test_reset_only_keeps_children),
        TEST_CASE(test_reset_children_keeps_them),
        TEST_CASE(test_delete_children),
        TEST_CASE(test_reset_deletes_children_of_every_kind),
        TEST_CASE(test_set_parent_moves_subtree),
        TEST_CASE(test_set_parent_null_makes_root),
        TEST_CASE(test_set_parent_middle_sibling),
        TEST_CASE(test_names_parents_and_switching),
        TEST_CASE(test_thread_init_is_idempotent),
        TEST_CASE(test_mem_allocated_recursive), TEST_CASE(test_stats_collect),
        TEST_CASE(test_stats_print_format), TEST_CASE(test_stats_print_ident),
        TEST_CASE(test_stats_print_max_children),
        TEST_CASE(test_check_healthy_tree_reports_nothing),
        TEST_CASE(test_deep_chain_reset_and_delete_do_not_recurse),
        TEST_CASE(test_deep_chain_stats_and_check), TEST_CASE(test_wide_tree),
        TEST_CASE(test_each_thread_has_its_own_tree));
}
