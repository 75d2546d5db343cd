/*
 * datetime_tochar.c -- to_char(timestamp | timestamptz | interval, text):
 * PostgreSQL's date/time formatting templates.
 *
 * The template is cut into nodes as PostgreSQL does: at each position an
 * optional prefix modifier (FM, TM), then the longest keyword among
 * those starting with that character (the keyword table lists longer
 * keywords first: "HH24" before "HH"), then an optional suffix (TH, th,
 * SP); anything else is copied, "double-quoted text" literally (a
 * backslash quotes the next character there), and a backslash before a
 * double quote outside quotes makes the quote literal.  Each keyword
 * node then prints its field:
 *
 *   YYYY YYY YY Y Y,YYY  IYYY IYY IY I  CC  Q  MM  RM  WW W IW  DDD IDDD
 *   DD D ID  J  HH HH12 HH24 MI SS SSSS SSSSS  MS US FF1..FF6
 *   AM PM A.M. P.M. AD BC A.D. B.C. (and lower case)
 *   MONTH Month month MON Mon mon DAY Day day DY Dy dy
 *   TZ tz TZH TZM OF
 *
 * Names are English (lc_time C; TM makes no difference then except that
 * it drops the padding), padded to nine characters unless FM; numbers
 * are zero-padded to their width unless FM; TH/th append an ordinal
 * suffix.  For an interval, fields tied to the calendar (names, D, ID,
 * AD/BC, TZ) are errors and years are not BC-adjusted.  An empty
 * template or an infinite timestamp gives NULL.
 *
 * Entry point: tdb_builtins_datetime_fmt (registry.c).
 */
#include "common/base.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/elog.h"
#include "mmgr/mcxt.h"
#include "types/builtin_rows.h"
#include "types/datetime.h"
#include "types/strutil.h"

/* The broken-down value being printed (hours may be huge for intervals). */
typedef struct FmtTm {
    int tm_sec;
    int tm_min;
    int64 tm_hour;
    int tm_mday;
    int tm_mon;
    int tm_year;
    int tm_wday;
    int tm_yday;
    fsec_t fsec;
    long tm_gmtoff;  /* seconds east of UTC */
    const char *tzn; /* zone abbreviation, NULL for none */
} FmtTm;

typedef enum FmtKey {
    K_A_D, K_A_M, K_AD, K_AM, K_B_C, K_BC, K_CC, K_DAY, K_DDD, K_DD, K_DY,
    K_Day, K_Dy, K_D, K_FF1, K_FF2, K_FF3, K_FF4, K_FF5, K_FF6, K_FX, K_HH24,
    K_HH12, K_HH, K_IDDD, K_ID, K_IW, K_IYYY, K_IYY, K_IY, K_I, K_J, K_MI,
    K_MM, K_MONTH, K_MON, K_MS, K_Month, K_Mon, K_OF, K_P_M, K_PM, K_Q, K_RM,
    K_SSSS, K_SS, K_TZH, K_TZM, K_TZ, K_US, K_WW, K_W, K_Y_YYY, K_YYYY,
    K_YYY, K_YY, K_Y, K_a_d, K_a_m, K_ad, K_am, K_b_c, K_bc, K_day, K_dy,
    K_month, K_mon, K_p_m, K_pm, K_rm, K_tz
} FmtKey;

typedef struct FmtKeyword {
    const char *name;
    FmtKey id;
} FmtKeyword;

/*
 * The keywords, grouped by first character, each group longest first
 * (the first match wins).  Lower-case spellings of numeric fields mean
 * the same as the upper-case ones.
 */
static const FmtKeyword keywords[] = {
    {"A.D.", K_A_D},   {"A.M.", K_A_M},   {"AD", K_AD},       {"AM", K_AM},
    {"B.C.", K_B_C},   {"BC", K_BC},      {"CC", K_CC},       {"DAY", K_DAY},
    {"DDD", K_DDD},    {"DD", K_DD},      {"DY", K_DY},       {"Day", K_Day},
    {"Dy", K_Dy},      {"D", K_D},        {"FF1", K_FF1},     {"FF2", K_FF2},
    {"FF3", K_FF3},    {"FF4", K_FF4},    {"FF5", K_FF5},     {"FF6", K_FF6},
    {"FX", K_FX},      {"HH24", K_HH24},  {"HH12", K_HH12},   {"HH", K_HH},
    {"IDDD", K_IDDD},  {"ID", K_ID},      {"IW", K_IW},       {"IYYY", K_IYYY},
    {"IYY", K_IYY},    {"IY", K_IY},      {"I", K_I},         {"J", K_J},
    {"MI", K_MI},      {"MM", K_MM},      {"MONTH", K_MONTH}, {"MON", K_MON},
    {"MS", K_MS},      {"Month", K_Month}, {"Mon", K_Mon},    {"OF", K_OF},
    {"P.M.", K_P_M},   {"PM", K_PM},      {"Q", K_Q},         {"RM", K_RM},
    {"SSSSS", K_SSSS}, {"SSSS", K_SSSS},  {"SS", K_SS},       {"TZH", K_TZH},
    {"TZM", K_TZM},    {"TZ", K_TZ},      {"US", K_US},       {"WW", K_WW},
    {"W", K_W},        {"Y,YYY", K_Y_YYY}, {"YYYY", K_YYYY},  {"YYY", K_YYY},
    {"YY", K_YY},      {"Y", K_Y},        {"a.d.", K_a_d},    {"a.m.", K_a_m},
    {"ad", K_ad},      {"am", K_am},      {"b.c.", K_b_c},    {"bc", K_bc},
    {"cc", K_CC},      {"day", K_day},    {"ddd", K_DDD},     {"dd", K_DD},
    {"dy", K_dy},      {"d", K_D},        {"ff1", K_FF1},     {"ff2", K_FF2},
    {"ff3", K_FF3},    {"ff4", K_FF4},    {"ff5", K_FF5},     {"ff6", K_FF6},
    {"fx", K_FX},      {"hh24", K_HH24},  {"hh12", K_HH12},   {"hh", K_HH},
    {"iddd", K_IDDD},  {"id", K_ID},      {"iw", K_IW},       {"iyyy", K_IYYY},
    {"iyy", K_IYY},    {"iy", K_IY},      {"i", K_I},         {"j", K_J},
    {"mi", K_MI},      {"mm", K_MM},      {"month", K_month}, {"mon", K_mon},
    {"ms", K_MS},      {"of", K_OF},      {"p.m.", K_p_m},    {"pm", K_pm},
    {"q", K_Q},        {"rm", K_rm},      {"sssss", K_SSSS},  {"ssss", K_SSSS},
    {"ss", K_SS},      {"tzh", K_TZH},    {"tzm", K_TZM},     {"tz", K_tz},
    {"us", K_US},      {"ww", K_WW},      {"w", K_W},
    {"y,yyy", K_Y_YYY},
    {"yyyy", K_YYYY},  {"yyy", K_YYY},    {"yy", K_YY},       {"y", K_Y},
};

/* Modifiers */
#define S_FM 0x01
#define S_TH 0x02
#define S_th 0x04
#define S_SP 0x08
#define S_TM 0x10

static const char *const months_upper_roman[] = {
    "XII", "XI", "X", "IX", "VIII", "VII", "VI", "V", "IV", "III", "II", "I"};
static const char *const months_lower_roman[] = {
    "xii", "xi", "x", "ix", "viii", "vii", "vi", "v", "iv", "iii", "ii", "i"};
static const char *const days_short[] = {"Sun", "Mon", "Tue", "Wed",
                                         "Thu", "Fri", "Sat"};

/* The keyword at str, or NULL. */
static const FmtKeyword *
keyword_at(const char *str)
{
    if (*str <= ' ' || *str > '~')
        return NULL;
    for (Size i = 0; i < lengthof(keywords); i++) {
        if (keywords[i].name[0] != *str)
            continue;
        /* the group of this first character, longest first */
        for (; i < lengthof(keywords) && keywords[i].name[0] == *str; i++)
            if (strncmp(str, keywords[i].name, strlen(keywords[i].name)) == 0)
                return &keywords[i];
        return NULL;
    }
    return NULL;
}

/* Output buffer */
typedef struct Out {
    char *buf;
    Size len;
    Size cap;
} Out;

static void
out_grow(Out *o, Size extra)
{
    if (o->len + extra + 1 > o->cap) {
        Size cap = o->cap * 2 + extra + 64;
        char *nb = tdb_palloc(cap);

        memcpy(nb, o->buf, o->len);
        o->buf = nb;
        o->cap = cap;
    }
}

static void
out_str(Out *o, const char *s)
{
    Size n = strlen(s);

    out_grow(o, n);
    memcpy(o->buf + o->len, s, n);
    o->len += n;
    o->buf[o->len] = '\0';
}

static void out_fmt(Out *o, const char *fmt, ...) TDB_PRINTF(2, 3);

static void
out_fmt(Out *o, const char *fmt, ...)
{
    char tmp[128];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(tmp, sizeof(tmp), fmt, ap);
    va_end(ap);
    out_str(o, tmp);
}

/* The ordinal suffix for the number just written (starting at start). */
static void
out_ordinal(Out *o, Size start, bool upper)
{
    const char *num = o->buf + start;
    Size len = o->len - start;
    char last;

    if (len == 0 || num[len - 1] < '0' || num[len - 1] > '9')
        ereport(ERROR, errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
                errmsg("\"%s\" is not a number", num));
    last = num[len - 1];
    /* 11th, 12th, 13th, ... 111th */
    if (len > 1 && num[len - 2] == '1')
        last = '0';
    switch (last) {
    case '1':
        out_str(o, upper ? "ST" : "st");
        break;
    case '2':
        out_str(o, upper ? "ND" : "nd");
        break;
    case '3':
        out_str(o, upper ? "RD" : "rd");
        break;
    default:
        out_str(o, upper ? "TH" : "th");
        break;
    }
}

/* A name in upper, initial-capital or lower case, padded to 9 unless
 * FM or TM. */
static void
out_name(Out *o, const char *name, int caseform, int suffix, bool pad)
{
    char tmp[32];
    Size n = strlen(name);

    for (Size i = 0; i < n && i < sizeof(tmp) - 1; i++)
        tmp[i] = caseform > 0   ? tdb_c_toupper(name[i])
                 : caseform < 0 ? tdb_c_tolower(name[i])
                                : name[i];
    tmp[n < sizeof(tmp) - 1 ? n : sizeof(tmp) - 1] = '\0';
    if (pad && !(suffix & (S_FM | S_TM)))
        out_fmt(o, "%-9s", tmp);
    else
        out_str(o, tmp);
}

static TDB_NORETURN void
invalid_for_interval(void)
{
    ereport(ERROR, errcode(ERRCODE_INVALID_DATETIME_FORMAT),
            errmsg("invalid format specification for an interval value"),
            errhint("Intervals are not tied to specific calendar dates."));
    __builtin_unreachable();
}

/* The year as printed: intervals as is, dates without year 0. */
static int
adjust_year(int year, bool is_interval)
{
    return is_interval ? year : (year <= 0 ? -(year - 1) : year);
}

/* Print one keyword node. */
static void
format_field(Out *o, FmtKey id, int suffix, const FmtTm *tm, bool is_interval)
{
    Size start = o->len;
    bool fm = (suffix & S_FM) != 0;
    bool numeric = true;
    int i;

#define CHECK_INTERVAL                                                      \
    do {                                                                    \
        if (is_interval)                                                    \
            invalid_for_interval();                                         \
    } while (0)

    switch (id) {
    case K_A_M:
    case K_P_M:
        out_str(o, tm->tm_hour % HOURS_PER_DAY >= HOURS_PER_DAY / 2 ? "P.M."
                                                                    : "A.M.");
        return;
    case K_AM:
    case K_PM:
        out_str(o, tm->tm_hour % HOURS_PER_DAY >= HOURS_PER_DAY / 2 ? "PM"
                                                                    : "AM");
        return;
    case K_a_m:
    case K_p_m:
        out_str(o, tm->tm_hour % HOURS_PER_DAY >= HOURS_PER_DAY / 2 ? "p.m."
                                                                    : "a.m.");
        return;
    case K_am:
    case K_pm:
        out_str(o, tm->tm_hour % HOURS_PER_DAY >= HOURS_PER_DAY / 2 ? "pm"
                                                                    : "am");
        return;
    case K_HH:
    case K_HH12:
        /* a 12-hour clock, even for intervals */
        out_fmt(o, "%0*lld", fm ? 0 : (tm->tm_hour >= 0 ? 2 : 3),
                tm->tm_hour % (HOURS_PER_DAY / 2) == 0
                    ? (long long)(HOURS_PER_DAY / 2)
                    : (long long)(tm->tm_hour % (HOURS_PER_DAY / 2)));
        break;
    case K_HH24:
        out_fmt(o, "%0*lld", fm ? 0 : (tm->tm_hour >= 0 ? 2 : 3),
                (long long)tm->tm_hour);
        break;
    case K_MI:
        out_fmt(o, "%0*d", fm ? 0 : (tm->tm_min >= 0 ? 2 : 3), tm->tm_min);
        break;
    case K_SS:
        out_fmt(o, "%0*d", fm ? 0 : (tm->tm_sec >= 0 ? 2 : 3), tm->tm_sec);
        break;
    case K_FF1:
        out_fmt(o, "%01d", (int)(tm->fsec / 100000));
        break;
    case K_FF2:
        out_fmt(o, "%02d", (int)(tm->fsec / 10000));
        break;
    case K_FF3:
    case K_MS:
        out_fmt(o, "%03d", (int)(tm->fsec / 1000));
        break;
    case K_FF4:
        out_fmt(o, "%04d", (int)(tm->fsec / 100));
        break;
    case K_FF5:
        out_fmt(o, "%05d", (int)(tm->fsec / 10));
        break;
    case K_FF6:
    case K_US:
        out_fmt(o, "%06d", (int)tm->fsec);
        break;
    case K_SSSS:
        out_fmt(o, "%lld",
                (long long)(tm->tm_hour * SECS_PER_HOUR +
                            tm->tm_min * SECS_PER_MINUTE + tm->tm_sec));
        break;
    case K_tz:
        CHECK_INTERVAL;
        if (tm->tzn != NULL) {
            char tmp[64];
            Size n = strlen(tm->tzn);

            for (Size k = 0; k < n && k < sizeof(tmp) - 1; k++)
                tmp[k] = tdb_c_tolower(tm->tzn[k]);
            tmp[n < sizeof(tmp) - 1 ? n : sizeof(tmp) - 1] = '\0';
            out_str(o, tmp);
        }
        return;
    case K_TZ:
        CHECK_INTERVAL;
        if (tm->tzn != NULL)
            out_str(o, tm->tzn);
        return;
    case K_TZH:
        CHECK_INTERVAL;
        out_fmt(o, "%c%02d", tm->tm_gmtoff >= 0 ? '+' : '-',
                abs((int)tm->tm_gmtoff) / SECS_PER_HOUR);
        return;
    case K_TZM:
        CHECK_INTERVAL;
        out_fmt(o, "%02d",
                (abs((int)tm->tm_gmtoff) % SECS_PER_HOUR) / SECS_PER_MINUTE);
        return;
    case K_OF:
        CHECK_INTERVAL;
        out_fmt(o, "%c%0*d", tm->tm_gmtoff >= 0 ? '+' : '-', fm ? 0 : 2,
                abs((int)tm->tm_gmtoff) / SECS_PER_HOUR);
        if (abs((int)tm->tm_gmtoff) % SECS_PER_HOUR != 0)
            out_fmt(o, ":%02d",
                    (abs((int)tm->tm_gmtoff) % SECS_PER_HOUR) /
                        SECS_PER_MINUTE);
        return;
    case K_A_D:
    case K_B_C:
        CHECK_INTERVAL;
        out_str(o, tm->tm_year <= 0 ? "B.C." : "A.D.");
        return;
    case K_AD:
    case K_BC:
        CHECK_INTERVAL;
        out_str(o, tm->tm_year <= 0 ? "BC" : "AD");
        return;
    case K_a_d:
    case K_b_c:
        CHECK_INTERVAL;
        out_str(o, tm->tm_year <= 0 ? "b.c." : "a.d.");
        return;
    case K_ad:
    case K_bc:
        CHECK_INTERVAL;
        out_str(o, tm->tm_year <= 0 ? "bc" : "ad");
        return;
    case K_MONTH:
    case K_Month:
    case K_month:
        CHECK_INTERVAL;
        if (tm->tm_mon == 0)
            return;
        out_name(o, tdb_dt_months_full[tm->tm_mon - 1],
                 id == K_MONTH ? 1 : id == K_month ? -1 : 0, suffix, true);
        return;
    case K_MON:
    case K_Mon:
    case K_mon:
        CHECK_INTERVAL;
        if (tm->tm_mon == 0)
            return;
        out_name(o, tdb_dt_months[tm->tm_mon - 1],
                 id == K_MON ? 1 : id == K_mon ? -1 : 0, suffix, false);
        return;
    case K_MM:
        out_fmt(o, "%0*d", fm ? 0 : (tm->tm_mon >= 0 ? 2 : 3), tm->tm_mon);
        break;
    case K_DAY:
    case K_Day:
    case K_day:
        CHECK_INTERVAL;
        out_name(o, tdb_dt_days[tm->tm_wday],
                 id == K_DAY ? 1 : id == K_day ? -1 : 0, suffix, true);
        return;
    case K_DY:
    case K_Dy:
    case K_dy:
        CHECK_INTERVAL;
        out_name(o, days_short[tm->tm_wday],
                 id == K_DY ? 1 : id == K_dy ? -1 : 0, suffix, false);
        return;
    case K_DDD:
    case K_IDDD:
        out_fmt(o, "%0*d", fm ? 0 : 3,
                id == K_DDD ? tm->tm_yday
                            : tdb_date2isoyearday(tm->tm_year, tm->tm_mon,
                                                  tm->tm_mday));
        break;
    case K_DD:
        out_fmt(o, "%0*d", fm ? 0 : 2, tm->tm_mday);
        break;
    case K_D:
        CHECK_INTERVAL;
        out_fmt(o, "%d", tm->tm_wday + 1);
        break;
    case K_ID:
        CHECK_INTERVAL;
        out_fmt(o, "%d", tm->tm_wday == 0 ? 7 : tm->tm_wday);
        break;
    case K_WW:
        out_fmt(o, "%0*d", fm ? 0 : 2, (tm->tm_yday - 1) / 7 + 1);
        break;
    case K_IW:
        out_fmt(o, "%0*d", fm ? 0 : 2,
                tdb_date2isoweek(tm->tm_year, tm->tm_mon, tm->tm_mday));
        break;
    case K_Q:
        if (tm->tm_mon == 0)
            return;
        out_fmt(o, "%d", (tm->tm_mon - 1) / 3 + 1);
        break;
    case K_CC:
        if (is_interval)
            i = tm->tm_year / 100;
        else if (tm->tm_year > 0)
            i = (tm->tm_year - 1) / 100 + 1; /* century 20 is 1901-2000 */
        else
            i = tm->tm_year / 100 - 1; /* century 6 BC is 600-501 BC */
        if (i <= 99 && i >= -99)
            out_fmt(o, "%0*d", fm ? 0 : (i >= 0 ? 2 : 3), i);
        else
            out_fmt(o, "%d", i);
        break;
    case K_Y_YYY:
        i = adjust_year(tm->tm_year, is_interval) / 1000;
        out_fmt(o, "%d,%03d", i,
                adjust_year(tm->tm_year, is_interval) - (i * 1000));
        break;
    case K_YYYY:
    case K_IYYY:
    case K_YYY:
    case K_IYY:
    case K_YY:
    case K_IY:
    case K_Y:
    case K_I: {
        bool iso = id == K_IYYY || id == K_IYY || id == K_IY || id == K_I;
        int year = adjust_year(
            iso ? tdb_date2isoyear(tm->tm_year, tm->tm_mon, tm->tm_mday)
                : tm->tm_year,
            is_interval);
        int digits = (id == K_YYYY || id == K_IYYY)  ? 4
                     : (id == K_YYY || id == K_IYY) ? 3
                     : (id == K_YY || id == K_IY)   ? 2
                                                    : 1;
        int ayear = adjust_year(tm->tm_year, is_interval);

        if (digits == 4)
            out_fmt(o, "%0*d", fm ? 0 : (ayear >= 0 ? 4 : 5), year);
        else if (digits == 3)
            out_fmt(o, "%0*d", fm ? 0 : (ayear >= 0 ? 3 : 4), year % 1000);
        else if (digits == 2)
            out_fmt(o, "%0*d", fm ? 0 : (ayear >= 0 ? 2 : 3), year % 100);
        else
            out_fmt(o, "%1d", year % 10);
        break;
    }
    case K_RM:
    case K_rm: {
        const char *const *roman =
            id == K_RM ? months_upper_roman : months_lower_roman;
        int mon;

        /* intervals: '12 months' becomes a year and month 0 */
        if (tm->tm_mon == 0 && tm->tm_year == 0)
            return;
        if (tm->tm_mon == 0)
            mon = tm->tm_year >= 0 ? 0 : MONTHS_PER_YEAR - 1;
        else if (tm->tm_mon < 0)
            mon = -1 * (tm->tm_mon + 1);
        else
            mon = MONTHS_PER_YEAR - tm->tm_mon;
        out_fmt(o, "%*s", fm ? 0 : -4, roman[mon]);
        return;
    }
    case K_W:
        out_fmt(o, "%d", (tm->tm_mday - 1) / 7 + 1);
        break;
    case K_J:
        out_fmt(o, "%d", tdb_date2j(tm->tm_year, tm->tm_mon, tm->tm_mday));
        break;
    case K_FX:
        /* only matters when reading */
        numeric = false;
        break;
    }
#undef CHECK_INTERVAL
    if (numeric && (suffix & (S_TH | S_th)))
        out_ordinal(o, start, (suffix & S_TH) != 0);
}

/* A prefix (FM, TM) or suffix (TH, th, SP) modifier at str, or 0. */
static int
modifier_at(const char *str, bool prefix, int *len)
{
    static const struct {
        const char *name;
        int id;
        bool prefix;
    } mods[] = {{"FM", S_FM, true},  {"fm", S_FM, true},  {"TM", S_TM, true},
                {"tm", S_TM, true},  {"TH", S_TH, false}, {"th", S_th, false},
                {"SP", S_SP, false}};

    for (Size i = 0; i < lengthof(mods); i++)
        if (mods[i].prefix == prefix && strncmp(str, mods[i].name, 2) == 0) {
            *len = 2;
            return mods[i].id;
        }
    return 0;
}

/* Format tm by the template (not NUL-terminated, len bytes). */
static char *
format_datetime(const char *tmpl, Size len, const FmtTm *tm, bool is_interval)
{
    char *fmt = tdb_palloc(len + 1);
    const char *str = fmt;
    Out o = {tdb_palloc(len * 4 + 64), 0, len * 4 + 64};

    memcpy(fmt, tmpl, len);
    fmt[len] = '\0';
    o.buf[0] = '\0';
    while (*str) {
        int suffix = 0;
        int mlen;
        int m = modifier_at(str, true, &mlen);
        const FmtKeyword *kw;

        if (m != 0) {
            suffix |= m;
            str += mlen;
        }
        if (*str && (kw = keyword_at(str)) != NULL) {
            str += strlen(kw->name);
            if (*str && (m = modifier_at(str, false, &mlen)) != 0) {
                suffix |= m;
                str += mlen;
            }
            format_field(&o, kw->id, suffix, tm, is_interval);
        } else if (*str == '"') {
            /* quoted text: copied, a backslash quoting the next character */
            str++;
            while (*str) {
                Size chlen;
                char ch[UTF8_MAX_CHAR_LEN + 1];

                if (*str == '"') {
                    str++;
                    break;
                }
                if (*str == '\\' && str[1] != '\0')
                    str++;
                chlen = tdb_utf8_char_len_max(str, strlen(str));
                memcpy(ch, str, chlen);
                ch[chlen] = '\0';
                out_str(&o, ch);
                str += chlen;
            }
        } else if (*str) {
            Size chlen;
            char ch[UTF8_MAX_CHAR_LEN + 1];

            /* a backslash makes a following double quote plain text */
            if (*str == '\\' && str[1] == '"')
                str++;
            chlen = tdb_utf8_char_len_max(str, strlen(str));
            memcpy(ch, str, chlen);
            ch[chlen] = '\0';
            out_str(&o, ch);
            str += chlen;
        }
    }
    return o.buf;
}

static Datum
text_result(const char *s)
{
    Size len = strlen(s);
    varlena *r = tdb_palloc(VARHDRSZ + len);

    SET_VARSIZE(r, VARHDRSZ + len);
    memcpy(VARDATA(r), s, len);
    return PointerGetDatum(r);
}

/* to_char of a timestamp (with_tz: a timestamptz, in the session zone). */
static Datum
timestamp_to_char_common(FunctionCallInfo fcinfo, bool with_tz)
{
    Timestamp dt = DatumGetInt64(PG_GETARG_DATUM(0));
    varlena *fmt = PG_GETARG_VARLENA_P(1);
    DtTm tt;
    fsec_t fsec;
    int tz;
    FmtTm tm;
    int thisdate;

    if (VARSIZE_ANY_EXHDR(fmt) == 0 || TIMESTAMP_NOT_FINITE(dt))
        PG_RETURN_NULL();
    if (!tdb_timestamp2tm(dt, with_tz ? &tz : NULL, &tt, &fsec))
        tdb_dt_error_timestamp_range();
    thisdate = tdb_date2j(tt.tm_year, tt.tm_mon, tt.tm_mday);
    memset(&tm, 0, sizeof(tm));
    tm.tm_sec = tt.tm_sec;
    tm.tm_min = tt.tm_min;
    tm.tm_hour = tt.tm_hour;
    tm.tm_mday = tt.tm_mday;
    tm.tm_mon = tt.tm_mon;
    tm.tm_year = tt.tm_year;
    tm.tm_wday = (thisdate + 1) % 7;
    tm.tm_yday = thisdate - tdb_date2j(tt.tm_year, 1, 1) + 1;
    tm.fsec = fsec;
    /* a timestamptz is shown in the session zone: its offset and name */
    tm.tm_gmtoff = with_tz ? -tz : 0;
    tm.tzn = with_tz ? tt.tm_zone : NULL;
    PG_RETURN_DATUM(text_result(format_datetime(
        VARDATA_ANY(fmt), VARSIZE_ANY_EXHDR(fmt), &tm, false)));
}

static Datum
timestamp_to_char(PG_FUNCTION_ARGS)
{
    return timestamp_to_char_common(fcinfo, false);
}

static Datum
timestamptz_to_char(PG_FUNCTION_ARGS)
{
    return timestamp_to_char_common(fcinfo, true);
}

static Datum
interval_to_char(PG_FUNCTION_ARGS)
{
    Interval span = tdb_interval_get(PG_GETARG_DATUM(0));
    varlena *fmt = PG_GETARG_VARLENA_P(1);
    IntervalFields itm;
    FmtTm tm;

    if (VARSIZE_ANY_EXHDR(fmt) == 0)
        PG_RETURN_NULL();
    tdb_interval2itm(&span, &itm);
    memset(&tm, 0, sizeof(tm));
    tm.fsec = itm.tm_usec;
    tm.tm_sec = itm.tm_sec;
    tm.tm_min = itm.tm_min;
    tm.tm_hour = itm.tm_hour;
    tm.tm_mday = itm.tm_mday;
    tm.tm_mon = itm.tm_mon;
    tm.tm_year = itm.tm_year;
    /* no weekday; the day of the "year" approximates the span in days */
    tm.tm_yday = (tm.tm_year * MONTHS_PER_YEAR + tm.tm_mon) * DAYS_PER_MONTH +
                 tm.tm_mday;
    PG_RETURN_DATUM(text_result(format_datetime(
        VARDATA_ANY(fmt), VARSIZE_ANY_EXHDR(fmt), &tm, true)));
}

static const FuncDesc tochar_funcs[] = {
    /* stable even without a zone: lc_time may name months (PostgreSQL) */
    FUNC_V(2049, "to_char", timestamp_to_char, PROVOLATILE_STABLE, TEXTOID,
           2, TIMESTAMPOID, TEXTOID),
    FUNC_V(1770, "to_char", timestamptz_to_char, PROVOLATILE_STABLE, TEXTOID,
           2, TIMESTAMPTZOID, TEXTOID),
    FUNC_V(1768, "to_char", interval_to_char, PROVOLATILE_STABLE, TEXTOID, 2,
           INTERVALOID, TEXTOID),
};

const BuiltinSet tdb_builtins_datetime_fmt = {
    .name = "to_char",
    .funcs = tochar_funcs,
    .nfuncs = (int)lengthof(tochar_funcs),
};
