/*
 * prepare.c -- prepared statements, their cached plans, and portals: the
 * session side of the extended query protocol (session.h).
 *
 *   PreparedStatement  the SQL text and its parameter types, fixed at
 *        |             prepare time (the client's, or inferred)
 *        | current
 *        v
 *   CachedPlan         one parse + analysis + plan of that text under one
 *        ^             catalog version, with the result description;
 *        | plan        reference-counted (the statement holds one
 *        |             reference, every portal made from it another)
 *   Portal             a CachedPlan with parameter values and, once it
 *                      has run, an executor that can stop after any row
 *
 * Preparing analyzes with "variable" parameters (PostgreSQL's
 * parse_analyze_varparams): a $n starts as unknown and takes the type of
 * the first context that coerces it (parse_expr.c / parse_oper.c); one
 * that nothing decides is 42P18.  The plan is made at once, so Describe
 * never runs anything, and reused by every Bind.
 *
 * Re-planning: a CachedPlan remembers tdb_catalog_version() as it was
 * before analysis.  Bind compares; if the catalog moved (a table
 * created, dropped, truncated) the text is parsed, analyzed and planned
 * again with the now fixed parameter types.  A result shape that changed
 * is 0A000 "cached plan must not change result type", as in PostgreSQL.
 * Portals keep the plan they were bound with (their reference).
 * Statements the analyzer does not handle (utility statements, EXPLAIN,
 * CREATE TABLE AS) are kept as parse trees and run by the ordinary
 * statement path at Execute; their result shape is known for SHOW and
 * EXPLAIN.
 *
 * Transactions: every call runs in the session's transaction, starting
 * the implicit one if none is in progress (as PostgreSQL does from the
 * first message of a batch); tdb_session_sync commits it.  An error
 * anywhere ends the statement as tdb_session_exec's do (implicit
 * transaction rolled back, explicit block failed).
 *
 * Portals and transactions: a portal that has started holds an executor
 * whose scans pin buffers between Execute calls.  The portal belongs to
 * the transaction it started in (Session.xact_epoch, moved by a
 * transaction callback at commit or abort); once that ended, the
 * executor is ended at the next statement boundary and the portal
 * refuses to run.  After an error every pin of the thread has been
 * released, so running portals simply forget their executors.
 * Session.nrunning counts portals with an executor, so the statement
 * boundary does not take their pins for leaks.
 *
 * Memory: each statement, CachedPlan and portal has its own context
 * under the session's; executors live in the portal's.  Each call's
 * scratch memory is the session's exec_cxt, reset on return.
 */
#include "common/base.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "catalog/catalog.h"
#include "catalog/pg_type.h"
#include "commands/commands.h"
#include "common/elog.h"
#include "common/stack_depth.h"
#include "common/utf8.h"
#include "executor/executor.h"
#include "optimizer/planner.h"
#include "parser/analyze.h"
#include "storage/bufmgr.h"
#include "tcop/tcop_int.h"
#include "types/builtins.h"

typedef enum PlanKind {
    PLAN_EMPTY,   /* no statement at all */
    PLAN_QUERY,   /* SELECT / INSERT / UPDATE / DELETE: planned */
    PLAN_UTILITY, /* run by tdb_tcop_run_statement at Execute */
} PlanKind;

typedef struct CachedPlan {
    MemoryContext cxt;
    int refcount;
    uint64 catalog_version; /* read before the analysis */
    PlanKind kind;
    ParsedScript *script;
    const ParsedStatement *parsed; /* NULL if PLAN_EMPTY */
    Query *query;                  /* PLAN_QUERY: analyzed at prepare */
    PlannedStmt *plan;             /* planned at the first Bind */
    bool broken;                   /* planning failed: the query may be
                                    * half rewritten, rebuild it */
    StatementDescription desc;
} CachedPlan;

struct PreparedStatement {
    Session *session;
    MemoryContext cxt;
    char *text;
    int nparams;
    Oid *paramtypes;
    bool is_txn_end;
    CachedPlan *plan;
};

typedef enum PortalState {
    PORTAL_READY,   /* bound, not started */
    PORTAL_RUNNING, /* has an executor, suspended between Executes */
    PORTAL_HOLDING, /* DML ... RETURNING run to completion, rows kept */
    PORTAL_DONE,    /* finished */
    PORTAL_DEAD,    /* its transaction ended before it finished */
} PortalState;

struct Portal {
    Session *session;
    MemoryContext cxt;
    struct Portal *next; /* Session.portals */
    CachedPlan *plan;    /* a reference */
    ParamExternData *params;
    int nparams;
    PortalState state;
    uint64 xact_epoch; /* the transaction it started in */
    EState *estate;    /* PORTAL_RUNNING */
    PlanState *top;
    TupleDesc rowdesc; /* what dest->startup gets */
    List *held;        /* PORTAL_HOLDING: MinimalTuples not sent yet */
    int next_held;     /* ... the first of them */
    TupleTableSlot *held_slot;
};

/* ----------------------------------------------------------------------
 * The call boundary
 * ---------------------------------------------------------------------- */

typedef struct CallState {
    MemoryContext old;
    ErrorNoticeHook old_hook;
    void *old_arg;
    const TypeIOSettings *old_typeio;
    StackDepthSave stack;
} CallState;

/*
 * As tdb_session_exec: the session's type I/O settings and stack depth
 * limit installed for the call, and the message's arrival as
 * statement_timestamp() (PostgreSQL stamps each Parse, Bind and Execute).
 */
static void
call_begin(Session *s, CallState *cs, DestReceiver *dest)
{
    tdb_stack_depth_enter(&cs->stack, s->settings.max_stack_depth);
    cs->old = tdb_mcxt_switch_to(s->exec_cxt);
    cs->old_hook =
        tdb_error_set_notice_hook(tdb_tcop_forward_notice, dest, &cs->old_arg);
    {
        /* a cancel request that came while idle is stale; a statement
         * timeout that fired between the messages of a batch is not */
        int expected = XACT_CANCEL_USER;

        atomic_compare_exchange_strong(&s->cancel_pending, &expected,
                                       XACT_CANCEL_NONE);
    }
    s->typeio.stmt_start = tdb_typeio_clock();
    tdb_tcop_sync_typeio(s);
    cs->old_typeio = tdb_typeio_install(&s->typeio);
}

static void
call_end(Session *s, CallState *cs)
{
    tdb_typeio_install(cs->old_typeio);
    tdb_error_set_notice_hook(cs->old_hook, cs->old_arg, NULL);
    tdb_stack_depth_leave(&cs->stack);
    tdb_mcxt_switch_to(cs->old);
    tdb_mcxt_reset(s->exec_cxt);
}

/* In a TDB_CATCH: hand the error out and recover. */
static void
call_failed(Session *s, ErrorData *error)
{
    if (error != NULL)
        *error = *tdb_error_current();
    tdb_error_flush();
    tdb_mcxt_switch_to(s->exec_cxt);
    tdb_tcop_recover_from_error(s);
}

static void
check_not_failed(Session *s, bool is_txn_end)
{
    if (tdb_xact_state(s->xact) == XACT_STATE_FAILED && !is_txn_end)
        tdb_xact_check_not_failed(s->xact); /* raises 25P02 */
}

/* ----------------------------------------------------------------------
 * Cached plans
 * ---------------------------------------------------------------------- */

static void
plan_release(CachedPlan *cp)
{
    if (cp != NULL && --cp->refcount == 0)
        tdb_mcxt_delete(cp->cxt);
}

static bool
is_planned_statement(const PgQuery__Node *node)
{
    switch (node->node_case) {
    case PG_QUERY__NODE__NODE_SELECT_STMT:
        return node->select_stmt->into_clause == NULL;
    case PG_QUERY__NODE__NODE_INSERT_STMT:
    case PG_QUERY__NODE__NODE_UPDATE_STMT:
    case PG_QUERY__NODE__NODE_DELETE_STMT:
        return true;
    default:
        return false;
    }
}

/* A one-column text result (SHOW, EXPLAIN). */
static TupleDesc
text_column(const char *name)
{
    const TypeInfo *t = tdb_type_lookup(TEXTOID);
    TupleDesc desc = tdb_tupdesc_create(1);

    tdb_tupdesc_init_attr(desc, 0, name, TEXTOID, -1, -1, false, t->align,
                          t->storage);
    tdb_tupdesc_finalize(desc);
    return desc;
}

/* The result description of a utility statement, without running it. */
static void
describe_utility(Session *s, CachedPlan *cp)
{
    const PgQuery__Node *node = cp->parsed->stmt;
    TupleDesc desc = NULL;

    if (node->node_case == PG_QUERY__NODE__NODE_VARIABLE_SHOW_STMT) {
        const char *label = NULL;

        if (strcasecmp(node->variable_show_stmt->name, "all") != 0) {
            (void)tdb_guc_show(&s->settings, node->variable_show_stmt->name,
                               &label);
            desc = text_column(label);
        }
    } else if (node->node_case == PG_QUERY__NODE__NODE_EXPLAIN_STMT)
        desc = text_column("QUERY PLAN");
    if (desc != NULL) {
        cp->desc.result = desc;
        cp->desc.origtbl = tdb_palloc0(sizeof(Oid));
        cp->desc.origcol = tdb_palloc0(sizeof(int16));
    }
}

/* The result description of an analyzed query. */
static void
describe_query(CachedPlan *cp, Query *q)
{
    List *tlist = q->command == CMD_SELECT ? q->target_list : q->returning;
    List *visible = NIL;
    Oid *tbl;
    int16 *col;
    int n;

    if (q->command != CMD_SELECT && q->returning == NIL)
        return;
    for (int i = 0; i < list_length(tlist); i++) {
        TargetEntry *te = list_nth(tlist, i);

        if (!te->resjunk)
            visible = tdb_lappend(visible, te);
    }
    n = list_length(visible);
    tbl = tdb_palloc0(sizeof(Oid) * (Size)Max(1, n));
    col = tdb_palloc0(sizeof(int16) * (Size)Max(1, n));
    for (int i = 0; i < n; i++) {
        TargetEntry *te = list_nth(visible, i);

        tbl[i] = te->resorigtbl;
        col[i] = (int16)te->resorigcol;
    }
    cp->desc.result = tdb_exec_type_from_tlist(visible);
    cp->desc.origtbl = tbl;
    cp->desc.origcol = col;
}

/*
 * Parse, analyze and plan ps's text into a new CachedPlan (refcount 1).
 * On the first call (ps->paramtypes may hold 0 = unknown) the inferred
 * types are stored into ps; later calls analyze with them fixed.
 * Raises; the partly built plan's memory goes with the error.
 */
static CachedPlan *
build_plan(Session *s, PreparedStatement *ps, DestReceiver *dest)
{
    MemoryContext cxt =
        tdb_aset_create(s->cxt, "CachedPlan", ALLOCSET_SMALL_SIZES);
    MemoryContext old = tdb_mcxt_switch_to(cxt);
    CachedPlan *volatile cp = NULL;

    TDB_TRY();
    {
        const PgQuery__Node *node;

        cp = tdb_palloc0(sizeof(CachedPlan));
        cp->cxt = cxt;
        cp->refcount = 1;
        cp->catalog_version = tdb_catalog_version();
        cp->script = tdb_sql_parse(ps->text);
        if (cp->script->nstatements > 1)
            ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
                    errmsg("cannot insert multiple commands into a "
                           "prepared statement"));
        if (cp->script->nstatements == 0) {
            cp->kind = PLAN_EMPTY;
        } else {
            cp->parsed = &cp->script->statements[0];
            node = cp->parsed->stmt;
            ps->is_txn_end = tdb_tcop_is_transaction_end(node);
            check_not_failed(s, ps->is_txn_end);
            if (is_planned_statement(node)) {
                ParamTypes pt;
                Statement st =
                    tdb_tcop_statement(s, ps->text, cp->parsed, dest);
                Query *q;

                pt.ntypes = ps->nparams;
                pt.types = tdb_palloc0(sizeof(Oid) * (Size)Max(1, pt.ntypes));
                memcpy(pt.types, ps->paramtypes,
                       sizeof(Oid) * (Size)ps->nparams);
                st.params = &pt;
                tdb_tcop_ensure_transaction(s);
                q = tdb_analyze_statement(&st, cp->parsed->stmt);
                for (int i = 0; i < pt.ntypes; i++)
                    if (pt.types[i] == InvalidOid || pt.types[i] == UNKNOWNOID)
                        ereport(ERROR, errcode(ERRCODE_INDETERMINATE_DATATYPE),
                                errmsg("could not determine data type of "
                                       "parameter $%d",
                                       i + 1));
                describe_query(cp, q);
                cp->query = q;
                cp->kind = PLAN_QUERY;
                if (pt.ntypes > ps->nparams) {
                    ps->paramtypes =
                        tdb_mcxt_alloc(ps->cxt, sizeof(Oid) * (Size)pt.ntypes);
                    ps->nparams = pt.ntypes;
                }
                memcpy(ps->paramtypes, pt.types, sizeof(Oid) * (Size)pt.ntypes);
            } else {
                cp->kind = PLAN_UTILITY;
                for (int i = 0; i < ps->nparams; i++)
                    if (ps->paramtypes[i] == InvalidOid)
                        ereport(ERROR, errcode(ERRCODE_INDETERMINATE_DATATYPE),
                                errmsg("could not determine data type of "
                                       "parameter $%d",
                                       i + 1));
                describe_utility(s, cp);
            }
        }
        {
            Oid *types = tdb_palloc0(sizeof(Oid) * (Size)Max(1, ps->nparams));

            memcpy(types, ps->paramtypes, sizeof(Oid) * (Size)ps->nparams);
            cp->desc.nparams = ps->nparams;
            cp->desc.paramtypes = types;
        }
    }
    TDB_CATCH();
    {
        tdb_mcxt_switch_to(old);
        tdb_mcxt_delete(cxt);
        TDB_RE_THROW();
    }
    TDB_END_TRY();
    tdb_mcxt_switch_to(old);
    return cp;
}

static bool
same_result_shape(const StatementDescription *a, const StatementDescription *b)
{
    if ((a->result == NULL) != (b->result == NULL))
        return false;
    if (a->result == NULL)
        return true;
    if (a->result->natts != b->result->natts)
        return false;
    for (int i = 0; i < a->result->natts; i++) {
        const TupleAttr *x = TupleDescAttr(a->result, i);
        const TupleAttr *y = TupleDescAttr(b->result, i);

        if (x->atttypid != y->atttypid || x->atttypmod != y->atttypmod)
            return false;
    }
    return true;
}

/*
 * Plan an analyzed query (at its first Bind, as PostgreSQL plans at Bind:
 * errors of constant folding belong to Bind, not Parse).  The plan goes
 * to a context of its own under the CachedPlan's; a failure deletes it
 * and marks the CachedPlan for rebuilding, since the planner rewrites the
 * Query as it goes.
 */
static void
plan_query(Session *s, PreparedStatement *ps, CachedPlan *cp,
           DestReceiver *dest)
{
    MemoryContext cxt = tdb_aset_create(cp->cxt, "plan", ALLOCSET_SMALL_SIZES);
    MemoryContext old = tdb_mcxt_switch_to(cxt);
    Statement st = tdb_tcop_statement(s, ps->text, cp->parsed, dest);

    TDB_TRY();
    {
        cp->broken = true;
        cp->plan = tdb_plan_query(&st, cp->query);
        cp->broken = false;
    }
    TDB_CATCH();
    {
        tdb_mcxt_switch_to(old);
        tdb_mcxt_delete(cxt);
        cp->plan = NULL;
        TDB_RE_THROW();
    }
    TDB_END_TRY();
    tdb_mcxt_switch_to(old);
}

/* Re-plan ps if the catalog changed since its plan was made; plan it if
 * it has not been yet. */
static void
revalidate(Session *s, PreparedStatement *ps, DestReceiver *dest)
{
    CachedPlan *cp;

    if (ps->plan->kind != PLAN_QUERY)
        return;
    if (ps->plan->catalog_version == tdb_catalog_version() &&
        !ps->plan->broken) {
        if (ps->plan->plan == NULL)
            plan_query(s, ps, ps->plan, dest);
        return;
    }
    cp = build_plan(s, ps, dest);
    if (!same_result_shape(&cp->desc, &ps->plan->desc)) {
        plan_release(cp);
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("cached plan must not change result type"));
    }
    plan_release(ps->plan);
    ps->plan = cp;
    plan_query(s, ps, cp, dest);
}

/* ----------------------------------------------------------------------
 * Prepared statements
 * ---------------------------------------------------------------------- */

PreparedStatement *
tdb_session_prepare(Session *s, const char *sql, const Oid *paramtypes,
                    int nparamtypes, DestReceiver *dest, ErrorData *error)
{
    CallState cs;
    MemoryContext cxt =
        tdb_aset_create(s->cxt, "PreparedStatement", ALLOCSET_SMALL_SIZES);
    PreparedStatement *ps = tdb_mcxt_alloc_zero(cxt, sizeof(*ps));
    volatile bool ok = true;

    ps->session = s;
    ps->cxt = cxt;
    ps->text = tdb_mcxt_strdup(cxt, sql);
    ps->nparams = nparamtypes;
    ps->paramtypes =
        tdb_mcxt_alloc_zero(cxt, sizeof(Oid) * (Size)Max(1, nparamtypes));
    if (nparamtypes > 0)
        memcpy(ps->paramtypes, paramtypes, sizeof(Oid) * (Size)nparamtypes);
    call_begin(s, &cs, dest);
    TDB_TRY();
    {
        /* the text is checked as it arrives, before anything else */
        tdb_utf8_check(sql, strlen(sql));
        /* PostgreSQL arms statement_timeout at the first Parse, Bind or
         * Execute of a batch; it runs until an Execute completes, an
         * error, or Sync */
        tdb_tcop_timeout_start(s);
        ps->plan = build_plan(s, ps, dest);
    }
    TDB_CATCH();
    {
        call_failed(s, error);
        ok = false;
    }
    TDB_END_TRY();
    call_end(s, &cs);
    if (!ok) {
        tdb_mcxt_delete(cxt);
        return NULL;
    }
    return ps;
}

const StatementDescription *
tdb_prepared_describe(PreparedStatement *ps)
{
    return &ps->plan->desc;
}

bool
tdb_prepared_is_transaction_end(PreparedStatement *ps)
{
    return ps->is_txn_end;
}

bool
tdb_prepared_is_empty(PreparedStatement *ps)
{
    return ps->plan->kind == PLAN_EMPTY;
}

void
tdb_prepared_drop(PreparedStatement *ps)
{
    if (ps == NULL)
        return;
    plan_release(ps->plan);
    tdb_mcxt_delete(ps->cxt);
}

/* ----------------------------------------------------------------------
 * Portals
 * ---------------------------------------------------------------------- */

static void
epoch_callback(XactEvent event, void *arg)
{
    Session *s = arg;

    if (event == XACT_EVENT_PRE_COMMIT)
        return;
    s->xact_epoch++;
    s->epoch_armed = false;
}

/* Make sure the end of the current transaction moves xact_epoch. */
static void
arm_epoch(Session *s)
{
    if (!s->epoch_armed && tdb_xact_state(s->xact) == XACT_STATE_IN_PROGRESS) {
        tdb_xact_register_callback(s->xact, epoch_callback, s);
        s->epoch_armed = true;
    }
}

/*
 * PostgreSQL's CONTEXT line for an error while a Bind value is converted:
 * which parameter of which portal; once the text has reached the type's
 * input function it adds the value, cut to log_parameter_max_length_on_
 * error characters -- 0 by default (tupledb has no such setting), which
 * shows it as '...'.
 */
typedef struct BindParamContext {
    const char *portal_name; /* "" for the unnamed portal */
    int paramno;             /* 1-based */
    bool in_input;           /* the text is in the input function */
} BindParamContext;

static void
bind_param_context(void *arg)
{
    const BindParamContext *c = arg;
    const char *value = c->in_input ? " = '...'" : "";

    if (c->portal_name[0] != '\0')
        errcontext_msg("portal \"%s\" parameter $%d%s", c->portal_name,
                       c->paramno, value);
    else
        errcontext_msg("unnamed portal parameter $%d%s", c->paramno, value);
}

/* Convert Bind's values with the types' input / recv functions. */
static void
convert_params(Portal *p, const char *portal_name, const Oid *types,
               const BindValue *values, int n)
{
    BindParamContext context = {.portal_name = portal_name};
    ErrorContextCallback cb = {NULL, bind_param_context, &context};

    p->params =
        tdb_mcxt_alloc_zero(p->cxt, sizeof(ParamExternData) * (Size)Max(1, n));
    p->nparams = n;
    tdb_error_context_push(&cb);
    for (int i = 0; i < n; i++) {
        ParamExternData *d = &p->params[i];
        MemoryContext old;

        context.paramno = i + 1;
        context.in_input = false;
        d->ptype = types[i];
        if (values[i].format != 0 && values[i].format != 1)
            ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("unsupported format code: %d", values[i].format));
        if (values[i].len < 0) {
            d->isnull = true;
            continue;
        }
        old = tdb_mcxt_switch_to(p->cxt);
        if (values[i].format == 1) {
            const TypeInfo *ti = tdb_type_lookup(types[i]);

            /* PostgreSQL's check that recv used every byte; for the
             * fixed-length types that is their length */
            if (ti != NULL && ti->len > 0 && values[i].len > ti->len)
                ereport(ERROR, errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
                        errmsg("incorrect binary data format in bind "
                               "parameter %d",
                               i + 1));
            d->value =
                tdb_type_receive(types[i], values[i].data, values[i].len);
        } else {
            char *str;

            /* every type's text is checked before its input function
             * sees it, as PostgreSQL does */
            tdb_utf8_check(values[i].data, (Size)values[i].len);
            str = tdb_palloc((Size)values[i].len + 1);
            memcpy(str, values[i].data, (Size)values[i].len);
            str[values[i].len] = '\0';
            context.in_input = true;
            d->value = tdb_type_input(types[i], str, -1);
        }
        tdb_mcxt_switch_to(old);
    }
    tdb_error_context_pop(&cb);
}

Portal *
tdb_session_bind(Session *s, PreparedStatement *ps, const char *portal_name,
                 const BindValue *values, int nvalues, DestReceiver *dest,
                 ErrorData *error)
{
    CallState cs;
    MemoryContext cxt =
        tdb_aset_create(s->cxt, "Portal", ALLOCSET_DEFAULT_SIZES);
    Portal *p = tdb_mcxt_alloc_zero(cxt, sizeof(*p));
    volatile bool ok = true;

    p->session = s;
    p->cxt = cxt;
    call_begin(s, &cs, dest);
    TDB_TRY();
    {
        tdb_tcop_timeout_start(s);
        if (nvalues != ps->nparams)
            ereport(ERROR, errcode(MAKE_SQLSTATE('0', '8', 'P', '0', '1')),
                    errmsg("bind message supplies %d parameters, but "
                           "prepared statement requires %d",
                           nvalues, ps->nparams));
        check_not_failed(s, ps->is_txn_end || ps->plan->kind == PLAN_EMPTY);
        if (ps->plan->kind == PLAN_QUERY) {
            tdb_tcop_ensure_transaction(s);
            revalidate(s, ps, dest);
        }
        if (ps->plan->kind == PLAN_QUERY &&
            ps->plan->plan->command == CMD_SELECT) {
            /* a SELECT's privileges at Bind, where PostgreSQL's
             * PortalStart starts its executor; Execute checks every
             * statement's as it starts the executor */
            Statement st = tdb_tcop_statement(s, ps->plan->script->text,
                                              ps->plan->parsed, dest);

            tdb_sql_check_privileges(&st, ps->plan->plan);
        }
        convert_params(p, portal_name, ps->paramtypes, values, nvalues);
        arm_epoch(s);
        p->xact_epoch = s->xact_epoch;
        p->plan = ps->plan;
        p->plan->refcount++;
    }
    TDB_CATCH();
    {
        call_failed(s, error);
        ok = false;
    }
    TDB_END_TRY();
    call_end(s, &cs);
    if (!ok) {
        tdb_mcxt_delete(cxt);
        return NULL;
    }
    p->next = s->portals;
    s->portals = p;
    return p;
}

const StatementDescription *
tdb_portal_describe(Portal *p)
{
    return &p->plan->desc;
}

bool
tdb_portal_is_empty(Portal *p)
{
    return p->plan->kind == PLAN_EMPTY;
}

bool
tdb_portal_is_dead(Portal *p)
{
    return p->state == PORTAL_DEAD ||
           (p->state != PORTAL_DONE && p->xact_epoch != p->session->xact_epoch);
}

/* End a running portal's executor (its pins).  Does not raise. */
static void
portal_stop(Portal *p, PortalState state)
{
    if (p->state == PORTAL_RUNNING) {
        tdb_exec_finish(p->estate, p->top);
        tdb_exec_free_estate(p->estate);
        p->estate = NULL;
        p->top = NULL;
        p->session->nrunning--;
    }
    p->state = state;
}

void
tdb_portal_drop(Portal *p)
{
    Session *s;

    if (p == NULL)
        return;
    s = p->session;
    portal_stop(p, PORTAL_DONE);
    for (Portal **pp = &s->portals; *pp != NULL; pp = &(*pp)->next)
        if (*pp == p) {
            *pp = p->next;
            break;
        }
    plan_release(p->plan);
    tdb_mcxt_delete(p->cxt);
}

void
tdb_tcop_close_dead_portals(Session *s, bool all)
{
    for (Portal *p = s->portals; p != NULL; p = p->next)
        if (p->state == PORTAL_RUNNING &&
            (all || p->xact_epoch != s->xact_epoch))
            portal_stop(p, PORTAL_DEAD);
}

void
tdb_tcop_forget_running_portals(Session *s)
{
    for (Portal *p = s->portals; p != NULL; p = p->next)
        if (p->state == PORTAL_RUNNING) {
            /* the pins are gone; the memory goes with the portal */
            p->estate = NULL;
            p->top = NULL;
            p->state = PORTAL_DEAD;
        }
    s->nrunning = 0;
}

/* The visible columns of a plan (what the executor sends). */
static TupleDesc
plan_rowdesc(PlannedStmt *plan)
{
    List *visible = NIL;

    for (int i = 0; i < list_length(plan->plan->targetlist); i++) {
        TargetEntry *te = list_nth(plan->plan->targetlist, i);

        if (!te->resjunk)
            visible = tdb_lappend(visible, te);
    }
    return tdb_exec_type_from_tlist(visible);
}

/*
 * INSERT / UPDATE / DELETE ... RETURNING under an Execute row limit.
 * As in PostgreSQL (PORTAL_ONE_RETURNING), the statement runs to
 * completion at the first Execute -- a row limit never leaves a change
 * half done -- and its RETURNING rows wait in the portal; each Execute
 * sends up to its limit, and the one that sends the last row completes
 * with a tag counting the rows it sent (PostgreSQL's figure too).
 */
typedef struct HoldReceiver {
    DestReceiver pub;
    Portal *portal;
} HoldReceiver;

static void
hold_row(DestReceiver *self, TupleTableSlot *slot)
{
    Portal *p = ((HoldReceiver *)self)->portal;
    MemoryContext old = tdb_mcxt_switch_to(p->cxt);

    p->held = tdb_lappend(p->held, tdb_slot_copy_minimal_tuple(slot, 0));
    tdb_mcxt_switch_to(old);
}

/* Run the started DML portal p to the end, keeping its rows. */
static void
hold_returning_rows(Session *s, Portal *p)
{
    HoldReceiver hold = {{NULL, hold_row, NULL, NULL, NULL}, p};
    MemoryContext old;

    tdb_exec_fetch(p->plan->plan, p->estate, p->top, &hold.pub, 0);
    tdb_exec_free_estate(p->estate);
    p->estate = NULL;
    p->top = NULL;
    s->nrunning--;
    old = tdb_mcxt_switch_to(p->cxt);
    p->held_slot = tdb_slot_create(p->rowdesc, &tdb_tts_ops_minimal);
    tdb_mcxt_switch_to(old);
    p->state = PORTAL_HOLDING;
    if (tdb_xact_state(s->xact) == XACT_STATE_IN_PROGRESS)
        tdb_xact_command_counter_increment(s->xact);
}

/* Send up to max_rows (<= 0: all) of the held rows. */
static PortalRunResult
send_held_rows(Portal *p, int64 max_rows, DestReceiver *dest)
{
    int64 sent = 0;
    char tag[64];

    if (dest != NULL && dest->startup != NULL)
        dest->startup(dest, p->rowdesc);
    while (p->next_held < list_length(p->held) &&
           (max_rows <= 0 || sent < max_rows)) {
        tdb_slot_store_minimal_tuple(p->held_slot,
                                     list_nth(p->held, p->next_held++),
                                     false);
        if (dest != NULL && dest->receive != NULL)
            dest->receive(dest, p->held_slot);
        sent++;
    }
    if (max_rows > 0 && sent == max_rows)
        return PORTAL_RUN_SUSPENDED; /* PostgreSQL does not look ahead */
    tdb_sql_command_tag(tag, sizeof(tag), p->plan->plan->command, (uint64)sent);
    p->state = PORTAL_DONE;
    if (dest != NULL && dest->complete != NULL)
        dest->complete(dest, tag);
    return PORTAL_RUN_DONE;
}

/* Run a planned portal (the body of tdb_session_execute). */
static PortalRunResult
run_query_portal(Session *s, Portal *p, int64 max_rows, DestReceiver *dest)
{
    PlannedStmt *plan = p->plan->plan;
    bool sends_rows = plan->command == CMD_SELECT || plan->has_returning;
    uint64 before;
    char tag[64];
    bool done;

    if (p->state == PORTAL_READY) {
        Statement st =
            tdb_tcop_statement(s, p->plan->script->text, p->plan->parsed, dest);
        MemoryContext old = tdb_mcxt_switch_to(p->cxt);

        tdb_tcop_ensure_transaction(s);
        p->estate = tdb_sql_create_estate(&st, plan);
        p->estate->ext_params = p->params;
        p->estate->n_ext_params = p->nparams;
        p->rowdesc = plan_rowdesc(plan);
        p->top = tdb_exec_start(plan, p->estate, NULL);
        tdb_mcxt_switch_to(old);
        p->state = PORTAL_RUNNING;
        p->xact_epoch = s->xact_epoch;
        s->nrunning++;
        arm_epoch(s);
        if (plan->command != CMD_SELECT && plan->has_returning &&
            max_rows > 0)
            hold_returning_rows(s, p);
    }
    if (p->state == PORTAL_HOLDING)
        return send_held_rows(p, max_rows, dest);
    if (sends_rows && dest != NULL && dest->startup != NULL)
        dest->startup(dest, p->rowdesc);
    before = p->estate->processed;
    done = tdb_exec_fetch(plan, p->estate, p->top, dest,
                          plan->command == CMD_SELECT ? max_rows : 0);
    if (!done)
        return PORTAL_RUN_SUSPENDED;
    /* tdb_exec_fetch ended the nodes */
    tdb_sql_command_tag(tag, sizeof(tag), plan->command,
                        plan->command == CMD_SELECT
                            ? p->estate->processed - before
                            : p->estate->processed);
    tdb_exec_free_estate(p->estate);
    p->estate = NULL;
    p->top = NULL;
    p->state = PORTAL_DONE;
    s->nrunning--;
    if (dest != NULL && dest->complete != NULL)
        dest->complete(dest, tag);
    if (s->nrunning == 0 && tdb_buf_pins_held() > 0) {
        int leaked = tdb_buf_release_all_pins_of_thread();

        elog(WARNING, "a statement left %d buffers pinned", leaked);
    }
    if (tdb_xact_state(s->xact) == XACT_STATE_IN_PROGRESS)
        tdb_xact_command_counter_increment(s->xact);
    return PORTAL_RUN_DONE;
}

PortalRunResult
tdb_session_execute(Session *s, Portal *p, int64 max_rows, DestReceiver *dest,
                    ErrorData *error)
{
    CallState cs;
    volatile PortalRunResult result = PORTAL_RUN_DONE;

    if (p->plan->kind == PLAN_EMPTY)
        return PORTAL_RUN_EMPTY;
    call_begin(s, &cs, dest);
    TDB_TRY();
    {
        tdb_tcop_timeout_start(s);
        tdb_session_check_interrupts(s); /* a timeout since the last one */
        if (tdb_portal_is_dead(p))
            ereport(ERROR, errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                    errmsg("portal cannot be run: its transaction has "
                           "ended"));
        if (p->plan->kind == PLAN_QUERY) {
            check_not_failed(s, false);
            if (p->state == PORTAL_DONE) {
                char tag[64];

                /* PostgreSQL answers a finished portal with its tag and
                 * no rows */
                tdb_sql_command_tag(tag, sizeof(tag), p->plan->plan->command,
                                    0);
                if (dest != NULL && dest->complete != NULL)
                    dest->complete(dest, tag);
            } else
                result = run_query_portal(s, p, max_rows, dest);
        } else if (p->state == PORTAL_DONE) {
            ereport(ERROR, errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                    errmsg("portal has already run"));
        } else {
            Statement st = tdb_tcop_statement(s, p->plan->script->text,
                                              p->plan->parsed, dest);

            p->state = PORTAL_DONE;
            tdb_tcop_run_statement(&st);
        }
        /* a completed Execute ends the statement's timeout; the next
         * message starts a fresh one */
        if (result == PORTAL_RUN_DONE)
            tdb_tcop_timeout_stop(s);
    }
    TDB_CATCH();
    {
        call_failed(s, error);
        result = PORTAL_RUN_FAILED;
    }
    TDB_END_TRY();
    call_end(s, &cs);
    return result;
}

bool
tdb_session_sync(Session *s, ErrorData *error)
{
    CallState cs;
    volatile bool ok = true;

    call_begin(s, &cs, NULL);
    TDB_TRY();
    {
        tdb_tcop_timeout_stop(s);
        if (!s->explicit_block)
            tdb_tcop_close_dead_portals(s, true);
        tdb_tcop_finish_implicit_transaction(s);
        tdb_tcop_close_dead_portals(s, false);
    }
    TDB_CATCH();
    {
        call_failed(s, error);
        ok = false;
    }
    TDB_END_TRY();
    call_end(s, &cs);
    return ok;
}

void
tdb_session_fail(Session *s)
{
    tdb_tcop_recover_from_error(s);
}
