/*
 * test_volatility.c -- every built-in function, operator and function
 * cast that has a PostgreSQL counterpart has PostgreSQL's volatility
 * (pg_proc.provolatile of the function behind it).  Constant folding
 * (optimizer/clauses.c) evaluates only immutable calls at plan time, so a
 * stable function marked immutable would freeze a setting-dependent
 * value (TimeZone, DateStyle, now()) into a plan, and an immutable one
 * marked stable would change EXPLAIN output and error timing.
 *
 * The oracle is tests/fixtures/pg/pg15_catalog.txt (capture_catalog.sh).
 * Rows without a PostgreSQL OID (oid 0) and casts that PostgreSQL does
 * not list are skipped; automatic I/O conversion casts have no function.
 */
#include "common/base.h"

#include <stdio.h>
#include <string.h>

#include "test.h"
#include "types/builtins.h"

#define MAX_RECORDS 8192

typedef struct CatalogRow {
    char kind; /* 'p' proc, 'o' oper, 'c' cast */
    uint32 a;  /* oid, or cast source */
    uint32 b;  /* cast target */
    char volatility;
} CatalogRow;

static CatalogRow rows[MAX_RECORDS];
static int nrows;

/* The fixture's volatility of a row, or 0 if PostgreSQL has none. */
static char
pg_volatility(char kind, uint32 a, uint32 b)
{
    for (int i = 0; i < nrows; i++)
        if (rows[i].kind == kind && rows[i].a == a &&
            (kind != 'c' || rows[i].b == b))
            return rows[i].volatility;
    return 0;
}

static bool
load_fixture(void)
{
    char path[1024];
    char line[512];
    FILE *f = tdb_test_open_fixture("pg/pg15_catalog.txt",
                                    "TDB_CATALOG_FIXTURE", path,
                                    sizeof(path));

    if (f == NULL)
        return false;
    nrows = 0;
    while (fgets(line, sizeof(line), f) != NULL && nrows < MAX_RECORDS) {
        char kind[8];
        char name[128];
        unsigned a;
        unsigned b;
        char vol;

        if (line[0] == '#')
            continue;
        if (sscanf(line, "cast %u %u %c", &a, &b, &vol) == 3)
            rows[nrows++] = (CatalogRow){'c', a, b, vol};
        else if (sscanf(line, "%7s %u %c %127s", kind, &a, &vol, name) == 4)
            rows[nrows++] = (CatalogRow){kind[0], a, 0, vol};
    }
    fclose(f);
    return nrows > 0;
}

TEST_BEGIN(test_volatility_matches_postgresql)
{
    int nsets;
    const BuiltinSet *const *sets = tdb_builtin_sets(&nsets);
    int checked = 0;

    if (!load_fixture())
        test_skip("tests/fixtures/pg/pg15_catalog.txt not found");
    for (int s = 0; s < nsets; s++) {
        const BuiltinSet *set = sets[s];

        for (int i = 0; i < set->nfuncs; i++) {
            const FuncDesc *f = &set->funcs[i];
            char want = f->oid != 0 ? pg_volatility('p', f->oid, 0) : 0;

            if (want == 0)
                continue;
            checked++;
            if (f->volatility != want)
                tdb_test_fail(__FILE__, __LINE__,
                              "function %s (oid %u): volatility %c, "
                              "PostgreSQL %c",
                              f->name, f->oid, f->volatility, want);
        }
        for (int i = 0; i < set->nopers; i++) {
            const OperDesc *o = &set->opers[i];
            char want = o->oid != 0 ? pg_volatility('o', o->oid, 0) : 0;

            if (want == 0)
                continue;
            checked++;
            if (o->volatility != want)
                tdb_test_fail(__FILE__, __LINE__,
                              "operator %s (oid %u): volatility %c, "
                              "PostgreSQL %c",
                              o->name, o->oid, o->volatility, want);
        }
        for (int i = 0; i < set->ncasts; i++) {
            const CastDesc *c = &set->casts[i];
            char want;

            if (c->method != CAST_METHOD_FUNCTION)
                continue;
            want = pg_volatility('c', c->source, c->target);
            if (want == 0)
                continue;
            checked++;
            if (c->volatility != want)
                tdb_test_fail(__FILE__, __LINE__,
                              "cast %u -> %u: volatility %c, PostgreSQL %c",
                              c->source, c->target, c->volatility, want);
        }
    }
    /* the registry has some 800 rows with PostgreSQL OIDs */
    expect_true(checked > 500);
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(argc, argv, "types_volatility",
                     TEST_CASE(test_volatility_matches_postgresql));
}
