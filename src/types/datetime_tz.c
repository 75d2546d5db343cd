/*
 * datetime_tz.c -- time zones: the session's TimeZone and the zones
 * named in date/time input, with the offsets PostgreSQL 15 computes for
 * them.
 *
 * A name is looked up as PostgreSQL's pg_tzset looks it up:
 *
 *   1. a file of the time zone database (TZDIR, default
 *      /usr/share/zoneinfo: the system copy, which PostgreSQL's Debian
 *      builds use too), its path matched case-insensitively one directory
 *      at a time ("america/new_york"), holding valid TZif data;
 *   2. otherwise a POSIX TZ string: std offset [dst [offset] [,rule]]
 *      ("UTC+3", "EST5EDT,M3.2.0,M11.1.0", "<+05>-5", and oddities such
 *      as "PT2H", which PostgreSQL accepts the same way).
 *
 * Either way the zone becomes a DtZone: a table of transitions (UTC instant
 * -> offset type) and the offset types (offset east of UTC, daylight
 * flag, abbreviation).  As in PostgreSQL, a database zone's table is
 * extended with the transitions its footer rule produces after the
 * file's last one, and a POSIX zone with rules gets transitions for a
 * 400-year cycle (the Gregorian calendar repeats every 400 years, so
 * later and earlier instants are mapped into the table by whole cycles).
 *
 * Local time -> offset (zone_offset, PostgreSQL's DetermineTimeZoneOffset)
 * finds the transition just after "local time read as UTC, minus a day";
 * a local time in a spring-forward gap or fall-back overlap resolves as
 * PostgreSQL's does ("before" in a gap, "after" in an overlap).  Instant
 * -> offset (tdb_dt_zone_utoff, PostgreSQL's localsub) takes the type of
 * the last transition at or before the instant, or the zone's default
 * type before the first (inferred from the file as tzload does).
 *
 * Names: a database zone is known by the directory's spelling of its
 * path ("America/New_York"), a POSIX string by its upper-case form, GMT
 * as "GMT" -- what SHOW TimeZone prints.
 *
 * What is not done: leap seconds ("right/" zones are read without their
 * corrections; TimeZone refuses them, as PostgreSQL does).  Zones named
 * in input are not cached (each appearance of a name reads its file:
 * they are rare, and a cache would need a process-wide structure and a
 * lock); the session's TimeZone is kept in the session's TzCache
 * (typeio.c).
 *
 * Memory: a DtZone is palloc'd in the current memory context; it holds
 * no pointers, so tdb_dt_zone_copy moves it anywhere.
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
#define TZ_CHARS_SIZE (2 * (TZ_STRLEN_MAX + 1))

#define SECSPERDAY 86400
#define DAYSPERWEEK 7
#define EPOCH_YEAR 1970
#define YEARSPERREPEAT 400
#define AVGSECSPERYEAR INT64_C(31556952)
#define SECSPERREPEAT ((int64)YEARSPERREPEAT * AVGSECSPERYEAR)
/*
 * The rule of a POSIX zone with daylight time but no rule.  (PostgreSQL
 * no longer reads the database's "posixrules" file for this.)
 */
#define TZDEFRULESTRING ",M3.2.0,M11.1.0"

typedef struct TzType {
    int32 utoff;   /* seconds east of UTC */
    bool isdst;
    int desigidx;  /* abbreviation: an index into chars */
    bool ttisstd;  /* transition time was standard time */
    bool ttisut;   /* transition time was UT */
} TzType;

struct DtZone {
    int timecnt;
    int typecnt;
    int charcnt;
    int defaulttype; /* the type before the first transition */
    bool goback;  /* instants before the table repeat by 400 years */
    bool goahead; /* and after it */
    bool has_leaps; /* the file lists leap seconds (which are ignored) */
    int64 ats[TZ_MAX_TIMES];
    uint16 types[TZ_MAX_TIMES];
    TzType ttis[TZ_MAX_TYPES + 2];
    char chars[TZ_CHARS_SIZE];
};

static const int mon_lengths[2][12] = {
    {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31},
    {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}};
static const int year_lengths[2] = {365, 366};

static void
init_ttinfo(TzType *t, int32 utoff, bool isdst, int desigidx)
{
    t->utoff = utoff;
    t->isdst = isdst;
    t->desigidx = desigidx;
    t->ttisstd = false;
    t->ttisut = false;
}

/* *tp += j unless that overflows (true then). */
static bool
increment_overflow_time(int64 *tp, int64 j)
{
    return __builtin_add_overflow(*tp, j, tp);
}

/* ----------------------------------------------------------------------
 * POSIX TZ strings (PostgreSQL's tzparse)
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
get_secs(const char *p, int32 *secsp)
{
    int num;

    p = get_num(p, &num, 0, HOURS_PER_DAY * DAYSPERWEEK - 1);
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
get_offset(const char *p, int32 *offsetp)
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

typedef enum RuleType {
    JULIAN_DAY,
    DAY_OF_YEAR,
    MONTH_NTH_DAY_OF_WEEK
} RuleType;

typedef struct Rule {
    RuleType r_type;
    int r_day;
    int r_week;
    int r_mon;
    int32 r_time; /* seconds after midnight */
} Rule;

/* A DST rule: Jn, n, or Mm.w.d, then an optional /time (default 2:00). */
static const char *
get_rule(const char *p, Rule *rule)
{
    if (*p == 'J') {
        rule->r_type = JULIAN_DAY;
        p = get_num(p + 1, &rule->r_day, 1, 365);
    } else if (*p == 'M') {
        rule->r_type = MONTH_NTH_DAY_OF_WEEK;
        p = get_num(p + 1, &rule->r_mon, 1, 12);
        if (p == NULL || *p++ != '.')
            return NULL;
        p = get_num(p, &rule->r_week, 1, 5);
        if (p == NULL || *p++ != '.')
            return NULL;
        p = get_num(p, &rule->r_day, 0, DAYSPERWEEK - 1);
    } else if (tz_isdigit(*p)) {
        rule->r_type = DAY_OF_YEAR;
        p = get_num(p, &rule->r_day, 0, 365);
    } else
        return NULL;
    if (p == NULL)
        return NULL;
    if (*p == '/')
        p = get_offset(p + 1, &rule->r_time);
    else
        rule->r_time = 2 * SECS_PER_HOUR;
    return p;
}

/*
 * The year-relative time at which the rule's transition happens in year
 * (offset: the UT offset in effect before it, seconds west).
 */
static int32
transtime(int year, const Rule *rule, int32 offset)
{
    bool leapyear = isleap(year);
    int32 value = 0;

    switch (rule->r_type) {
    case JULIAN_DAY:
        /* Jn: 1 is January 1, 60 is March 1 even in leap years */
        value = (rule->r_day - 1) * SECSPERDAY;
        if (leapyear && rule->r_day >= 60)
            value += SECSPERDAY;
        break;
    case DAY_OF_YEAR:
        value = rule->r_day * SECSPERDAY;
        break;
    case MONTH_NTH_DAY_OF_WEEK: {
        /* Zeller's congruence: the weekday of the month's first day */
        int m1 = (rule->r_mon + 9) % 12 + 1;
        int yy0 = rule->r_mon <= 2 ? year - 1 : year;
        int yy1 = yy0 / 100;
        int yy2 = yy0 % 100;
        int dow = ((26 * m1 - 2) / 10 + 1 + yy2 + yy2 / 4 + yy1 / 4 - 2 * yy1) %
                  7;
        int d;

        if (dow < 0)
            dow += DAYSPERWEEK;
        /* the day of the month (from 0) of the first such weekday, then
         * the nth (or the last, for week 5) */
        d = rule->r_day - dow;
        if (d < 0)
            d += DAYSPERWEEK;
        for (int i = 1; i < rule->r_week; ++i) {
            if (d + DAYSPERWEEK >= mon_lengths[leapyear][rule->r_mon - 1])
                break;
            d += DAYSPERWEEK;
        }
        value = d * SECSPERDAY;
        for (int i = 0; i < rule->r_mon - 1; ++i)
            value += mon_lengths[leapyear][i] * SECSPERDAY;
        break;
    }
    }
    return value + rule->r_time + offset;
}

/*
 * Parse a POSIX TZ string into sp as PostgreSQL's tzparse does (it allows
 * an empty standard abbreviation).  Returns false if it is not one.
 */
static bool
tzparse(const char *name, DtZone *sp)
{
    const char *stdname = name;
    const char *dstname = NULL;
    Size stdlen;
    Size dstlen = 0;
    Size charcnt;
    int32 stdoffset;
    int32 dstoffset;

    if (*name == '<') {
        name++;
        stdname = name;
        name = get_qzname(name, '>');
        if (*name != '>')
            return false;
        stdlen = (Size)(name - stdname);
        name++;
    } else {
        name = get_zname(name);
        stdlen = (Size)(name - stdname);
    }
    if (*name == '\0')
        return false;
    name = get_offset(name, &stdoffset);
    if (name == NULL)
        return false;
    charcnt = stdlen + 1;
    if (charcnt > TZ_CHARS_SIZE)
        return false;
    memset(sp, 0, offsetof(DtZone, ats));

    if (*name != '\0') {
        if (*name == '<') {
            dstname = ++name;
            name = get_qzname(name, '>');
            if (*name != '>')
                return false;
            dstlen = (Size)(name - dstname);
            name++;
        } else {
            dstname = name;
            name = get_zname(name);
            dstlen = (Size)(name - dstname);
        }
        if (dstlen == 0)
            return false;
        charcnt += dstlen + 1;
        if (charcnt > TZ_CHARS_SIZE)
            return false;
        if (*name != '\0' && *name != ',' && *name != ';') {
            name = get_offset(name, &dstoffset);
            if (name == NULL)
                return false;
        } else
            dstoffset = stdoffset - SECS_PER_HOUR;
        if (*name == '\0')
            name = TZDEFRULESTRING;
        if (*name != ',' && *name != ';')
            return false;
        {
            Rule start;
            Rule end;
            int year;
            int yearbeg;
            int yearlim;
            int timecnt;
            int64 janfirst;
            int32 janoffset = 0;

            name++;
            if ((name = get_rule(name, &start)) == NULL)
                return false;
            if (*name++ != ',')
                return false;
            if ((name = get_rule(name, &end)) == NULL)
                return false;
            if (*name != '\0')
                return false;
            sp->typecnt = 2;
            /* two transitions a year, from 200 years before 1970 on */
            init_ttinfo(&sp->ttis[0], -stdoffset, false, 0);
            init_ttinfo(&sp->ttis[1], -dstoffset, true, (int)stdlen + 1);
            timecnt = 0;
            janfirst = 0;
            yearbeg = EPOCH_YEAR;
            do {
                int32 yearsecs =
                    year_lengths[isleap(yearbeg - 1)] * SECSPERDAY;

                yearbeg--;
                if (increment_overflow_time(&janfirst, -yearsecs)) {
                    janoffset = -yearsecs;
                    break;
                }
            } while (EPOCH_YEAR - YEARSPERREPEAT / 2 < yearbeg);

            yearlim = yearbeg + YEARSPERREPEAT + 1;
            for (year = yearbeg; year < yearlim; year++) {
                int32 starttime = transtime(year, &start, stdoffset);
                int32 endtime = transtime(year, &end, dstoffset);
                int32 yearsecs = year_lengths[isleap(year)] * SECSPERDAY;
                bool reversed = endtime < starttime;

                if (reversed) {
                    int32 swap = starttime;

                    starttime = endtime;
                    endtime = swap;
                }
                if (reversed ||
                    (starttime < endtime &&
                     (endtime - starttime < (yearsecs + (stdoffset -
                                                         dstoffset))))) {
                    if (TZ_MAX_TIMES - 2 < timecnt)
                        break;
                    sp->ats[timecnt] = janfirst;
                    if (!increment_overflow_time(&sp->ats[timecnt],
                                                 janoffset + starttime))
                        sp->types[timecnt++] = !reversed;
                    sp->ats[timecnt] = janfirst;
                    if (!increment_overflow_time(&sp->ats[timecnt],
                                                 janoffset + endtime)) {
                        sp->types[timecnt++] = reversed;
                        yearlim = year + YEARSPERREPEAT + 1;
                    }
                }
                if (increment_overflow_time(&janfirst, janoffset + yearsecs))
                    break;
                janoffset = 0;
            }
            sp->timecnt = timecnt;
            if (timecnt == 0) {
                /* perpetual daylight time */
                sp->ttis[0] = sp->ttis[1];
                sp->typecnt = 1;
            } else if (YEARSPERREPEAT < year - yearbeg)
                sp->goback = sp->goahead = true;
        }
    } else {
        /* standard time only */
        sp->typecnt = 1;
        sp->timecnt = 0;
        init_ttinfo(&sp->ttis[0], -stdoffset, false, 0);
    }
    sp->charcnt = (int)charcnt;
    memcpy(sp->chars, stdname, stdlen);
    sp->chars[stdlen] = '\0';
    if (dstlen != 0) {
        memcpy(sp->chars + stdlen + 1, dstname, dstlen);
        sp->chars[stdlen + 1 + dstlen] = '\0';
    }
    return true;
}

/* ----------------------------------------------------------------------
 * The time zone database (PostgreSQL's tzload)
 * ---------------------------------------------------------------------- */

/*
 * In directory path, the entry whose name equals name[0..len) ignoring
 * case (entries starting with '.' never match); its real name is
 * appended to path.  Returns false if none.
 */
static bool
scan_directory_ci(char *path, Size pathlen, const char *name, int len)
{
    DIR *d = opendir(path);
    struct dirent *de;
    bool found = false;
    Size used = strlen(path);

    if (d == NULL)
        return false;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        if ((int)strlen(de->d_name) == len &&
            strncasecmp(de->d_name, name, (Size)len) == 0) {
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

static int64
be64(const uint8 *p)
{
    return (int64)(((uint64)be32(p) << 32) | be32(p + 4));
}

/*
 * The file of name in the database, read whole (palloc'd); NULL if none.
 * canon (if not NULL, TZ_STRLEN_MAX + 1 bytes) receives the name with
 * each part spelled as the directory spells it ("America/New_York").
 */
static uint8 *
read_zone_file(const char *name, Size *len, char *canon)
{
    const char *dirname = getenv("TZDIR");
    char path[1024];
    uint8 *buf;
    FILE *f;

    if (dirname == NULL || *dirname == '\0')
        dirname = "/usr/share/zoneinfo";
    if (name[0] == ':')
        name++;
    snprintf(path, sizeof(path), "%s", dirname);
    if (strlen(path) + 1 + strlen(name) >= sizeof(path))
        return NULL;
    for (;;) {
        const char *slash = strchr(name, '/');
        int len1 = slash != NULL ? (int)(slash - name) : (int)strlen(name);

        if (!scan_directory_ci(path, sizeof(path), name, len1))
            return NULL;
        if (slash == NULL)
            break;
        name = slash + 1;
    }
    if (canon != NULL)
        snprintf(canon, TZ_STRLEN_MAX + 1, "%s", path + strlen(dirname) + 1);
    /* allocate first: nothing may raise while the file is open */
    buf = tdb_palloc(TZ_MAX_FILE);
    f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    *len = fread(buf, 1, TZ_MAX_FILE, f);
    if (ferror(f) || *len == TZ_MAX_FILE) {
        fclose(f);
        return NULL;
    }
    fclose(f);
    return buf;
}

/* Are types a and b of sp the same in every respect? */
static bool
types_equivalent(const DtZone *sp, int a, int b)
{
    const TzType *ap;
    const TzType *bp;

    if (a < 0 || a >= sp->typecnt || b < 0 || b >= sp->typecnt)
        return false;
    ap = &sp->ttis[a];
    bp = &sp->ttis[b];
    return ap->utoff == bp->utoff && ap->isdst == bp->isdst &&
           ap->ttisstd == bp->ttisstd && ap->ttisut == bp->ttisut &&
           strcmp(&sp->chars[ap->desigidx], &sp->chars[bp->desigidx]) == 0;
}

/*
 * The type in force before the first transition, chosen as PostgreSQL's
 * tzload chooses it: type 0 if no transition uses it; else, if the first
 * transition is to daylight time, the nearest standard type numbered
 * below it; else the first standard type (type 0 if none).  Files from
 * current zic always give type 0; the rest is for older files.
 */
static int
infer_default_type(const DtZone *sp)
{
    int i;

    for (i = 0; i < sp->timecnt; i++)
        if (sp->types[i] == 0)
            break;
    if (i >= sp->timecnt)
        return 0;
    if (sp->timecnt > 0 && sp->ttis[sp->types[0]].isdst) {
        for (i = sp->types[0] - 1; i >= 0; i--)
            if (!sp->ttis[i].isdst)
                return i;
    }
    for (i = 0; i < sp->typecnt; i++)
        if (!sp->ttis[i].isdst)
            return i;
    return 0;
}

/*
 * Load the database zone name into sp; with doextend, append the
 * transitions of the file's footer rule.  Returns false if there is no
 * such file or its data is not valid TZif.
 */
static bool
tzload(const char *name, DtZone *sp, bool doextend, char *canon)
{
    Size len = 0;
    uint8 *buf = read_zone_file(name, &len, canon);
    const uint8 *p = buf;
    const uint8 *end;

    if (buf == NULL)
        return false;
    end = buf + len;
    memset(sp, 0, offsetof(DtZone, ats));
    for (int pass = 0; pass < 2; pass++) {
        int stored = pass == 0 ? 4 : 8;
        int32 ttisutcnt, ttisstdcnt, leapcnt, timecnt, typecnt, charcnt;
        Size datalen;
        const uint8 *q;
        int kept = 0;

        if (end - p < 44 || memcmp(p, "TZif", 4) != 0)
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
        datalen = (Size)timecnt * (Size)stored + (Size)timecnt +
                  (Size)typecnt * 6 + (Size)charcnt +
                  (Size)leapcnt * (Size)(stored + 4) + (Size)ttisstdcnt +
                  (Size)ttisutcnt;
        if ((Size)(end - p) < 44 + datalen)
            return false;
        q = p + 44;
        sp->timecnt = timecnt;
        sp->typecnt = typecnt;
        sp->charcnt = charcnt;
        /* transitions, an equal or earlier one replacing its predecessor */
        for (int i = 0; i < timecnt; i++) {
            int64 at = stored == 4 ? (int64)(int32)be32(q) : be64(q);

            if (kept > 0 && at <= sp->ats[kept - 1]) {
                if (at < sp->ats[kept - 1])
                    return false;
                kept--;
            }
            sp->ats[kept++] = at;
            q += stored;
        }
        {
            /* the types of the kept transitions (a replaced one drops) */
            int k = 0;
            int64 prev = 0;

            for (int i = 0; i < timecnt; i++) {
                int64 at = stored == 4
                               ? (int64)(int32)be32(p + 44 + (Size)i * 4)
                               : be64(p + 44 + (Size)i * 8);
                uint8 typ = q[i];

                if (typ >= typecnt)
                    return false;
                if (k > 0 && at == prev)
                    k--;
                sp->types[k++] = typ;
                prev = at;
            }
        }
        q += timecnt;
        sp->timecnt = kept;
        for (int i = 0; i < typecnt; i++) {
            TzType *t = &sp->ttis[i];

            t->utoff = (int32)be32(q);
            if (q[4] > 1 || q[5] >= charcnt)
                return false;
            t->isdst = q[4] != 0;
            t->desigidx = q[5];
            q += 6;
        }
        memcpy(sp->chars, q, (Size)charcnt);
        sp->chars[charcnt] = '\0';
        q += charcnt;
        q += (Size)leapcnt * (Size)(stored + 4); /* leap seconds: ignored */
        if (leapcnt > 0)
            sp->has_leaps = true;
        for (int i = 0; i < typecnt; i++) {
            sp->ttis[i].ttisstd = ttisstdcnt != 0 && q[i] != 0;
            if (ttisstdcnt != 0 && q[i] > 1)
                return false;
        }
        q += ttisstdcnt;
        for (int i = 0; i < typecnt; i++) {
            sp->ttis[i].ttisut = ttisutcnt != 0 && q[i] != 0;
            if (ttisutcnt != 0 && q[i] > 1)
                return false;
        }
        q += ttisutcnt;
        p = q;
        /* an old file ends here; a newer one has the 64-bit data next */
        if (buf[4] == '\0')
            break;
    }

    /* the footer's rule, for instants after the last transition */
    if (doextend && end - p > 2 && p[0] == '\n' && buf[4] != '\0') {
        const uint8 *nl = memchr(p + 1, '\n', (Size)(end - p - 1));
        DtZone *ts = tdb_palloc(sizeof(DtZone));
        char rule[TZ_STRLEN_MAX + 1];

        if (nl != NULL && nl - p - 1 <= TZ_STRLEN_MAX) {
            snprintf(rule, sizeof(rule), "%.*s", (int)(nl - p - 1),
                     (const char *)p + 1);
            if (tzparse(rule, ts)) {
                int gotabbr = 0;
                int charcnt = sp->charcnt;

                /* reuse the file's abbreviations where they match */
                for (int i = 0; i < ts->typecnt; i++) {
                    char *tsabbr = ts->chars + ts->ttis[i].desigidx;
                    int j;

                    for (j = 0; j < charcnt; j++)
                        if (strcmp(sp->chars + j, tsabbr) == 0) {
                            ts->ttis[i].desigidx = j;
                            gotabbr++;
                            break;
                        }
                    if (!(j < charcnt)) {
                        int tsabbrlen = (int)strlen(tsabbr);

                        if (j + tsabbrlen < TZ_MAX_CHARS) {
                            strcpy(sp->chars + j, tsabbr);
                            charcnt = j + tsabbrlen + 1;
                            ts->ttis[i].desigidx = j;
                            gotabbr++;
                        }
                    }
                }
                if (gotabbr == ts->typecnt) {
                    int i;

                    sp->charcnt = charcnt;
                    /* drop trailing no-op transitions */
                    while (1 < sp->timecnt &&
                           sp->types[sp->timecnt - 1] ==
                               sp->types[sp->timecnt - 2])
                        sp->timecnt--;
                    for (i = 0; i < ts->timecnt; i++)
                        if (sp->timecnt == 0 ||
                            sp->ats[sp->timecnt - 1] < ts->ats[i])
                            break;
                    while (i < ts->timecnt && sp->timecnt < TZ_MAX_TIMES) {
                        sp->ats[sp->timecnt] = ts->ats[i];
                        sp->types[sp->timecnt] =
                            (uint16)(sp->typecnt + ts->types[i]);
                        sp->timecnt++;
                        i++;
                    }
                    for (i = 0; i < ts->typecnt; i++)
                        sp->ttis[sp->typecnt++] = ts->ttis[i];
                }
            }
        }
        tdb_pfree(ts);
    }
    if (sp->typecnt == 0)
        return false;
    /* do the first and last transitions repeat after 400 years? */
    if (sp->timecnt > 1) {
        for (int i = 1; i < sp->timecnt; ++i)
            if (types_equivalent(sp, sp->types[i], sp->types[0]) &&
                sp->ats[i] - sp->ats[0] == SECSPERREPEAT) {
                sp->goback = true;
                break;
            }
        for (int i = sp->timecnt - 2; i >= 0; --i)
            if (types_equivalent(sp, sp->types[sp->timecnt - 1],
                                 sp->types[i]) &&
                sp->ats[sp->timecnt - 1] - sp->ats[i] == SECSPERREPEAT) {
                sp->goahead = true;
                break;
            }
    }
    sp->defaulttype = infer_default_type(sp);
    tdb_pfree(buf);
    return true;
}

/* ----------------------------------------------------------------------
 * Lookups
 * ---------------------------------------------------------------------- */

const DtZone *
tdb_dt_zone_lookup(const char *name, char *canon)
{
    char uppername[TZ_STRLEN_MAX + 1];
    char found[TZ_STRLEN_MAX + 1];
    DtZone *sp;
    Size i;

    if (strlen(name) > TZ_STRLEN_MAX)
        return NULL;
    for (i = 0; name[i] != '\0'; i++)
        uppername[i] = (name[i] >= 'a' && name[i] <= 'z')
                           ? (char)(name[i] - ('a' - 'A'))
                           : name[i];
    uppername[i] = '\0';
    sp = tdb_palloc(sizeof(DtZone));
    /* "GMT" is always UTC, never a file */
    if (strcmp(uppername, "GMT") == 0) {
        memset(sp, 0, offsetof(DtZone, ats));
        sp->typecnt = 1;
        init_ttinfo(&sp->ttis[0], 0, false, 0);
        strcpy(sp->chars, "GMT");
        sp->charcnt = 4;
        if (canon != NULL)
            strcpy(canon, uppername);
        return sp;
    }
    if (tzload(uppername, sp, true, found)) {
        if (canon != NULL)
            strcpy(canon, found);
        return sp;
    }
    if (uppername[0] == ':' || !tzparse(uppername, sp)) {
        tdb_pfree(sp);
        return NULL;
    }
    /* a POSIX string is known by its upper-case spelling */
    if (canon != NULL)
        strcpy(canon, uppername);
    return sp;
}

const DtZone *
tdb_dt_zone_load(const char *name)
{
    return tdb_dt_zone_lookup(name, NULL);
}

/* UTC without a file: one type, offset 0, abbreviation "UTC". */
static const DtZone utc_zone = {
    .timecnt = 0,
    .typecnt = 1,
    .charcnt = 4,
    .ttis = {{.utoff = 0, .isdst = false, .desigidx = 0}},
    .chars = "UTC",
};

const DtZone *
tdb_dt_zone_utc(void)
{
    return &utc_zone;
}

DtZone *
tdb_dt_zone_copy(const DtZone *zone, MemoryContext cxt)
{
    DtZone *copy = tdb_mcxt_alloc(cxt, sizeof(DtZone));

    memcpy(copy, zone, sizeof(DtZone));
    return copy;
}

bool
tdb_dt_zone_has_leap_seconds(const DtZone *zone)
{
    return zone->has_leaps;
}

int
tdb_dt_zone_utoff(const DtZone *sp, int64 t, bool *isdst,
                  const char **abbrev)
{
    const TzType *tt;
    int i;

    if ((sp->goback && t < sp->ats[0]) ||
        (sp->goahead && t > sp->ats[sp->timecnt - 1])) {
        /* whole 400-year cycles repeat the table's offsets exactly */
        int64 seconds = (t < sp->ats[0] ? sp->ats[0] - t
                                        : t - sp->ats[sp->timecnt - 1]) -
                        1;
        int64 shift = (seconds / SECSPERREPEAT + 1) * SECSPERREPEAT;

        t += t < sp->ats[0] ? shift : -shift;
    }
    if (sp->timecnt == 0 || t < sp->ats[0])
        i = sp->defaulttype;
    else {
        int lo = 1;
        int hi = sp->timecnt;

        while (lo < hi) {
            int mid = (lo + hi) >> 1;

            if (t < sp->ats[mid])
                hi = mid;
            else
                lo = mid + 1;
        }
        i = sp->types[lo - 1];
    }
    tt = &sp->ttis[i];
    if (isdst != NULL)
        *isdst = tt->isdst;
    if (abbrev != NULL)
        *abbrev = &sp->chars[tt->desigidx];
    return tt->utoff;
}

bool
tdb_dt_zone_fixed_offset(const DtZone *zone, int *tz)
{
    for (int i = 1; i < zone->typecnt; i++)
        if (zone->ttis[i].utoff != zone->ttis[0].utoff)
            return false;
    *tz = -zone->ttis[0].utoff;
    return true;
}

/* The lowest-numbered standard-time type (type 0 if none). */
static int
first_standard_type(const DtZone *sp)
{
    int i = 0;

    while (sp->ttis[i].isdst)
        if (++i >= sp->typecnt)
            return 0;
    return i;
}

/*
 * PostgreSQL's pg_next_dst_boundary: the offsets before and after the
 * first transition after instant t, and that transition's instant.
 * Returns 0 if there is none (only *before_* set), 1 if there is one,
 * -1 if the instant is out of reach.
 */
static int
next_dst_boundary(int64 t, const DtZone *sp, int32 *before_gmtoff,
                  bool *before_isdst, int64 *boundary, int32 *after_gmtoff,
                  bool *after_isdst)
{
    const TzType *tt;
    int i;

    if (sp->timecnt == 0) {
        tt = &sp->ttis[first_standard_type(sp)];
        *before_gmtoff = tt->utoff;
        *before_isdst = tt->isdst;
        return 0;
    }
    if ((sp->goback && t < sp->ats[0]) ||
        (sp->goahead && t > sp->ats[sp->timecnt - 1])) {
        /* outside the table: shift by whole 400-year cycles */
        int64 newt = t;
        int64 seconds;
        int64 cycles;
        int result;

        if (t < sp->ats[0])
            seconds = sp->ats[0] - t;
        else
            seconds = t - sp->ats[sp->timecnt - 1];
        --seconds;
        cycles = seconds / YEARSPERREPEAT / AVGSECSPERYEAR + 1;
        seconds = cycles * YEARSPERREPEAT * AVGSECSPERYEAR;
        if (t < sp->ats[0])
            newt += seconds;
        else
            newt -= seconds;
        if (newt < sp->ats[0] || newt > sp->ats[sp->timecnt - 1])
            return -1;
        result = next_dst_boundary(newt, sp, before_gmtoff, before_isdst,
                                   boundary, after_gmtoff, after_isdst);
        if (t < sp->ats[0])
            *boundary -= seconds;
        else
            *boundary += seconds;
        return result;
    }
    if (t >= sp->ats[sp->timecnt - 1]) {
        /* past the last transition: its type holds */
        tt = &sp->ttis[sp->types[sp->timecnt - 1]];
        *before_gmtoff = tt->utoff;
        *before_isdst = tt->isdst;
        return 0;
    }
    if (t < sp->ats[0]) {
        tt = &sp->ttis[first_standard_type(sp)];
        *before_gmtoff = tt->utoff;
        *before_isdst = tt->isdst;
        *boundary = sp->ats[0];
        tt = &sp->ttis[sp->types[0]];
        *after_gmtoff = tt->utoff;
        *after_isdst = tt->isdst;
        return 1;
    }
    {
        int lo = 1;
        int hi = sp->timecnt - 1;

        while (lo < hi) {
            int mid = (lo + hi) >> 1;

            if (t < sp->ats[mid])
                hi = mid;
            else
                lo = mid + 1;
        }
        i = lo;
    }
    tt = &sp->ttis[sp->types[i - 1]];
    *before_gmtoff = tt->utoff;
    *before_isdst = tt->isdst;
    *boundary = sp->ats[i];
    tt = &sp->ttis[sp->types[i]];
    *after_gmtoff = tt->utoff;
    *after_isdst = tt->isdst;
    return 1;
}

/*
 * The offset (seconds west) of local time tm in zone, tm->tm_isdst set,
 * and the UTC instant it denotes in *tp (PostgreSQL's
 * DetermineTimeZoneOffsetInternal).  Dates out of reach are taken as
 * UTC.
 */
static int
zone_offset_internal(DtTm *tm, const DtZone *sp, int64 *tp)
{
    int64 day;
    int64 mytime;
    int64 prevtime;
    int64 boundary = 0;
    int64 beforetime;
    int64 aftertime;
    int32 before_gmtoff;
    int32 after_gmtoff = 0;
    bool before_isdst;
    bool after_isdst = false;
    int res;
    int date;
    int sec;

    if (!IS_VALID_JULIAN(tm->tm_year, tm->tm_mon, tm->tm_mday))
        goto overflow;
    date = tdb_date2j(tm->tm_year, tm->tm_mon, tm->tm_mday) -
           UNIX_EPOCH_JDATE;
    day = (int64)date * SECS_PER_DAY;
    sec = tm->tm_sec + (tm->tm_min + tm->tm_hour * MINS_PER_HOUR) *
                           SECS_PER_MINUTE;
    mytime = day + sec;
    /* the boundary after a day before: zones are less than a day off UTC
     * and never change twice in 48 hours */
    prevtime = mytime - SECS_PER_DAY;
    res = next_dst_boundary(prevtime, sp, &before_gmtoff, &before_isdst,
                            &boundary, &after_gmtoff, &after_isdst);
    if (res < 0)
        goto overflow;
    if (res == 0) {
        tm->tm_isdst = before_isdst;
        *tp = mytime - before_gmtoff;
        return -(int)before_gmtoff;
    }
    beforetime = mytime - before_gmtoff;
    aftertime = mytime - after_gmtoff;
    if (beforetime < boundary && aftertime < boundary) {
        tm->tm_isdst = before_isdst;
        *tp = beforetime;
        return -(int)before_gmtoff;
    }
    if (beforetime > boundary && aftertime >= boundary) {
        tm->tm_isdst = after_isdst;
        *tp = aftertime;
        return -(int)after_gmtoff;
    }
    /* in a gap prefer "before", in an overlap "after" */
    if (beforetime > aftertime) {
        tm->tm_isdst = before_isdst;
        *tp = beforetime;
        return -(int)before_gmtoff;
    }
    tm->tm_isdst = after_isdst;
    *tp = aftertime;
    return -(int)after_gmtoff;

overflow:
    tm->tm_isdst = 0;
    *tp = 0;
    return 0;
}

int
tdb_dt_zone_offset(DtTm *tm, const DtZone *zone)
{
    int64 t;

    return zone_offset_internal(tm, zone, &t);
}

/*
 * The meaning of abbreviation abbr (upper case) in zone at instant t:
 * the latest use before t, else the first after (PostgreSQL's
 * pg_interpret_timezone_abbrev).  false if the zone never uses it.
 */
static bool
interpret_abbrev(const char *abbr, int64 t, const DtZone *sp, int32 *gmtoff,
                 bool *isdst)
{
    int abbrind = 0;
    int cutoff;

    while (abbrind < sp->charcnt) {
        if (strcmp(abbr, sp->chars + abbrind) == 0)
            break;
        while (sp->chars[abbrind] != '\0')
            abbrind++;
        abbrind++;
    }
    if (abbrind >= sp->charcnt)
        return false;
    {
        int lo = 0;
        int hi = sp->timecnt;

        while (lo < hi) {
            int mid = (lo + hi) >> 1;

            if (t < sp->ats[mid])
                hi = mid;
            else
                lo = mid + 1;
        }
        cutoff = lo;
    }
    for (int i = cutoff - 1; i >= 0; i--) {
        const TzType *tt = &sp->ttis[sp->types[i]];

        if (tt->desigidx == abbrind) {
            *gmtoff = tt->utoff;
            *isdst = tt->isdst;
            return true;
        }
    }
    for (int i = cutoff; i < sp->timecnt; i++) {
        const TzType *tt = &sp->ttis[sp->types[i]];

        if (tt->desigidx == abbrind) {
            *gmtoff = tt->utoff;
            *isdst = tt->isdst;
            return true;
        }
    }
    return false;
}

int
tdb_dt_zone_abbrev_offset(DtTm *tm, const char *abbrev, const DtZone *zone)
{
    char upper[TZ_STRLEN_MAX + 1];
    int64 t;
    int zone_offset = zone_offset_internal(tm, zone, &t);
    int32 gmtoff;
    bool isdst;
    Size i;

    for (i = 0; abbrev[i] != '\0' && i < TZ_STRLEN_MAX; i++)
        upper[i] = (abbrev[i] >= 'a' && abbrev[i] <= 'z')
                       ? (char)(abbrev[i] - ('a' - 'A'))
                       : abbrev[i];
    upper[i] = '\0';
    if (interpret_abbrev(upper, t, zone, &gmtoff, &isdst)) {
        tm->tm_isdst = isdst;
        return -(int)gmtoff;
    }
    return zone_offset;
}
