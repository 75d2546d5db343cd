/*
 * visibilitymap.h -- the visibility map: two bits per heap page, in the
 * relation's VISIBILITYMAP_FORKNUM fork (<relfilenumber>_vm), in
 * PostgreSQL 15's format byte for byte.
 *
 *   ALL_VISIBLE (0x01)  every tuple on the heap page is visible to every
 *                       transaction, now and later: an Index Only Scan
 *                       need not visit the page
 *   ALL_FROZEN  (0x02)  every tuple is frozen (tupledb does not freeze
 *                       yet: only VACUUM of an empty page sets it, as
 *                       PostgreSQL does)
 *
 * The rule (visibilitymap.c explains how it is kept without a WAL): a
 * set bit is never wrong.  VACUUM sets bits; every change to a heap page
 * clears them first (tdb_vm_clear_page), under the heap page's exclusive
 * lock, before the change can be seen or written.  A cleared bit that
 * could have stayed set costs only a heap visit.
 *
 * Readers keep the map page pinned across calls in a Buffer of their own
 * (InvalidBuffer at first; release it with tdb_buf_release when done):
 *
 *     Buffer vmbuf = InvalidBuffer;
 *     for (...)
 *         if (VM_ALL_VISIBLE(rel, blkno, &vmbuf)) ... skip the heap ...
 *     if (vmbuf != InvalidBuffer)
 *         tdb_buf_release(vmbuf);
 *
 * Lock order: a heap page's content lock before a map page's; a map
 * page's lock is held for a few byte operations only.
 */
#ifndef TDB_ACCESS_VISIBILITYMAP_H
#define TDB_ACCESS_VISIBILITYMAP_H

#include "common/base.h"
#include "access/relation.h"
#include "storage/bufmgr.h"

/* The bits of one heap page (PostgreSQL's values). */
#define VISIBILITYMAP_ALL_VISIBLE 0x01
#define VISIBILITYMAP_ALL_FROZEN 0x02
#define VISIBILITYMAP_VALID_BITS 0x03

/*
 * Layout: the bitmap fills a map page's content area, after the standard
 * 24-byte page header; heap block b is bit pair VM_HEAPBLK_TO_OFFSET(b) of
 * byte VM_HEAPBLK_TO_MAPBYTE(b) of map block VM_HEAPBLK_TO_MAPBLOCK(b)
 * (PostgreSQL's HEAPBLK_TO_MAPBLOCK, _MAPBYTE, _OFFSET).
 */
#define VM_BITS_PER_HEAPBLOCK 2
#define VM_HEAPBLOCKS_PER_BYTE (8 / VM_BITS_PER_HEAPBLOCK)
#define VM_MAPSIZE (BLCKSZ - MAXALIGN(SizeOfPageHeaderData))
#define VM_HEAPBLOCKS_PER_PAGE (VM_MAPSIZE * VM_HEAPBLOCKS_PER_BYTE)
#define VM_HEAPBLK_TO_MAPBLOCK(b) ((BlockNumber)((b) / VM_HEAPBLOCKS_PER_PAGE))
#define VM_HEAPBLK_TO_MAPBYTE(b)                                               \
    ((uint32)(((b) % VM_HEAPBLOCKS_PER_PAGE) / VM_HEAPBLOCKS_PER_BYTE))
#define VM_HEAPBLK_TO_OFFSET(b)                                                \
    ((uint8)(((b) % VM_HEAPBLOCKS_PER_BYTE) * VM_BITS_PER_HEAPBLOCK))

/*
 * The bits of heap block heapblk: 0 if the map does not reach it.
 * *vmbuf: the caller's pin on a map page (InvalidBuffer at first); it is
 * moved to the page covering heapblk (if that page exists) and stays
 * pinned for the next call.  Reads one byte under the pin, without a
 * content lock (as PostgreSQL does): the answer may change at once, and
 * callers need a reason of their own why a bit set just now stays
 * meaningful (an Index Only Scan's snapshot).  Raises read errors.
 *
 * TODO: a heap block past the map's end (a table never vacuumed) costs
 * a look at the file on every call (the fork's length is not cached).
 * The Index Only Scan should remember the map's length per scan (a map
 * that grew meanwhile only makes a bit look clear: safe); remove this
 * note when it does.
 */
uint8 tdb_vm_get_status(Relation rel, BlockNumber heapblk, Buffer *vmbuf);

#define VM_ALL_VISIBLE(rel, heapblk, vmbuf)                                    \
    ((tdb_vm_get_status((rel), (heapblk), (vmbuf)) &                           \
      VISIBILITYMAP_ALL_VISIBLE) != 0)
#define VM_ALL_FROZEN(rel, heapblk, vmbuf)                                     \
    ((tdb_vm_get_status((rel), (heapblk), (vmbuf)) &                           \
      VISIBILITYMAP_ALL_FROZEN) != 0)

/*
 * Pin the map page covering heapblk into *vmbuf (releasing the page it
 * held, if another), extending the map with zeroed pages if it is
 * shorter.  Raises read and extension errors (ERRCODE_DISK_FULL).
 */
void tdb_vm_pin(Relation rel, BlockNumber heapblk, Buffer *vmbuf);

/* Whether vmbuf is the pinned map page covering heapblk. */
bool tdb_vm_pin_ok(BlockNumber heapblk, Buffer vmbuf);

/*
 * Set flags (VISIBILITYMAP_*) for heapblk.  The caller holds a lock on
 * the heap page (heapbuf), which has PD_ALL_VISIBLE set and reached disk
 * with it (see "Crash safety" in visibilitymap.c), and vmbuf from
 * tdb_vm_pin.  Returns whether a bit changed.
 */
bool tdb_vm_set(Relation rel, BlockNumber heapblk, Buffer heapbuf, Buffer vmbuf,
                uint8 flags);

/*
 * Clear flags for heapblk in the pinned map page vmbuf; the change
 * reaches disk before any later write of a heap page of rel
 * (tdb_buf_mark_dirty_before_main).  Returns whether a bit changed.
 */
bool tdb_vm_clear(Relation rel, BlockNumber heapblk, Buffer vmbuf, uint8 flags);

/*
 * Before changing the exclusively locked heap page heapbuf of rel: if it
 * has PD_ALL_VISIBLE, clear the flag and the page's map bits (the caller
 * then marks heapbuf dirty with its own change).  Pins and reads the map
 * page while the heap page is locked -- only when the flag is set, i.e.
 * on the first change after VACUUM.  Raises read errors (the heap page
 * is then unchanged).
 */
void tdb_vm_clear_page(Relation rel, Buffer heapbuf);

/*
 * Count the heap pages whose ALL_VISIBLE and ALL_FROZEN bits are set
 * (either pointer may be NULL), for pg_class.relallvisible.
 */
void tdb_vm_count(Relation rel, BlockNumber *all_visible,
                  BlockNumber *all_frozen);

/*
 * The heap of rel is being cut to nheapblocks blocks: clear the bits of
 * the blocks past it and cut the map to the pages still needed.  No
 * other thread may use those heap blocks.
 */
void tdb_vm_truncate(Relation rel, BlockNumber nheapblocks);

#endif /* TDB_ACCESS_VISIBILITYMAP_H */
