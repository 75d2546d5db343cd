/*
 * textbuf.c -- growable text buffers (textbuf.h).
 */
#include "common/base.h"

#include "common/elog.h"
#include "types/textbuf.h"

void
tdb_textbuf_init(TextBuf *tb, MemoryContext mcxt, Size initial)
{
    tb->mcxt = mcxt;
    tb->cap = initial < 16 ? 16 : initial;
    tb->buf = tdb_mcxt_alloc(mcxt, VARHDRSZ + tb->cap);
    tb->len = 0;
}

void
tdb_textbuf_append(TextBuf *tb, const char *data, Size len)
{
    if (len > tb->cap - tb->len) {
        Size need = tb->len + len;
        Size cap = tb->cap * 2;
        char *grown;

        /* a text value is below 1 GB: let the allocator refuse more */
        if (need > MaxAllocSize - VARHDRSZ)
            ereport(ERROR, errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
                    errmsg("out of memory"),
                    errdetail("Cannot enlarge string buffer containing %zu "
                              "bytes by %zu more bytes.",
                              tb->len, len));
        if (cap < need)
            cap = need;
        if (cap > MaxAllocSize - VARHDRSZ)
            cap = MaxAllocSize - VARHDRSZ;
        grown = tdb_mcxt_alloc(tb->mcxt, VARHDRSZ + cap);
        memcpy(grown + VARHDRSZ, tb->buf + VARHDRSZ, tb->len);
        tb->buf = grown;
        tb->cap = cap;
    }
    memcpy(tb->buf + VARHDRSZ + tb->len, data, len);
    tb->len += len;
}

void
tdb_textbuf_append_text(TextBuf *tb, const varlena *t)
{
    tdb_textbuf_append(tb, VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t));
}

text *
tdb_textbuf_finish(TextBuf *tb)
{
    SET_VARSIZE(tb->buf, VARHDRSZ + tb->len);
    return (text *)tb->buf;
}
