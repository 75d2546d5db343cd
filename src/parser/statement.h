/*
 * statement.h -- the context one SQL statement is analyzed, planned and
 * run in: what the layers above the executor (parser/, optimizer/,
 * commands/, tcop/) know of the session that runs it.
 *
 * tcop/ makes a Statement for every statement it runs and fills the
 * session's part from its Session (tdb_tcop_statement); everything below
 * tcop/ reads the session only through these fields, never through the
 * Session struct, whose body is tcop/'s own.  The session's part is
 * stable for the session's life -- its Transaction object is begun and
 * ended again and again but never replaced, and SET changes *settings in
 * place -- except in_transaction_block, which is a copy taken when the
 * statement starts.
 *
 *     tcop/ (Session)  --fills-->  Statement  --read by-->  parser/ analysis
 *                                      |                    optimizer/ planning
 *                                      +----------------->  commands/
 */
#ifndef TDB_PARSER_STATEMENT_H
#define TDB_PARSER_STATEMENT_H

#include "common/base.h"
#include "access/xact.h"
#include "catalog/catalog.h"
#include "catalog/database.h"
#include "executor/dest.h"
#include "guc/guc.h"
#include "parser/parser.h"

/* tcop/'s session (tcop/session.h); opaque below tcop/. */
typedef struct Session Session;

/*
 * Who the session is: a server connection's role, set after
 * authentication (tdb_session_set_user); an embedded session (the shell,
 * the C API) has none and acts as the bootstrap superuser, whose name is
 * read from pg_authid the first time it is asked for.  A session's user
 * cannot be renamed or dropped while it is connected (commands/role.c),
 * so a name once known stays right.
 */
typedef struct SessionUser {
    Oid oid;                /* InvalidOid: the bootstrap superuser */
    char name[NAMEDATALEN]; /* "" until known */
} SessionUser;

/*
 * The $n of a statement being prepared (PostgreSQL's variable parameter
 * analysis): types[i] is $i+1's type -- given by the client, deduced
 * from the first context that coerced it, UNKNOWNOID while referenced
 * but not yet deduced, InvalidOid while not referenced.  $n beyond
 * ntypes grows the array (allocated in the analysis' memory context).
 */
typedef struct ParamTypes {
    Oid *types;
    int ntypes;
} ParamTypes;

/* One statement being run. */
typedef struct Statement {
    /* the session's part (tcop/ fills it; see the file header) */
    Session *session;          /* for tcop/ only */
    Database *db;              /* the database (temporary files) */
    Transaction *xact;         /* the session's transaction */
    Settings *settings;        /* the session's settings */
    SessionUser *user;         /* who the session is */
    atomic_int *cancel_flag;   /* its cancel requests (access/xact.h) */
    bool in_transaction_block; /* in BEGIN ... COMMIT at the start */
    /* the statement */
    const char *text; /* the whole string; positions count from its start */
    const ParsedStatement *parsed;
    DestReceiver *dest;
    ParamTypes *params;    /* preparing: $n allowed; NULL: a $n is 42P02 */
    int system_view_depth; /* > 0 while analyzing a system view's
                            * definition (system_views.c) */
    int cte_copy_depth;    /* > 0 while analyzing a WITH query's body
                            * again for one more inlined reference: its
                            * references to other WITH queries are not
                            * counted (analyze.c, "WITH") */
} Statement;

/*
 * errposition() argument for a parse-tree location (a byte offset in
 * st->text, -1 for none).
 */
static inline int
stmt_errpos(const Statement *st, int location)
{
    return tdb_sql_char_position(st->text, location);
}

/* Raise 57014 if the session asked the statement to stop (a cancel
 * request, statement_timeout). */
static inline void
tdb_stmt_check_interrupts(const Statement *st)
{
    tdb_xact_check_cancel(st->cancel_flag);
}

/* Hand the statement's command tag ("CREATE TABLE", "SET") to its
 * receiver. */
static inline void
tdb_stmt_complete(const Statement *st, const char *tag)
{
    if (st->dest->complete != NULL)
        st->dest->complete(st->dest, tag);
}

/*
 * The session's role as pg_authid has it now, read in the statement's
 * transaction: false if it no longer exists.
 */
bool tdb_stmt_user_role(const Statement *st, RoleInfo *out);

/* Is the session's role a superuser now?  (A dropped role is not.) */
bool tdb_stmt_user_is_superuser(const Statement *st);

/* The session's user name (current_user, session_user); borrowed from
 * the session, valid for its life. */
const char *tdb_stmt_user_name(const Statement *st);

/* Is role the session's role? */
bool tdb_stmt_user_is(const Statement *st, const RoleInfo *role);

#endif /* TDB_PARSER_STATEMENT_H */
