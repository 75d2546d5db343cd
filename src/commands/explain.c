/*
 * explain.c -- EXPLAIN [ANALYZE] in PostgreSQL's text format: one
 * "QUERY PLAN" column, a line per node ("->  " for children, indented
 * six more per level), node properties (Filter, Hash Cond, Sort Key,
 * ...) under their node, costs "(cost=s..t rows=n width=w)" and, with
 * ANALYZE, "(actual time=s..t rows=n loops=l)" and the node's runtime
 * details (Sort Method, Rows Removed by Filter), then Planning and
 * Execution Time.
 *
 * Expressions are printed back as SQL the way PostgreSQL's ruleutils
 * does for the node kinds tupledb has: columns by name (qualified with
 * the relation's name when the plan reads several), operators in
 * parentheses, constants with a cast when their type would not be
 * inferred.  A reference to a child's output (OUTER_VAR/INNER_VAR) is
 * printed as the child's expression.
 */
#include "common/base.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "catalog/pg_type.h"
#include "common/elog.h"
#include "common/stack_depth.h"
#include "executor/executor.h"

static const char *ident(const char *name);
#include "commands/commands_int.h"
#include "executor/tuplesort.h"
#include "parser/parser.h"
#include "toast/detoast.h"
#include "types/builtins.h"

/* A growing text buffer in the current memory context. */
typedef struct Buf {
    char *data;
    Size len, size;
} Buf;

static void
buf_init(Buf *b)
{
    b->size = 256;
    b->data = tdb_palloc(b->size);
    b->len = 0;
    b->data[0] = '\0';
}

static TDB_PRINTF(2, 3) void buf_printf(Buf *b, const char *fmt, ...)
{
    for (;;) {
        va_list args;
        int n;

        va_start(args, fmt);
        n = vsnprintf(b->data + b->len, b->size - b->len, fmt, args);
        va_end(args);
        if (n >= 0 && (Size)n < b->size - b->len) {
            b->len += (Size)n;
            return;
        }
        b->size *= 2;
        b->data = tdb_repalloc(b->data, b->size);
    }
}

/*
 * The name EXPLAIN gives each scan node: its relation's name (or alias),
 * made unique as PostgreSQL's set_rtable_names does -- a name already
 * taken gets "_1", "_2", ... ("Seq Scan on t t_1", "*VALUES*_1").
 * PostgreSQL names the range-table entries of the whole plan: the top
 * query's first, then each subquery's as its scan is reached in the plan,
 * then the subplans'; assign_refnames follows the same order.
 */
typedef struct RefNames {
    List *plans; /* Plan *: scan nodes */
    List *names; /* const char *: their names, in the same order */
} RefNames;

/*
 * The subplans whose plans enclose the node being printed, innermost
 * first (PostgreSQL's deparse "ancestors"): a correlated subplan's
 * Params are printed as the outer expressions that set them.
 */
typedef struct ExplainAncestor {
    SubPlan *subplan;              /* its plan is (or encloses) the node */
    Plan *parent;                  /* the node whose expression holds it */
    struct ExplainAncestor *outer; /* the next one out, or NULL */
} ExplainAncestor;

/* What expressions of a node are printed against. */
typedef struct DeparseContext {
    Plan *plan;                 /* the node whose expressions these are */
    bool use_prefix;            /* qualify column names */
    ExplainAncestor *ancestors; /* subplans around plan, or NULL */
    RefNames *names;            /* the scans' names */
} DeparseContext;

typedef struct ExplainState {
    Statement *st;
    PlannedStmt *stmt;
    bool analyze;
    bool costs;
    bool timing;
    bool summary;
    bool summary_set;
    bool verbose;
    bool use_prefix;
    EState *estate;             /* ANALYZE: the run's state (subplans' nodes) */
    ExplainAncestor *ancestors; /* subplans around the node being printed */
    RefNames names;             /* the scans' names */
    List *lines;                /* char * */
} ExplainState;

static void deparse(Buf *b, Expr *e, DeparseContext *ctx);

/*
 * Column i (0-based) of a relation with these column names, made unique
 * within the relation as PostgreSQL's ruleutils does: a name taken by an
 * earlier column gets "_1", "_2", ... ("?column?", "?column?_1").
 */
static const char *
column_name(List *colnames, int i)
{
    const char **names = tdb_palloc(sizeof(char *) * (Size)(i + 1));

    for (int c = 0; c <= i; c++) {
        const char *base = list_nth(colnames, c);
        const char *name = base;
        int suffix = 0;
        bool taken = true;

        while (taken) {
            taken = false;
            for (int d = 0; d < c && !taken; d++)
                taken = strcmp(names[d], name) == 0;
            if (taken) {
                Buf b;

                buf_init(&b);
                buf_printf(&b, "%s_%d", base, ++suffix);
                name = b.data;
            }
        }
        names[c] = name;
    }
    return names[i];
}

/* The name of scan node plan (see RefNames). */
static const char *
refname(const RefNames *names, const Plan *plan)
{
    for (int i = 0; i < list_length(names->plans); i++)
        if (list_nth(names->plans, i) == plan)
            return list_nth(names->names, i);
    return plan->scan_refname;
}

/* ----------------------------------------------------------------------
 * Expressions
 * ---------------------------------------------------------------------- */

static void
deparse_var(Buf *b, Var *v, DeparseContext *ctx)
{
    Plan *plan = ctx->plan;
    Plan *child = NULL;

    if (v->varno == SCAN_VAR) {
        if (v->varattno == SelfItemPointerAttributeNumber) {
            buf_printf(b, "ctid");
            return;
        }
        if (IsA(plan, SubqueryScan) && plan->scan_colnames == NIL) {
            DeparseContext sub = {((SubqueryScan *)plan)->subplan,
                                  ctx->use_prefix, ctx->ancestors, ctx->names};
            TargetEntry *te = list_nth(sub.plan->targetlist, v->varattno - 1);

            deparse(b, te->expr, &sub);
            return;
        }
        if (plan->scan_colnames != NIL &&
            v->varattno <= list_length(plan->scan_colnames)) {
            const char *name = refname(ctx->names, plan);

            if (ctx->use_prefix && name != NULL)
                buf_printf(b, "%s.", ident(name));
            buf_printf(
                b, "%s",
                ident(column_name(plan->scan_colnames, v->varattno - 1)));
            return;
        }
        buf_printf(b, "column%d", v->varattno);
        return;
    }
    if (v->varno == INNER_VAR && IsA(plan, ModifyTable) &&
        v->varattno <= list_length(plan->scan_colnames)) {
        /* ON CONFLICT DO UPDATE: the proposed row */
        buf_printf(b, "excluded.%s",
                   ident(column_name(plan->scan_colnames, v->varattno - 1)));
        return;
    }
    if (v->varno == OUTER_VAR)
        child = plan->lefttree;
    else if (v->varno == INNER_VAR)
        child = plan->righttree;
    if (child != NULL && IsA(child, Hash))
        child = child->lefttree;
    if (child == NULL && IsA(plan, Append))
        child = linitial(((Append *)plan)->appendplans);
    if (child != NULL && v->varattno >= 1 &&
        v->varattno <= list_length(child->targetlist)) {
        DeparseContext sub = {child, ctx->use_prefix, ctx->ancestors,
                              ctx->names};
        TargetEntry *te = list_nth(child->targetlist, v->varattno - 1);
        /* as PostgreSQL: the reader took this for a plain column, so an
         * expression the child computed is parenthesized */
        bool parens = !IsA(te->expr, Var);

        if (parens)
            buf_printf(b, "(");
        deparse(b, te->expr, &sub);
        if (parens)
            buf_printf(b, ")");
        return;
    }
    buf_printf(b, "?%d.%d", v->varno, v->varattno);
}

/*
 * A Param: a correlated subplan's input is printed as the expression of
 * the enclosing node that sets it, with qualified column names (and in
 * parentheses unless it is a column, an aggregate or a Param), as
 * PostgreSQL's ruleutils does; any other Param as $n.
 */
static void
deparse_param(Buf *b, Param *p, DeparseContext *ctx)
{
    if (p->paramkind == PARAM_EXEC)
        for (ExplainAncestor *a = ctx->ancestors; a != NULL; a = a->outer)
            for (int i = 0; i < list_length(a->subplan->par_param); i++) {
                Expr *arg = list_nth(a->subplan->args, i);
                DeparseContext outer = {a->parent, true, a->outer, ctx->names};
                bool paren;

                if (list_nth_int(a->subplan->par_param, i) != p->paramid)
                    continue;
                paren = !IsA(arg, Var) && !IsA(arg, Aggref) && !IsA(arg, Param);
                if (paren)
                    buf_printf(b, "(");
                deparse(b, arg, &outer);
                if (paren)
                    buf_printf(b, ")");
                return;
            }
    buf_printf(b, "$%d", p->paramid);
}

static void
deparse_const(Buf *b, Const *c)
{
    Oid type = exprType(c);
    char *out;

    if (c->constisnull) {
        buf_printf(b, "NULL::%s", tdb_format_type(type, exprTypmod(c)));
        return;
    }
    out = tdb_type_output(type, c->constvalue);
    switch (type) {
    case INT4OID:
        if (out[0] == '-')
            buf_printf(b, "'%s'::integer", out);
        else
            buf_printf(b, "%s", out);
        return;
    case NUMERICOID:
        /* plain only when it reads back as numeric (has a point or an
         * exponent and no sign), as PostgreSQL's ruleutils decides */
        if (out[0] != '-' && strpbrk(out, ".eE") != NULL &&
            strchr(out, 'N') == NULL && strchr(out, 'I') == NULL)
            buf_printf(b, "%s", out);
        else
            buf_printf(b, "'%s'::numeric", out);
        return;
    case BOOLOID:
        buf_printf(b, "%s", DatumGetBool(c->constvalue) ? "true" : "false");
        return;
    default:
        buf_printf(b, "'");
        for (const char *p = out; *p != '\0'; p++) {
            if (*p == '\'')
                buf_printf(b, "''");
            else
                buf_printf(b, "%c", *p);
        }
        buf_printf(b, "'::%s", tdb_format_type(type, exprTypmod(c)));
    }
}

/*
 * A name as PostgreSQL's quote_identifier prints it: bare when it reads
 * back as itself (lower-case letters, digits and '_', not starting with a
 * digit, not a keyword other than an unreserved one), otherwise
 * double-quoted with '"' doubled.
 */
static const char *
ident(const char *name)
{
    Buf b;

    if (!tdb_sql_ident_needs_quotes(name))
        return name;
    buf_init(&b);
    buf_printf(&b, "\"");
    for (const char *c = name; *c != '\0'; c++)
        buf_printf(&b, *c == '"' ? "\"\"" : "%c", *c);
    buf_printf(&b, "\"");
    return b.data;
}

/* An array element as array_out quotes it. */
static void
array_element(Buf *b, const char *v)
{
    bool quote = v[0] == '\0' || strcasecmp(v, "NULL") == 0 ||
                 strpbrk(v, "{},\"\\ \t\n") != NULL;

    if (!quote) {
        buf_printf(b, "%s", v);
        return;
    }
    buf_printf(b, "\"");
    for (const char *p = v; *p != '\0'; p++) {
        if (*p == '"' || *p == '\\')
            buf_printf(b, "\\");
        buf_printf(b, "%c", *p);
    }
    buf_printf(b, "\"");
}

static void deparse_list(Buf *b, List *args, const char *sep,
                         DeparseContext *ctx);

/*
 * x IN (1, 2) the way PostgreSQL shows the ScalarArrayOpExpr it plans:
 * (x = ANY ('{1,2}'::integer[])), or with ARRAY[...] when the items are
 * not all constants; NOT IN is <> ALL.
 */
static void
deparse_in_list(Buf *b, InListExpr *in, DeparseContext *ctx)
{
    bool all_consts = true;
    Oid type = exprType(linitial(in->items));

    for (int i = 0; i < list_length(in->items); i++)
        if (!IsA(list_nth(in->items, i), Const))
            all_consts = false;
    buf_printf(b, "(");
    deparse(b, in->arg, ctx);
    buf_printf(b, in->is_not ? " <> ALL (" : " = ANY (");
    if (all_consts) {
        Buf elems;

        buf_init(&elems);
        for (int i = 0; i < list_length(in->items); i++) {
            Const *c = list_nth(in->items, i);

            if (i > 0)
                buf_printf(&elems, ",");
            if (c->constisnull)
                buf_printf(&elems, "NULL");
            else
                array_element(&elems, tdb_type_output(type, c->constvalue));
        }
        buf_printf(b, "'{");
        for (const char *p = elems.data; *p != '\0'; p++) {
            if (*p == '\'')
                buf_printf(b, "''");
            else
                buf_printf(b, "%c", *p);
        }
        buf_printf(b, "}'::%s[]", tdb_format_type(type, -1));
    } else {
        buf_printf(b, "ARRAY[");
        deparse_list(b, in->items, ", ", ctx);
        buf_printf(b, "]");
    }
    buf_printf(b, "))");
}

static void
deparse_list(Buf *b, List *args, const char *sep, DeparseContext *ctx)
{
    for (int i = 0; i < list_length(args); i++) {
        if (i > 0)
            buf_printf(b, "%s", sep);
        deparse(b, list_nth(args, i), ctx);
    }
}

static void
deparse(Buf *b, Expr *e, DeparseContext *ctx)
{
    tdb_check_stack_depth();

    switch (nodeTag(e)) {
    case T_Var:
        deparse_var(b, (Var *)e, ctx);
        return;
    case T_Const:
        deparse_const(b, (Const *)e);
        return;
    case T_Param:
        deparse_param(b, (Param *)e, ctx);
        return;
    case T_OpExpr: {
        OpExpr *o = (OpExpr *)e;

        buf_printf(b, "(");
        if (list_length(o->args) == 2) {
            deparse(b, linitial(o->args), ctx);
            buf_printf(b, " %s ", o->op->name);
            deparse(b, list_nth(o->args, 1), ctx);
        } else {
            buf_printf(b, "%s ", o->op->name);
            deparse(b, linitial(o->args), ctx);
        }
        buf_printf(b, ")");
        return;
    }
    case T_FuncExpr: {
        FuncExpr *f = (FuncExpr *)e;

        if (f->is_cast) {
            buf_printf(b, "(");
            deparse(b, linitial(f->args), ctx);
            buf_printf(b, ")::%s", tdb_format_type(exprType(e), -1));
            return;
        }
        buf_printf(b, "%s(", f->func->name);
        for (int i = 0; i < list_length(f->args); i++) {
            bool is_last = i == list_length(f->args) - 1;

            buf_printf(b, "%s%s", i > 0 ? ", " : "",
                       is_last && f->funcvariadic ? "VARIADIC " : "");
            deparse(b, list_nth(f->args, i), ctx);
        }
        buf_printf(b, ")");
        return;
    }
    case T_BoolExpr: {
        BoolExpr *be = (BoolExpr *)e;

        if (be->boolop == NOT_EXPR) {
            buf_printf(b, "(NOT ");
            deparse(b, linitial(be->args), ctx);
            buf_printf(b, ")");
            return;
        }
        buf_printf(b, "(");
        deparse_list(b, be->args, be->boolop == AND_EXPR ? " AND " : " OR ",
                     ctx);
        buf_printf(b, ")");
        return;
    }
    case T_NullTest:
        buf_printf(b, "(");
        deparse(b, ((NullTest *)e)->arg, ctx);
        buf_printf(b, ((NullTest *)e)->is_not_null ? " IS NOT NULL)"
                                                   : " IS NULL)");
        return;
    case T_RelabelType:
    case T_CoerceViaIO:
    case T_CoerceToTypmod: {
        Expr *arg = IsA(e, RelabelType)   ? ((RelabelType *)e)->arg
                    : IsA(e, CoerceViaIO) ? ((CoerceViaIO *)e)->arg
                                          : ((CoerceToTypmod *)e)->arg;

        buf_printf(b, "(");
        deparse(b, arg, ctx);
        buf_printf(b, ")::%s", tdb_format_type(exprType(e), exprTypmod(e)));
        return;
    }
    case T_Aggref: {
        Aggref *a = (Aggref *)e;

        buf_printf(b, "%s(%s", a->agg->name, a->distinct ? "DISTINCT " : "");
        if (a->is_star)
            buf_printf(b, "*");
        else
            deparse_list(b, a->args, ", ", ctx);
        buf_printf(b, ")");
        return;
    }
    case T_RowExpr:
        buf_printf(b, "ROW(");
        deparse_list(b, ((RowExpr *)e)->args, ", ", ctx);
        buf_printf(b, ")");
        return;
    case T_CoalesceExpr:
        buf_printf(b, "COALESCE(");
        deparse_list(b, ((CoalesceExpr *)e)->args, ", ", ctx);
        buf_printf(b, ")");
        return;
    case T_CaseExpr: {
        CaseExpr *c = (CaseExpr *)e;

        buf_printf(b, "CASE");
        for (int i = 0; i < list_length(c->whens); i++) {
            CaseWhen *w = list_nth(c->whens, i);

            buf_printf(b, " WHEN ");
            deparse(b, w->expr, ctx);
            buf_printf(b, " THEN ");
            deparse(b, w->result, ctx);
        }
        buf_printf(b, " ELSE ");
        deparse(b, c->defresult, ctx);
        buf_printf(b, " END");
        return;
    }
    case T_InListExpr:
        deparse_in_list(b, (InListExpr *)e, ctx);
        return;
    case T_ScalarArrayOpExpr: {
        ScalarArrayOpExpr *saop = (ScalarArrayOpExpr *)e;

        buf_printf(b, "(");
        deparse(b, linitial(saop->args), ctx);
        buf_printf(b, " %s %s (", saop->op->name, saop->use_or ? "ANY" : "ALL");
        deparse(b, list_nth(saop->args, 1), ctx);
        buf_printf(b, "))");
        return;
    }
    case T_ArrayExpr:
        buf_printf(b, "ARRAY[");
        deparse_list(b, ((ArrayExpr *)e)->elements, ", ", ctx);
        buf_printf(b, "]");
        return;
    case T_SubPlan:
        buf_printf(b, "(%sSubPlan %d)",
                   ((SubPlan *)e)->use_hash ? "hashed " : "",
                   ((SubPlan *)e)->plan_id);
        return;
    case T_TargetEntry:
        deparse(b, ((TargetEntry *)e)->expr, ctx);
        return;
    default:
        buf_printf(b, "...");
    }
}

/* Conditions ANDed, as PostgreSQL prints a qual list. */
static char *
deparse_qual(List *qual, DeparseContext *ctx)
{
    Buf b;

    buf_init(&b);
    if (list_length(qual) == 1)
        deparse(&b, linitial(qual), ctx);
    else {
        buf_printf(&b, "(");
        deparse_list(&b, qual, " AND ", ctx);
        buf_printf(&b, ")");
    }
    return b.data;
}

/* ----------------------------------------------------------------------
 * Nodes
 * ---------------------------------------------------------------------- */

static void
add_line(ExplainState *es, int indent, const char *line)
{
    Buf b;

    buf_init(&b);
    buf_printf(&b, "%*s%s", indent, "", line);
    es->lines = tdb_lappend(es->lines, b.data);
}

static const char *
join_name(const char *kind, JoinType jt)
{
    static const char *const suffix[] = {"", " Left", " Full", " Right",
                                         " Semi", " Anti"};
    Buf b;

    buf_init(&b);
    buf_printf(&b, "%s%s Join", kind, suffix[jt]);
    return b.data;
}

static const char *
node_name(Plan *plan, const RefNames *names)
{
    Buf b;

    buf_init(&b);
    switch (nodeTag(plan)) {
    case T_Result:
        return "Result";
    case T_SeqScan: {
        SeqScan *s = (SeqScan *)plan;
        const char *name = refname(names, plan);

        buf_printf(&b, "Seq Scan on %s", ident(s->relname));
        if (name != NULL && strcmp(name, s->relname) != 0)
            buf_printf(&b, " %s", ident(name));
        return b.data;
    }
    case T_IndexScan: {
        IndexScan *s = (IndexScan *)plan;
        const char *name = refname(names, plan);

        buf_printf(&b, "%s%s using %s on %s",
                   s->index_only ? "Index Only Scan" : "Index Scan",
                   s->backward ? " Backward" : "", ident(s->indexname),
                   ident(s->relname));
        if (name != NULL && strcmp(name, s->relname) != 0)
            buf_printf(&b, " %s", ident(name));
        return b.data;
    }
    case T_ValuesScan:
        buf_printf(&b, "Values Scan on %s", ident(refname(names, plan)));
        return b.data;
    case T_FunctionScan: {
        const char *fname =
            ((FuncExpr *)((FunctionScan *)plan)->funcexpr)->func->name;

        buf_printf(&b, "Function Scan on %s", fname);
        if (strcmp(refname(names, plan), fname) != 0)
            buf_printf(&b, " %s", ident(refname(names, plan)));
        return b.data;
    }
    case T_SubqueryScan:
        buf_printf(&b, "Subquery Scan on %s", ident(refname(names, plan)));
        return b.data;
    case T_NestLoop: {
        JoinType jt = ((NestLoop *)plan)->jointype;

        return jt == JOIN_INNER ? "Nested Loop" : join_name("Nested Loop", jt);
    }
    case T_HashJoin:
        return join_name("Hash", ((HashJoin *)plan)->jointype);
    case T_MergeJoin:
        return join_name("Merge", ((MergeJoin *)plan)->jointype);
    case T_Hash:
        return "Hash";
    case T_Agg:
        switch (((Agg *)plan)->strategy) {
        case AGG_PLAIN:
            return "Aggregate";
        case AGG_SORTED:
            return "GroupAggregate";
        case AGG_HASHED:
            return "HashAggregate";
        }
        return "Aggregate";
    case T_Sort:
        return "Sort";
    case T_Material:
        return "Materialize";
    case T_Limit:
        return "Limit";
    case T_Unique:
        return "Unique";
    case T_Append:
        return "Append";
    case T_ProjectSet:
        return "ProjectSet";
    case T_RecursiveUnion:
        return "Recursive Union";
    case T_WorkTableScan:
    case T_CteScan: {
        const char *name = refname(names, plan);
        const char *cte = IsA(plan, CteScan) ? ((CteScan *)plan)->ctename
                                             : ((WorkTableScan *)plan)->ctename;

        buf_printf(&b, "%s Scan on %s",
                   IsA(plan, CteScan) ? "CTE" : "WorkTable", ident(cte));
        if (name != NULL && strcmp(name, cte) != 0)
            buf_printf(&b, " %s", ident(name));
        return b.data;
    }
    case T_SetOp: {
        static const char *const cmds[] = {"Intersect", "Intersect All",
                                           "Except", "Except All"};

        buf_printf(&b, "%s %s",
                   ((SetOp *)plan)->strategy == SETOP_HASHED ? "HashSetOp"
                                                             : "SetOp",
                   cmds[((SetOp *)plan)->cmd]);
        return b.data;
    }
    case T_ModifyTable: {
        static const char *const verbs[] = {"?", "Insert", "Update", "Delete"};
        const ModifyTable *mt = (const ModifyTable *)plan;

        buf_printf(&b, "%s on %s", verbs[mt->operation], ident(mt->relname));
        if (mt->alias != NULL)
            buf_printf(&b, " %s", ident(mt->alias));
        return b.data;
    }
    default:
        return "???";
    }
}

static void explain_node(ExplainState *es, Plan *plan, PlanState *ps,
                         int depth, int shift, const char *label);

static void
add_property(ExplainState *es, int indent, const char *label,
             const char *value)
{
    Buf b;

    buf_init(&b);
    buf_printf(&b, "%*s%s: %s", indent, "", label, value);
    es->lines = tdb_lappend(es->lines, b.data);
}

static void
add_qual(ExplainState *es, Plan *plan, int indent, const char *label,
         List *qual)
{
    DeparseContext ctx = {plan, es->use_prefix, es->ancestors, &es->names};

    if (qual != NIL)
        add_property(es, indent, label, deparse_qual(qual, &ctx));
}

/*
 * A node's Filter.  A scan's is printed without table names (only the
 * scan's table can appear), except a subquery scan's, as PostgreSQL
 * does; upper nodes qualify names when the plan reads several tables.
 */
static void
add_filter(ExplainState *es, Plan *plan, int indent)
{
    bool is_scan = IsA(plan, SeqScan) || IsA(plan, IndexScan) ||
                   IsA(plan, FunctionScan) || IsA(plan, ValuesScan) ||
                   IsA(plan, WorkTableScan) || IsA(plan, CteScan);
    DeparseContext ctx = {plan, es->use_prefix && !is_scan, es->ancestors,
                          &es->names};

    if (plan->qual != NIL)
        add_property(es, indent, "Filter", deparse_qual(plan->qual, &ctx));
}

/*
 * A hashed node's table under EXPLAIN ANALYZE, as PostgreSQL prints
 * HashAggregate's and HashSetOp's: batches and peak memory, and the peak
 * disk space when it spilled (more than one batch).
 */
static void
add_hash_table_stats(ExplainState *es, int indent, int batches, int64 peak_kb,
                     int64 disk_kb)
{
    Buf b;

    buf_init(&b);
    buf_printf(&b, "%*sBatches: %d  Memory Usage: %lldkB", indent, "", batches,
               (long long)peak_kb);
    if (batches > 1)
        buf_printf(&b, "  Disk Usage: %lldkB", (long long)disk_kb);
    es->lines = tdb_lappend(es->lines, b.data);
}

/*
 * "Sort Key: a, b DESC" / "Group Key: a".  As PostgreSQL: a sort key is
 * printed as the Sort node reads it (a column of its input, so an
 * expression the input computed comes in parentheses), a group key as the
 * input computes it.
 */
static void
add_keys(ExplainState *es, Plan *plan, int indent, const char *label,
         const int *cols, const SortKey *keys, int n)
{
    DeparseContext ctx = {plan, es->use_prefix, es->ancestors, &es->names};
    DeparseContext input = {plan->lefttree, es->use_prefix, es->ancestors,
                            &es->names};
    Buf b;

    if (n == 0)
        return;
    buf_init(&b);
    for (int i = 0; i < n; i++) {
        int col = keys != NULL ? keys[i].col : cols[i];
        Var v = {{T_Var, 0, -1, -1}, OUTER_VAR, col, 0};
        TargetEntry *te = list_nth(plan->lefttree->targetlist, col - 1);

        if (i > 0)
            buf_printf(&b, ", ");
        v.xpr.type_oid = exprType(te->expr);
        if (keys != NULL)
            deparse(&b, (Expr *)&v, &ctx);
        else
            deparse(&b, te->expr, &input);
        if (keys != NULL && keys[i].descending)
            buf_printf(&b, " DESC");
        if (keys != NULL && keys[i].nulls_first != keys[i].descending)
            buf_printf(&b, keys[i].nulls_first ? " NULLS FIRST"
                                               : " NULLS LAST");
    }
    add_property(es, indent, label, b.data);
}

/* A join's "Join Filter" and, under ANALYZE, the pairs it rejected. */
static void
add_join_filter(ExplainState *es, Plan *plan, PlanState *ps, int indent,
                List *joinqual)
{
    char buf[64];

    add_qual(es, plan, indent, "Join Filter", joinqual);
    if (!es->analyze || ps == NULL || ps->instr == NULL || joinqual == NIL ||
        ps->instr->nfiltered_join <= 0)
        return;
    snprintf(buf, sizeof(buf), "%.0f",
             ps->instr->nfiltered_join / Max(1.0, ps->instr->nloops));
    add_property(es, indent, "Rows Removed by Join Filter", buf);
}

/*
 * INSERT ... ON CONFLICT's lines, as PostgreSQL prints them: the action,
 * the arbiter indexes when the statement named them, DO UPDATE's WHERE
 * (qualified names: the target's, or "excluded"), and under ANALYZE what
 * became of the proposed rows.
 */
static void
add_conflict_properties(ExplainState *es, ModifyTable *mt, PlanState *ps,
                        int indent)
{
    DeparseContext ctx = {&mt->plan, true, es->ancestors, &es->names};
    char buf[64];
    Buf b;

    if (mt->on_conflict == ONCONFLICT_NONE)
        return;
    add_property(es, indent, "Conflict Resolution",
                 mt->on_conflict == ONCONFLICT_NOTHING ? "NOTHING" : "UPDATE");
    if (mt->arbiter_names != NIL) {
        buf_init(&b);
        for (int i = 0; i < list_length(mt->arbiter_names); i++)
            buf_printf(&b, "%s%s", i > 0 ? ", " : "",
                       ident(list_nth(mt->arbiter_names, i)));
        add_property(es, indent, "Conflict Arbiter Indexes", b.data);
    }
    if (mt->conflict_where != NULL)
        add_property(es, indent, "Conflict Filter",
                     deparse_qual(tdb_list_make1(mt->conflict_where), &ctx));
    if (es->analyze && ps != NULL) {
        double inserted, conflicting, filtered;

        tdb_exec_modifytable_conflict_stats(ps, &inserted, &conflicting,
                                            &filtered);
        if (mt->conflict_where != NULL && filtered > 0) {
            snprintf(buf, sizeof(buf), "%.0f", filtered);
            add_property(es, indent, "Rows Removed by Conflict Filter", buf);
        }
        snprintf(buf, sizeof(buf), "%.0f", inserted);
        add_property(es, indent, "Tuples Inserted", buf);
        snprintf(buf, sizeof(buf), "%.0f", conflicting);
        add_property(es, indent, "Conflicting Tuples", buf);
    }
}

static void
node_properties(ExplainState *es, Plan *plan, PlanState *ps, int indent)
{
    switch (nodeTag(plan)) {
    case T_Result:
        add_qual(es, plan, indent, "One-Time Filter",
                 ((Result *)plan)->resconstantqual);
        break;
    case T_IndexScan: {
        /* a scan's condition: column names without the table's */
        DeparseContext ctx = {plan, false, es->ancestors, &es->names};
        List *cond = ((IndexScan *)plan)->indexqualorig;

        if (cond != NIL)
            add_property(es, indent, "Index Cond", deparse_qual(cond, &ctx));
        break;
    }
    case T_HashJoin:
        add_qual(es, plan, indent, "Hash Cond",
                 ((HashJoin *)plan)->hashclauses);
        add_join_filter(es, plan, ps, indent, ((HashJoin *)plan)->joinqual);
        break;
    case T_MergeJoin:
        add_qual(es, plan, indent, "Merge Cond",
                 ((MergeJoin *)plan)->mergeclauses);
        add_join_filter(es, plan, ps, indent, ((MergeJoin *)plan)->joinqual);
        break;
    case T_NestLoop:
        add_join_filter(es, plan, ps, indent, ((NestLoop *)plan)->joinqual);
        break;
    case T_Agg: {
        int batches;
        int64 peak_kb, disk_kb;

        add_keys(es, plan, indent, "Group Key", ((Agg *)plan)->grp_col_idx,
                 NULL, ((Agg *)plan)->num_cols);
        if (es->analyze && ps != NULL &&
            tdb_exec_agg_hash_stats(ps, &batches, &peak_kb, &disk_kb))
            add_hash_table_stats(es, indent, batches, peak_kb, disk_kb);
        break;
    }
    case T_SetOp: {
        int batches;
        int64 peak_kb, disk_kb;

        if (es->analyze && ps != NULL &&
            tdb_exec_setop_hash_stats(ps, &batches, &peak_kb, &disk_kb))
            add_hash_table_stats(es, indent, batches, peak_kb, disk_kb);
        break;
    }
    case T_Hash:
        if (es->analyze && ps != NULL) {
            int64 nbuckets, bytes;
            Buf b;

            tdb_exec_hash_stats(ps, &nbuckets, &bytes);
            buf_init(&b);
            buf_printf(&b, "%*sBuckets: %lld  Batches: 1  Memory Usage: %lldkB",
                       indent, "", (long long)nbuckets,
                       (long long)((bytes + 1023) / 1024));
            es->lines = tdb_lappend(es->lines, b.data);
        }
        break;
    case T_ModifyTable:
        add_conflict_properties(es, (ModifyTable *)plan, ps, indent);
        break;
    case T_Sort:
        add_keys(es, plan, indent, "Sort Key", NULL, ((Sort *)plan)->keys,
                 ((Sort *)plan)->num_keys);
        if (es->analyze && ps != NULL) {
            char buf[96];
            TuplesortStats stats;

            tdb_exec_sort_stats(ps, &stats);
            snprintf(buf, sizeof(buf), "%s  %s: %lldkB", stats.method,
                     stats.on_disk ? "Disk" : "Memory",
                     (long long)stats.space_kb);
            add_property(es, indent, "Sort Method", buf);
        }
        break;
    default:
        break;
    }
    add_filter(es, plan, indent);
    if (es->analyze && ps != NULL && ps->instr != NULL &&
        ps->instr->nfiltered > 0 && plan->qual != NIL) {
        char buf[64];

        snprintf(buf, sizeof(buf), "%.0f",
                 ps->instr->nfiltered / Max(1.0, ps->instr->nloops));
        add_property(es, indent, "Rows Removed by Filter", buf);
    }
    if (IsA(plan, IndexScan) && ((IndexScan *)plan)->index_only &&
        es->analyze && ps != NULL) {
        char buf[64];

        snprintf(buf, sizeof(buf), "%.0f",
                 tdb_exec_indexscan_heap_fetches(ps) /
                     Max(1.0, ps->instr != NULL ? ps->instr->nloops : 1.0));
        add_property(es, indent, "Heap Fetches", buf);
    }
}

static void
explain_children(ExplainState *es, Plan *plan, PlanState *ps, int depth,
                 int shift)
{
    if (IsA(plan, Append)) {
        PlanState **children = NULL;
        int n = ps != NULL ? tdb_exec_append_children(ps, &children) : 0;

        for (int i = 0; i < list_length(((Append *)plan)->appendplans); i++)
            explain_node(es, list_nth(((Append *)plan)->appendplans, i),
                         i < n ? children[i] : NULL, depth + 1, shift, NULL);
        return;
    }
    if (IsA(plan, SubqueryScan)) {
        explain_node(es, ((SubqueryScan *)plan)->subplan,
                     ps != NULL ? ps->lefttree : NULL, depth + 1, shift, NULL);
        return;
    }
    if (plan->lefttree != NULL)
        explain_node(es, plan->lefttree, ps != NULL ? ps->lefttree : NULL,
                     depth + 1, shift, NULL);
    if (plan->righttree != NULL)
        explain_node(es, plan->righttree, ps != NULL ? ps->righttree : NULL,
                     depth + 1, shift, NULL);
}

/* Walker: collect the SubPlans of an expression into *(List **)arg. */
static bool
collect_subplans(Node *node, void *arg)
{
    List **found = arg;

    if (node == NULL)
        return false;
    if (IsA(node, SubPlan)) {
        /* its arguments first: the executor sets those up first */
        (void)tdb_expr_walk_children(node, collect_subplans, arg);
        *found = tdb_lappend(*found, node);
        return false;
    }
    return tdb_expr_walk_children(node, collect_subplans, arg);
}

/*
 * The SubPlans in a node's expressions, in the order PostgreSQL's
 * executor initializes them (the target list, the qual, then the node's
 * own expressions), which is the order EXPLAIN lists them under the
 * node.
 */
static List *
node_subplans(Plan *plan)
{
    List *found = NIL;

    collect_subplans((Node *)plan->targetlist, &found);
    collect_subplans((Node *)plan->qual, &found);
    switch (nodeTag(plan)) {
    case T_Result:
        collect_subplans((Node *)((Result *)plan)->resconstantqual, &found);
        break;
    case T_NestLoop:
        collect_subplans((Node *)((NestLoop *)plan)->joinqual, &found);
        break;
    case T_HashJoin:
        collect_subplans((Node *)((HashJoin *)plan)->joinqual, &found);
        collect_subplans((Node *)((HashJoin *)plan)->hashclauses, &found);
        break;
    case T_MergeJoin:
        collect_subplans((Node *)((MergeJoin *)plan)->joinqual, &found);
        collect_subplans((Node *)((MergeJoin *)plan)->mergeclauses, &found);
        break;
    case T_Limit:
        collect_subplans((Node *)((Limit *)plan)->limit_offset, &found);
        collect_subplans((Node *)((Limit *)plan)->limit_count, &found);
        break;
    case T_ValuesScan:
        collect_subplans((Node *)((ValuesScan *)plan)->values_lists, &found);
        break;
    case T_FunctionScan:
        collect_subplans((Node *)((FunctionScan *)plan)->funcexpr, &found);
        break;
    case T_ModifyTable:
        collect_subplans((Node *)((ModifyTable *)plan)->returning, &found);
        collect_subplans((Node *)((ModifyTable *)plan)->check_exprs, &found);
        collect_subplans((Node *)((ModifyTable *)plan)->conflict_set, &found);
        collect_subplans((Node *)((ModifyTable *)plan)->conflict_where, &found);
        break;
    default:
        break;
    }
    return found;
}

/*
 * An initplan or subplan of parent under its label ("InitPlan 1 (returns
 * $0)", "SubPlan 2"), with its run's counters under ANALYZE.
 */
static void
explain_subplan(ExplainState *es, SubPlan *sp, Plan *parent, int depth,
                int shift, const char *label)
{
    PlanState *ps = es->estate != NULL
                        ? tdb_exec_subplan_planstate(es->estate, sp->plan_id)
                        : NULL;
    ExplainAncestor anc = {sp, parent, es->ancestors};

    es->ancestors = &anc;
    explain_node(es, list_nth(es->stmt->subplans, sp->plan_id - 1), ps,
                 depth + 1, shift, label);
    es->ancestors = anc.outer;
}

/*
 * One node at nesting depth (0 = the top) and `shift` extra columns
 * (initplans and subplans hang two columns to the right of their label).
 */
static void
explain_node(ExplainState *es, Plan *plan, PlanState *ps, int depth, int shift,
             const char *label)
{
    Buf b;
    int indent = (depth == 0 ? 0 : 6 * (depth - 1) + 2) + shift;
    int prop_indent = 2 + 6 * depth + shift;
    List *subplans;

    tdb_check_stack_depth();

    buf_init(&b);
    if (label != NULL) {
        add_line(es, indent, label);
        indent += 2;
        prop_indent += 2;
        shift += 2;
    }
    buf_printf(&b, "%s%s", depth > 0 ? "->  " : "",
               node_name(plan, &es->names));
    if (es->costs)
        buf_printf(&b, "  (cost=%.2f..%.2f rows=%.0f width=%d)",
                   plan->startup_cost, plan->total_cost, plan->plan_rows,
                   plan->plan_width);
    if (es->analyze) {
        Instrumentation *in = ps != NULL ? ps->instr : NULL;

        if (in == NULL || in->nloops == 0)
            buf_printf(&b, " (never executed)");
        else if (es->timing)
            buf_printf(&b, " (actual time=%.3f..%.3f rows=%.0f loops=%.0f)",
                       in->first_row_ms / in->nloops,
                       in->total_ms / in->nloops, in->ntuples / in->nloops,
                       in->nloops);
        else
            buf_printf(&b, " (actual rows=%.0f loops=%.0f)",
                       in->ntuples / in->nloops, in->nloops);
    }
    add_line(es, indent, b.data);
    node_properties(es, plan, ps, prop_indent);
    for (int i = 0; i < list_length(plan->initplans); i++) {
        SubPlan *sp = list_nth(plan->initplans, i);
        Buf l;

        buf_init(&l);
        if (sp->plan_name != NULL)
            buf_printf(&l, "%s", sp->plan_name);
        else
            buf_printf(&l, "InitPlan %d (returns $%d)", sp->plan_id,
                       list_nth_int(sp->set_param, 0));
        explain_subplan(es, sp, plan, depth, shift, l.data);
    }
    explain_children(es, plan, ps, depth, shift);
    subplans = node_subplans(plan);
    for (int i = 0; i < list_length(subplans); i++) {
        SubPlan *sp = list_nth(subplans, i);
        Buf l;

        buf_init(&l);
        buf_printf(&l, "SubPlan %d", sp->plan_id);
        explain_subplan(es, sp, plan, depth, shift, l.data);
    }
}

/* ----------------------------------------------------------------------
 * The statement
 * ---------------------------------------------------------------------- */

static bool
option_value(PgQuery__DefElem *opt)
{
    const char *s;

    if (opt->arg == NULL)
        return true;
    if (opt->arg->node_case == PG_QUERY__NODE__NODE_STRING)
        s = opt->arg->string->sval;
    else if (opt->arg->node_case == PG_QUERY__NODE__NODE_A_CONST &&
             opt->arg->a_const->val_case == PG_QUERY__A__CONST__VAL_SVAL)
        s = opt->arg->a_const->sval->sval;
    else if (opt->arg->node_case == PG_QUERY__NODE__NODE_A_CONST &&
             opt->arg->a_const->val_case == PG_QUERY__A__CONST__VAL_BOOLVAL)
        return opt->arg->a_const->boolval->boolval;
    else if (opt->arg->node_case == PG_QUERY__NODE__NODE_A_CONST &&
             opt->arg->a_const->val_case == PG_QUERY__A__CONST__VAL_IVAL)
        return opt->arg->a_const->ival->ival != 0;
    else
        return true;
    return strcmp(s, "true") == 0 || strcmp(s, "on") == 0 ||
           strcmp(s, "1") == 0;
}

static double
now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

/* ----------------------------------------------------------------------
 * Relation names (see RefNames)
 * ---------------------------------------------------------------------- */

/* Give plan the name base, or base_N when base is taken. */
static void
assign_refname(RefNames *names, Plan *plan, const char *base)
{
    const char *name = base;
    int suffix = 0;
    bool taken = true;

    while (taken) {
        taken = false;
        for (int i = 0; i < list_length(names->names) && !taken; i++)
            taken = strcmp(list_nth(names->names, i), name) == 0;
        if (taken) {
            Buf b;

            buf_init(&b);
            buf_printf(&b, "%s_%d", base, ++suffix);
            name = b.data;
        }
    }
    names->plans = tdb_lappend(names->plans, plan);
    names->names = tdb_lappend(names->names, (void *)name);
}

static void name_scans(RefNames *names, Plan *plan);

/*
 * Name the scans of one query level of plan (not below a subquery scan,
 * whose subplan is added to *subqueries), in plan order.
 */
static void
name_level_scans(RefNames *names, Plan *plan, List **subqueries)
{
    const char *base = NULL;

    tdb_check_stack_depth();

    if (plan == NULL)
        return;
    switch (nodeTag(plan)) {
    case T_SeqScan:
        base = plan->scan_refname != NULL ? plan->scan_refname
                                          : ((SeqScan *)plan)->relname;
        break;
    case T_IndexScan:
        base = plan->scan_refname != NULL ? plan->scan_refname
                                          : ((IndexScan *)plan)->relname;
        break;
    case T_ValuesScan:
        base = plan->scan_refname != NULL ? plan->scan_refname : "*VALUES*";
        break;
    case T_FunctionScan:
        base = ((FunctionScan *)plan)->alias;
        break;
    case T_SubqueryScan:
        base = ((SubqueryScan *)plan)->alias;
        *subqueries = tdb_lappend(*subqueries, ((SubqueryScan *)plan)->subplan);
        break;
    case T_WorkTableScan:
    case T_CteScan:
        base = plan->scan_refname;
        break;
    case T_ModifyTable:
        /* INSERT's target is a range-table entry no scan reads: its name
         * is taken first ("Insert on t", "Seq Scan on t t_1"); UPDATE's
         * and DELETE's is their scan's */
        if (((ModifyTable *)plan)->operation == CMD_INSERT)
            base = ((ModifyTable *)plan)->alias != NULL
                       ? ((ModifyTable *)plan)->alias
                       : ((ModifyTable *)plan)->relname;
        break;
    case T_Append:
        /* each input of a set operation is a subquery of its own, named
         * where it comes in the plan (a trivial subquery scan is gone) */
        for (int i = 0; i < list_length(((Append *)plan)->appendplans); i++)
            name_scans(names, list_nth(((Append *)plan)->appendplans, i));
        break;
    default:
        break;
    }
    if (base != NULL)
        assign_refname(names, plan, base);
    name_level_scans(names, plan->lefttree, subqueries);
    name_level_scans(names, plan->righttree, subqueries);
}

/* Name a query level's scans, then its subqueries' (depth first). */
static void
name_scans(RefNames *names, Plan *plan)
{
    List *subqueries = NIL;

    tdb_check_stack_depth();

    name_level_scans(names, plan, &subqueries);
    for (int i = 0; i < list_length(subqueries); i++)
        name_scans(names, list_nth(subqueries, i));
}

/*
 * Does the plan hold a subquery or a set operation?  Then PostgreSQL's
 * range table has several entries (the subquery's own and at least one
 * inside it, an empty FROM counting as one) even when a single scan, or
 * none, remains.
 */
static bool
plan_has_subquery(Plan *plan)
{
    tdb_check_stack_depth();

    if (plan == NULL)
        return false;
    if (IsA(plan, Append) || IsA(plan, SetOp) || IsA(plan, RecursiveUnion) ||
        IsA(plan, SubqueryScan))
        return true;
    return plan_has_subquery(plan->lefttree) ||
           plan_has_subquery(plan->righttree);
}

/* Does the main plan or a subplan of stmt hold a subquery? */
static bool
has_subquery(PlannedStmt *stmt)
{
    if (plan_has_subquery(stmt->plan))
        return true;
    for (int i = 0; i < list_length(stmt->subplans); i++)
        if (plan_has_subquery(list_nth(stmt->subplans, i)))
            return true;
    return false;
}

/* Does the plan read more than one relation (qualify column names)? */
static int
count_scans(Plan *plan)
{
    int n = 0;

    tdb_check_stack_depth();

    if (plan == NULL)
        return 0;
    if (IsA(plan, SeqScan) || IsA(plan, IndexScan) || IsA(plan, FunctionScan) ||
        IsA(plan, ValuesScan) || IsA(plan, SubqueryScan) ||
        IsA(plan, CteScan) || IsA(plan, WorkTableScan))
        n = 1;
    if (IsA(plan, Append))
        for (int i = 0; i < list_length(((Append *)plan)->appendplans); i++)
            n += count_scans(list_nth(((Append *)plan)->appendplans, i));
    if (IsA(plan, SubqueryScan))
        n += count_scans(((SubqueryScan *)plan)->subplan);
    return n + count_scans(plan->lefttree) + count_scans(plan->righttree);
}

/*
 * Relations the statement reads, as PostgreSQL counts its range table to
 * decide on qualified names: the main plan's, and each subplan's (a
 * subquery without FROM still has a range-table entry, an RTE_RESULT).
 */
static int
count_statement_scans(PlannedStmt *stmt)
{
    int n = count_scans(stmt->plan);

    for (int i = 0; i < list_length(stmt->subplans); i++)
        n += Max(1, count_scans(list_nth(stmt->subplans, i)));
    return n;
}

/*
 * EXPLAIN ANALYZE: what the query's detoasting did, when it detoasted
 * anything -- how many toasted values were asked for and how many of
 * those the query's cache served (toast/detoast.h).
 */
static void
explain_detoast(ExplainState *es)
{
    const DetoastStats *d;
    char buf[256];

    if (es->estate == NULL || es->estate->detoast_env == NULL)
        return;
    d = tdb_detoast_env_stats(es->estate->detoast_env);
    if (d->requests == 0 && d->slice_fetches == 0 && d->fetches == 0 &&
        d->decompressions == 0)
        return;
    snprintf(buf, sizeof(buf),
             "Detoast Cache: requests=%llu hits=%llu fetched=%llu "
             "slices=%llu decompressed=%llu evicted=%llu  Memory: %zukB",
             (unsigned long long)d->requests, (unsigned long long)d->hits,
             (unsigned long long)d->fetches,
             (unsigned long long)d->slice_fetches,
             (unsigned long long)d->decompressions,
             (unsigned long long)d->evictions, (d->bytes_peak + 1023) / 1024);
    es->lines = tdb_lappend(es->lines, tdb_mcxt_strdup(tdb_current_mcxt, buf));
}

void
tdb_sql_explain(Statement *st, PgQuery__ExplainStmt *ex)
{
    ExplainState es = {.st = st, .costs = true, .timing = true};
    double start = now_ms(), planned;
    PlannedStmt *stmt;
    PlanState *top = NULL;
    const char **values;
    char buf[64];

    for (size_t i = 0; i < ex->n_options; i++) {
        PgQuery__DefElem *opt = ex->options[i]->def_elem;

        if (strcmp(opt->defname, "analyze") == 0)
            es.analyze = option_value(opt);
        else if (strcmp(opt->defname, "costs") == 0)
            es.costs = option_value(opt);
        else if (strcmp(opt->defname, "verbose") == 0)
            es.verbose = option_value(opt);
        else if (strcmp(opt->defname, "timing") == 0)
            es.timing = option_value(opt);
        else if (strcmp(opt->defname, "summary") == 0) {
            es.summary = option_value(opt);
            es.summary_set = true;
        } else if (strcmp(opt->defname, "buffers") == 0)
            continue;
        else
            ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
                    errmsg("unrecognized EXPLAIN option \"%s\"",
                           opt->defname),
                    errposition(stmt_errpos(st, opt->location)));
    }
    stmt = tdb_sql_plan_statement(st, ex->query);
    es.stmt = stmt;
    planned = now_ms();
    es.use_prefix = count_statement_scans(stmt) > 1 || has_subquery(stmt);
    name_scans(&es.names, stmt->plan);
    for (int i = 0; i < list_length(stmt->subplans); i++)
        name_scans(&es.names, list_nth(stmt->subplans, i));
    if (!es.analyze)
        tdb_sql_check_privileges(st, stmt); /* PostgreSQL's ExecutorStart
                                             * checks them for EXPLAIN */
    if (es.analyze) {
        EState *estate = tdb_sql_create_estate(st, stmt);

        estate->instrument = true;
        top = tdb_exec_run(stmt, estate, NULL);
        es.estate = estate;
    }
    explain_node(&es, stmt->plan, top, 0, 0, NULL);
    if (es.analyze)
        explain_detoast(&es);
    if (!es.summary_set)
        es.summary = es.analyze;
    if (es.summary) {
        snprintf(buf, sizeof(buf), "Planning Time: %.3f ms", planned - start);
        es.lines = tdb_lappend(es.lines,
                               tdb_mcxt_strdup(tdb_current_mcxt, buf));
        snprintf(buf, sizeof(buf), "Execution Time: %.3f ms",
                 now_ms() - planned);
        es.lines = tdb_lappend(es.lines,
                               tdb_mcxt_strdup(tdb_current_mcxt, buf));
    }
    values = tdb_palloc(sizeof(char *) * (Size)Max(1, list_length(es.lines)));
    for (int i = 0; i < list_length(es.lines); i++)
        values[i] = list_nth(es.lines, i);
    tdb_dest_send_text_column(st->dest, "QUERY PLAN", values,
                              list_length(es.lines));
    tdb_stmt_complete(st, "EXPLAIN");
}
