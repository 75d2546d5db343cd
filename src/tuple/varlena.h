/*
 * varlena.h -- PostgreSQL's variable-length value headers (little-endian).
 *
 * The low bits of the first byte in memory tell the header kind:
 *
 *   xxxxxx00  4-byte header, plain: length = uint32 >> 2 (header
 *             included, < 1 GB); such a value must start 4-aligned
 *   xxxxxx10  4-byte header, compressed inline: [hdr][tcinfo u32][data]
 *   00000001  1-byte header of an external pointer; the next byte is the
 *             vartag (1 indirect, 2/3 expanded, 18 on-disk TOAST pointer)
 *   xxxxxxx1  1-byte header, short: length = byte >> 1 (2..127, header
 *             included); never aligned
 *   00000000  never a 1-byte header: a pad byte, or the first byte of an
 *             aligned 4-byte header (so a deformer may align on seeing 0)
 *
 * The external test must come before the short test: an external pointer
 * also looks like a 1-byte header whose length is 0.
 *
 * tupledb reads all of these forms; producing compressed and external ones
 * belongs to the TOAST layer.  See pg-internals.md §2.1-2.3.
 */
#ifndef TDB_TUPLE_VARLENA_H
#define TDB_TUPLE_VARLENA_H

#include "common/base.h"

/* An opaque variable-length value: a header followed by data. */
typedef struct varlena {
    char vl_len_[4];
    char vl_dat[FLEXIBLE_ARRAY_MEMBER];
} varlena;

typedef varlena text;
typedef varlena bytea;

#define VARHDRSZ ((int32)4)
#define VARHDRSZ_SHORT 1
#define VARHDRSZ_EXTERNAL 2
#define VARHDRSZ_COMPRESSED 8
#define VARATT_SHORT_MAX 0x7F

/* vartag of an external pointer */
typedef enum VarTag {
    VARTAG_INDIRECT = 1,
    VARTAG_EXPANDED_RO = 2,
    VARTAG_EXPANDED_RW = 3,
    VARTAG_ONDISK = 18
} VarTag;

/* Size of the payload after [0x01][tag] for a known tag, or -1. */
static inline int
tdb_vartag_payload_size(uint8 tag)
{
    switch (tag) {
    case VARTAG_INDIRECT:
    case VARTAG_EXPANDED_RO:
    case VARTAG_EXPANDED_RW:
        return (int)sizeof(void *);
    case VARTAG_ONDISK:
        return 16; /* varatt_external */
    default:
        return -1;
    }
}

#define TOAST_POINTER_SIZE (VARHDRSZ_EXTERNAL + 16)

static inline uint8
varatt_first_byte(const void *ptr)
{
    return *(const uint8 *)ptr;
}

static inline uint32
varatt_header4(const void *ptr)
{
    uint32 h;

    memcpy(&h, ptr, sizeof(h));
    return h;
}

/* 1-byte header (short or external)? */
static inline bool
VARATT_IS_1B(const void *ptr)
{
    return (varatt_first_byte(ptr) & 0x01) == 0x01;
}

static inline bool
VARATT_IS_1B_E(const void *ptr)
{
    return varatt_first_byte(ptr) == 0x01;
}

static inline bool
VARATT_IS_4B(const void *ptr)
{
    return (varatt_first_byte(ptr) & 0x01) == 0x00;
}

static inline bool
VARATT_IS_4B_U(const void *ptr)
{
    return (varatt_first_byte(ptr) & 0x03) == 0x00;
}

static inline bool
VARATT_IS_4B_C(const void *ptr)
{
    return (varatt_first_byte(ptr) & 0x03) == 0x02;
}

static inline bool
VARATT_IS_EXTERNAL(const void *ptr)
{
    return VARATT_IS_1B_E(ptr);
}

static inline bool
VARATT_IS_SHORT(const void *ptr)
{
    return VARATT_IS_1B(ptr) && !VARATT_IS_1B_E(ptr);
}

static inline bool
VARATT_IS_COMPRESSED(const void *ptr)
{
    return VARATT_IS_4B_C(ptr);
}

/* Length of a 4-byte-header value, header included. */
static inline Size
VARSIZE_4B(const void *ptr)
{
    return (Size)(varatt_header4(ptr) >> 2);
}

static inline Size
VARSIZE_1B(const void *ptr)
{
    return (Size)(varatt_first_byte(ptr) >> 1);
}

static inline uint8
VARTAG_1B_E(const void *ptr)
{
    return ((const uint8 *)ptr)[1];
}

static inline Size
VARSIZE(const void *ptr)
{
    return VARSIZE_4B(ptr);
}

/*
 * Total size of any in-tuple form, header included.  For an external
 * pointer with an unknown tag this returns 0 (the caller must have
 * validated the tag: see tdb_varsize_any_checked).
 */
static inline Size
VARSIZE_ANY(const void *ptr)
{
    if (VARATT_IS_1B_E(ptr)) {
        int payload = tdb_vartag_payload_size(VARTAG_1B_E(ptr));

        return payload < 0 ? 0 : (Size)(VARHDRSZ_EXTERNAL + payload);
    }
    if (VARATT_IS_1B(ptr))
        return VARSIZE_1B(ptr);
    return VARSIZE_4B(ptr);
}

/* Header size of an inline uncompressed value (1 or 4). */
static inline Size
VARHDRSZ_ANY(const void *ptr)
{
    return VARATT_IS_1B(ptr) ? VARHDRSZ_SHORT : VARHDRSZ;
}

/* Data bytes of an inline uncompressed value (header excluded).  A
 * compressed or external value must be detoasted first
 * (toast/detoast.h): checking builds assert it. */
static inline Size
VARSIZE_ANY_EXHDR(const void *ptr)
{
    Assert(VARATT_IS_4B_U(ptr) || VARATT_IS_SHORT(ptr));
    return VARSIZE_ANY(ptr) - VARHDRSZ_ANY(ptr);
}

static inline char *
VARDATA_ANY(const void *ptr)
{
    Assert(VARATT_IS_4B_U(ptr) || VARATT_IS_SHORT(ptr));
    return (char *)ptr + VARHDRSZ_ANY(ptr);
}

static inline char *
VARDATA(const void *ptr)
{
    return (char *)ptr + VARHDRSZ;
}

/* Write a plain 4-byte header for a value of len bytes (header included). */
static inline void
SET_VARSIZE(void *ptr, Size len)
{
    uint32 h = (uint32)len << 2;

    memcpy(ptr, &h, sizeof(h));
}

/* Write a short 1-byte header (len includes the header, <= 127). */
static inline void
SET_VARSIZE_SHORT(void *ptr, Size len)
{
    *(uint8 *)ptr = (uint8)((len << 1) | 0x01);
}

/* Could this 4B-plain value be stored with a 1-byte header? */
static inline bool
VARATT_CAN_MAKE_SHORT(const void *ptr)
{
    return VARATT_IS_4B_U(ptr) &&
           VARSIZE_4B(ptr) - VARHDRSZ + VARHDRSZ_SHORT <= VARATT_SHORT_MAX;
}

static inline Size
VARATT_CONVERTED_SHORT_SIZE(const void *ptr)
{
    return VARSIZE_4B(ptr) - VARHDRSZ + VARHDRSZ_SHORT;
}

/*
 * A text (or any varlena) value holding len bytes of data, with a plain
 * 4-byte header, in the current memory context; and the same from a C
 * string.
 */
text *tdb_text_from_bytes(const char *data, Size len);
text *tdb_text_from_cstring(const char *s);

/* The data of an inline, uncompressed value as a NUL-terminated string
 * in the current memory context. */
char *tdb_text_to_cstring(const void *value);

#endif /* TDB_TUPLE_VARLENA_H */
