/*
 * system_views.c -- PostgreSQL's pg_catalog relations and catalog
 * functions that tupledb does not store, defined as SQL over the
 * catalogs it does store.
 *
 * Clients such as psql (\d, \dt, \dt+) read pg_catalog.pg_class,
 * pg_am, pg_roles, ... and call pg_table_is_visible, pg_get_userbyid,
 * obj_description and friends.  tupledb's own catalogs (catalog.h) are
 * heap tables with a subset of PostgreSQL's columns.  Here each
 * PostgreSQL relation that clients read is a read-only *system view*:
 * a SELECT over the stored catalogs (or constant rows, or no rows for
 * features tupledb does not have), with PostgreSQL 15's column names and
 * types, in its column order.  A reference to one in FROM is analyzed as
 * a subquery (transform_range_var -> tdb_system_view_rte), so it goes
 * through the ordinary planner and executor and reads the catalog under
 * the statement's snapshot, like any table: joins, WHERE, ORDER BY all
 * work, and one statement sees one consistent catalog.
 *
 * Name resolution follows PostgreSQL's: pg_catalog is searched before
 * public, so `pg_class` and `pg_catalog.pg_class` are the view, and only
 * `public.pg_am` names a user table called pg_am.  Inside a view's
 * definition (Statement.system_view_depth > 0) `pg_catalog.X` names the
 * stored heap catalog X, so a view can extend the table it replaces.
 *
 * Catalog functions whose answer comes from the catalog (pg_table_is_visible,
 * pg_get_userbyid, obj_description, pg_table_size, ...) are SQL
 * expressions too, expanded where they are called (PostgreSQL inlines
 * SQL functions the same way): the call's argument parse trees replace
 * $1..$n in the body's parse tree, which is then analyzed in the
 * caller's place.  Bodies read only derived tables whose aliases and
 * columns start with "sv_", so that an argument's column references
 * (`oid`, `c.oid`) still reach the caller's tables.
 * Parse-tree locations inside a body are cleared (an error there has no
 * position in the user's text).
 *
 * What is left out: columns of types tupledb does not have (arrays,
 * aclitem, pg_node_tree, xid), and relations for features it does not
 * have beyond the empty ones psql reads.  pg_roles shows pg_authid's
 * roles (catalog/pg_authid.c).
 *
 * A view reads the stored catalogs for the system, whoever asks, as
 * PostgreSQL checks a view's relations as its owner: the relations a
 * definition names are marked (RangeTblEntry.in_system_view) and left
 * out of the statement's privilege check (checked_relids.c), so a role
 * that may not read pg_authid still reads pg_roles.  Writes to a system
 * view are refused with the message PostgreSQL gives for the relation
 * it stands for (tdb_system_view_is_view, tdb_system_relation_kind).
 *
 * Entry points: tdb_system_view_lookup / tdb_system_view_query
 * (parse_clause.c), tdb_system_function_expand (parse_expr.c).
 */
#include "common/base.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/elog.h"
#include "common/stack_depth.h"
#include "parser/parse_int.h"
#include "parser/statement.h"
#include "parser/system_views.h"

/* ----------------------------------------------------------------------
 * The views
 * ---------------------------------------------------------------------- */

typedef struct SystemView {
    const char *name;
    const char *sql; /* the definition */
    bool is_view;    /* a view in PostgreSQL too (the others are tables
                      * there), for the messages refusing writes */
} SystemView;

static const SystemView system_views[] = {
    /* tupledb stores oid, relname, relnamespace, reltype, relfilenode,
     * relpages, relpersistence, relkind, relnatts, reltoastrelid (NULL in
     * rows made before it existed: none), relallvisible (NULL in rows
     * made before it existed: 0); the rest is what PostgreSQL
     * has for a heap table (or TOAST table, relkind 't') without
     * indexes, rules, triggers, row security, inheritance or options.
     * relchecks counts the table's CHECK constraints. */
    {"pg_class",
     "SELECT sv_c.oid, sv_c.relname, sv_c.relnamespace, sv_c.reltype,\n"
     "       0::oid AS reloftype, 10::oid AS relowner,\n"
     "       (CASE WHEN sv_c.relkind IN ('r', 't') THEN 2\n"
     "             WHEN sv_c.relkind = 'i' THEN 403 ELSE 0 END)::oid\n"
     "         AS relam,\n"
     "       sv_c.relfilenode, 0::oid AS reltablespace, sv_c.relpages,\n"
     "       (-1)::float4 AS reltuples,\n"
     "       COALESCE(sv_c.relallvisible, 0) AS relallvisible,\n"
     "       COALESCE(sv_c.reltoastrelid, 0::oid) AS reltoastrelid,\n"
     "       EXISTS (SELECT 1 FROM pg_catalog.pg_index sv_x\n"
     "                WHERE sv_x.indrelid = sv_c.oid) AS relhasindex,\n"
     "       false AS relisshared, sv_c.relpersistence, sv_c.relkind,\n"
     "       sv_c.relnatts,\n"
     "       (SELECT count(*) FROM pg_catalog.pg_constraint sv_k\n"
     "         WHERE sv_k.conrelid = sv_c.oid AND sv_k.contype = 'c')::int2\n"
     "         AS relchecks,\n"
     "       false AS relhasrules, false AS relhastriggers,\n"
     "       false AS relhassubclass, false AS relrowsecurity,\n"
     "       false AS relforcerowsecurity, true AS relispopulated,\n"
     "       (CASE WHEN sv_c.relnamespace IN (11, 99) THEN 'n' ELSE 'd' END)\n"
     "         ::\"char\"\n"
     "         AS relreplident,\n"
     "       false AS relispartition, 0::oid AS relrewrite,\n"
     "       NULL::text[] AS reloptions, NULL::text AS relpartbound\n"
     "FROM pg_catalog.pg_class sv_c",
     false},
    /* pg_catalog is owned by the bootstrap superuser, public by
     * pg_database_owner (6171), as initdb leaves them */
    {"pg_namespace",
     "SELECT sv_n.oid, sv_n.nspname,\n"
     "       (CASE WHEN sv_n.oid = 2200 THEN 6171 ELSE 10 END)::oid\n"
     "         AS nspowner\n"
     "FROM pg_catalog.pg_namespace sv_n",
     false},
    /* the heap and the B-tree */
    {"pg_am",
     "SELECT sv_m.oid, sv_m.amname, sv_m.amtype\n"
     "FROM (VALUES (2::oid, 'heap'::name, 't'::\"char\"),\n"
     "             (403, 'btree', 'i')) AS sv_m(oid, amname, amtype)",
     false},
    /* the B-tree operator classes, families, operators and support
     * functions of the types tupledb indexes (PostgreSQL 15's rows and
     * OIDs; the defaults commands/indexcmds.c chooses); pg_amproc
     * without amproc, a regproc, which tupledb does not have */
    {"pg_opclass",
     "SELECT sv_o.oid, 403::oid AS opcmethod, sv_o.opcname,\n"
     "       11::oid AS opcnamespace, 10::oid AS opcowner, sv_o.opcfamily,\n"
     "       sv_o.opcintype, sv_o.opcdefault, sv_o.opckeytype\n"
     "FROM (VALUES (1978::oid, 'int4_ops'::name, 1976::oid, 23::oid, true, "
     "0::oid), (1979, 'int2_ops', 1976, 21, true, 0),\n"
     "      (1981, 'oid_ops', 1989, 26, true, 0), (3122, 'date_ops', 434, "
     "1082, true, 0),\n"
     "      (3123, 'float8_ops', 1970, 701, true, 0), (3124, 'int8_ops', 1976, "
     "20, true, 0),\n"
     "      (3125, 'numeric_ops', 1988, 1700, true, 0), (3126, 'text_ops', "
     "1994, 25, true, 0),\n"
     "      (3127, 'timestamptz_ops', 434, 1184, true, 0), (3128, "
     "'timestamp_ops', 434, 1114, true, 0),\n"
     "      (10003, 'bool_ops', 424, 16, true, 0), (10004, 'bpchar_ops', 426, "
     "1042, true, 0),\n"
     "      (10006, 'bytea_ops', 428, 17, true, 0), (10007, 'char_ops', 429, "
     "18, true, 0),\n"
     "      (10012, 'float4_ops', 1970, 700, true, 0), (10022, 'interval_ops', "
     "1982, 1186, true, 0),\n"
     "      (10028, 'name_ops', 1994, 19, true, 2275), (10038, 'time_ops', "
     "1996, 1083, true, 0),\n"
     "      (10065, 'uuid_ops', 2968, 2950, true, 0))\n"
     "     AS sv_o(oid, opcname, opcfamily, opcintype, opcdefault,\n"
     "             opckeytype)",
     false},
    {"pg_opfamily",
     "SELECT sv_f.oid, 403::oid AS opfmethod, sv_f.opfname,\n"
     "       11::oid AS opfnamespace, 10::oid AS opfowner\n"
     "FROM (VALUES (424::oid, 'bool_ops'::name), (426, 'bpchar_ops'), (428, "
     "'bytea_ops'),\n"
     "      (429, 'char_ops'), (434, 'datetime_ops'), (1970, 'float_ops'),\n"
     "      (1976, 'integer_ops'), (1982, 'interval_ops'), (1988, "
     "'numeric_ops'),\n"
     "      (1989, 'oid_ops'), (1994, 'text_ops'), (1996, 'time_ops'),\n"
     "      (2968, 'uuid_ops'))\n"
     "     AS sv_f(oid, opfname)",
     false},
    {"pg_amop",
     "SELECT sv_o.oid, sv_o.amopfamily, sv_o.amoplefttype,\n"
     "       sv_o.amoprighttype, sv_o.amopstrategy,\n"
     "       's'::\"char\" AS amoppurpose, sv_o.amopopr,\n"
     "       403::oid AS amopmethod, 0::oid AS amopsortfamily\n"
     "FROM (VALUES (10000::oid, 1976::oid, 21::oid, 21::oid, 1::int2, "
     "95::oid), (10001, 1976, 21, 21, 2, 522), (10002, 1976, 21, 21, 3, 94),\n"
     "      (10003, 1976, 21, 21, 4, 524), (10004, 1976, 21, 21, 5, 520), "
     "(10005, 1976, 21, 23, 1, 534),\n"
     "      (10006, 1976, 21, 23, 2, 540), (10007, 1976, 21, 23, 3, 532), "
     "(10008, 1976, 21, 23, 4, 542),\n"
     "      (10009, 1976, 21, 23, 5, 536), (10010, 1976, 21, 20, 1, 1864), "
     "(10011, 1976, 21, 20, 2, 1866),\n"
     "      (10012, 1976, 21, 20, 3, 1862), (10013, 1976, 21, 20, 4, 1867), "
     "(10014, 1976, 21, 20, 5, 1865),\n"
     "      (10015, 1976, 23, 23, 1, 97), (10016, 1976, 23, 23, 2, 523), "
     "(10017, 1976, 23, 23, 3, 96),\n"
     "      (10018, 1976, 23, 23, 4, 525), (10019, 1976, 23, 23, 5, 521), "
     "(10020, 1976, 23, 21, 1, 535),\n"
     "      (10021, 1976, 23, 21, 2, 541), (10022, 1976, 23, 21, 3, 533), "
     "(10023, 1976, 23, 21, 4, 543),\n"
     "      (10024, 1976, 23, 21, 5, 537), (10025, 1976, 23, 20, 1, 37), "
     "(10026, 1976, 23, 20, 2, 80),\n"
     "      (10027, 1976, 23, 20, 3, 15), (10028, 1976, 23, 20, 4, 82), "
     "(10029, 1976, 23, 20, 5, 76),\n"
     "      (10030, 1976, 20, 20, 1, 412), (10031, 1976, 20, 20, 2, 414), "
     "(10032, 1976, 20, 20, 3, 410),\n"
     "      (10033, 1976, 20, 20, 4, 415), (10034, 1976, 20, 20, 5, 413), "
     "(10035, 1976, 20, 21, 1, 1870),\n"
     "      (10036, 1976, 20, 21, 2, 1872), (10037, 1976, 20, 21, 3, 1868), "
     "(10038, 1976, 20, 21, 4, 1873),\n"
     "      (10039, 1976, 20, 21, 5, 1871), (10040, 1976, 20, 23, 1, 418), "
     "(10041, 1976, 20, 23, 2, 420),\n"
     "      (10042, 1976, 20, 23, 3, 416), (10043, 1976, 20, 23, 4, 430), "
     "(10044, 1976, 20, 23, 5, 419),\n"
     "      (10045, 1989, 26, 26, 1, 609), (10046, 1989, 26, 26, 2, 611), "
     "(10047, 1989, 26, 26, 3, 607),\n"
     "      (10048, 1989, 26, 26, 4, 612), (10049, 1989, 26, 26, 5, 610), "
     "(10065, 1970, 700, 700, 1, 622),\n"
     "      (10066, 1970, 700, 700, 2, 624), (10067, 1970, 700, 700, 3, 620), "
     "(10068, 1970, 700, 700, 4, 625),\n"
     "      (10069, 1970, 700, 700, 5, 623), (10070, 1970, 700, 701, 1, 1122), "
     "(10071, 1970, 700, 701, 2, 1124),\n"
     "      (10072, 1970, 700, 701, 3, 1120), (10073, 1970, 700, 701, 4, "
     "1125), (10074, 1970, 700, 701, 5, 1123),\n"
     "      (10075, 1970, 701, 701, 1, 672), (10076, 1970, 701, 701, 2, 673), "
     "(10077, 1970, 701, 701, 3, 670),\n"
     "      (10078, 1970, 701, 701, 4, 675), (10079, 1970, 701, 701, 5, 674), "
     "(10080, 1970, 701, 700, 1, 1132),\n"
     "      (10081, 1970, 701, 700, 2, 1134), (10082, 1970, 701, 700, 3, "
     "1130), (10083, 1970, 701, 700, 4, 1135),\n"
     "      (10084, 1970, 701, 700, 5, 1133), (10085, 429, 18, 18, 1, 631), "
     "(10086, 429, 18, 18, 2, 632),\n"
     "      (10087, 429, 18, 18, 3, 92), (10088, 429, 18, 18, 4, 634), (10089, "
     "429, 18, 18, 5, 633),\n"
     "      (10090, 1994, 25, 25, 1, 664), (10091, 1994, 25, 25, 2, 665), "
     "(10092, 1994, 25, 25, 3, 98),\n"
     "      (10093, 1994, 25, 25, 4, 667), (10094, 1994, 25, 25, 5, 666), "
     "(10095, 1994, 19, 19, 1, 660),\n"
     "      (10096, 1994, 19, 19, 2, 661), (10097, 1994, 19, 19, 3, 93), "
     "(10098, 1994, 19, 19, 4, 663),\n"
     "      (10099, 1994, 19, 19, 5, 662), (10100, 1994, 19, 25, 1, 255), "
     "(10101, 1994, 19, 25, 2, 256),\n"
     "      (10102, 1994, 19, 25, 3, 254), (10103, 1994, 19, 25, 4, 257), "
     "(10104, 1994, 19, 25, 5, 258),\n"
     "      (10105, 1994, 25, 19, 1, 261), (10106, 1994, 25, 19, 2, 262), "
     "(10107, 1994, 25, 19, 3, 260),\n"
     "      (10108, 1994, 25, 19, 4, 263), (10109, 1994, 25, 19, 5, 264), "
     "(10110, 426, 1042, 1042, 1, 1058),\n"
     "      (10111, 426, 1042, 1042, 2, 1059), (10112, 426, 1042, 1042, 3, "
     "1054), (10113, 426, 1042, 1042, 4, 1061),\n"
     "      (10114, 426, 1042, 1042, 5, 1060), (10115, 428, 17, 17, 1, 1957), "
     "(10116, 428, 17, 17, 2, 1958),\n"
     "      (10117, 428, 17, 17, 3, 1955), (10118, 428, 17, 17, 4, 1960), "
     "(10119, 428, 17, 17, 5, 1959),\n"
     "      (10120, 434, 1082, 1082, 1, 1095), (10121, 434, 1082, 1082, 2, "
     "1096), (10122, 434, 1082, 1082, 3, 1093),\n"
     "      (10123, 434, 1082, 1082, 4, 1098), (10124, 434, 1082, 1082, 5, "
     "1097), (10125, 434, 1082, 1114, 1, 2345),\n"
     "      (10126, 434, 1082, 1114, 2, 2346), (10127, 434, 1082, 1114, 3, "
     "2347), (10128, 434, 1082, 1114, 4, 2348),\n"
     "      (10129, 434, 1082, 1114, 5, 2349), (10130, 434, 1082, 1184, 1, "
     "2358), (10131, 434, 1082, 1184, 2, 2359),\n"
     "      (10132, 434, 1082, 1184, 3, 2360), (10133, 434, 1082, 1184, 4, "
     "2361), (10134, 434, 1082, 1184, 5, 2362),\n"
     "      (10135, 434, 1114, 1114, 1, 2062), (10136, 434, 1114, 1114, 2, "
     "2063), (10137, 434, 1114, 1114, 3, 2060),\n"
     "      (10138, 434, 1114, 1114, 4, 2065), (10139, 434, 1114, 1114, 5, "
     "2064), (10140, 434, 1114, 1082, 1, 2371),\n"
     "      (10141, 434, 1114, 1082, 2, 2372), (10142, 434, 1114, 1082, 3, "
     "2373), (10143, 434, 1114, 1082, 4, 2374),\n"
     "      (10144, 434, 1114, 1082, 5, 2375), (10145, 434, 1114, 1184, 1, "
     "2534), (10146, 434, 1114, 1184, 2, 2535),\n"
     "      (10147, 434, 1114, 1184, 3, 2536), (10148, 434, 1114, 1184, 4, "
     "2537), (10149, 434, 1114, 1184, 5, 2538),\n"
     "      (10150, 434, 1184, 1184, 1, 1322), (10151, 434, 1184, 1184, 2, "
     "1323), (10152, 434, 1184, 1184, 3, 1320),\n"
     "      (10153, 434, 1184, 1184, 4, 1325), (10154, 434, 1184, 1184, 5, "
     "1324), (10155, 434, 1184, 1082, 1, 2384),\n"
     "      (10156, 434, 1184, 1082, 2, 2385), (10157, 434, 1184, 1082, 3, "
     "2386), (10158, 434, 1184, 1082, 4, 2387),\n"
     "      (10159, 434, 1184, 1082, 5, 2388), (10160, 434, 1184, 1114, 1, "
     "2540), (10161, 434, 1184, 1114, 2, 2541),\n"
     "      (10162, 434, 1184, 1114, 3, 2542), (10163, 434, 1184, 1114, 4, "
     "2543), (10164, 434, 1184, 1114, 5, 2544),\n"
     "      (10165, 1996, 1083, 1083, 1, 1110), (10166, 1996, 1083, 1083, 2, "
     "1111), (10167, 1996, 1083, 1083, 3, 1108),\n"
     "      (10168, 1996, 1083, 1083, 4, 1113), (10169, 1996, 1083, 1083, 5, "
     "1112), (10175, 1982, 1186, 1186, 1, 1332),\n"
     "      (10176, 1982, 1186, 1186, 2, 1333), (10177, 1982, 1186, 1186, 3, "
     "1330), (10178, 1982, 1186, 1186, 4, 1335),\n"
     "      (10179, 1982, 1186, 1186, 5, 1334), (10195, 1988, 1700, 1700, 1, "
     "1754), (10196, 1988, 1700, 1700, 2, 1755),\n"
     "      (10197, 1988, 1700, 1700, 3, 1752), (10198, 1988, 1700, 1700, 4, "
     "1757), (10199, 1988, 1700, 1700, 5, 1756),\n"
     "      (10200, 424, 16, 16, 1, 58), (10201, 424, 16, 16, 2, 1694), "
     "(10202, 424, 16, 16, 3, 91),\n"
     "      (10203, 424, 16, 16, 4, 1695), (10204, 424, 16, 16, 5, 59), "
     "(10245, 2968, 2950, 2950, 1, 2974),\n"
     "      (10246, 2968, 2950, 2950, 2, 2976), (10247, 2968, 2950, 2950, 3, "
     "2972), (10248, 2968, 2950, 2950, 4, 2977),\n"
     "      (10249, 2968, 2950, 2950, 5, 2975))\n"
     "     AS sv_o(oid, amopfamily, amoplefttype, amoprighttype,\n"
     "             amopstrategy, amopopr)",
     false},
    {"pg_amproc",
     "SELECT sv_p.oid, sv_p.amprocfamily, sv_p.amproclefttype,\n"
     "       sv_p.amprocrighttype, sv_p.amprocnum\n"
     "FROM (VALUES (10003::oid, 424::oid, 16::oid, 16::oid, 1::int2), (10004, "
     "424, 16, 16, 4), (10005, 426, 1042, 1042, 1),\n"
     "      (10006, 426, 1042, 1042, 2), (10007, 426, 1042, 1042, 4), (10008, "
     "428, 17, 17, 1),\n"
     "      (10009, 428, 17, 17, 2), (10010, 428, 17, 17, 4), (10011, 429, 18, "
     "18, 1),\n"
     "      (10012, 429, 18, 18, 4), (10013, 434, 1082, 1082, 1), (10014, 434, "
     "1082, 1082, 2),\n"
     "      (10015, 434, 1082, 1082, 4), (10016, 434, 1082, 1114, 1), (10017, "
     "434, 1082, 1184, 1),\n"
     "      (10018, 434, 1114, 1114, 1), (10019, 434, 1114, 1114, 2), (10020, "
     "434, 1114, 1114, 4),\n"
     "      (10021, 434, 1114, 1082, 1), (10022, 434, 1114, 1184, 1), (10023, "
     "434, 1184, 1184, 1),\n"
     "      (10024, 434, 1184, 1184, 2), (10025, 434, 1184, 1184, 4), (10026, "
     "434, 1184, 1082, 1),\n"
     "      (10027, 434, 1184, 1114, 1), (10028, 434, 1082, 1186, 3), (10029, "
     "434, 1114, 1186, 3),\n"
     "      (10030, 434, 1184, 1186, 3), (10031, 1970, 700, 700, 1), (10032, "
     "1970, 700, 700, 2),\n"
     "      (10033, 1970, 700, 701, 1), (10034, 1970, 701, 701, 1), (10035, "
     "1970, 701, 701, 2),\n"
     "      (10036, 1970, 701, 700, 1), (10037, 1970, 701, 701, 3), (10038, "
     "1970, 700, 701, 3),\n"
     "      (10042, 1976, 21, 21, 1), (10043, 1976, 21, 21, 2), (10044, 1976, "
     "21, 21, 4),\n"
     "      (10045, 1976, 21, 23, 1), (10046, 1976, 21, 20, 1), (10047, 1976, "
     "21, 20, 3),\n"
     "      (10048, 1976, 21, 23, 3), (10049, 1976, 21, 21, 3), (10050, 1976, "
     "23, 23, 1),\n"
     "      (10051, 1976, 23, 23, 2), (10052, 1976, 23, 23, 4), (10053, 1976, "
     "23, 20, 1),\n"
     "      (10054, 1976, 23, 21, 1), (10055, 1976, 23, 20, 3), (10056, 1976, "
     "23, 23, 3),\n"
     "      (10057, 1976, 23, 21, 3), (10058, 1976, 20, 20, 1), (10059, 1976, "
     "20, 20, 2),\n"
     "      (10060, 1976, 20, 20, 4), (10061, 1976, 20, 23, 1), (10062, 1976, "
     "20, 21, 1),\n"
     "      (10063, 1976, 20, 20, 3), (10064, 1982, 1186, 1186, 1), (10065, "
     "1982, 1186, 1186, 3),\n"
     "      (10069, 1988, 1700, 1700, 1), (10070, 1988, 1700, 1700, 2), "
     "(10071, 1988, 1700, 1700, 3),\n"
     "      (10072, 1989, 26, 26, 1), (10073, 1989, 26, 26, 2), (10074, 1989, "
     "26, 26, 4),\n"
     "      (10077, 1994, 25, 25, 1), (10078, 1994, 25, 25, 2), (10079, 1994, "
     "25, 25, 4),\n"
     "      (10080, 1994, 19, 19, 1), (10081, 1994, 19, 19, 2), (10082, 1994, "
     "19, 19, 4),\n"
     "      (10083, 1994, 19, 25, 1), (10084, 1994, 25, 19, 1), (10085, 1996, "
     "1083, 1083, 1),\n"
     "      (10086, 1996, 1083, 1083, 4), (10087, 1996, 1083, 1186, 3), "
     "(10103, 2968, 2950, 2950, 1),\n"
     "      (10104, 2968, 2950, 2950, 2), (10105, 2968, 2950, 2950, 4))\n"
     "     AS sv_p(oid, amprocfamily, amproclefttype, amprocrighttype,\n"
     "             amprocnum)",
     false},
    /* the roles of pg_authid (passwords hidden, as PostgreSQL hides
     * them), and pg_database_owner, the predefined role that owns schema
     * public */
    {"pg_roles",
     "SELECT sv_r.rolname, sv_r.rolsuper, sv_r.rolinherit,\n"
     "       sv_r.rolcreaterole, sv_r.rolcreatedb, sv_r.rolcanlogin,\n"
     "       sv_r.rolreplication, sv_r.rolconnlimit,\n"
     "       '********'::text AS rolpassword,\n"
     "       NULL::timestamptz AS rolvaliduntil, sv_r.rolbypassrls,\n"
     "       sv_r.oid\n"
     "FROM (SELECT sv_a.rolname, sv_a.rolsuper, sv_a.rolinherit,\n"
     "             sv_a.rolcreaterole, sv_a.rolcreatedb,\n"
     "             sv_a.rolcanlogin, sv_a.rolreplication,\n"
     "             sv_a.rolconnlimit, sv_a.rolbypassrls, sv_a.oid\n"
     "        FROM pg_catalog.pg_authid sv_a\n"
     "      UNION ALL\n"
     "      SELECT 'pg_database_owner'::name, false, true, false, false,\n"
     "             false, false, -1, false, 6171::oid) AS sv_r",
     true},
    /* no role membership (GRANT role TO role) yet: no members; psql's
     * \du reads it */
    {"pg_auth_members",
     "SELECT 0::oid AS roleid, 0::oid AS member, 0::oid AS grantor,\n"
     "       false AS admin_option\n"
     "WHERE false",
     false},
    /* tupledb stores attrelid, attname, atttypid, attlen, attnum,
     * atttypmod, attbyval, attalign, attstorage, attnotnull, atthasdef,
     * attisdropped, attcompression (NULL in rows made before it
     * existed: the default, '\0'); no identity or generated columns,
     * no inheritance.  attcollation: the type's collation */
    {"pg_attribute",
     "SELECT sv_a.attrelid, sv_a.attname, sv_a.atttypid,\n"
     "       -1 AS attstattarget, sv_a.attlen, sv_a.attnum,\n"
     "       0 AS attndims, -1 AS attcacheoff, sv_a.atttypmod,\n"
     "       sv_a.attbyval, sv_a.attalign, sv_a.attstorage,\n"
     "       COALESCE(sv_a.attcompression, ''::\"char\") AS attcompression,\n"
     "       sv_a.attnotnull,\n"
     "       sv_a.atthasdef, false AS atthasmissing,\n"
     "       ''::\"char\" AS attidentity, ''::\"char\" AS attgenerated,\n"
     "       sv_a.attisdropped, true AS attislocal, 0 AS attinhcount,\n"
     "       (CASE WHEN sv_a.atttypid IN (25, 1042, 1043) THEN 100\n"
     "             WHEN sv_a.atttypid = 19 THEN 950 ELSE 0 END)::oid\n"
     "         AS attcollation\n"
     "FROM pg_catalog.pg_attribute sv_a",
     false},
    /* built-in base types only: no domains, composites or arrays yet */
    {"pg_type",
     "SELECT sv_t.oid, sv_t.typname, sv_t.typnamespace,\n"
     "       10::oid AS typowner, sv_t.typlen, sv_t.typbyval,\n"
     "       sv_t.typtype, sv_t.typcategory, sv_t.typispreferred,\n"
     "       true AS typisdefined, ','::\"char\" AS typdelim,\n"
     "       0::oid AS typrelid, sv_t.typelem, sv_t.typarray,\n"
     "       sv_t.typalign, sv_t.typstorage, false AS typnotnull,\n"
     "       0::oid AS typbasetype, -1 AS typtypmod, 0 AS typndims,\n"
     "       (CASE WHEN sv_t.oid IN (25, 1042, 1043) THEN 100\n"
     "             WHEN sv_t.oid = 19 THEN 950 ELSE 0 END)::oid\n"
     "         AS typcollation\n"
     "FROM pg_catalog.pg_type sv_t",
     false},
    /* the collations that exist: every one compares bytewise ("C") */
    {"pg_collation",
     "SELECT sv_l.oid, sv_l.collname, 11::oid AS collnamespace,\n"
     "       10::oid AS collowner, sv_l.collprovider,\n"
     "       true AS collisdeterministic, sv_l.collencoding,\n"
     "       sv_l.collcollate, sv_l.collctype\n"
     "FROM (VALUES (100::oid, 'default'::name, 'd'::\"char\", -1,\n"
     "              NULL::text, NULL::text),\n"
     "             (950, 'C', 'c', -1, 'C', 'C'),\n"
     "             (951, 'POSIX', 'c', -1, 'POSIX', 'POSIX'))\n"
     "     AS sv_l(oid, collname, collprovider, collencoding,\n"
     "             collcollate, collctype)",
     false},
    {"pg_tablespace",
     "SELECT sv_s.oid, sv_s.spcname, 10::oid AS spcowner\n"
     "FROM (VALUES (1663::oid, 'pg_default'::name),\n"
     "             (1664, 'pg_global')) AS sv_s(oid, spcname)",
     false},
    /* no inheritance or partitions */
    {"pg_inherits",
     "SELECT 0::oid AS inhrelid, 0::oid AS inhparent, 0 AS inhseqno,\n"
     "       false AS inhdetachpending\n"
     "WHERE false",
     false},
    /* the stored rows (catalog/pg_index.c); the oidvector columns
     * (indcollation, indclass) are their text ("1978 3126", as
     * PostgreSQL prints them: tupledb has no oidvector type), indexprs
     * and indpred SQL text where PostgreSQL has pg_node_tree */
    {"pg_index",
     "SELECT sv_i.indexrelid, sv_i.indrelid, sv_i.indnatts,\n"
     "       sv_i.indnkeyatts, sv_i.indisunique, sv_i.indnullsnotdistinct,\n"
     "       sv_i.indisprimary, sv_i.indisexclusion, sv_i.indimmediate,\n"
     "       sv_i.indisclustered, sv_i.indisvalid, sv_i.indcheckxmin,\n"
     "       sv_i.indisready, sv_i.indislive, sv_i.indisreplident,\n"
     "       sv_i.indkey::int2vector AS indkey,\n"
     "       sv_i.indcollation, sv_i.indclass,\n"
     "       sv_i.indoption::int2vector AS indoption,\n"
     "       sv_i.indexprs, sv_i.indpred\n"
     "FROM pg_catalog.pg_index sv_i",
     false},
    /* every index of a table, with its CREATE INDEX statement (tupledb
     * has no tablespaces: NULL) */
    {"pg_indexes",
     "SELECT sv_n.nspname AS schemaname, sv_c.relname AS tablename,\n"
     "       sv_r.relname AS indexname, NULL::name AS tablespace,\n"
     "       pg_catalog.pg_get_indexdef(sv_r.oid) AS indexdef\n"
     "FROM pg_catalog.pg_index sv_x\n"
     "     JOIN pg_catalog.pg_class sv_c ON sv_c.oid = sv_x.indrelid\n"
     "     JOIN pg_catalog.pg_class sv_r ON sv_r.oid = sv_x.indexrelid\n"
     "     LEFT JOIN pg_catalog.pg_namespace sv_n\n"
     "            ON sv_n.oid = sv_c.relnamespace\n"
     "WHERE sv_c.relkind = 'r' AND sv_r.relkind = 'i'",
     true},
    /* no row security policies, extended statistics or publications;
     * pg_node_tree columns are text here (tupledb stores expressions as
     * SQL text) */
    {"pg_policy",
     "SELECT 0::oid AS oid, ''::name AS polname, 0::oid AS polrelid,\n"
     "       ''::\"char\" AS polcmd, false AS polpermissive,\n"
     "       NULL::oid[] AS polroles, NULL::text AS polqual,\n"
     "       NULL::text AS polwithcheck\n"
     "WHERE false",
     false},
    {"pg_statistic_ext",
     "SELECT 0::oid AS oid, 0::oid AS stxrelid, ''::name AS stxname,\n"
     "       0::oid AS stxnamespace, 0::oid AS stxowner,\n"
     "       0 AS stxstattarget, NULL::int2vector AS stxkeys,\n"
     "       NULL::\"char\"[] AS stxkind, NULL::text AS stxexprs\n"
     "WHERE false",
     false},
    {"pg_publication",
     "SELECT 0::oid AS oid, ''::name AS pubname, 0::oid AS pubowner,\n"
     "       false AS puballtables, false AS pubinsert,\n"
     "       false AS pubupdate, false AS pubdelete,\n"
     "       false AS pubtruncate, false AS pubviaroot\n"
     "WHERE false",
     false},
    {"pg_publication_namespace",
     "SELECT 0::oid AS oid, 0::oid AS pnpubid, 0::oid AS pnnspid\n"
     "WHERE false",
     false},
    {"pg_publication_rel",
     "SELECT 0::oid AS oid, 0::oid AS prpubid, 0::oid AS prrelid,\n"
     "       NULL::text AS prqual, NULL::int2vector AS prattrs\n"
     "WHERE false",
     false},
    /* no COMMENT ON yet: no descriptions */
    {"pg_description",
     "SELECT 0::oid AS objoid, 0::oid AS classoid, 0 AS objsubid,\n"
     "       ''::text AS description\n"
     "WHERE false",
     false},
};

const SystemView *
tdb_system_view_lookup(const Statement *st, const char *schema,
                       const char *name)
{
    if (st->system_view_depth > 0)
        return NULL; /* inside a definition: the stored catalogs */
    if (schema != NULL && schema[0] != '\0' &&
        strcmp(schema, "pg_catalog") != 0)
        return NULL;
    /* every view's name starts so: a user table's name, the common
     * case, costs one comparison instead of one per view (INSERT's
     * target is looked up too: 1,000 instructions a statement) */
    if (strncmp(name, "pg_", 3) != 0)
        return NULL;
    for (size_t i = 0; i < lengthof(system_views); i++)
        if (strcmp(system_views[i].name, name) == 0)
            return &system_views[i];
    return NULL;
}

const char *
tdb_system_view_name(const SystemView *view)
{
    return view->name;
}

bool
tdb_system_view_is_view(const SystemView *view)
{
    return view->is_view;
}

SystemRelKind
tdb_system_relation_kind(const Statement *st, const char *schema,
                         const char *name)
{
    const SystemView *view = tdb_system_view_lookup(st, schema, name);
    Oid relid;

    if (view != NULL)
        return view->is_view ? SYSREL_VIEW : SYSREL_TABLE;
    if (schema != NULL && schema[0] != '\0' &&
        strcmp(schema, "pg_catalog") != 0)
        return SYSREL_NONE;
    relid = tdb_catalog_lookup_table(st->xact, name);
    return relid != InvalidOid && relid < FirstNormalObjectId ? SYSREL_TABLE
                                                              : SYSREL_NONE;
}

/* ----------------------------------------------------------------------
 * Parse trees: clearing locations, substituting parameters
 * ---------------------------------------------------------------------- */

/*
 * Make node (a node of a tree tdb_sql_parse made in the current memory
 * context) a deep copy of arg, in the current context, as the tree is, so
 * the copy lives as long as the tree.  What node held stays in the
 * context until it is reset.  (Without recursion: arg is the caller's
 * expression, as deep as the caller wrote it.)
 */
static void
replace_node(PgQuery__Node *node, const PgQuery__Node *arg)
{
    PgQuery__Node *copy =
        (PgQuery__Node *)tdb_pb_copy(&arg->base, tdb_current_mcxt);

    if (copy == NULL)
        ereport(ERROR, errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory"));
    *node = *copy;
}

/*
 * Walk a protobuf-c parse tree (every message field, repeated or not,
 * only the active member of a oneof): set every "location" field to -1
 * and, when args is not NULL, overwrite each ParamRef node $n with a
 * deep copy of args[n - 1] (whose own locations are kept: they point into the
 * caller's text).
 */
static void
rewrite_tree(ProtobufCMessage *msg, PgQuery__Node **args, int nargs)
{
    const ProtobufCMessageDescriptor *desc = msg->descriptor;

    tdb_check_stack_depth();

    if (desc == &pg_query__node__descriptor) {
        PgQuery__Node *node = (PgQuery__Node *)msg;

        if (node->node_case == PG_QUERY__NODE__NODE_PARAM_REF &&
            args != NULL) {
            int n = node->param_ref->number;

            if (n < 1 || n > nargs)
                elog(ERROR, "catalog function body refers to $%d", n);
            replace_node(node, args[n - 1]);
            return;
        }
    }
    for (unsigned i = 0; i < desc->n_fields; i++) {
        const ProtobufCFieldDescriptor *f = &desc->fields[i];
        char *field = (char *)msg + f->offset;

        if ((f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) &&
            *(uint32_t *)((char *)msg + f->quantifier_offset) != f->id)
            continue;
        if (f->type == PROTOBUF_C_TYPE_INT32 &&
            f->label != PROTOBUF_C_LABEL_REPEATED &&
            strcmp(f->name, "location") == 0) {
            *(int32_t *)field = -1;
            continue;
        }
        if (f->type != PROTOBUF_C_TYPE_MESSAGE)
            continue;
        if (f->label == PROTOBUF_C_LABEL_REPEATED) {
            size_t n = *(size_t *)((char *)msg + f->quantifier_offset);
            ProtobufCMessage **items = *(ProtobufCMessage ***)field;

            for (size_t j = 0; j < n; j++)
                if (items[j] != NULL)
                    rewrite_tree(items[j], args, nargs);
        } else if (*(ProtobufCMessage **)field != NULL)
            rewrite_tree(*(ProtobufCMessage **)field, args, nargs);
    }
}

/* The one statement of sql, parsed in the current memory context. */
static PgQuery__Node *
parse_one(const char *sql)
{
    ParsedScript *script = tdb_sql_parse(sql);

    if (script->nstatements != 1)
        elog(ERROR, "catalog definition is not one statement");
    return script->statements[0].stmt;
}

Query *
tdb_system_view_query(ParseState *ps, const SystemView *view)
{
    const char *sql = view->sql;
    PgQuery__Node *stmt;
    Query *q;

    stmt = parse_one(sql);
    rewrite_tree(&stmt->base, NULL, 0);
    ps->st->system_view_depth++;
    /* its own level: no outer references, no WITH items of the caller */
    q = tdb_analyze_subquery_in(ps->st, NULL, NIL, stmt);
    ps->st->system_view_depth--;
    return q;
}

/* ----------------------------------------------------------------------
 * Catalog functions as SQL expressions
 * ---------------------------------------------------------------------- */

/*
 * The catalogs the bodies read, as derived tables whose columns all
 * start with "sv_": an unqualified column of the caller's (an argument
 * such as `oid`) can then never be captured by a body's table.
 */
#define SV_CLASS(alias_)                                                    \
    "(SELECT oid, relname, relnamespace, relpages FROM pg_catalog.pg_class)" \
    " AS " alias_ "(sv_oid, sv_name, sv_nsp, sv_pages)"
#define SV_DESCRIPTION(alias_)                                                 \
    "(SELECT objoid, classoid, objsubid, description"                          \
    " FROM pg_catalog.pg_description)"                                         \
    " AS " alias_ "(sv_objoid, sv_classoid, sv_subid, sv_text)"
#define SV_SIZE                                                             \
    "(SELECT sv_c.sv_pages::int8 * 8192 FROM " SV_CLASS("sv_c")            \
    "  WHERE sv_c.sv_oid = ($1)::oid)"
/*
 * The relation's pages and its TOAST relation's, plus what PostgreSQL's
 * index on the TOAST relation (which tupledb does not have) takes while
 * it is small: its metapage, and one leaf once there are chunks.  So an
 * empty table with a text column is 8192 bytes, as there.
 */
#define SV_SIZE_WITH_TOAST                                                  \
    "(SELECT sum(sv_c.sv_pages)::int8 * 8192\n"                             \
    "        + (CASE WHEN count(*) > 1 THEN 8192 ELSE 0 END)\n"              \
    "        + (CASE WHEN sum(CASE WHEN sv_c.sv_oid <> ($1)::oid\n"          \
    "                              THEN sv_c.sv_pages ELSE 0 END) > 0\n"    \
    "                THEN 8192 ELSE 0 END)\n"                               \
    "   FROM " SV_CLASS("sv_c") "\n"                                        \
    "  WHERE sv_c.sv_oid = ($1)::oid OR sv_c.sv_oid =\n"                   \
    "        (SELECT sv_t.sv_toast FROM (SELECT oid, reltoastrelid\n"       \
    "                                      FROM pg_catalog.pg_class)\n"    \
    "                                 AS sv_t(sv_oid, sv_toast)\n"          \
    "          WHERE sv_t.sv_oid = ($1)::oid))"

/* The pages of the relation's indexes, 0 when it has none, NULL for no
 * such relation. */
#define SV_INDEXES_SIZE                                                        \
    "(CASE WHEN EXISTS (SELECT 1 FROM " SV_CLASS(                              \
        "sv_e") "\n"                                                           \
                "                    WHERE sv_e.sv_oid = ($1)::oid)\n"         \
                "      THEN COALESCE((SELECT sum(sv_c.sv_pages)::int8 * "      \
                "8192\n"                                                       \
                "                       FROM " SV_CLASS(                       \
                    "sv_c") "\n"                                               \
                            "                      WHERE sv_c.sv_oid IN\n"     \
                            "                            (SELECT "             \
                            "sv_x.sv_index\n"                                  \
                            "                               FROM (SELECT "     \
                            "indexrelid, indrelid\n"                           \
                            "                                       FROM "     \
                            "pg_catalog.pg_index)\n"                           \
                            "                                    AS "          \
                            "sv_x(sv_index, sv_table)\n"                       \
                            "                              WHERE "             \
                            "sv_x.sv_table = ($1)::oid)),\n"                   \
                            "                    0) END)"

typedef struct SystemFunction {
    const char *name;
    int nargs;
    const char *body; /* an expression over $1..$nargs */
    /* PostgreSQL's parameter types where an unknown literal argument
     * must be read as that type ('t' as regclass), NULL for the rest */
    const char *argtypes[2];
} SystemFunction;

static const SystemFunction system_functions[] = {
    /* visible: the relation exists, is in the search path (pg_catalog,
     * then public: not pg_toast), and no relation of that name comes
     * earlier in it */
    {"pg_table_is_visible",
     1,
     "(SELECT sv_c.sv_nsp = 11 OR (sv_c.sv_nsp = 2200 AND NOT EXISTS\n"
     "          (SELECT 1 FROM " SV_CLASS(
         "sv_o") "\n"
                 "            WHERE sv_o.sv_nsp = 11 AND sv_o.sv_name = "
                 "sv_c.sv_name))\n"
                 "   FROM " SV_CLASS("sv_c") " WHERE sv_c.sv_oid = ($1)::oid)",
     {"oid"}},
    {"pg_get_userbyid",
     1,
     "COALESCE((SELECT sv_r.sv_name\n"
     "            FROM (SELECT oid, rolname FROM pg_catalog.pg_roles)\n"
     "                 sv_r(sv_oid, sv_name)\n"
     "           WHERE sv_r.sv_oid = ($1)::oid),\n"
     "         ('unknown (OID=' || ($1)::oid::text || ')')::name)",
     {"oid"}},
    {"obj_description",
     2,
     "(SELECT sv_d.sv_text FROM " SV_DESCRIPTION(
         "sv_d") "\n"
                 "  WHERE sv_d.sv_objoid = ($1)::oid AND sv_d.sv_subid = 0\n"
                 "    AND sv_d.sv_classoid = (SELECT sv_k.sv_oid "
                 "FROM " SV_CLASS("sv_k") "\n"
                                          "                             WHERE "
                                          "sv_k.sv_nsp = 11\n"
                                          "                               AND "
                                          "sv_k.sv_name = ($2)::name))",
     {"oid", "name"}},
    /* no comments on shared objects (roles) yet: psql's \du+ */
    {"shobj_description",
     2,
     "(CASE WHEN ($1)::oid IS NULL OR ($2)::name IS NULL THEN NULL::text\n"
     "      END)",
     {"oid", "name"}},
    {"col_description",
     2,
     "(SELECT sv_d.sv_text FROM " SV_DESCRIPTION(
         "sv_d") "\n"
                 "  WHERE sv_d.sv_objoid = ($1)::oid AND sv_d.sv_subid = "
                 "($2)::int4\n"
                 "    AND sv_d.sv_classoid = 1259)",
     {"oid", "int4"}},
    /* no extended statistics objects: nothing to list */
    {"pg_get_statisticsobjdef_columns",
     1,
     "(SELECT NULL::text WHERE ($1)::oid IS NULL)",
     {"oid"}},
    /* a permanent user table (not a catalog) */
    {"pg_relation_is_publishable",
     1,
     "(SELECT sv_c.sv_oid >= 16384 FROM " SV_CLASS(
         "sv_c") " WHERE sv_c.sv_oid = ($1)::oid)",
     {"regclass"}},
    /* the main fork's length (tupledb has no free space or visibility
     * map forks); the table sizes add the TOAST relation's and its
     * index's (SV_SIZE_WITH_TOAST), the total size the table's indexes
     * too (SV_INDEXES_SIZE); NULL for no such relation */
    {"pg_table_size", 1, SV_SIZE_WITH_TOAST, {"regclass"}},
    {"pg_relation_size", 1, SV_SIZE, {"regclass"}},
    {"pg_indexes_size", 1, SV_INDEXES_SIZE, {"regclass"}},
    {"pg_total_relation_size",
     1,
     "(" SV_SIZE_WITH_TOAST " + " SV_INDEXES_SIZE ")",
     {"regclass"}},
};

PgQuery__Node *
tdb_sql_expand_template(const char *expr, PgQuery__Node **args, int nargs)
{
    Size len = strlen(expr) + sizeof("SELECT ");
    char *sql = tdb_palloc(len);
    PgQuery__Node *body;

    snprintf(sql, len, "SELECT %s", expr);
    body = parse_one(sql)->select_stmt->target_list[0]->res_target->val;
    rewrite_tree(&body->base, args, nargs);
    return body;
}

/*
 * fc's arguments, each string literal (an unknown) cast to f's parameter
 * type, as PostgreSQL's function call resolution reads an unknown
 * literal with the parameter type's input function: pg_relation_size('t')
 * reads 't' as a regclass (42P01 when there is no such relation) where
 * the body's ($1)::oid would read it as a number.
 */
static PgQuery__Node **
typed_args(const SystemFunction *f, const PgQuery__FuncCall *fc)
{
    PgQuery__Node **args = tdb_palloc(sizeof(PgQuery__Node *) * fc->n_args);

    for (size_t i = 0; i < fc->n_args; i++) {
        const PgQuery__Node *a = fc->args[i];
        char cast[64];

        args[i] = fc->args[i];
        if (i >= lengthof(f->argtypes) || f->argtypes[i] == NULL ||
            a->node_case != PG_QUERY__NODE__NODE_A_CONST ||
            a->a_const->isnull ||
            a->a_const->val_case != PG_QUERY__A__CONST__VAL_SVAL)
            continue;
        snprintf(cast, sizeof(cast), "($1)::pg_catalog.%s", f->argtypes[i]);
        args[i] = tdb_sql_expand_template(cast, &args[i], 1);
    }
    return args;
}

PgQuery__Node *
tdb_system_function_expand(const PgQuery__FuncCall *fc, const char *name)
{
    if (fc->agg_star || fc->agg_distinct || fc->n_agg_order > 0 ||
        fc->agg_filter != NULL || fc->over != NULL || fc->func_variadic)
        return NULL;
    for (size_t i = 0; i < fc->n_args; i++)
        if (fc->args[i]->node_case == PG_QUERY__NODE__NODE_NAMED_ARG_EXPR)
            return NULL;
    for (size_t i = 0; i < lengthof(system_functions); i++) {
        const SystemFunction *f = &system_functions[i];

        if (strcmp(f->name, name) == 0 && f->nargs == (int)fc->n_args)
            return tdb_sql_expand_template(f->body, typed_args(f, fc),
                                           (int)fc->n_args);
    }
    return NULL;
}
