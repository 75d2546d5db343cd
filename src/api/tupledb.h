/*
 * tupledb.h -- the public C API: open a database, run SQL on it, close.
 *
 *     tupledb *db;
 *     if (tupledb_open("mydb", &db, &err) != 0) { ... err ...; }
 *     tupledb_exec(db, "CREATE TABLE t (a int); INSERT INTO t VALUES (1);"
 *                      "SELECT a FROM t", &callbacks, my_arg);
 *     tupledb_close(db);
 *
 * A handle is one session (like one psql connection): it has its own
 * transaction state and settings.  tupledb_exec runs a string of one or
 * more statements the way PostgreSQL's simple query protocol does: each
 * statement outside an explicit transaction block is its own transaction
 * (statements of one string share an implicit transaction only in the
 * sense PostgreSQL gives it -- see tupledb_exec); results are reported
 * through callbacks as they are produced, rows in text form (the types'
 * output functions), so a client prints exactly what psql would.
 *
 * Threads: a handle is used by one thread at a time; tupledb_cancel may
 * be called from any thread or a signal handler.  All names here carry
 * the tupledb_ prefix (the library's internals use tdb_).
 */
#ifndef TUPLEDB_H
#define TUPLEDB_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tupledb tupledb;

/* A column of a statement's result (PostgreSQL's RowDescription). */
typedef struct tupledb_column {
    const char *name;      /* the column label, e.g. "?column?" */
    unsigned int type_oid; /* PostgreSQL's type OID (23 = int4, ...) */
    int typmod;            /* -1 or the type's modifier */
    unsigned int table_oid; /* the source table's OID, or 0 */
    int column_number;      /* the source column's number, or 0 */
} tupledb_column;

/* An error or notice (PostgreSQL's ErrorResponse / NoticeResponse). */
typedef struct tupledb_error {
    const char *severity; /* "ERROR", "NOTICE", "WARNING", ... */
    char sqlstate[6];     /* e.g. "42P01" */
    const char *message;
    const char *detail;   /* NULL if none */
    const char *hint;     /* NULL if none */
    const char *context;  /* NULL if none */
    int position;         /* 1-based character position in the statement
                           * string passed to tupledb_exec, 0 if none */
} tupledb_error;

/*
 * Results of tupledb_exec, in order.  Any callback may be NULL.  Strings
 * passed to a callback are valid only during the call.
 */
typedef struct tupledb_callbacks {
    /* A statement that returns rows starts: its columns. */
    void (*columns)(void *arg, int ncolumns, const tupledb_column *columns);
    /* One row: values[i] is column i in text form, NULL for SQL NULL. */
    void (*row)(void *arg, int ncolumns, const char *const *values);
    /* A statement finished: its command tag, as PostgreSQL sends it
     * ("SELECT 3", "INSERT 0 1", "CREATE TABLE", "BEGIN"). */
    void (*complete)(void *arg, const char *command_tag);
    /* A NOTICE, WARNING, INFO... raised while running. */
    void (*notice)(void *arg, const tupledb_error *notice);
    /* The statement failed: nothing after it in the string runs. */
    void (*error)(void *arg, const tupledb_error *error);

    /*
     * COPY ... FROM STDIN and COPY ... TO STDOUT exchange data with the
     * caller, in PostgreSQL's text or CSV format (psql's "COPY" data).
     *
     * copy_start: a COPY begins; is_from is 1 for FROM STDIN, 0 for TO
     * STDOUT; ncolumns is the number of columns in the data.  Optional.
     *
     * copy_in: COPY FROM STDIN wants data: store up to size bytes in buf
     * and return how many (the data may be cut anywhere, lines may span
     * calls).  Return 0 at the end of the data -- a line "\." ends it
     * too, and the statement then reads on to 0 and ignores the rest --
     * or -1 to abandon the COPY: it fails with 57014 "COPY from stdin
     * failed: <*fail_message>" (set *fail_message to a string that stays
     * valid until the call returns, or leave it NULL).  NULL: COPY FROM
     * STDIN fails with 0A000.
     *
     * copy_out: COPY TO STDOUT produced one line of data (its newline
     * included).  NULL: COPY TO STDOUT fails with 0A000.
     *
     * The COPY's command tag ("COPY 3") then comes through complete.
     */
    void (*copy_start)(void *arg, int is_from, int ncolumns);
    int (*copy_in)(void *arg, char *buf, int size, const char **fail_message);
    void (*copy_out)(void *arg, const char *data, int len);
} tupledb_callbacks;

/*
 * Open (creating if needed) the database at path.  On failure returns
 * -1 and, if errmsg is not NULL, stores a malloc'd message the caller
 * frees -- followed by "\nDETAIL:  ..." and "\nHINT:  ..." lines when
 * the error has them, as psql shows a refused connection; *db is then
 * NULL.
 */
int tupledb_open(const char *path, tupledb **db, char **errmsg);

/*
 * Run the statements in sql (a NUL-terminated string of one or more
 * statements separated by semicolons).  Returns 0 if every statement
 * succeeded, -1 if one failed (reported through callbacks->error).
 * An empty string (or only comments) reports nothing and returns 0.
 * With `SET statement_timeout` in force, each statement running longer
 * fails with 57014 "canceling statement due to statement timeout" (the
 * timer runs in a thread of the library, started at the first use).
 */
int tupledb_exec(tupledb *db, const char *sql,
                 const tupledb_callbacks *callbacks, void *arg);

/*
 * Ask the statement running on db to stop: it fails with 57014
 * "canceling statement due to user request".  Safe from a signal
 * handler and from another thread; does nothing if nothing runs.
 */
void tupledb_cancel(tupledb *db);

/*
 * The session's transaction status, as PostgreSQL's ReadyForQuery
 * reports it: 'I' idle (no transaction block), 'T' in a transaction
 * block, 'E' in a failed transaction block.
 */
char tupledb_transaction_status(tupledb *db);

/* Close the session and the database (rolling back an open block). */
void tupledb_close(tupledb *db);

#ifdef __cplusplus
}
#endif

#endif /* TUPLEDB_H */
