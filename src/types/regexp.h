/*
 * regexp.h -- inside the types layer: compiled regular expressions for
 * the SQL regex operators and functions (regexfuncs.c), implemented over
 * PCRE2 by regexp.c.
 *
 * Patterns are written in PostgreSQL's ARE syntax; regexp.c rewrites
 * them for PCRE2 (README.md lists what differs) and caches the compiled
 * form per call site, so a filter `WHERE t ~ 'x'` compiles once per
 * plan, not once per row.  Offsets are in bytes of the subject.
 */
#ifndef TDB_TYPES_REGEXP_H
#define TDB_TYPES_REGEXP_H

#include "common/base.h"

#include "types/fmgr.h"

/* Compile flags (PostgreSQL's REG_* meanings). */
#define REGEX_ICASE 0x01    /* case-insensitive */
#define REGEX_NLSTOP 0x02   /* '.' and [^...] do not match newline */
#define REGEX_NLANCH 0x04   /* ^ and $ match at newlines */
#define REGEX_EXPANDED 0x08 /* whitespace and #-comments ignored */
#define REGEX_QUOTE 0x10    /* the pattern is a literal string */
#define REGEX_NEWLINE (REGEX_NLSTOP | REGEX_NLANCH)

typedef struct Regex Regex;

/*
 * Apply one option letter (the flags argument of regexp_replace and
 * friends, or an embedded "(?i)" option) to *cflags: c, i, m, n, p, q,
 * s, t, w, x.  Returns false for any other letter ('g' included: the
 * callers decide where it is allowed).  Raises 0A000 for b and e (basic
 * and extended POSIX syntax are not supported).
 */
bool tdb_regex_apply_option(char c, int *cflags);

/*
 * The compiled form of pattern[0..len) with cflags, from the call site's
 * cache (fcinfo->flinfo->fn_extra) or compiled now.  Raises 2201B
 * "invalid regular expression: ..." with PostgreSQL's message where the
 * error has a PostgreSQL counterpart.  The result stays valid until the
 * next tdb_regex_compile at the same call site.
 */
Regex *tdb_regex_compile(FunctionCallInfo fcinfo, const char *pattern,
                         Size len, int cflags);

/* The number of capture groups in the pattern. */
int tdb_regex_ngroups(const Regex *re);

/*
 * Search subject[0..len) from byte offset start (the text before start
 * is still seen by lookbehind, and ^ does not match at start).  On a
 * match returns true; the groups are then read with tdb_regex_group.
 */
bool tdb_regex_exec(Regex *re, const char *subject, Size len, Size start);

/*
 * Group i of the last successful match (0: the whole match) as byte
 * offsets [*so, *eo); false if the group did not take part.
 */
bool tdb_regex_group(const Regex *re, int i, Size *so, Size *eo);

#endif /* TDB_TYPES_REGEXP_H */
