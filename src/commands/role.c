/*
 * role.c -- CREATE ROLE / USER / GROUP, ALTER ROLE (attributes, PASSWORD,
 * RENAME TO), DROP ROLE.
 *
 * The statements follow PostgreSQL 15's CreateRole / AlterRole /
 * RenameRole / DropRole: options first (a repeated or contradictory one
 * is 42601 "conflicting or redundant options" at its position), then the
 * privilege checks, then the catalog change (catalog/pg_authid.c).
 * Privileges: only SUPERUSER counts -- there is no CREATEROLE attribute
 * -- so a role that is not a superuser may only change its own
 * password.  The attributes tupledb does not enforce (CREATEDB,
 * CREATEROLE, REPLICATION, BYPASSRLS, NOINHERIT, CONNECTION LIMIT, VALID
 * UNTIL, IN ROLE, ...) are refused with 0A000 instead of being accepted
 * and ignored.
 *
 * Passwords: a plain password is stored as a SCRAM-SHA-256 verifier
 * with a fresh 16-byte salt and 4096 iterations (PostgreSQL's
 * password_encryption = scram-sha-256 and its defaults); a password that
 * already is a verifier -- or an MD5 hash, which PostgreSQL also stores as
 * given -- is stored unchanged; '' clears the password with PostgreSQL's
 * NOTICE.
 *
 * The session's user (parser/statement.h): a server connection sets it
 * after authentication; an embedded session (the shell, the C API) is the
 * bootstrap superuser.  Superuser checks read pg_authid each time, so
 * ALTER ROLE ... NOSUPERUSER takes effect at once, as in PostgreSQL.
 */
#include "common/base.h"

#include <ctype.h>
#include <pg_query.h>
#include <string.h>

#include "catalog/catalog.h"
#include "commands/commands.h"
#include "common/elog.h"
#include "common/scram.h"

/* ----------------------------------------------------------------------
 * Options
 * ---------------------------------------------------------------------- */

/* The options of one CREATE / ALTER ROLE, and where each was given. */
typedef struct RoleOptionList {
    RoleOptions opts;
    const PgQuery__DefElem *superuser, *canlogin, *password;
} RoleOptionList;

static void
conflicting_option(const Statement *st, const PgQuery__DefElem *def)
{
    ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
            errmsg("conflicting or redundant options"),
            errposition(stmt_errpos(st, def->location)));
}

/* A DefElem's boolean argument (the grammar makes a Boolean, or an
 * Integer in older trees). */
static bool
def_bool(const PgQuery__DefElem *def)
{
    const PgQuery__Node *arg = def->arg;

    if (arg != NULL && arg->node_case == PG_QUERY__NODE__NODE_BOOLEAN)
        return arg->boolean->boolval;
    if (arg != NULL && arg->node_case == PG_QUERY__NODE__NODE_INTEGER)
        return arg->integer->ival != 0;
    return true;
}

/* Remember def in *slot; a second one conflicts. */
static void
take_option(const Statement *st, const PgQuery__DefElem *def,
            const PgQuery__DefElem **slot)
{
    if (*slot != NULL)
        conflicting_option(st, def);
    *slot = def;
}

/* Parse a CREATE / ALTER ROLE option list. */
static void
parse_role_options(const Statement *st, PgQuery__Node **options,
                   size_t noptions, RoleOptionList *out)
{
    memset(out, 0, sizeof(*out));
    out->opts.superuser = -1;
    out->opts.canlogin = -1;
    for (size_t i = 0; i < noptions; i++) {
        const PgQuery__DefElem *def = options[i]->def_elem;

        if (options[i]->node_case != PG_QUERY__NODE__NODE_DEF_ELEM)
            elog(ERROR, "unexpected role option node %d",
                 (int)options[i]->node_case);
        if (strcmp(def->defname, "superuser") == 0) {
            take_option(st, def, &out->superuser);
            out->opts.superuser = def_bool(def);
        } else if (strcmp(def->defname, "canlogin") == 0) {
            take_option(st, def, &out->canlogin);
            out->opts.canlogin = def_bool(def);
        } else if (strcmp(def->defname, "password") == 0) {
            take_option(st, def, &out->password);
            out->opts.set_password = true;
            out->opts.password =
                def->arg != NULL &&
                        def->arg->node_case == PG_QUERY__NODE__NODE_STRING
                    ? def->arg->string->sval
                    : NULL;
        } else
            ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("role option \"%s\" is not supported",
                           def->defname),
                    errposition(stmt_errpos(st, def->location)));
    }
}

/* Does password look like "md5" and 32 hex digits (an MD5 hash)? */
static bool
is_md5_hash(const char *password)
{
    if (strncmp(password, "md5", 3) != 0 || strlen(password) != 35)
        return false;
    for (int i = 3; i < 35; i++)
        if (!isxdigit((unsigned char)password[i]))
            return false;
    return true;
}

/*
 * What to store for a PASSWORD option: NULL (PASSWORD NULL, or '' with
 * PostgreSQL's notice), the text as given if it already is a verifier or
 * a hash, else a new SCRAM-SHA-256 verifier (current context).
 */
static const char *
password_to_store(const char *password)
{
    ScramVerifier v;
    uint8 salt[SCRAM_DEFAULT_SALT_LEN];
    char *verifier;

    if (password == NULL)
        return NULL;
    if (password[0] == '\0') {
        ereport(NOTICE, errcode(ERRCODE_SUCCESSFUL_COMPLETION),
                errmsg("empty string is not a valid password, clearing "
                       "password"));
        return NULL;
    }
    if (tdb_scram_parse_verifier(password, &v) || is_md5_hash(password))
        return password;
    if (!tdb_strong_random(salt, sizeof(salt)))
        ereport(ERROR, errcode(ERRCODE_INTERNAL_ERROR),
                errmsg("could not generate random salt"));
    verifier = tdb_palloc(SCRAM_VERIFIER_MAXLEN);
    tdb_scram_build_verifier(password, salt, (int)sizeof(salt),
                             SCRAM_DEFAULT_ITERATIONS, verifier);
    return verifier;
}

static void
permission_denied(const char *message)
{
    ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
            errmsg("%s", message));
}

/* PostgreSQL reserves "pg_" names for its built-in roles. */
static void
check_not_reserved(const char *name)
{
    if (strncmp(name, "pg_", 3) == 0)
        ereport(ERROR, errcode(ERRCODE_RESERVED_NAME),
                errmsg("role name \"%s\" is reserved", name),
                errdetail("Role names starting with \"pg_\" are reserved."));
}

/* A RoleSpec's name: a name, CURRENT_USER, SESSION_USER, CURRENT_ROLE. */
static const char *
role_spec_name(Statement *st, const PgQuery__RoleSpec *spec)
{
    switch (spec->roletype) {
    case PG_QUERY__ROLE_SPEC_TYPE__ROLESPEC_CSTRING:
        return spec->rolename;
    case PG_QUERY__ROLE_SPEC_TYPE__ROLESPEC_CURRENT_ROLE:
    case PG_QUERY__ROLE_SPEC_TYPE__ROLESPEC_CURRENT_USER:
    case PG_QUERY__ROLE_SPEC_TYPE__ROLESPEC_SESSION_USER:
        return tdb_stmt_user_name(st);
    case PG_QUERY__ROLE_SPEC_TYPE__ROLESPEC_PUBLIC:
        break;
    default:
        elog(ERROR, "unrecognized role spec type: %d", (int)spec->roletype);
    }
    ereport(ERROR, errcode(ERRCODE_UNDEFINED_OBJECT),
            errmsg("role \"%s\" does not exist", "public"));
}

/* ----------------------------------------------------------------------
 * The statements
 * ---------------------------------------------------------------------- */

static void
run_create_role(Statement *st, const PgQuery__CreateRoleStmt *cs)
{
    RoleOptionList list;

    parse_role_options(st, cs->options, cs->n_options, &list);
    if (list.opts.canlogin < 0)
        list.opts.canlogin =
            cs->stmt_type == PG_QUERY__ROLE_STMT_TYPE__ROLESTMT_USER;
    if (!tdb_stmt_user_is_superuser(st))
        permission_denied(list.opts.superuser == 1
                              ? "must be superuser to create superusers"
                              : "permission denied to create role");
    check_not_reserved(cs->role);
    list.opts.password = password_to_store(list.opts.password);
    (void)tdb_catalog_create_role(st->xact, cs->role, &list.opts);
}

static void
run_alter_role(Statement *st, const PgQuery__AlterRoleStmt *as)
{
    const char *name = role_spec_name(st, as->role);
    RoleOptionList list;
    RoleInfo role;

    parse_role_options(st, as->options, as->n_options, &list);
    if (!tdb_catalog_role_lookup(st->xact, name, &role))
        ereport(ERROR, errcode(ERRCODE_UNDEFINED_OBJECT),
                errmsg("role \"%s\" does not exist", name));
    if (!tdb_stmt_user_is_superuser(st)) {
        if (role.superuser || list.opts.superuser >= 0)
            permission_denied("must be superuser to alter superuser roles "
                              "or change superuser attribute");
        /* a role may change its own password, and nothing else */
        if (list.opts.canlogin >= 0 || !tdb_stmt_user_is(st, &role))
            permission_denied("permission denied");
    }
    list.opts.password = password_to_store(list.opts.password);
    tdb_catalog_alter_role(st->xact, name, &list.opts);
}

static void
run_rename_role(Statement *st, const PgQuery__RenameStmt *rs)
{
    RoleInfo role;

    if (!tdb_catalog_role_lookup(st->xact, rs->subname, &role))
        ereport(ERROR, errcode(ERRCODE_UNDEFINED_OBJECT),
                errmsg("role \"%s\" does not exist", rs->subname));
    if (tdb_stmt_user_is(st, &role))
        ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                errmsg("session user cannot be renamed"));
    check_not_reserved(rs->newname);
    if (!tdb_stmt_user_is_superuser(st))
        permission_denied(role.superuser ? "must be superuser to rename "
                                           "superusers"
                                         : "permission denied to rename "
                                           "role");
    tdb_catalog_rename_role(st->xact, rs->subname, rs->newname);
}

static void
run_drop_role(Statement *st, const PgQuery__DropRoleStmt *ds)
{

    if (!tdb_stmt_user_is_superuser(st))
        permission_denied("permission denied to drop role");
    for (size_t i = 0; i < ds->n_roles; i++) {
        const char *name = role_spec_name(st, ds->roles[i]->role_spec);
        RoleInfo role;

        if (tdb_catalog_role_lookup(st->xact, name, &role) &&
            tdb_stmt_user_is(st, &role))
            ereport(ERROR, errcode(ERRCODE_OBJECT_IN_USE),
                    errmsg("current user cannot be dropped"));
        (void)tdb_catalog_drop_role(st->xact, name, ds->missing_ok);
    }
}

static void
complete(Statement *st, const char *tag)
{
    tdb_stmt_complete(st, tag);
}

bool
tdb_sql_run_role_utility(Statement *st)
{
    const PgQuery__Node *n = st->parsed->stmt;

    switch (n->node_case) {
    case PG_QUERY__NODE__NODE_CREATE_ROLE_STMT:
        run_create_role(st, n->create_role_stmt);
        complete(st, "CREATE ROLE");
        return true;
    case PG_QUERY__NODE__NODE_ALTER_ROLE_STMT:
        run_alter_role(st, n->alter_role_stmt);
        complete(st, "ALTER ROLE");
        return true;
    case PG_QUERY__NODE__NODE_DROP_ROLE_STMT:
        run_drop_role(st, n->drop_role_stmt);
        complete(st, "DROP ROLE");
        return true;
    case PG_QUERY__NODE__NODE_RENAME_STMT:
        if (n->rename_stmt->rename_type != PG_QUERY__OBJECT_TYPE__OBJECT_ROLE)
            return false;
        run_rename_role(st, n->rename_stmt);
        complete(st, "ALTER ROLE");
        return true;
    default:
        return false;
    }
}
