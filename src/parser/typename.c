/*
 * typename.c -- a parse tree's TypeName to a type OID and typmod, as
 * PostgreSQL's typenameTypeIdAndMod does for the built-in types.
 *
 * PostgreSQL's grammar already turns the SQL spellings into catalog
 * names (INTEGER -> pg_catalog.int4, CHARACTER VARYING(20) ->
 * pg_catalog.varchar with typmod argument 20, CHAR -> bpchar(1)); what
 * is left is looking the name up and turning the modifiers into the
 * stored typmod: n + 4 for varchar(n) and bpchar(n) (VARHDRSZ), and
 * ((p << 16) | s) + 4 for numeric(p, s).
 */
#include "common/base.h"

#include <string.h>

#include "catalog/pg_type.h"
#include "common/elog.h"
#include "parser/statement.h"
#include "parser/typename.h"
#include "tuple/varlena.h"

/* varchar/bpchar's maximum length (PostgreSQL's MaxAttrSize / 1 MB x 10). */
#define MAX_CHAR_LENGTH 10485760
#define NUMERIC_MAX_PRECISION 1000
#define NUMERIC_MIN_SCALE (-1000)
#define MAX_DATETIME_PRECISION 6 /* time, timestamp, interval */
#define NUMERIC_MAX_SCALE 1000

static const char *
string_of(const PgQuery__Node *node)
{
    return node != NULL && node->node_case == PG_QUERY__NODE__NODE_STRING
               ? node->string->sval
               : NULL;
}

/* The integer value of a typmod argument; 22P02-like error otherwise. */
static int32
typmod_arg(const Statement *st, const PgQuery__Node *arg)
{
    if (arg->node_case == PG_QUERY__NODE__NODE_A_CONST &&
        arg->a_const->val_case == PG_QUERY__A__CONST__VAL_IVAL)
        return arg->a_const->ival->ival;
    ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
            errmsg("type modifiers must be simple constants or identifiers"),
            errposition(stmt_errpos(
                st, arg->node_case == PG_QUERY__NODE__NODE_A_CONST
                        ? arg->a_const->location
                        : -1)));
}

static int32
char_typmod(const Statement *st, const PgQuery__TypeName *tn,
            const char *name)
{
    int32 n;

    if (tn->n_typmods != 1)
        ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
                errmsg("invalid type modifier"),
                errposition(stmt_errpos(st, tn->location)));
    n = typmod_arg(st, tn->typmods[0]);
    if (n < 1)
        ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                errmsg("length for type %s must be at least 1", name),
                errposition(stmt_errpos(st, tn->location)));
    if (n > MAX_CHAR_LENGTH)
        ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                errmsg("length for type %s cannot exceed %d", name,
                       MAX_CHAR_LENGTH),
                errposition(stmt_errpos(st, tn->location)));
    return n + VARHDRSZ;
}

static int32
numeric_typmod(const Statement *st, const PgQuery__TypeName *tn)
{
    int32 precision, scale = 0;

    if (tn->n_typmods > 2)
        ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                errmsg("invalid NUMERIC type modifier"),
                errposition(stmt_errpos(st, tn->location)));
    precision = typmod_arg(st, tn->typmods[0]);
    if (tn->n_typmods == 2)
        scale = typmod_arg(st, tn->typmods[1]);
    if (precision < 1 || precision > NUMERIC_MAX_PRECISION)
        ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                errmsg("NUMERIC precision %d must be between 1 and %d",
                       precision, NUMERIC_MAX_PRECISION),
                errposition(stmt_errpos(st, tn->location)));
    if (scale < NUMERIC_MIN_SCALE || scale > NUMERIC_MAX_SCALE)
        ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                errmsg("NUMERIC scale %d must be between %d and %d", scale,
                       NUMERIC_MIN_SCALE, NUMERIC_MAX_SCALE),
                errposition(stmt_errpos(st, tn->location)));
    return ((precision << 16) | (scale & 0x7ff)) + VARHDRSZ;
}

/*
 * time(p), timestamp(p), timestamptz(p): the precision, which PostgreSQL's
 * anytime/anytimestamp typmodin check: one value, not negative, above 6
 * reduced to 6 with a warning.  label: "TIME", "TIMESTAMP(...)" prefix;
 * suffix " WITH TIME ZONE" or "".
 */
static int32
precision_typmod(const Statement *st, const PgQuery__TypeName *tn,
                 const char *label, const char *suffix)
{
    int32 p;

    if (tn->n_typmods != 1)
        ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                errmsg("invalid type modifier"),
                errposition(stmt_errpos(st, tn->location)));
    p = typmod_arg(st, tn->typmods[0]);
    if (p < 0)
        ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                errmsg("%s(%d)%s precision must not be negative", label, p,
                       suffix),
                errposition(stmt_errpos(st, tn->location)));
    if (p > MAX_DATETIME_PRECISION) {
        ereport(WARNING, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                errmsg("%s(%d)%s precision reduced to maximum allowed, %d",
                       label, p, suffix, MAX_DATETIME_PRECISION),
                errposition(stmt_errpos(st, tn->location)));
        p = MAX_DATETIME_PRECISION;
    }
    return p;
}

/*
 * interval [fields] [(p)]: the parser gives the fields as a bit mask
 * (then the precision); PostgreSQL's intervaltypmodin checks the mask
 * and packs (fields << 16) | precision, 0xFFFF for no precision.
 */
static int32
interval_typmod(const Statement *st, const PgQuery__TypeName *tn)
{
    /* the bits of YEAR, MONTH, DAY, HOUR, MINUTE, SECOND */
    enum { Y = 1 << 2, M = 1 << 1, D = 1 << 3, H = 1 << 10, MI = 1 << 11,
           S = 1 << 12, FULL = 0x7FFF };
    static const int32 ranges[] = {
        Y, M, D, H, MI, S, Y | M, D | H, D | H | MI, D | H | MI | S, H | MI,
        H | MI | S, MI | S, FULL,
    };
    int32 range;
    int32 p;
    bool ok = false;

    if (tn->n_typmods < 1 || tn->n_typmods > 2)
        ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                errmsg("invalid INTERVAL type modifier"),
                errposition(stmt_errpos(st, tn->location)));
    range = typmod_arg(st, tn->typmods[0]);
    for (Size i = 0; i < lengthof(ranges); i++)
        if (ranges[i] == range)
            ok = true;
    if (!ok)
        ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                errmsg("invalid INTERVAL type modifier"),
                errposition(stmt_errpos(st, tn->location)));
    if (tn->n_typmods == 1)
        return range == FULL ? -1 : (int32)((range << 16) | 0xFFFF);
    p = typmod_arg(st, tn->typmods[1]);
    if (p < 0)
        ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                errmsg("INTERVAL(%d) precision must not be negative", p),
                errposition(stmt_errpos(st, tn->location)));
    if (p > MAX_DATETIME_PRECISION) {
        ereport(WARNING, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                errmsg("INTERVAL(%d) precision reduced to maximum allowed, "
                       "%d",
                       p, MAX_DATETIME_PRECISION),
                errposition(stmt_errpos(st, tn->location)));
        p = MAX_DATETIME_PRECISION;
    }
    return (int32)((range << 16) | p);
}

/* The dotted name of a TypeName, for messages ("foo", "s.foo"). */
static const char *
dotted_name(const PgQuery__TypeName *tn, char *buf, Size size)
{
    buf[0] = '\0';
    for (size_t i = 0; i < tn->n_names; i++) {
        const char *part = string_of(tn->names[i]);
        Size len = strlen(buf);

        snprintf(buf + len, size - len, "%s%s", i > 0 ? "." : "",
                 part != NULL ? part : "?");
    }
    return buf;
}

void
tdb_sql_resolve_typename(const Statement *st, const PgQuery__TypeName *tn,
                         Oid *typid, int32 *typmod)
{
    const char *name = tn->n_names > 0
                           ? string_of(tn->names[tn->n_names - 1])
                           : NULL;
    const char *schema =
        tn->n_names == 2 ? string_of(tn->names[0]) : NULL;
    const TypeInfo *type = name != NULL ? tdb_type_lookup_by_name(name) : NULL;
    char buf[256];

    if (tn->n_names > 2 ||
        (schema != NULL && strcmp(schema, "pg_catalog") != 0 &&
         strcmp(schema, "public") != 0))
        type = NULL;
    if (type == NULL || tn->pct_type || tn->setof)
        ereport(ERROR, errcode(ERRCODE_UNDEFINED_OBJECT),
                errmsg("type \"%s\" does not exist",
                       dotted_name(tn, buf, sizeof(buf))),
                errposition(stmt_errpos(st, tn->location)));
    if (tn->n_array_bounds > 0) {
        /* the few array types there are (types/array.c) */
        if (type->array == InvalidOid || tdb_type_lookup(type->array) == NULL)
            ereport(ERROR, errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("array types are not supported yet"),
                    errposition(stmt_errpos(st, tn->location)));
        *typid = type->array;
        *typmod = -1;
        return;
    }

    *typid = type->oid;
    *typmod = -1;
    if (tn->n_typmods == 0)
        return;
    switch (type->oid) {
    case VARCHAROID:
        *typmod = char_typmod(st, tn, "varchar");
        break;
    case BPCHAROID:
        *typmod = char_typmod(st, tn, "char");
        break;
    case NUMERICOID:
        *typmod = numeric_typmod(st, tn);
        break;
    case TIMEOID:
        *typmod = precision_typmod(st, tn, "TIME", "");
        break;
    case TIMESTAMPOID:
        *typmod = precision_typmod(st, tn, "TIMESTAMP", "");
        break;
    case TIMESTAMPTZOID:
        *typmod = precision_typmod(st, tn, "TIMESTAMP", " WITH TIME ZONE");
        break;
    case INTERVALOID:
        *typmod = interval_typmod(st, tn);
        break;
    default:
        ereport(ERROR, errcode(ERRCODE_SYNTAX_ERROR),
                errmsg("type modifier is not allowed for type \"%s\"",
                       type->name),
                errposition(stmt_errpos(st, tn->location)));
    }
}
