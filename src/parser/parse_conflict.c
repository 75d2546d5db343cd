/*
 * parse_conflict.c -- INSERT's ON CONFLICT clause (PostgreSQL's
 * transformOnConflictClause and, done here rather than in the planner,
 * its infer_arbiter_indexes).
 *
 *   ON CONFLICT [ (elem, ...) [WHERE pred] | ON CONSTRAINT name ]
 *       DO NOTHING | DO UPDATE SET ... [WHERE cond]
 *
 * The conflict target names the arbiter indexes: the unique indexes whose
 * key columns are exactly the target's plain columns (in any order) and
 * whose expression columns are exactly its expressions, and -- for a
 * partial index -- whose predicate the target's WHERE implies; or the
 * index of the PRIMARY KEY or UNIQUE constraint named.  No match is
 * 42P10.  DO NOTHING without a target arbitrates on every unique index
 * (Query.arbiter_indexes NIL); DO UPDATE needs one (42601).
 *
 * DO UPDATE adds the EXCLUDED pseudo-relation, the row proposed for
 * insertion, as a range-table entry shaped like the target.  It is in
 * the namespace only while the SET list and the WHERE are analyzed, as
 * in PostgreSQL: unqualified names there see both it and the target (so
 * "SET b = b" is ambiguous), and a reference from elsewhere (RETURNING,
 * the conflict target) gets PostgreSQL's "invalid reference" error
 * (parse_expr.c, resolve_qualified).
 *
 * The analysis runs after the insert's rows, with only the target in
 * the namespace, and after add_checks analyzed the target's index
 * expressions and predicates (Query.index_exprs), which the inference
 * compares with the target's elements.
 */
#include "common/base.h"

#include <string.h>

#include "catalog/catalog.h"
#include "catalog/pg_type.h"
#include "common/elog.h"
#include "parser/parse_int.h"
#include "parser/parser.h"
#include "types/builtins.h"
#include "types/fmgr.h"

/* One element of the conflict target, analyzed. */
typedef struct InferElem {
    Expr *expr;
    const char *opclass;   /* the operator class named, or NULL */
    const char *collation; /* the collation named, or NULL */
} InferElem;

/* An index of the target, as the inference sees it. */
typedef struct IndexShape {
    const RelationIndex *ri;
    List *exprs; /* its expression columns (Expr), in order */
    Expr *pred;  /* its predicate, or NULL */
} IndexShape;

/*
 * Each index's expression columns and predicate out of q->index_exprs,
 * which holds them index after index (parser's tdb_analyze_index_exprs).
 */
static IndexShape *
index_shapes(const Query *q, Relation rel)
{
    IndexShape *shapes =
        tdb_palloc0(sizeof(IndexShape) * (Size)Max(rel->rd_nindexes, 1));
    int next = 0;

    for (int i = 0; i < rel->rd_nindexes; i++) {
        const RelationIndex *ri = &rel->rd_indexes[i];

        shapes[i].ri = ri;
        for (int c = 0; c < ri->ri_natts; c++)
            if (ri->ri_attnums[c] == 0)
                shapes[i].exprs = tdb_lappend(shapes[i].exprs,
                                              list_nth(q->index_exprs, next++));
        if (ri->ri_pred != NULL)
            shapes[i].pred = list_nth(q->index_exprs, next++);
    }
    return shapes;
}

/* The last name of a qualified name list (String nodes). */
static const char *
last_name(PgQuery__Node **names, size_t n)
{
    const PgQuery__Node *last = names[n - 1];

    return last->node_case == PG_QUERY__NODE__NODE_STRING ? last->string->sval
                                                          : "";
}

/* One element of the conflict target: a column name or an expression. */
static InferElem *
transform_elem(ParseState *ps, const PgQuery__InferClause *infer,
               const PgQuery__IndexElem *ielem, Relation rel)
{
    InferElem *elem = tdb_palloc0(sizeof(InferElem));
    ExprKind saved = ps->expr_kind;

    if (ielem->ordering != PG_QUERY__SORT_BY_DIR__SORTBY_DEFAULT &&
        ielem->ordering != PG_QUERY__SORT_BY_DIR__SORT_BY_DIR_UNDEFINED)
        ereport(ERROR, errcode(ERRCODE_INVALID_COLUMN_REFERENCE),
                errmsg("ASC/DESC is not allowed in ON CONFLICT clause"),
                errposition(parse_errpos(ps, infer->location)));
    if (ielem->nulls_ordering !=
            PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_DEFAULT &&
        ielem->nulls_ordering !=
            PG_QUERY__SORT_BY_NULLS__SORT_BY_NULLS_UNDEFINED)
        ereport(ERROR, errcode(ERRCODE_INVALID_COLUMN_REFERENCE),
                errmsg("NULLS FIRST/LAST is not allowed in ON CONFLICT "
                       "clause"),
                errposition(parse_errpos(ps, infer->location)));
    if (ielem->expr == NULL) {
        /* a column name, located at the target's "(" as in PostgreSQL */
        PgQuery__Node node = PG_QUERY__NODE__INIT;
        PgQuery__ColumnRef ref = PG_QUERY__COLUMN_REF__INIT;
        PgQuery__Node field = PG_QUERY__NODE__INIT;
        PgQuery__String name = PG_QUERY__STRING__INIT;
        PgQuery__Node *fields[1] = {&field};
        bool is_column = false;

        for (int i = 0; i < rel->rd_att->natts; i++)
            is_column |= strcmp(TupleDescAttr(rel->rd_att, i)->attname,
                                ielem->name) == 0;
        if (!is_column && strcmp(ielem->name, rel->rd_name) == 0)
            ereport(ERROR, errcode(ERRCODE_INVALID_COLUMN_REFERENCE),
                    errmsg("whole row unique index inference "
                           "specifications are not supported"));
        name.sval = ielem->name;
        field.node_case = PG_QUERY__NODE__NODE_STRING;
        field.string = &name;
        ref.n_fields = 1;
        ref.fields = fields;
        ref.location = infer->location;
        node.node_case = PG_QUERY__NODE__NODE_COLUMN_REF;
        node.column_ref = &ref;
        elem->expr = tdb_transform_expr(ps, &node, EXPR_KIND_INDEX_EXPRESSION);
    } else
        elem->expr =
            tdb_transform_expr(ps, ielem->expr, EXPR_KIND_INDEX_EXPRESSION);
    ps->expr_kind = saved;
    if (ielem->n_opclass > 0)
        elem->opclass = last_name(ielem->opclass, ielem->n_opclass);
    if (ielem->n_collation > 0)
        elem->collation = last_name(ielem->collation, ielem->n_collation);
    return elem;
}

/* PostgreSQL 15's default B-tree operator class names, by type. */
static const struct {
    Oid type;
    const char *name;
} btree_opclasses[] = {
    {INT2OID, "int2_ops"},           {INT4OID, "int4_ops"},
    {INT8OID, "int8_ops"},           {OIDOID, "oid_ops"},
    {FLOAT4OID, "float4_ops"},       {FLOAT8OID, "float8_ops"},
    {NUMERICOID, "numeric_ops"},     {TEXTOID, "text_ops"},
    {VARCHAROID, "text_ops"},        {BPCHAROID, "bpchar_ops"},
    {NAMEOID, "name_ops"},           {BYTEAOID, "bytea_ops"},
    {BOOLOID, "bool_ops"},           {CHAROID, "char_ops"},
    {DATEOID, "date_ops"},           {TIMEOID, "time_ops"},
    {TIMESTAMPOID, "timestamp_ops"}, {TIMESTAMPTZOID, "timestamptz_ops"},
    {INTERVALOID, "interval_ops"},   {UUIDOID, "uuid_ops"},
};

/*
 * Do elem's operator class and collation, if it names them, agree with
 * the index (PostgreSQL's infer_collation_opclass_match)?  tupledb's
 * indexes use their types' default operator classes and collations, so
 * an operator class matches when it is the type's default, a collation
 * when it is "default".  An unknown operator class is 42704.
 */
static bool
elem_class_matches(const InferElem *elem)
{
    Oid type = exprType(elem->expr);
    bool known = false, matches = false;

    if (elem->collation != NULL && strcmp(elem->collation, "default") != 0)
        return false;
    if (elem->opclass == NULL)
        return true;
    for (size_t i = 0; i < lengthof(btree_opclasses); i++)
        if (strcmp(btree_opclasses[i].name, elem->opclass) == 0) {
            known = true;
            matches |= btree_opclasses[i].type == type;
        }
    if (!known)
        ereport(ERROR, errcode(ERRCODE_UNDEFINED_OBJECT),
                errmsg("operator class \"%s\" does not exist for access "
                       "method \"btree\"",
                       elem->opclass));
    return matches;
}

/* ----------------------------------------------------------------------
 * Partial indexes: does the target's WHERE imply the predicate?
 * ---------------------------------------------------------------------- */

enum { BT_LT = 1, BT_LE, BT_EQ, BT_GE, BT_GT, BT_NE };

/* The B-tree strategy of a comparison operator's name, 0 if none. */
static int
strategy_of(const char *name)
{
    static const char *const names[] = {"<", "<=", "=", ">=", ">", "<>"};

    for (int i = 0; i < 6; i++)
        if (strcmp(names[i], name) == 0)
            return i + 1;
    return 0;
}

/* The strategy of the operator with its arguments swapped. */
static int
commuted(int strategy)
{
    return strategy == BT_EQ || strategy == BT_NE ? strategy
                                                  : BT_GT + BT_LT - strategy;
}

/*
 * "expr OP const" (or "const OP expr", commuted) with a non-null
 * constant: its parts; false for anything else.
 */
static bool
comparison_parts(Expr *e, Expr **expr, int *strategy, Const **c)
{
    OpExpr *op;
    Expr *l, *r;

    if (!IsA(e, OpExpr) || list_length(((OpExpr *)e)->args) != 2)
        return false;
    op = (OpExpr *)e;
    *strategy = strategy_of(op->op->name);
    l = linitial(op->args);
    r = list_nth(op->args, 1);
    if (*strategy == 0 || op->op->left != op->op->right)
        return false;
    if (IsA(r, Const) && !IsA(l, Const)) {
        *expr = l;
        *c = (Const *)r;
    } else if (IsA(l, Const) && !IsA(r, Const)) {
        *expr = r;
        *c = (Const *)l;
        *strategy = commuted(*strategy);
    } else
        return false;
    return !(*c)->constisnull;
}

/*
 * Does "x given c1" imply "x target c2" (PostgreSQL's predtest.c,
 * BT_implic_table)?  The table gives the test to apply to c2 and c1: for
 * x > 10 and x > 5 the test is 5 <= 10.
 */
static bool
comparison_implies(Expr *clause, Expr *pred)
{
    static const int8 implic[6][6] = {
        /* target: LT     LE     EQ     GE     GT     NE */
        {BT_GE, BT_GE, 0, 0, 0, BT_GE},             /* given LT */
        {BT_GT, BT_GE, 0, 0, 0, BT_GT},             /* given LE */
        {BT_GT, BT_GE, BT_EQ, BT_LE, BT_LT, BT_NE}, /* given EQ */
        {0, 0, 0, BT_LE, BT_LT, BT_LT},             /* given GE */
        {0, 0, 0, BT_LE, BT_LE, BT_LE},             /* given GT */
        {0, 0, 0, 0, 0, BT_EQ},                     /* given NE */
    };
    Expr *cx, *px;
    Const *c1, *c2;
    int given, target, test, cmp;
    const TypeSupport *support;
    FunctionCallInfoData fcinfo = {0};

    if (!comparison_parts(clause, &cx, &given, &c1) ||
        !comparison_parts(pred, &px, &target, &c2) ||
        !tdb_expr_equal((Node *)cx, (Node *)px) || exprType(c1) != exprType(c2))
        return false;
    test = implic[given - 1][target - 1];
    support = tdb_type_support(exprType(c1));
    if (test == 0 || support == NULL || support->cmp == NULL)
        return false;
    fcinfo.nargs = 2;
    fcinfo.args[0].value = c2->constvalue;
    fcinfo.args[1].value = c1->constvalue;
    cmp = DatumGetInt32(support->cmp(&fcinfo));
    switch (test) {
    case BT_LT:
        return cmp < 0;
    case BT_LE:
        return cmp <= 0;
    case BT_EQ:
        return cmp == 0;
    case BT_GE:
        return cmp >= 0;
    case BT_GT:
        return cmp > 0;
    default:
        return cmp != 0;
    }
}

/* Is every conjunct of pred implied by one of where's conjuncts? */
static bool
predicate_implied(Expr *pred, Expr *where)
{
    List *preds = tdb_expr_conjuncts(pred, NIL);
    List *clauses = tdb_expr_conjuncts(where, NIL);

    for (int p = 0; p < list_length(preds); p++) {
        bool implied = false;

        for (int c = 0; c < list_length(clauses) && !implied; c++)
            implied =
                tdb_expr_equal(list_nth(clauses, c), list_nth(preds, p)) ||
                comparison_implies(list_nth(clauses, c), list_nth(preds, p));
        if (!implied)
            return false;
    }
    return true;
}

/* ----------------------------------------------------------------------
 * Inference
 * ---------------------------------------------------------------------- */

/* Does index shape match the conflict target (elems, where)? */
static bool
index_matches(const IndexShape *shape, List *elems, Expr *where,
              int result_relation)
{
    const RelationIndex *ri = shape->ri;

    if (!ri->ri_unique || !ri->ri_valid)
        return false;
    /* the plain key columns are exactly the target's columns */
    for (int c = 0; c < ri->ri_nkeyatts; c++) {
        bool named = ri->ri_attnums[c] == 0;

        for (int e = 0; e < list_length(elems) && !named; e++) {
            Expr *x = ((InferElem *)list_nth(elems, e))->expr;

            named = IsA(x, Var) && ((Var *)x)->varattno == ri->ri_attnums[c];
        }
        if (!named)
            return false;
    }
    for (int e = 0; e < list_length(elems); e++) {
        const InferElem *elem = list_nth(elems, e);
        bool found = false;

        if (!elem_class_matches(elem))
            return false;
        if (IsA(elem->expr, Var) &&
            ((Var *)elem->expr)->varno == result_relation) {
            for (int c = 0; c < ri->ri_nkeyatts && !found; c++)
                found = ri->ri_attnums[c] == ((Var *)elem->expr)->varattno;
        } else
            for (int x = 0; x < list_length(shape->exprs) && !found; x++)
                found = tdb_expr_equal(list_nth(shape->exprs, x),
                                       (Node *)elem->expr);
        if (!found)
            return false;
    }
    /* and its expression columns are all in the target */
    for (int x = 0; x < list_length(shape->exprs); x++) {
        bool found = false;

        for (int e = 0; e < list_length(elems) && !found; e++)
            found =
                tdb_expr_equal(list_nth(shape->exprs, x),
                               (Node *)((InferElem *)list_nth(elems, e))->expr);
        if (!found)
            return false;
    }
    return shape->pred == NULL || predicate_implied(shape->pred, where);
}

/* The index of the constraint named conname on rel (its position). */
static int
constraint_index(ParseState *ps, Relation rel, const char *conname)
{
    ConstraintInfo con;

    if (!tdb_catalog_find_constraint(ps->st->xact, rel->rd_id, conname, &con))
        ereport(ERROR, errcode(ERRCODE_UNDEFINED_OBJECT),
                errmsg("constraint \"%s\" for table \"%s\" does not exist",
                       conname, rel->rd_name));
    for (int i = 0; i < rel->rd_nindexes; i++)
        if (con.indexoid != InvalidOid &&
            rel->rd_indexes[i].ri_oid == con.indexoid)
            return i;
    ereport(ERROR, errcode(ERRCODE_WRONG_OBJECT_TYPE),
            errmsg("constraint in ON CONFLICT clause has no associated "
                   "index"));
}

/*
 * The arbiter indexes (positions in rd_indexes, in OID order) of the
 * conflict target: the elements and WHERE, or the constraint.
 */
static List *
infer_arbiters(ParseState *ps, Query *q, Relation rel,
               const PgQuery__InferClause *infer, List *elems, Expr *where)
{
    IndexShape *shapes;
    List *arbiters = NIL;

    if (infer->conname != NULL && infer->conname[0] != '\0')
        return tdb_lappend_int(NIL, constraint_index(ps, rel, infer->conname));
    shapes = index_shapes(q, rel);
    for (int i = 0; i < rel->rd_nindexes; i++)
        if (index_matches(&shapes[i], elems, where, q->result_relation))
            arbiters = tdb_lappend_int(arbiters, i);
    if (arbiters == NIL)
        ereport(ERROR, errcode(ERRCODE_INVALID_COLUMN_REFERENCE),
                errmsg("there is no unique or exclusion constraint matching "
                       "the ON CONFLICT specification"));
    return arbiters;
}

/* ----------------------------------------------------------------------
 * The clause
 * ---------------------------------------------------------------------- */

void
tdb_transform_on_conflict(ParseState *ps, Query *q, Relation rel,
                          PgQuery__OnConflictClause *clause)
{
    const PgQuery__InferClause *infer = clause->infer;
    bool update =
        clause->action == PG_QUERY__ON_CONFLICT_ACTION__ONCONFLICT_UPDATE;
    List *elems = NIL;
    Expr *where = NULL;
    NamespaceItem *item;

    if (update && infer == NULL)
        ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
                errmsg("ON CONFLICT DO UPDATE requires inference "
                       "specification or constraint name"),
                errhint("For example, ON CONFLICT (column_name)."),
                errposition(parse_errpos(ps, clause->location)));
    q->on_conflict = update ? ONCONFLICT_UPDATE : ONCONFLICT_NOTHING;
    if (update) {
        /* before the target is analyzed, so that naming EXCLUDED there
         * gets the "cannot be referenced from this part" error */
        RangeTblEntry *rte = tdb_make_relation_rte(ps, rel, "excluded");

        rte->has_alias = true;
        rte->is_excluded = true;
        q->excluded_relation = tdb_add_rte(ps, rte);
    }
    if (infer != NULL) {
        for (size_t i = 0; i < infer->n_index_elems; i++)
            elems = tdb_lappend(
                elems, transform_elem(ps, infer,
                                      infer->index_elems[i]->index_elem, rel));
        if (infer->where_clause != NULL)
            where = tdb_transform_expr(ps, infer->where_clause,
                                       EXPR_KIND_INDEX_PREDICATE);
        q->arbiter_indexes = infer_arbiters(ps, q, rel, infer, elems, where);
        for (int i = 0; i < list_length(q->arbiter_indexes); i++) {
            const RelationIndex *ri =
                &rel->rd_indexes[list_nth_int(q->arbiter_indexes, i)];

            q->arbiter_oids = tdb_lappend_int(q->arbiter_oids, (int)ri->ri_oid);
            q->arbiter_names =
                tdb_lappend(q->arbiter_names,
                            tdb_mcxt_strdup(tdb_current_mcxt, ri->ri_name));
        }
    }
    if (!update)
        return;
    item = tdb_palloc(sizeof(NamespaceItem));
    item->rtindex = q->excluded_relation;
    item->cols_visible = item->rel_visible = true;
    ps->namespace = tdb_lappend(ps->namespace, item);
    tdb_transform_set_list(ps, rel, clause->target_list, clause->n_target_list,
                           &q->conflict_set);
    q->conflict_where =
        tdb_transform_where(ps, clause->where_clause, EXPR_KIND_WHERE, "WHERE");
    /* RETURNING does not see EXCLUDED */
    ps->namespace =
        tdb_list_delete_nth(ps->namespace, list_length(ps->namespace) - 1);
}
