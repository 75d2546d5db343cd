/*
 * itemptr.h -- ItemPointerData, a tuple identifier (TID): block number and
 * line-pointer offset, 6 bytes with no padding, as stored in t_ctid.
 */
#ifndef TDB_TUPLE_ITEMPTR_H
#define TDB_TUPLE_ITEMPTR_H

#include "common/base.h"

typedef uint32 BlockNumber;
typedef uint16 OffsetNumber;

#define InvalidBlockNumber ((BlockNumber)0xFFFFFFFF)
#define InvalidOffsetNumber ((OffsetNumber)0)

typedef struct BlockIdData {
    uint16 bi_hi;
    uint16 bi_lo;
} BlockIdData;

typedef struct ItemPointerData {
    BlockIdData ip_blkid;
    OffsetNumber ip_posid;
} ItemPointerData;
typedef ItemPointerData *ItemPointer;

_Static_assert(sizeof(ItemPointerData) == 6, "ItemPointerData is 6 bytes");

static inline void
ItemPointerSet(ItemPointerData *ip, BlockNumber block, OffsetNumber off)
{
    ip->ip_blkid.bi_hi = (uint16)(block >> 16);
    ip->ip_blkid.bi_lo = (uint16)(block & 0xFFFF);
    ip->ip_posid = off;
}

static inline void
ItemPointerSetInvalid(ItemPointerData *ip)
{
    ItemPointerSet(ip, InvalidBlockNumber, InvalidOffsetNumber);
}

static inline BlockNumber
ItemPointerGetBlockNumber(const ItemPointerData *ip)
{
    return ((BlockNumber)ip->ip_blkid.bi_hi << 16) | ip->ip_blkid.bi_lo;
}

static inline OffsetNumber
ItemPointerGetOffsetNumber(const ItemPointerData *ip)
{
    return ip->ip_posid;
}

static inline bool
ItemPointerIsValid(const ItemPointerData *ip)
{
    return ip->ip_posid != InvalidOffsetNumber;
}

#endif /* TDB_TUPLE_ITEMPTR_H */
