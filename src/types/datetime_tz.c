/*
 * datetime_tz.c -- time zone names in date/time input, looked up the way
 * PostgreSQL's pg_tzset looks them up:
 *
 *   1. a file of the time zone database (TZDIR, default
 *      /usr/share/zoneinfo, the system copy PostgreSQL's Debian builds
 *      use), its path matched case-insensitively one directory level at
 *      a time ("america/new_york"), and valid TZif data;
 *   2. otherwise a POSIX TZ string: std offset [dst [offset] [,rule]]
 *      ("UTC+3", "EST5EDT", "<+05>-5", and also oddities such as "PT2H"
 *      that PostgreSQL accepts the same way).
 *
 * A zone whose offset never changes (UTC, Etc/GMT+5, "UTC+3") has a
 * known offset.  For the others (America/New_York, "EST5EDT") the offset
 * depends on the date and needs PostgreSQL's DST-boundary search over the
 * zone's transitions, which tupledb does not implement yet: the lookup
 * reports them as dynamic, and input that needs their offset (a
 * timestamptz) raises 0A000, while input that ignores it (date,
 * timestamp, time) goes on exactly as in PostgreSQL.
 *
 * Nothing is cached: a name is looked up (and its file read) each time
 * it appears.  Named zones in input are rare; a cache would need a
 * process-wide structure and a lock.
 */
#include "common/base.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "common/elog.h"
#include "mmgr/mcxt.h"
#include "types/datetime.h"

#define TZ_STRLEN_MAX 255
#define TZ_MAX_TIMES 2000
#define TZ_MAX_TYPES 256
#define TZ_MAX_CHARS 50
#define TZ_MAX_LEAPS 50
#define TZ_MAX_FILE (512 * 1024)

/* ----------------------------------------------------------------------
 * POSIX TZ strings
 * ---------------------------------------------------------------------- */

static inline bool
tz_isdigit(char c)
{
    return c >= '0' && c <= '9';
}

/* An unquoted zone abbreviation: up to a digit, ',', '-', '+'. */
static const char *
get_zname(const char *p)
{
    while (*p != '\0' && !tz_isdigit(*p) && *p != ',' && *p != '-' &&
           *p != '+')
        p++;
    return p;
}

/* A quoted abbreviation: up to delim. */
static const char *
get_qzname(const char *p, char delim)
{
    while (*p != '\0' && *p != delim)
        p++;
    return p;
}

/* A number in min..max, or NULL. */
static const char *
get_num(const char *p, int *nump, int min, int max)
{
    int num = 0;

    if (p == NULL || !tz_isdigit(*p))
        return NULL;
    do {
        num = num * 10 + (*p - '0');
        if (num > max)
            return NULL;
        p++;
    } while (tz_isdigit(*p));
    if (num < min)
        return NULL;
    *nump = num;
    return p;
}

/* hh[:mm[:ss]] as seconds (hours up to a week). */
static const char *
get_secs(const char *p, int *secsp)
{
    int num;

    p = get_num(p, &num, 0, HOURS_PER_DAY * 7 - 1);
    if (p == NULL)
        return NULL;
    *secsp = num * SECS_PER_HOUR;
    if (*p == ':') {
        p = get_num(p + 1, &num, 0, MINS_PER_HOUR - 1);
        if (p == NULL)
            return NULL;
        *secsp += num * SECS_PER_MINUTE;
        if (*p == ':') {
            /* 60 allows for leap seconds */
            p = get_num(p + 1, &num, 0, SECS_PER_MINUTE);
            if (p == NULL)
                return NULL;
            *secsp += num;
        }
    }
    return p;
}

/* [+-]hh[:mm[:ss]]: seconds west of UTC, as POSIX writes it. */
static const char *
get_offset(const char *p, int *offsetp)
{
    bool neg = false;

    if (*p == '-') {
        neg = true;
        p++;
    } else if (*p == '+')
        p++;
    p = get_secs(p, offsetp);
    if (p == NULL)
        return NULL;
    if (neg)
        *offsetp = -*offsetp;
    return p;
}

/* A DST rule: Jn, n, or Mm.w.d, then an optional /time. */
static const char *
get_rule(const char *p)
{
    int num;
    int time;

    if (*p == 'J')
        p = get_num(p + 1, &num, 1, 365);
    else if (*p == 'M') {
        p = get_num(p + 1, &num, 1, 12);
        if (p == NULL || *p++ != '.')
            return NULL;
        p = get_num(p, &num, 1, 5);
        if (p == NULL || *p++ != '.')
            return NULL;
        p = get_num(p, &num, 0, 6);
    } else if (tz_isdigit(*p))
        p = get_num(p, &num, 0, 365);
    else
        return NULL;
    if (p == NULL)
        return NULL;
    if (*p == '/')
        p = get_offset(p + 1, &time);
    return p;
}

/*
 * Parse a POSIX TZ string as PostgreSQL's tzparse does (an empty standard
 * abbreviation allowed).  Returns false if it is not one; *has_dst says
 * whether it has a daylight-saving part, *stdoffset receives the
 * standard offset in seconds west of UTC.
 */
static bool
parse_posix_tz(const char *name, bool *has_dst, int *stdoffset)
{
    const char *p = name;

    if (*p == '<') {
        p = get_qzname(p + 1, '>');
        if (*p != '>')
            return false;
        p++;
    } else
        p = get_zname(p);
    if (*p == '\0')
        return false;
    p = get_offset(p, stdoffset);
    if (p == NULL)
        return false;
    *has_dst = false;
    if (*p == '\0')
        return true;

    *has_dst = true;
    if (*p == '<') {
        const char *dst = p + 1;

        p = get_qzname(dst, '>');
        if (*p != '>' || p == dst)
            return false;
        p++;
    } else {
        const char *dst = p;

        p = get_zname(p);
        if (p == dst)
            return false;
    }
    if (*p != '\0' && *p != ',' && *p != ';') {
        int dstoffset;

        p = get_offset(p, &dstoffset);
        if (p == NULL)
            return false;
    }
    if (*p == ',' || *p == ';') {
        p = get_rule(p + 1);
        if (p == NULL || *p++ != ',')
            return false;
        p = get_rule(p);
        if (p == NULL || *p != '\0')
            return false;
        return true;
    }
    return *p == '\0';
}

/* ----------------------------------------------------------------------
 * The time zone database
 * ---------------------------------------------------------------------- */

/*
 * In directory dir, the entry whose name equals name[0..len) ignoring
 * case (entries starting with '.' never match); its real name is
 * appended to path.  Returns false if none.
 */
static bool
scan_directory_ci(const char *dir, const char *name, int len, char *path,
                  Size pathlen)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    bool found = false;

    if (d == NULL)
        return false;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        if ((int)strlen(de->d_name) == len &&
            strncasecmp(de->d_name, name, (Size)len) == 0) {
            Size used = strlen(path);

            snprintf(path + used, pathlen - used, "/%s", de->d_name);
            found = true;
            break;
        }
    }
    closedir(d);
    return found;
}

static uint32
be32(const uint8 *p)
{
    return ((uint32)p[0] << 24) | ((uint32)p[1] << 16) | ((uint32)p[2] << 8) |
           p[3];
}

/*
 * Read a TZif file into memory (palloc'd; *len its size); NULL if it
 * cannot be read.
 */
static uint8 *
read_tzfile(const char *path, Size *len)
{
    /* allocate first: nothing may raise while the file is open */
    uint8 *buf = tdb_palloc(TZ_MAX_FILE);
    FILE *f = fopen(path, "rb");
    Size n;

    if (f == NULL)
        return NULL;
    n = fread(buf, 1, TZ_MAX_FILE, f);
    if (ferror(f) || n == TZ_MAX_FILE) {
        fclose(f);
        return NULL;
    }
    fclose(f);
    *len = n;
    return buf;
}

/*
 * Validate TZif data as PostgreSQL's loader does and say whether the
 * zone's offset ever changes (*fixed, with the offset in *tz, seconds
 * west of UTC).  false: not valid TZif data.
 */
static bool
inspect_tzif(const uint8 *buf, Size len, bool *fixed, int *tz)
{
    const uint8 *p = buf;
    int pass_count;
    int32 utoff0 = 0;

    for (pass_count = 0; pass_count < 2; pass_count++) {
        int32 ttisutcnt, ttisstdcnt, leapcnt, timecnt, typecnt, charcnt;
        int timesize = pass_count == 0 ? 4 : 8;
        Size datalen;
        const uint8 *types;
        const uint8 *ttis;

        if ((Size)(p - buf) + 44 > len || memcmp(p, "TZif", 4) != 0)
            return false;
        ttisutcnt = (int32)be32(p + 20);
        ttisstdcnt = (int32)be32(p + 24);
        leapcnt = (int32)be32(p + 28);
        timecnt = (int32)be32(p + 32);
        typecnt = (int32)be32(p + 36);
        charcnt = (int32)be32(p + 40);
        if (leapcnt < 0 || leapcnt > TZ_MAX_LEAPS || typecnt <= 0 ||
            typecnt > TZ_MAX_TYPES || timecnt < 0 || timecnt > TZ_MAX_TIMES ||
            charcnt < 0 || charcnt > TZ_MAX_CHARS ||
            (ttisstdcnt != typecnt && ttisstdcnt != 0) ||
            (ttisutcnt != typecnt && ttisutcnt != 0))
            return false;
        datalen = (Size)timecnt * (Size)timesize + (Size)timecnt +
                  (Size)typecnt * 6 + (Size)charcnt +
                  (Size)leapcnt * (Size)(timesize + 4) + (Size)ttisstdcnt +
                  (Size)ttisutcnt;
        if ((Size)(p - buf) + 44 + datalen > len)
            return false;
        types = p + 44 + (Size)timecnt * (Size)timesize;
        ttis = types + timecnt;
        for (int i = 0; i < timecnt; i++)
            if (types[i] >= typecnt)
                return false;
        *fixed = true;
        for (int i = 0; i < typecnt; i++) {
            const uint8 *tt = ttis + 6 * i;
            int32 utoff = (int32)be32(tt);

            if (tt[4] > 1 || tt[5] > charcnt)
                return false;
            if (i == 0)
                utoff0 = utoff;
            else if (utoff != utoff0)
                *fixed = false;
        }
        p += 44 + datalen;
        /* version 1 data only, or the 64-bit data follows */
        if (pass_count == 0 && buf[4] < '2')
            break;
    }
    /* the footer's rule for times after the last transition */
    if (buf[4] >= '2' && (Size)(p - buf) < len && *p == '\n') {
        const uint8 *end = memchr(p + 1, '\n', len - (Size)(p - buf) - 1);
        char rule[TZ_STRLEN_MAX + 1];
        bool has_dst;
        int stdoffset;

        if (end != NULL && end - p - 1 > 0 && end - p - 1 <= TZ_STRLEN_MAX) {
            snprintf(rule, sizeof(rule), "%.*s", (int)(end - p - 1),
                     (const char *)p + 1);
            if (parse_posix_tz(rule, &has_dst, &stdoffset) &&
                (has_dst || -stdoffset != utoff0))
                *fixed = false;
        }
    }
    *tz = -utoff0;
    return true;
}

/*
 * A zone of the database: found (case-insensitively) and valid.  *fixed
 * and *tz as inspect_tzif.
 */
static bool
load_database_zone(const char *uppername, bool *fixed, int *tz)
{
    const char *dirname = getenv("TZDIR");
    char path[1024];
    const char *name = uppername;
    uint8 *buf;
    Size len;
    bool ok;

    if (dirname == NULL || *dirname == '\0')
        dirname = "/usr/share/zoneinfo";
    if (name[0] == ':')
        name++;
    snprintf(path, sizeof(path), "%s", dirname);
    if (strlen(path) + 1 + strlen(name) >= sizeof(path))
        return false;
    for (;;) {
        const char *slash = strchr(name, '/');
        int len1 = slash != NULL ? (int)(slash - name) : (int)strlen(name);

        if (!scan_directory_ci(path, name, len1, path, sizeof(path)))
            return false;
        if (slash == NULL)
            break;
        name = slash + 1;
    }
    buf = read_tzfile(path, &len);
    if (buf == NULL)
        return false;
    ok = inspect_tzif(buf, len, fixed, tz);
    tdb_pfree(buf);
    return ok;
}

DtZoneKind
tdb_dt_lookup_zone(const char *name, int *tz)
{
    char uppername[TZ_STRLEN_MAX + 1];
    bool fixed;
    bool has_dst;
    int stdoffset;
    Size i;

    *tz = 0;
    if (strlen(name) > TZ_STRLEN_MAX)
        return DT_ZONE_UNKNOWN;
    for (i = 0; name[i] != '\0'; i++)
        uppername[i] = (name[i] >= 'a' && name[i] <= 'z')
                           ? (char)(name[i] - ('a' - 'A'))
                           : name[i];
    uppername[i] = '\0';

    /* "GMT" is always the POSIX zone, never a file */
    if (strcmp(uppername, "GMT") == 0)
        return DT_ZONE_FIXED;
    if (load_database_zone(uppername, &fixed, tz))
        return fixed ? DT_ZONE_FIXED : DT_ZONE_DYNAMIC;
    if (uppername[0] == ':' ||
        !parse_posix_tz(uppername, &has_dst, &stdoffset))
        return DT_ZONE_UNKNOWN;
    *tz = stdoffset;
    return has_dst ? DT_ZONE_DYNAMIC : DT_ZONE_FIXED;
}
