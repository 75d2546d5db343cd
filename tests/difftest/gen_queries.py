#!/usr/bin/env python3
"""gen_queries.py -- random join/filter/group queries for the differential test.

    gen_queries.py SEED COUNT > statements.sql

Where gen_exprs.py checks expression semantics, this checks the planner
and the executor's plan shapes: every statement is a random query over
three small tables full of NULLs and duplicates, whose result tupledb
must print exactly as PostgreSQL 15 does.

A query is built from
  - a join tree of one to four table references: inner, LEFT, RIGHT,
    FULL and cross joins, ON conditions that are equalities between the
    two sides, sometimes with an extra condition on one side or a
    constant (the shapes outer-join reduction, condition pushdown and
    constant folding act on), and sometimes a subquery in FROM;
  - a WHERE clause of comparisons, IS [NOT] NULL, IN lists, COALESCE,
    EXISTS / IN / NOT IN subqueries (correlated or not; int4 against
    int8 or int2 at times; at times under IS [NOT] NULL / TRUE / FALSE,
    which shows IN's unknown results), AND/OR/NOT;
  - an output: count(*), some columns (SELECT [DISTINCT]), or a grouped
    aggregate with HAVING.
Every statement orders by all its output columns, so a correct result
has one printed form.  Seeded: SEED reproduces a run.

The join methods change along the script (PHASES): the first half runs
with the defaults (hash joins), the third quarter with hash joins off
(merge joins, each input sorted), the last quarter with merge joins off
too (nested loops; FULL joins still hash).
"""
import random
import sys

TABLES = {
    "t1": [(1, 10, "'a'"), (2, 20, "'b'"), (2, None, "'b'"), (None, 30, "'c'"),
           (4, 40, None), (5, 10, "'a'"), (None, None, None), (7, 70, "'g'")],
    "t2": [(1, 100, "'a'"), (2, 200, "'x'"), (3, None, "'c'"), (None, 300, "'b'"),
           (5, 500, "'e'"), (5, 501, None), (8, 10, "'a'")],
    "t3": [(2, 20, "'b'"), (3, 30, None), (None, 40, "'d'"), (5, 10, "'a'"),
           (9, None, "'z'")],
}
COLUMNS = ["a", "b", "c"]

# (share of the statements done, the settings from there on)
PHASES = [
    (0.5, ["SET enable_hashjoin = off;"]),
    (0.75, ["SET enable_mergejoin = off;"]),
]


def sql_value(v):
    return "NULL" if v is None else str(v)


# A table several pages long, so the planner's size estimates differ
# between the references (which side is hashed, Hash Right Join).
BIG_TABLE = ("t4", "INSERT INTO t4 SELECT CASE WHEN g % 7 = 0 THEN NULL "
             "ELSE g % 13 END, g % 50, 'c' || (g % 5) "
             "FROM generate_series(1, 600) g;")


def setup_sql():
    out = []
    for name, rows in TABLES.items():
        out.append("CREATE TABLE %s (a int, b int, c text);" % name)
        out.append("INSERT INTO %s VALUES %s;" % (
            name, ", ".join("(%s)" % ", ".join(sql_value(v) for v in r)
                            for r in rows)))
    out.append("CREATE TABLE %s (a int, b int, c text);" % BIG_TABLE[0])
    out.append(BIG_TABLE[1])
    return out


class Gen:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.alias_no = 0
        self.big_used = False

    def new_alias(self):
        self.alias_no += 1
        return "r%d" % self.alias_no

    # ---- values ----------------------------------------------------------

    def const_for(self, col):
        r = self.rng
        if col == "c":
            return r.choice(["'a'", "'b'", "'x'", "'z'", "''"])
        return str(r.choice([0, 1, 2, 5, 10, 20, 100, 300]))

    def column(self, aliases):
        alias = self.rng.choice(aliases)
        return alias, self.rng.choice(COLUMNS)

    # ---- conditions ------------------------------------------------------

    def comparison(self, aliases):
        r = self.rng
        alias, col = self.column(aliases)
        ref = "%s.%s" % (alias, col)
        kind = r.random()
        if kind < 0.25:
            return "%s %s %s" % (ref, r.choice(["=", "<>", "<", ">=", ">"]),
                                 self.const_for(col))
        if kind < 0.4:
            return "%s IS %sNULL" % (ref, r.choice(["", "NOT "]))
        if kind < 0.55:
            alias2, col2 = self.column(aliases)
            if (col == "c") != (col2 == "c"):
                col2 = col
            return "%s %s %s.%s" % (ref, r.choice(["=", "<", "<>"]), alias2,
                                    col2)
        if kind < 0.65:
            return "%s %sIN (%s, %s)" % (ref, r.choice(["", "NOT "]),
                                         self.const_for(col),
                                         self.const_for(col))
        if kind < 0.75:
            return "coalesce(%s, %s) = %s" % (ref, self.const_for(col),
                                              self.const_for(col))
        if kind < 0.9 and col != "c":
            sub = r.choice(["t1", "t2", "t3"])
            form = r.random()
            if form < 0.1:  # two columns: a semi join on both
                return self.truth_test("(%s, %s.c) %sIN (SELECT s.%s, s.c FROM %s s)" % (
                    ref, alias, r.choice(["", "NOT "]), col, sub))
            if form < 0.2:
                return ("%sEXISTS (SELECT 1 FROM %s s WHERE s.%s = %s "
                        "AND s.c %s %s.c)" % (
                            r.choice(["", "NOT "]), sub, col, ref,
                            r.choice(["=", "<>", "<"]), alias))
            if form < 0.25:
                return "(%s, %s.c) %s (%s, %s)" % (
                    ref, alias, r.choice(["<", "=", ">=", "<>"]),
                    self.const_for(col), self.const_for("c"))
            if r.random() < 0.5:  # correlated
                return "%sEXISTS (SELECT 1 FROM %s s WHERE s.%s = %s)" % (
                    r.choice(["", "NOT "]), sub, col, ref)
            # uncorrelated: hashed unless pulled up into a semi join;
            # sometimes across int4 / int8 / int2
            lhs, rhs = ref, "s." + col
            cast = r.random()
            if cast < 0.15:
                rhs += "::int8"
            elif cast < 0.25:
                lhs += "::int8"
            elif cast < 0.3:
                rhs += "::int2"
            return self.truth_test(
                "%s %sIN (SELECT %s FROM %s s WHERE s.b %s %s)" % (
                    lhs, r.choice(["", "NOT "]), rhs, sub,
                    r.choice(["<", ">", "IS NOT"]),
                    r.choice(["50", "NULL", "100"])))
        if col != "c":
            sub = r.choice(["t1", "t2", "t3"])
            return "%s > (SELECT min(s.%s) FROM %s s)" % (ref, col, sub)
        return "%s LIKE '%%%s%%'" % (ref, r.choice(["a", "b", ""]))

    def truth_test(self, cond):
        """cond, or sometimes a test of its truth value, so that IN's
        NULL (unknown) results show (a hashed subplan's partial
        matches)."""
        r = self.rng
        if r.random() < 0.25:
            return "(%s) IS %s" % (cond, r.choice(["NULL", "NOT NULL",
                                                   "NOT TRUE", "NOT FALSE"]))
        return cond

    def condition(self, aliases, depth=2):
        r = self.rng
        if depth == 0 or r.random() < 0.5:
            return self.comparison(aliases)
        op = r.random()
        if op < 0.4:
            return "(%s AND %s)" % (self.condition(aliases, depth - 1),
                                    self.condition(aliases, depth - 1))
        if op < 0.8:
            return "(%s OR %s)" % (self.condition(aliases, depth - 1),
                                   self.condition(aliases, depth - 1))
        return "NOT (%s)" % self.condition(aliases, depth - 1)

    # ---- FROM ------------------------------------------------------------

    def table_ref(self):
        r = self.rng
        alias = self.new_alias()
        if r.random() < 0.15:
            sub = r.choice(list(TABLES))
            return ("(SELECT a, b, c FROM %s WHERE b IS NOT NULL OR a > 1) %s"
                    % (sub, alias)), [alias]
        names = list(TABLES)
        if not self.big_used:  # once per statement: results stay small
            names.append(BIG_TABLE[0])
        name = r.choice(names)
        self.big_used = self.big_used or name == BIG_TABLE[0]
        return "%s %s" % (name, alias), [alias]

    def join_tree(self, ntables):
        r = self.rng
        if ntables == 1:
            return self.table_ref()
        nleft = r.randint(1, ntables - 1)
        left, la = self.join_tree(nleft)
        right, ra = self.join_tree(ntables - nleft)
        kind = r.choice(["JOIN", "LEFT JOIN", "LEFT JOIN", "RIGHT JOIN",
                         "FULL JOIN", "CROSS JOIN"])
        if kind == "CROSS JOIN":
            return "%s CROSS JOIN %s" % (left, right), la + ra
        col = r.choice(["a", "a", "b", "c"])
        on = "%s.%s = %s.%s" % (r.choice(la), col, r.choice(ra), col)
        extra = r.random()
        if extra < 0.2:
            on += " AND %s" % self.comparison(ra)
        elif extra < 0.3:
            on += " AND %s" % self.comparison(la)
        elif extra < 0.35:
            on += " AND %s" % r.choice(["true", "false", "1 = 1"])
        if kind == "FULL JOIN":  # FULL JOIN needs a hashable condition only
            on = "%s.%s = %s.%s" % (r.choice(la), col, r.choice(ra), col)
        return "%s %s %s ON %s" % (left, kind, right, on), la + ra

    # ---- whole statements ------------------------------------------------

    def statement(self):
        r = self.rng
        self.alias_no = 0
        self.big_used = False
        from_sql, aliases = self.join_tree(r.choice([1, 2, 2, 3, 3, 4]))
        where = ""
        if r.random() < 0.8:
            where = " WHERE " + self.condition(aliases)
        shape = r.random()
        if shape < 0.3:
            return "SELECT count(*) FROM %s%s;" % (from_sql, where)
        if shape < 0.75:
            cols = ["%s.%s" % self.column(aliases)
                    for _ in range(r.randint(1, 4))]
            distinct = "DISTINCT " if r.random() < 0.2 else ""
            order = ", ".join(str(i + 1) for i in range(len(cols)))
            return "SELECT %s%s FROM %s%s ORDER BY %s;" % (
                distinct, ", ".join(cols), from_sql, where, order)
        alias, col = self.column(aliases)
        agg_alias, agg_col = self.column(aliases)
        agg = r.choice(["count(*)", "count(%s.%s)" % (agg_alias, agg_col),
                        "min(%s.%s)" % (agg_alias, agg_col),
                        "max(%s.%s)" % (agg_alias, agg_col)])
        if agg_col != "c" and r.random() < 0.5:
            agg = r.choice(["sum", "avg"]) + "(%s.%s)" % (agg_alias, agg_col)
        having = ""
        if r.random() < 0.3:
            having = " HAVING count(*) %s %d" % (r.choice([">", "="]),
                                                 r.randint(0, 3))
        return "SELECT %s.%s, %s FROM %s%s GROUP BY 1%s ORDER BY 1, 2;" % (
            alias, col, agg, from_sql, where, having)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: gen_queries.py SEED COUNT")
    seed, count = int(sys.argv[1]), int(sys.argv[2])
    print("-- generated by tests/difftest/gen_queries.py %d %d" % (seed, count))
    print("\\set VERBOSITY sqlstate")
    for line in setup_sql():
        print(line)
    g = Gen(seed)
    for i in range(count):
        for share, settings in PHASES:
            if i == int(count * share):
                print("\n".join(settings))
        print(g.statement())


if __name__ == "__main__":
    main()
