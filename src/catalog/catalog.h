/*
 * catalog.h -- the system catalogs: which tables exist, their columns
 * and types, kept in heap relations of the data directory like any
 * table, so that catalog changes are transactional and MVCC like row
 * changes (PostgreSQL's design).
 *
 * The catalogs, with PostgreSQL's OIDs and a subset of its columns (in
 * PostgreSQL's column order, so `SELECT relname, relkind FROM pg_class`
 * reads the same):
 *   pg_namespace (2615)  oid, nspname
 *   pg_type      (1247)  oid, typname, typnamespace, typlen, typbyval,
 *                        typtype, typcategory, typispreferred, typelem,
 *                        typarray, typalign, typstorage
 *   pg_class     (1259)  oid, relname, relnamespace, reltype, relfilenode,
 *                        relpages, relpersistence, relkind, relnatts,
 *                        reltoastrelid (NULL in rows older than it: none),
 *                        relallvisible (VACUUM's count of all-visible
 *                        pages, written in place; NULL in rows older
 *                        than it, read as 0)
 *                        (relpages: the file's length at the last commit
 *                        that grew it, kept exact so a truncated file is
 *                        noticed; PostgreSQL's is VACUUM's estimate)
 *   pg_attribute (1249)  attrelid, attname, atttypid, attlen, attnum,
 *                        atttypmod, attbyval, attalign, attstorage,
 *                        attnotnull, atthasdef, attisdropped,
 *                        attcompression (NULL in older rows: '\0')
 *   pg_attrdef   (2604)  oid, adrelid, adnum, adbin (the default
 *                        expression as SQL text, as pg_get_expr prints
 *                        it: parser/ruleutils.c; the analyzer parses it)
 *   pg_constraint (2606) oid, conname, contype ('c' = CHECK), conrelid,
 *                        conbin (the CHECK expression, the same way)
 *                        condeferrable, condeferred, conindid, conkey
 *                        (PRIMARY KEY 'p' and UNIQUE 'u': conbin NULL,
 *                        conkey the int2[] text "{1,2}", conindid the
 *                        index; NULL in rows older than them)
 *   pg_index     (2610)  PostgreSQL's columns up to indpred; the vectors
 *                        as text, indexprs / indpred as SQL text
 *                        (pg_index.c)
 *   pg_authid    (1260)  oid, rolname, rolsuper, rolinherit,
 *                        rolcreaterole, rolcreatedb, rolcanlogin,
 *                        rolreplication, rolbypassrls, rolconnlimit,
 *                        rolpassword (NULL or a SCRAM-SHA-256 verifier);
 *                        the roles (pg_authid.c)
 * A catalog's relation file number is its OID.  User tables get OIDs and
 * file numbers from the control file's counter, from 16384 up
 * (FirstNormalObjectId); a table's OID is its first file number, and
 * TRUNCATE gives it a new file number.  Everything lives in one schema,
 * "public" (the catalogs in "pg_catalog").
 *
 * TOAST relations: a table some of whose rows could exceed
 * TOAST_TUPLE_THRESHOLD with a toastable column (PostgreSQL's
 * needs_toast_table) gets a TOAST relation when it is created, or by an
 * ALTER TABLE that makes a column toastable: pg_class row "pg_toast_<table
 * OID>", relkind 't', namespace pg_toast (99), columns chunk_id oid,
 * chunk_seq int4, chunk_data bytea (all storage PLAIN), its own OID and
 * file; the table's reltoastrelid names it.  DROP and TRUNCATE of the
 * table drop / empty it too.  TOAST relations are never found by name
 * (they live outside the search path): open them with
 * tdb_relation_open_toast.
 *
 * Reading: catalog rows are read with a fresh snapshot each time
 * (PostgreSQL's catalog snapshot), never the transaction's snapshot, so a
 * session always sees the current definition of a table -- and the
 * relation lock it takes before using a table (lmgr.h) keeps that
 * definition from changing until its transaction ends.
 *
 * Writing: DDL runs in the caller's transaction and takes the writer lock
 * (as every write does) and an exclusive relation lock on the table it
 * changes.  New relation files are created at once and removed if the
 * transaction aborts; the files of dropped or truncated relations are
 * removed when the transaction commits (end-of-transaction callbacks,
 * xact.h).  Until the WAL exists, a committing transaction writes and
 * fsyncs the pages it changed before its commit record (heapam.c).
 */
#ifndef TDB_CATALOG_CATALOG_H
#define TDB_CATALOG_CATALOG_H

#include "common/base.h"
#include "access/lmgr.h"
#include "access/relation.h"
#include "access/xact.h"

/* Catalog OIDs (= their relation file numbers). */
#define TypeRelationId 1247
#define AttributeRelationId 1249
#define RelationRelationId 1259
#define AttrDefaultRelationId 2604
#define ConstraintRelationId 2606
#define NamespaceRelationId 2615
#define AuthIdRelationId 1260
#define IndexRelationId 2610

/* The bootstrap superuser's OID (PostgreSQL's BOOTSTRAP_SUPERUSERID). */
#define BOOTSTRAP_SUPERUSERID 10

/* The first OID handed to user objects (PostgreSQL's FirstNormalObjectId). */
#define FirstNormalObjectId 16384

/* pg_class.relkind */
#define RELKIND_RELATION 'r'
#define RELKIND_TOASTVALUE 't'
#define RELKIND_INDEX 'i'

/* pg_am: the access methods (pg_class.relam) */
#define HEAP_TABLE_AM_OID 2
#define BTREE_AM_OID 403

/* pg_constraint.contype */
#define CONSTRAINT_CHECK 'c'
#define CONSTRAINT_PRIMARY 'p'
#define CONSTRAINT_UNIQUE 'u'

/* An index has at most this many columns (PostgreSQL's INDEX_MAX_KEYS). */
#define INDEX_MAX_KEYS 32

/* A table has at most this many columns (PostgreSQL's MaxHeapAttributeNumber). */
#define MaxHeapAttributeNumber 1600

/* One column of CREATE TABLE. */
typedef struct ColumnDef {
    const char *name;
    Oid typid;            /* a built-in type (catalog/pg_type.h) */
    int32 typmod;         /* -1, or e.g. varchar(n)'s n + 4 */
    bool not_null;
    const char *default_expr; /* SQL text of the DEFAULT, or NULL */
    char storage;         /* attstorage; '\0': the type's typstorage */
    char compression;     /* attcompression (toast.h TOAST_COMPRESSION_*);
                           * '\0': default_toast_compression */
} ColumnDef;

/*
 * Create the catalogs of a new data directory and fill them (types,
 * namespaces, the catalogs' own pg_class and pg_attribute rows, the
 * bootstrap superuser role named superuser with OID 10), in xact's
 * transaction (IN_PROGRESS; the caller commits).  The catalog files must
 * not exist yet.
 */
void tdb_catalog_bootstrap(Transaction *xact, const char *superuser);

/*
 * A data directory bootstrapped before a catalog existed gets it: today
 * pg_authid, with the bootstrap superuser; the pg_toast namespace; and
 * the pg_attribute rows of catalog columns added since (reltoastrelid,
 * attcompression).  Returns whether anything was
 * added (the caller commits).
 */
bool tdb_catalog_add_missing(Transaction *xact, const char *superuser);

/* ----------------------------------------------------------------------
 * Roles (pg_authid.c)
 * ---------------------------------------------------------------------- */

/* A role as authentication and sessions need it. */
typedef struct RoleInfo {
    Oid oid;
    char name[NAMEDATALEN];
    bool superuser;
    bool canlogin;
    char *password; /* the verifier text, or NULL; current context */
} RoleInfo;

/* What CREATE / ALTER ROLE set: -1 in a flag means "not given". */
typedef struct RoleOptions {
    int superuser;
    int canlogin;
    bool set_password;
    const char *password; /* stored as given (a verifier) or NULL */
} RoleOptions;

/* Look a role up by name (oid InvalidOid: by name) or by OID. */
bool tdb_catalog_role_lookup(Transaction *xact, const char *name,
                             RoleInfo *out);
bool tdb_catalog_role_lookup_oid(Transaction *xact, Oid oid, RoleInfo *out);

/*
 * If relid is a catalog only superusers may read, its name; else NULL.
 * That is pg_authid, whose rolpassword holds every role's verifier
 * (PostgreSQL revokes it from PUBLIC; everyone else reads pg_roles).
 */
const char *tdb_catalog_superuser_only(Oid relid);

/* CREATE ROLE: 42710 role "x" already exists.  Returns the new OID. */
Oid tdb_catalog_create_role(Transaction *xact, const char *name,
                            const RoleOptions *opts);
/* ALTER ROLE: the options given; 42704 role "x" does not exist. */
void tdb_catalog_alter_role(Transaction *xact, const char *name,
                            const RoleOptions *opts);
/* ALTER ROLE ... RENAME TO: 42704, 42710. */
void tdb_catalog_rename_role(Transaction *xact, const char *name,
                             const char *newname);
/* DROP ROLE: 42704 (missing_ok: a NOTICE and false). */
bool tdb_catalog_drop_role(Transaction *xact, const char *name,
                           bool missing_ok);

/*
 * Is the catalog of this data directory there and complete?  false if it
 * was never bootstrapped (no pg_class file); raises XX001 if the files
 * exist but bootstrap never committed (database creation interrupted).
 */
bool tdb_catalog_is_bootstrapped(Transaction *xact);

/*
 * CREATE TABLE name (cols...).  Returns the new table's OID.  Errors:
 * 42P07 relation "x" already exists, 42701 column "c" specified more than
 * once, 42622 / 54011 for names and column counts beyond the limits,
 * 42704 for an unknown type, 42P16 for a type that cannot be a column.
 * if_not_exists: an existing table is a NOTICE ("relation "x" already
 * exists, skipping") and InvalidOid is returned.
 */
Oid tdb_catalog_create_table(Transaction *xact, const char *name,
                             const ColumnDef *cols, int ncols,
                             bool if_not_exists);

/*
 * DROP TABLE name: waits for the exclusive lock; the file goes at commit.
 * 42P01 relation "x" does not exist (missing_ok: NOTICE "table "x" does
 * not exist, skipping" and false).  Catalogs cannot be dropped (42809).
 */
bool tdb_catalog_drop_table(Transaction *xact, const char *name,
                            bool missing_ok);

/*
 * TRUNCATE: the table gets a new, empty relation file; the old one is
 * removed at commit (or the new one at abort).  Takes the exclusive lock.
 */
void tdb_catalog_truncate_table(Transaction *xact, Oid relid);

/* Is name one of PostgreSQL's system columns (ctid, xmin, cmin, xmax,
 * cmax, tableoid), which every table has but no DDL may use? */
bool tdb_catalog_is_system_column(const char *name);

/*
 * The OID of table name, or InvalidOid.  No lock taken: use
 * tdb_relation_open to use the table.
 */
Oid tdb_catalog_lookup_table(Transaction *xact, const char *name);

/*
 * The name of the relation with OID relid (allocated in the current
 * memory context), or NULL if there is none.  No lock taken.
 */
char *tdb_catalog_relation_name(Transaction *xact, Oid relid);

/*
 * Open a table for use in xact's transaction: lock it in mode (held to
 * the end of the transaction), then read its definition.  The result is
 * allocated in the current memory context (free with
 * tdb_relation_close, or with the context).  Raises 42P01 relation "x"
 * does not exist.
 */
Relation tdb_relation_open(Transaction *xact, const char *name,
                           RelLockMode mode);
Relation tdb_relation_open_by_oid(Transaction *xact, Oid relid,
                                  RelLockMode mode);
void tdb_relation_close(Relation rel);

/*
 * The heap's commit-length hook (heapam.h): store a grown relation
 * length in pg_class.relpages, in place (and, for a catalog, in the
 * lengths tdb_catalog_load_lengths keeps); raise XX001 if the file is
 * shorter than recorded.  tdb_database_open installs it.
 */
void tdb_catalog_record_length(Transaction *xact, RelFileNumber rel,
                               BlockNumber nblocks);

/*
 * Store VACUUM's count of all-visible pages of relation relid in its
 * pg_class.relallvisible, in place (PostgreSQL's vac_update_relstats),
 * and flush pg_class.  A row older than the column keeps it NULL (0 to
 * clients) until the row is rewritten (TRUNCATE, ALTER TABLE).
 */
void tdb_catalog_set_relallvisible(Transaction *xact, Oid relid,
                                   BlockNumber nvisible);

/*
 * Read the catalogs' committed lengths from their pg_class rows, which
 * the catalogs' Relations then carry (rd_committed_blocks), so a catalog
 * file cut short is refused like a table's instead of losing tables or
 * columns in silence; and check each file now (XX001 "relation
 * "pg_class" is missing blocks ...": the database cannot be opened).
 * tdb_database_open calls it before anything else reads the catalog but
 * pg_class's own row; tdb_catalog_forget_lengths (at close) forgets them.
 * One set per process, like the buffer pool.
 */
void tdb_catalog_load_lengths(Transaction *xact);
void tdb_catalog_forget_lengths(void);

/*
 * Add CHECK constraint `name` (expression as SQL text) to table relid,
 * in xact's transaction.
 */
void tdb_catalog_add_check(Transaction *xact, Oid relid, const char *name,
                           const char *expr);

/*
 * A counter that changes whenever a table is created, dropped, truncated
 * or given a constraint: at the change and again when the changing
 * transaction ends.  Cached plans (tcop/prepare.c) compare it to the
 * value they were made under and re-plan when it moved.  Process-wide.
 */
uint64 tdb_catalog_version(void);

/*
 * The TOAST relation of rel (rel->rd_toastrelid), opened and locked in
 * mode; NULL if rel has none.  Take the table's lock first (every caller
 * holds rel open), so the two locks are always taken in that order.
 */
Relation tdb_relation_open_toast(Transaction *xact, Relation rel,
                                 RelLockMode mode);

/*
 * ALTER TABLE ... ALTER COLUMN ... SET STORAGE / SET COMPRESSION: store
 * column attnum's (1-based) attstorage / attcompression.  The caller has
 * the table locked REL_LOCK_EXCLUSIVE and has checked the value against
 * the column's type (PostgreSQL's errors are commands/').  The change
 * is visible to the transaction's next command.
 */
void tdb_catalog_set_attstorage(Transaction *xact, Oid relid, int attnum,
                                char storage);
void tdb_catalog_set_attcompression(Transaction *xact, Oid relid, int attnum,
                                    char compression);

/*
 * Give table relid a TOAST relation if it has none and now needs one
 * (PostgreSQL's AlterTableCreateToastTable, run after every ALTER
 * TABLE).  Returns the TOAST relation's OID, or InvalidOid if none was
 * made.  The caller holds REL_LOCK_EXCLUSIVE on relid.
 */
Oid tdb_catalog_ensure_toast(Transaction *xact, Oid relid);

/* ----------------------------------------------------------------------
 * Indexes and key constraints (pg_index.c)
 * ---------------------------------------------------------------------- */

/*
 * What CREATE INDEX (or a PRIMARY KEY / UNIQUE constraint) stores: the
 * commands layer has resolved columns, types, operator classes and
 * expressions (SQL text).  Columns 0..nkeyatts-1 are keys, the rest
 * INCLUDE columns.
 */
typedef struct IndexDef {
    const char *name;
    Oid relid; /* the table */
    int natts; /* key + INCLUDE columns */
    int nkeyatts;
    const int16 *attnums;        /* natts: table column, 0: expression */
    const char *const *colnames; /* natts: the index's column names */
    const Oid *coltypes;         /* natts: their types */
    const int32 *coltypmods;     /* natts */
    const Oid *collations;       /* nkeyatts: 0 or the column's */
    const Oid *opclasses;        /* nkeyatts: pg_opclass OIDs */
    const int16 *options;        /* nkeyatts: INDOPTION_* bits */
    const char *exprs; /* the expression columns' SQL, ", "-separated in
                        * column order (parse as a SELECT list), or NULL */
    const char *pred;  /* WHERE's SQL, or NULL */
    bool unique;
    bool primary;
    bool nulls_not_distinct;
} IndexDef;

/*
 * Create index def->name on table def->relid: its OID and relation file
 * (removed again at abort; the file is empty: filling it is the index
 * access method's, access/indexam.h), pg_class row (relkind 'i'),
 * pg_attribute rows for its columns and pg_index row.  The caller holds
 * the table's lock.  42P07 relation "x" already exists (if_not_exists:
 * the NOTICE "relation "x" already exists, skipping" and InvalidOid).
 */
Oid tdb_catalog_create_index(Transaction *xact, const IndexDef *def,
                             bool if_not_exists);

/*
 * The constraint of a PRIMARY KEY ('p') or UNIQUE ('u') index: its
 * pg_constraint row, named as the index, with conkey the key columns.
 * PRIMARY KEY also sets attnotnull on its columns.
 */
void tdb_catalog_add_index_constraint(Transaction *xact, Oid relid,
                                      Oid indexoid, const char *name,
                                      char contype, const int16 *attnums,
                                      int nattnums);

/* A table's constraint as DROP / DROP CONSTRAINT / \d see it. */
typedef struct ConstraintInfo {
    Oid oid;
    char name[NAMEDATALEN];
    char contype;
    Oid relid;
    Oid indexoid; /* InvalidOid: none */
} ConstraintInfo;

/* The constraint called name on table relid; false if none. */
bool tdb_catalog_find_constraint(Transaction *xact, Oid relid, const char *name,
                                 ConstraintInfo *out);
/* The constraint backed by index indexoid; false if none. */
bool tdb_catalog_index_constraint(Transaction *xact, Oid indexoid,
                                  ConstraintInfo *out);
/* The constraint with OID conoid (pg_get_constraintdef); false if none.
 * conbin (may be NULL) gets a CHECK constraint's expression SQL,
 * allocated in the current context, or NULL. */
bool tdb_catalog_constraint_by_oid(Transaction *xact, Oid conoid,
                                   ConstraintInfo *out, char **conbin);
/* Does table relid have a PRIMARY KEY? */
bool tdb_catalog_has_primary_key(Transaction *xact, Oid relid);

/*
 * Drop constraint c (its index too, for PRIMARY KEY and UNIQUE).  The
 * caller holds the table's exclusive lock.
 */
void tdb_catalog_drop_constraint(Transaction *xact, const ConstraintInfo *c);

/*
 * Drop index indexoid (its rows; its file at commit).  The caller has
 * locked its table exclusively and checked that no constraint needs it.
 */
void tdb_catalog_drop_index(Transaction *xact, Oid indexoid);

/*
 * What a name denotes, for DROP INDEX / ALTER INDEX / REINDEX: the OID,
 * relkind and (for an index) table of relation name; false if none.
 */
bool tdb_catalog_lookup_relation(Transaction *xact, const char *name,
                                 Oid *relid, char *relkind, Oid *indrelid);

/*
 * Rename relation relid to newname (42P07 if taken); an index that backs
 * a constraint renames the constraint too, as PostgreSQL does.
 */
void tdb_catalog_rename_relation(Transaction *xact, Oid relid,
                                 const char *newname);

/*
 * Give index indexoid a new, empty relation file (REINDEX); the old one
 * goes at commit.  Returns the new file number.
 */
RelFileNumber tdb_catalog_index_new_file(Transaction *xact, Oid indexoid);

/* The index of rel whose OID is indexoid, or NULL. */
const RelationIndex *tdb_relation_index(Relation rel, Oid indexoid);

/* Column attnum's (1-based) DEFAULT expression text, or NULL. */
const char *tdb_relation_column_default(Relation rel, int attnum);

#endif /* TDB_CATALOG_CATALOG_H */
