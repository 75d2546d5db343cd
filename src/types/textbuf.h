/*
 * textbuf.h -- building a text value piece by piece (concat, string_agg,
 * replace, ...), in a chosen memory context.
 *
 * The buffer keeps VARHDRSZ bytes in front of the data, so finishing
 * writes the header in place and returns the buffer itself as the text.
 * Growing allocates a buffer twice as large and copies; the old one is
 * left to its context's reset (so the context may be of any kind,
 * Bump included, and the waste stays under the final size).
 */
#ifndef TDB_TYPES_TEXTBUF_H
#define TDB_TYPES_TEXTBUF_H

#include "common/base.h"

#include "mmgr/mcxt.h"
#include "tuple/varlena.h"

typedef struct TextBuf {
    MemoryContext mcxt; /* where the buffer lives */
    char *buf;          /* VARHDRSZ header bytes, then the data */
    Size len;           /* data bytes so far */
    Size cap;           /* data bytes the buffer can hold */
} TextBuf;

/* Start an empty buffer in mcxt with room for initial data bytes. */
void tdb_textbuf_init(TextBuf *tb, MemoryContext mcxt, Size initial);

/* Append len bytes. */
void tdb_textbuf_append(TextBuf *tb, const char *data, Size len);

/* Append the data of a (plain or short-header) varlena. */
void tdb_textbuf_append_text(TextBuf *tb, const varlena *t);

/* The text built so far, with its header written; it is the buffer
 * itself (in tb->mcxt), so appending afterwards invalidates it. */
text *tdb_textbuf_finish(TextBuf *tb);

#endif /* TDB_TYPES_TEXTBUF_H */
