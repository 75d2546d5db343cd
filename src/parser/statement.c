/*
 * statement.c -- who the session of a statement is (statement.h):
 * its role, read from pg_authid in the statement's transaction, and its
 * name, kept in the session's SessionUser once known.
 *
 * Superuser checks read the role each time (tdb_stmt_user_role), so
 * ALTER ROLE ... NOSUPERUSER takes effect at once, as in PostgreSQL; the
 * name is read once, because a connected session's role cannot be
 * renamed.
 */
#include "common/base.h"

#include <stdio.h>

#include "parser/statement.h"

/* The session's role OID: an embedded session is the bootstrap
 * superuser. */
static Oid
user_oid(const Statement *st)
{
    return st->user->oid != InvalidOid ? st->user->oid : BOOTSTRAP_SUPERUSERID;
}

bool
tdb_stmt_user_role(const Statement *st, RoleInfo *out)
{
    return tdb_catalog_role_lookup_oid(st->xact, user_oid(st), out);
}

bool
tdb_stmt_user_is_superuser(const Statement *st)
{
    RoleInfo role;

    return tdb_stmt_user_role(st, &role) && role.superuser;
}

const char *
tdb_stmt_user_name(const Statement *st)
{
    SessionUser *user = st->user;
    RoleInfo role;

    if (user->name[0] == '\0' && tdb_stmt_user_role(st, &role))
        snprintf(user->name, sizeof(user->name), "%s", role.name);
    return user->name;
}

bool
tdb_stmt_user_is(const Statement *st, const RoleInfo *role)
{
    return role->oid == user_oid(st);
}
