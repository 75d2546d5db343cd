/*
 * block.h -- the units of relation storage: block size, segment size and
 * the identifiers that name a relation's file and a block in it.
 *
 * Shared by the page layout (page.h), relation files (smgr.h), the data
 * directory (datadir.h) and the buffer pool.  Values match PostgreSQL's
 * defaults, so a tupledb relation file has the same shape as a PostgreSQL
 * one: BLCKSZ-byte blocks, RELSEG_SIZE blocks (1 GB) per segment file.
 *
 * RELSEG_SIZE can be overridden at compile time with -DTDB_RELSEG_SIZE=n
 * (the smgr unit test builds a 4-block-segment variant to cross segment
 * boundaries every 32 KB).  The data directory's control file records both
 * values, so a directory is only ever opened by a build with the same ones.
 */
#ifndef TDB_STORAGE_BLOCK_H
#define TDB_STORAGE_BLOCK_H

#include "common/base.h"
#include "tuple/itemptr.h" /* BlockNumber, InvalidBlockNumber */

/* The largest valid block number (InvalidBlockNumber is one above it). */
#define MaxBlockNumber ((BlockNumber)0xFFFFFFFE)

/* Size of a disk block (page) in bytes. */
#define BLCKSZ 8192

/* Blocks per segment file: 131072 * 8 KB = 1 GB, unless overridden. */
#ifdef TDB_RELSEG_SIZE
#define RELSEG_SIZE ((BlockNumber)(TDB_RELSEG_SIZE))
#else
#define RELSEG_SIZE ((BlockNumber)131072)
#endif

_Static_assert((BLCKSZ & (BLCKSZ - 1)) == 0, "BLCKSZ is a power of two");
_Static_assert(RELSEG_SIZE >= 1, "a segment holds at least one block");
_Static_assert((uint64)RELSEG_SIZE * BLCKSZ <= ((uint64)1 << 40),
               "a segment stays far below off_t limits");

/*
 * A relation's file number (PostgreSQL's relfilenode): the name of its
 * file under the data directory's base/ folder.  Numbers below
 * FirstNormalRelFileNumber are reserved for the bootstrap catalog; the
 * control file hands out the rest (tdb_datadir_alloc_relfilenumber).
 */
typedef Oid RelFileNumber;
#define InvalidRelFileNumber ((RelFileNumber)InvalidOid)
#define FirstNormalRelFileNumber ((RelFileNumber)16384)

/*
 * The forks of a relation: files that share its file number and differ
 * by a suffix, with PostgreSQL's numbers and names (relpath.h there):
 *
 *     MAIN_FORKNUM           0  base/<relfilenumber>       the rows
 *     FSM_FORKNUM            1  base/<relfilenumber>_fsm   free space map
 *     VISIBILITYMAP_FORKNUM  2  base/<relfilenumber>_vm    visibility map
 *     INIT_FORKNUM           3  base/<relfilenumber>_init  unlogged init
 *
 * Each fork is a relation file of its own, split into segments the same
 * way (<name>.1, <name>.2, ...).  Only the main fork must exist while
 * the relation does; the others are created on first use.
 */
typedef enum ForkNumber {
    InvalidForkNumber = -1,
    MAIN_FORKNUM = 0,
    FSM_FORKNUM,
    VISIBILITYMAP_FORKNUM,
    INIT_FORKNUM,
} ForkNumber;
#define MAX_FORKNUM INIT_FORKNUM
#define NUM_FORKS (MAX_FORKNUM + 1)

/* The fork's file name suffix: "" for the main fork, else "_fsm", "_vm"
 * or "_init" (PostgreSQL's forkNames with the underscore). */
static inline const char *
tdb_fork_suffix(ForkNumber fork)
{
    switch (fork) {
    case FSM_FORKNUM:
        return "_fsm";
    case VISIBILITYMAP_FORKNUM:
        return "_vm";
    case INIT_FORKNUM:
        return "_init";
    default:
        return "";
    }
}

#endif /* TDB_STORAGE_BLOCK_H */
