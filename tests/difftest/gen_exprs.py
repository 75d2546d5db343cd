#!/usr/bin/env python3
"""gen_exprs.py -- random typed SQL expressions for the differential test.

    gen_exprs.py SEED COUNT > statements.sql

Writes a SQL script: a setup part that creates two small tables of typed
values (`vs`, ordinary values, and `ve`, the edges of every type's range),
then COUNT statements, each evaluating one randomly generated expression
over the rows of one table:

    SELECT id, <expr> FROM vs ORDER BY id;
    SELECT <aggregate>(<expr>) [FILTER (WHERE <bool expr>)] FROM ve;

The same script runs through PostgreSQL 15 and through tupledb (run.sh),
and every statement must print the same rows, or fail with the same
SQLSTATE (the script sets psql's VERBOSITY to sqlstate).

Now and then (SETTINGS_CHANCE) a statement changes a session setting
that type input and output read instead: TimeZone (zones with daylight
saving, half-hour offsets, POSIX strings, fixed offsets), DateStyle,
IntervalStyle or extra_float_digits; the expressions that follow see
it, so each runs under some mix of settings.  A run starts in UTC,
'ISO, MDY', postgres and 1, as both engines do.

How expressions are built: gen(type, depth) picks one production whose
result is `type` (the PRODUCTIONS table: a template and the types of its
operands) and fills its operands recursively; at depth 0, or by chance,
it emits a leaf -- a column of the table or a literal of the type.  Only
deterministic functions appear (no random(), no now()).  Operand types
named "small" are small integer literals, used where a large argument
would only measure memory (repeat, lpad) rather than semantics.  The
generator is seeded, so SEED reproduces a run exactly; adding a type
family means adding its column, literals and productions below.
"""
import random
import sys

# ---------------------------------------------------------------------------
# Values: the columns of the two tables, one per type, and their rows.

COLUMNS = [("i2", "int2"), ("i4", "int4"), ("i8", "int8"),
           ("n", "numeric"), ("t", "text"), ("b", "bool"),
           ("f", "float8"), ("d", "date"), ("ts", "timestamp"),
           ("tz", "timestamptz"), ("iv", "interval")]

ORDINARY_ROWS = [
    ["0", "0", "0", "0", "''", "false",
     "0", "'2000-01-01'", "'2000-01-01 00:00:00'",
     "'2000-01-01 00:00:00+00'", "'0'"],
    ["1", "-1", "1", "1.5", "'a'", "true",
     "1.5", "'2024-02-29'", "'2024-02-29 12:34:56.789'",
     "'2024-02-29 23:59:59+00'", "'1 day 02:03:04'"],
    ["7", "100", "-3", "2.50", "'Hello World'", "NULL",
     "-2.25e10", "'1999-12-31'", "'1999-12-31 23:59:59.999999'",
     "'2021-03-14 02:30:00+00'", "'-1 month'"],
    ["-5", "42", "1000000", "-99.99", "' padded  '", "true",
     "0.1", "'1970-01-01'", "'1970-01-01 00:00:00'",
     "'1970-01-01 00:00:00+00'", "'1 year 2 mons'"],
    ["NULL", "NULL", "NULL", "NULL", "NULL", "NULL",
     "NULL", "NULL", "NULL", "NULL", "NULL"],
    ["3", "-17", "12", "0.001", "'ÄÖü straße'", "false",
     "1e-300", "'1900-02-28'", "'2038-01-19 03:14:07'",
     "'2038-01-19 03:14:07+00'", "'00:00:00.000001'"],
    ["12", "5", "-7", "123456.789", "'12'", "true",
     "'-0'", "'2023-10-29'", "'2023-10-29 01:30:00'",
     "'2023-10-29 01:30:00+00'", "'3 days -04:00:00'"],
]

EDGE_ROWS = [
    ["32767", "2147483647", "9223372036854775807",
     "99999999999999999999.99999999999999999999", "'zzz'", "true",
     "'Infinity'", "'infinity'", "'infinity'", "'infinity'",
     "'178000000 years'"],
    ["-32768", "-2147483648", "-9223372036854775808",
     "-0.00000000000000000001", "'x_y%z'", "false",
     "'-Infinity'", "'-infinity'", "'-infinity'", "'-infinity'",
     "'-178000000 years'"],
    ["-1", "1", "-1", "'NaN'", "'NaN'", "true",
     "'NaN'", "'4713-01-01 BC'", "'4713-01-01 00:00:00 BC'",
     "'4713-01-01 00:00:00+00 BC'", "'-2147483648 days'"],
    ["2", "-2", "2", "1e-5", "'  '", "false",
     "1.7976931348623157e308", "'5874897-12-31'",
     "'294276-12-31 23:59:59.999999'", "'294276-12-31 23:59:59.999999+00'",
     "'2147483647 mons'"],
]

# ---------------------------------------------------------------------------
# Literals per type.

TEXT_POOL = ["''", "'a'", "'abc'", "'Hello'", "' x '", "'%'", "'_'",
             "'a%'", "'%l%'", "'H_llo%'", "'12'", "'-7'", "'1.5'", "'true'",
             "'ß'", "'Ä'", "'lo'", "','", "'x,y,,z'", "'NaN'", "' '"]


def lit_int(rng, bits):
    small = [0, 1, -1, 2, 3, 7, 10, 100, -100, 255]
    lim = (1 << (bits - 1)) - 1
    edge = [lim, -lim - 1, lim - 1]
    v = rng.choice(edge) if rng.random() < 0.1 else rng.choice(small)
    return v


# to_char/to_number templates: mostly valid number patterns, sometimes
# a combination PostgreSQL rejects (42601).
NUMFMT_PARTS = (["", "FM", "fm"], ["", "", "S", "SG", "MI", "PL", "L", '"$"'],
                ["9", "99", "999", "0", "00", "9,999", "9G999", "099", ""],
                ["", "", ".", "D", ".99", "D9", ".00", ".909", "V9", "V99"],
                ["", "", "", "S", "MI", "PL", "PR", "TH", "th", "EEEE", "RN",
                 '" x"'])


def lit_numfmt(rng):
    return "'%s'" % "".join(rng.choice(part) for part in NUMFMT_PARTS)


DATE_FIELDS = ["year", "month", "day", "hour", "minute", "second", "week",
               "quarter", "decade", "century", "millennium", "dow", "doy",
               "epoch", "isodow", "isoyear", "julian", "microseconds",
               "milliseconds", "nosuch"]
TRUNC_FIELDS = ["year", "month", "day", "hour", "minute", "second", "week",
                "quarter", "decade", "century", "millennium",
                "microseconds", "milliseconds", "nosuch"]
DATE_FORMATS = ["YYYY-MM-DD", "HH24:MI:SS.US", "Day, DD Month YYYY",
                "FMDay FMMonth FMDD", "IYYY-IW-ID", "Q CC J", "AM HH12 am",
                'YYYY-MM-DD"T"HH24:MI:SS TZ OF', "WW W DDD", "FMDDth Mon YY",
                "SSSS MS US", "Y,YYY BC", "dy DY mon MON"]
TEMPORAL_LITERALS = {
    "float8": ["1.5::float8", "'NaN'::float8", "'-Infinity'::float8",
               "0.1::float8", "1e308::float8", "(-0.0)::float8",
               "'1e-320'::float8", "3::float8", "2.5e-3::double precision",
               "'1.5'::real::float8", "(-7)::float8"],
    "date": ["'2024-01-31'::date", "date '2000-02-29'", "'epoch'::date",
             "'infinity'::date", "'2023-02-29'::date", "'1999-01-08'::date",
             "'January 8, 1999'::date", "'20240115'::date",
             "'0001-01-01 BC'::date", "'2024-12-31'::date"],
    "timestamp": ["'2024-01-31 12:00:00'::timestamp",
                  "timestamp '2000-02-29 23:59:59.5'", "'epoch'::timestamp",
                  "'infinity'::timestamp", "'2024-01-31T10:11:12'::timestamp",
                  "'1999-01-08 04:05:06.789'::timestamp",
                  "'2024-13-01 00:00'::timestamp"],
    "timestamptz": ["'2024-01-31 12:00:00+02'::timestamptz",
                    "'2000-02-29 23:59:59.5 UTC'::timestamptz",
                    "'epoch'::timestamptz",
                    "'2024-07-01 12:00 America/New_York'::timestamptz",
                    "'infinity'::timestamptz",
                    "'2024-03-10 02:30:00-05'::timestamptz"],
    "interval": ["'1 day'::interval", "interval '1 hour 30 minutes'",
                 "'-1 year 2 mons'::interval", "'P1Y2M3DT4H5M6S'::interval",
                 "'0'::interval", "'1.5 days'::interval",
                 "'@ 1 minute ago'::interval", "'100000 hours'::interval",
                 "'1 mon -1 day'::interval"],
}


def lit_quoted(rng, pool):
    return "'%s'" % rng.choice(pool)


LITERAL_ONLY = ("small", "numfmt", "datefield", "truncfield", "datefmt")


def lit(rng, typ):
    if typ == "numfmt":
        return lit_numfmt(rng)
    if typ == "datefield":
        return lit_quoted(rng, DATE_FIELDS)
    if typ == "truncfield":
        return lit_quoted(rng, TRUNC_FIELDS)
    if typ == "datefmt":
        return lit_quoted(rng, DATE_FORMATS)
    if typ in TEMPORAL_LITERALS:
        if rng.random() < 0.05:
            return "NULL::%s" % typ
        return rng.choice(TEMPORAL_LITERALS[typ])
    if rng.random() < 0.05 and typ != "small":
        return "NULL::%s" % typ
    if typ == "int4":
        v = lit_int(rng, 32)
        return str(v) if v >= 0 else "(%d)" % v
    if typ in ("int2", "int8"):
        v = lit_int(rng, 16 if typ == "int2" else 64)
        form = rng.random()
        if form < 0.4:
            return "%d::%s" % (v, typ) if v >= 0 else "(%d)::%s" % (v, typ)
        if form < 0.7:
            return "'%d'::%s" % (v, typ)
        return "CAST(%d AS %s)" % (v, "smallint" if typ == "int2"
                                   else "bigint")
    if typ == "numeric":
        choices = ["0", "1.5", "-2.25", "0.001", "10", "3.14159",
                   "123456789.987654321", "-0.5", "1e3", "2.5e-3",
                   "'NaN'::numeric", "1.0000", "99.995", "-7", "1e20"]
        v = rng.choice(choices)
        # a literal without '.' or an exponent would be an integer
        if v[0] != "'" and (rng.random() < 0.5 or
                            not any(ch in v for ch in ".e")):
            v = "%s::numeric" % (v if v[0] != "-" else "(" + v + ")")
        return v
    if typ == "text":
        return rng.choice(TEXT_POOL)
    if typ == "bool":
        return rng.choice(["true", "false", "'t'::bool", "'off'::boolean"])
    if typ == "small":
        return str(rng.randint(-2, 12))
    raise ValueError(typ)


# ---------------------------------------------------------------------------
# Productions: result type -> [(template, operand types)].

INTS = ["int2", "int4", "int8"]
NUMS = INTS + ["numeric"]
BASIC = NUMS + ["text", "bool"]
TIMES = ["date", "timestamp", "timestamptz", "interval"]
ALL = BASIC + ["float8"] + TIMES


def wider(a, b):
    return NUMS[max(NUMS.index(a), NUMS.index(b))]


def productions():
    p = {t: [] for t in ALL}
    for a in NUMS:
        for b in NUMS:
            r = wider(a, b)
            # int2 op int2 is int2; PostgreSQL has no int2+int2->int4.
            for op in ["+", "-", "*", "/", "%"]:
                p[r].append(("({0} %s {1})" % op, [a, b]))
    for t in NUMS:
        p[t] += [("(-{0})", [t]), ("abs({0})", [t]), ("mod({0}, {1})", [t, t]),
                 ("greatest({0}, {1})", [t, t]),
                 ("least({0}, {1}, {2})", [t, t, t]),
                 ("coalesce({0}, {1})", [t, t]), ("nullif({0}, {1})", [t, t]),
                 ("CASE WHEN {0} THEN {1} ELSE {2} END", ["bool", t, t]),
                 ("CASE {0} WHEN {1} THEN {2} END", [t, t, t])]
    for t in INTS:
        p[t] += [("({0} & {1})", [t, t]), ("({0} | {1})", [t, t]),
                 ("({0} # {1})", [t, t]), ("(~{0})", [t]),
                 ("({0} << {1})", [t, "small"]), ("({0} >> {1})", [t, "small"])]
        for src in BASIC + ["float8"]:
            if src != t:
                p[t].append(("{0}::%s" % t, [src]))
    p["int4"] += [("length({0})", ["text"]), ("char_length({0})", ["text"]),
                  ("octet_length({0})", ["text"]),
                  ("position({1} in {0})", ["text", "text"]),
                  ("strpos({0}, {1})", ["text", "text"])]
    p["numeric"] += [("round({0})", ["numeric"]),
                     ("round({0}, {1})", ["numeric", "small"]),
                     ("trunc({0}, {1})", ["numeric", "small"]),
                     ("trunc({0})", ["numeric"]), ("ceil({0})", ["numeric"]),
                     ("floor({0})", ["numeric"]),
                     ("sqrt(abs({0}))", ["numeric"]),
                     ("power({0}, {1})", ["numeric", "small"]),
                     ("ln(abs({0}) + 1)", ["numeric"]),
                     ("exp(mod({0}, 10))", ["numeric"])]
    for src in ["int2", "int4", "int8", "text"]:
        p["numeric"].append(("{0}::numeric", [src]))
    p["numeric"].append(("CAST({0} AS numeric(10, 2))", ["numeric"]))
    p["numeric"] += [("to_number({0}, {1})", ["text", "numfmt"]),
                     ("to_number(to_char({0}, {1}), {1})",
                      ["numeric", "numfmt"])]
    for src in ["int4", "int8", "numeric"]:
        p["text"].append(("to_char({0}, {1})", [src, "numfmt"]))
    p["text"] += [("({0} || {1})", ["text", "text"]),
                  ("({0} || {1})", ["text", "int4"]),
                  ("({0} || {1})", ["numeric", "text"]),
                  ("upper({0})", ["text"]), ("lower({0})", ["text"]),
                  ("initcap({0})", ["text"]),
                  ("substr({0}, {1})", ["text", "small"]),
                  ("substr({0}, {1}, {2})", ["text", "int4", "small"]),
                  ("substring({0} from {1} for {2})", ["text", "small", "small"]),
                  ("replace({0}, {1}, {2})", ["text", "text", "text"]),
                  ("repeat({0}, {1})", ["text", "small"]),
                  ("reverse({0})", ["text"]),
                  ("left({0}, {1})", ["text", "small"]),
                  ("right({0}, {1})", ["text", "small"]),
                  ("lpad({0}, {1}, {2})", ["text", "small", "text"]),
                  ("rpad({0}, {1})", ["text", "small"]),
                  ("btrim({0})", ["text"]), ("ltrim({0}, {1})", ["text", "text"]),
                  ("rtrim({0})", ["text"]),
                  ("trim(both {1} from {0})", ["text", "text"]),
                  ("split_part({0}, {1}, {2})", ["text", "text", "small"]),
                  ("md5({0})", ["text"]),
                  ("concat({0}, {1}, {2})", ["text", "int4", "bool"]),
                  ("concat_ws({0}, {1}, {2})", ["text", "text", "numeric"]),
                  ("coalesce({0}, {1})", ["text", "text"]),
                  ("nullif({0}, {1})", ["text", "text"]),
                  ("CASE WHEN {0} THEN {1} END", ["bool", "text"])]
    for src in ["int2", "int4", "int8", "numeric", "bool"]:
        p["text"].append(("{0}::text", [src]))
        p["text"].append(("CAST({0} AS varchar(3))", [src]))
    cmp_ops = ["=", "<>", "<", "<=", ">", ">="]
    for a in NUMS:
        for b in NUMS:
            for op in cmp_ops:
                p["bool"].append(("({0} %s {1})" % op, [a, b]))
    for t in ALL:
        p["bool"] += [("({0} IS NULL)", [t]), ("({0} IS NOT NULL)", [t]),
                      ("({0} IS DISTINCT FROM {1})", [t, t]),
                      ("({0} IS NOT DISTINCT FROM {1})", [t, t]),
                      ("({0} IN ({1}, {2}))", [t, t, t]),
                      ("({0} NOT IN ({1}, {2}))", [t, t, t])]
    for t in NUMS + ["text"]:
        p["bool"] += [("({0} BETWEEN {1} AND {2})", [t, t, t])]
    for op in cmp_ops:
        p["bool"].append(("({0} %s {1})" % op, ["text", "text"]))
    p["bool"] += [("({0} AND {1})", ["bool", "bool"]),
                  ("({0} OR {1})", ["bool", "bool"]), ("(NOT {0})", ["bool"]),
                  ("({0} IS TRUE)", ["bool"]), ("({0} IS NOT FALSE)", ["bool"]),
                  ("({0} IS UNKNOWN)", ["bool"]),
                  ("({0} LIKE {1})", ["text", "text"]),
                  ("({0} NOT LIKE {1})", ["text", "text"]),
                  ("({0} ILIKE {1})", ["text", "text"]),
                  ("starts_with({0}, {1})", ["text", "text"]),
                  ("{0}::bool", ["text"]), ("{0}::bool", ["int4"])]
    float_productions(p)
    temporal_productions(p)
    return p


def float_productions(p):
    """float8: arithmetic mixed with integers and numeric, math
    functions (the same libm serves both servers), casts, to_char."""
    for a, b in [("float8", "float8"), ("float8", "int4"), ("int4", "float8"),
                 ("float8", "numeric"), ("int8", "float8")]:
        for op in ["+", "-", "*", "/"]:
            p["float8"].append(("({0} %s {1})" % op, [a, b]))
    p["float8"] += [
        ("(-{0})", ["float8"]), ("abs({0})", ["float8"]),
        ("sqrt(abs({0}))", ["float8"]), ("cbrt({0})", ["float8"]),
        ("round({0})", ["float8"]), ("trunc({0})", ["float8"]),
        ("ceil({0})", ["float8"]), ("floor({0})", ["float8"]),
        ("sign({0})", ["float8"]), ("power({0}, {1})", ["float8", "small"]),
        ("exp({0})", ["float8"]), ("ln(abs({0}) + 1)", ["float8"]),
        ("log(abs({0}) + 1)", ["float8"]), ("degrees({0})", ["float8"]),
        ("radians({0})", ["float8"]), ("sin({0})", ["float8"]),
        ("atan2({0}, {1})", ["float8", "float8"]),
        ("greatest({0}, {1})", ["float8", "float8"]),
        ("coalesce({0}, {1})", ["float8", "float8"]),
        ("({0} ^ {1})", ["float8", "float8"]),
        ("{0}::float8", ["int4"]), ("{0}::float8", ["numeric"]),
        ("{0}::float8", ["text"]), ("{0}::real::float8", ["float8"]),
        ("date_part({1}, {0})", ["timestamp", "datefield"]),
        ("date_part({1}, {0})", ["interval", "datefield"]),
    ]
    p["int4"].append(("{0}::int4", ["float8"]))
    p["int8"].append(("{0}::int8", ["float8"]))
    p["numeric"].append(("{0}::numeric", ["float8"]))
    p["text"] += [("{0}::text", ["float8"]),
                  ("to_char({0}, {1})", ["float8", "numfmt"])]
    for op in ["=", "<>", "<", ">="]:
        p["bool"] += [("({0} %s {1})" % op, ["float8", "float8"]),
                      ("({0} %s {1})" % op, ["float8", "int4"])]


def temporal_productions(p):
    """date, timestamp, timestamptz, interval: arithmetic, truncation,
    fields, casts, to_char, comparisons (TimeZone is UTC in both)."""
    p["date"] += [("({0} + {1})", ["date", "small"]),
                  ("({0} - {1})", ["date", "small"]),
                  ("make_date(2000 + {0}, {1}, {2})", ["small", "small", "small"]),
                  ("{0}::date", ["timestamp"]), ("{0}::date", ["timestamptz"]),
                  ("{0}::date", ["text"]),
                  ("greatest({0}, {1})", ["date", "date"])]
    p["int4"].append(("({0} - {1})", ["date", "date"]))
    p["timestamp"] += [("({0} AT TIME ZONE 'America/New_York')",
                        ["timestamptz"]),
                       ("({0} AT TIME ZONE 'EST')", ["timestamptz"]),
                       ("({0} AT TIME ZONE INTERVAL '-03:30')",
                        ["timestamptz"]),
                       ("({0} + {1})", ["timestamp", "interval"]),
                       ("({0} - {1})", ["timestamp", "interval"]),
                       ("({0} + {1})", ["date", "interval"]),
                       ("date_trunc({1}, {0})", ["timestamp", "truncfield"]),
                       ("{0}::timestamp", ["date"]),
                       ("{0}::timestamp", ["timestamptz"]),
                       ("{0}::timestamp", ["text"]),
                       ("make_timestamp(2000 + {0}, {1}, {2}, {0}, {1}, 1.5)",
                        ["small", "small", "small"])]
    p["timestamptz"] += [("({0} AT TIME ZONE 'Europe/Berlin')",
                          ["timestamp"]),
                         ("({0} AT TIME ZONE '+05')", ["timestamp"]),
                         ("({0} + {1})", ["timestamptz", "interval"]),
                         ("({1} + {0})", ["timestamptz", "interval"]),
                         ("({0} - {1})", ["timestamptz", "interval"]),
                         ("date_trunc({1}, {0})", ["timestamptz", "truncfield"]),
                         ("{0}::timestamptz", ["timestamp"]),
                         ("{0}::timestamptz", ["date"]),
                         ("{0}::timestamptz", ["text"]),
                         ("make_timestamptz(2000 + {0}, {1}, {2}, {0}, {1}, 1.5)",
                          ["small", "small", "small"])]
    p["interval"] += [("({0} + {1})", ["interval", "interval"]),
                      ("({0} - {1})", ["interval", "interval"]),
                      ("(-{0})", ["interval"]),
                      ("({0} * {1})", ["interval", "float8"]),
                      ("({0} / {1})", ["interval", "float8"]),
                      ("({0} - {1})", ["timestamp", "timestamp"]),
                      ("({0} - {1})", ["timestamptz", "timestamptz"]),
                      ("age({0}, {1})", ["timestamp", "timestamp"]),
                      ("age({0}, {1})", ["timestamptz", "timestamptz"]),
                      ("justify_days({0})", ["interval"]),
                      ("justify_hours({0})", ["interval"]),
                      ("justify_interval({0})", ["interval"]),
                      ("make_interval({0}, {1}, 0, {0}, 0, 0, 1.5)", ["small", "small"]),
                      ("date_trunc({1}, {0})", ["interval", "truncfield"]),
                      ("{0}::interval", ["text"])]
    for t in ["date", "timestamp", "timestamptz", "interval"]:
        # the grammar takes a string constant as the field, too
        p["numeric"].append(("extract({1} FROM {0})", [t, "datefield"]))
        p["text"].append(("{0}::text", [t]))
        for op in ["=", "<", ">="]:
            p["bool"].append(("({0} %s {1})" % op, [t, t]))
        p[t] += [("coalesce({0}, {1})", [t, t]),
                 ("CASE WHEN {0} THEN {1} ELSE {2} END", ["bool", t, t])]
    for t in ["timestamp", "timestamptz", "interval"]:
        p["text"].append(("to_char({0}, {1})", [t, "datefmt"]))
    p["bool"] += [("({0} < {1})", ["date", "timestamp"]),
                  ("({0} = {1})", ["timestamp", "timestamptz"]),
                  ("({0} < {1})", ["timestamptz", "timestamp"]),
                  ("({0} >= {1})", ["date", "timestamptz"]),
                  ("({0}::time < '12:00')", ["timestamptz"]),
                  ("isfinite({0})", ["date"]), ("isfinite({0})", ["timestamp"]),
                  ("({0} BETWEEN {1} AND {2})", ["date", "date", "date"])]


PRODUCTIONS = productions()

# Session settings a statement may switch to (see the module comment).
SETTINGS_CHANCE = 0.02
SETTINGS = (
    ["SET TimeZone = '%s';" % z for z in [
        "UTC", "America/New_York", "Europe/Berlin", "Asia/Kolkata",
        "Australia/Lord_Howe", "Pacific/Apia", "America/Sao_Paulo",
        "EST5EDT", "<+0545>-5:45"]] +
    ["SET TIME ZONE -3;", "SET TIME ZONE 9.5;",
     "SET TIME ZONE INTERVAL '-08:00' HOUR TO MINUTE;", "RESET TimeZone;"] +
    ["SET DateStyle = '%s';" % d for d in [
        "ISO, MDY", "ISO, DMY", "SQL, MDY", "SQL, DMY", "Postgres, MDY",
        "Postgres, DMY", "German", "ISO, YMD"]] +
    ["SET IntervalStyle = %s;" % i for i in [
        "postgres", "postgres_verbose", "sql_standard", "iso_8601"]] +
    ["SET extra_float_digits = %d;" % n for n in [-15, -3, 0, 1, 3]])

AGGREGATES = [  # (template, operand type)
    ("count({0})", "int4"), ("count(DISTINCT {0})", "text"),
    ("sum({0})", "int2"), ("sum({0})", "int4"), ("sum({0})", "int8"),
    ("sum({0})", "numeric"), ("avg({0})", "int4"), ("avg({0})", "int8"),
    ("avg({0})", "numeric"), ("min({0})", "text"), ("max({0})", "numeric"),
    ("min({0})", "int8"), ("max({0})", "int2"), ("bool_and({0})", "bool"),
    ("bool_or({0})", "bool"), ("string_agg({0}, ',')", "text"),
    ("stddev({0})", "numeric"), ("variance({0})", "int4"),
    ("sum(DISTINCT {0})", "int4"),
    ("sum({0})", "float8"), ("avg({0})", "float8"), ("stddev({0})", "float8"),
    ("min({0})", "date"), ("max({0})", "timestamp"), ("min({0})", "timestamptz"),
    ("sum({0})", "interval"), ("avg({0})", "interval"), ("max({0})", "interval"),
]

# ---------------------------------------------------------------------------


class Generator:
    def __init__(self, seed):
        self.rng = random.Random(seed)

    def leaf(self, typ):
        if typ not in LITERAL_ONLY and self.rng.random() < 0.6:
            return [c for c, t in COLUMNS if t == typ][0]
        return lit(self.rng, typ)

    def gen(self, typ, depth):
        if typ in LITERAL_ONLY or depth == 0 or self.rng.random() < 0.25:
            return self.leaf(typ)
        template, args = self.rng.choice(PRODUCTIONS[typ])
        return template.format(*[self.gen(a, depth - 1) for a in args])

    def setting(self):
        """A SET statement now and then (None otherwise); extra to COUNT."""
        if self.rng.random() < SETTINGS_CHANCE:
            return self.rng.choice(SETTINGS)
        return None

    def statement(self):
        rng = self.rng
        table = "ve" if rng.random() < 0.2 else "vs"
        depth = rng.choice([1, 2, 2, 3, 3, 4])
        if rng.random() < 0.15:
            template, typ = rng.choice(AGGREGATES)
            expr = template.format(self.gen(typ, depth - 1))
            if rng.random() < 0.3:
                expr += " FILTER (WHERE %s)" % self.gen("bool", 2)
            return "SELECT %s FROM %s;" % (expr, table)
        typ = rng.choice(ALL)
        return "SELECT id, %s FROM %s ORDER BY id;" % (self.gen(typ, depth),
                                                       table)


def setup_sql():
    cols = ", ".join("%s %s" % (c, t) for c, t in COLUMNS)
    out = []
    for table, rows in (("vs", ORDINARY_ROWS), ("ve", EDGE_ROWS)):
        out.append("CREATE TABLE %s (id int4, %s);" % (table, cols))
        values = ", ".join("(%d, %s)" % (i + 1, ", ".join(r))
                           for i, r in enumerate(rows))
        out.append("INSERT INTO %s VALUES %s;" % (table, values))
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: gen_exprs.py SEED COUNT")
    seed, count = int(sys.argv[1]), int(sys.argv[2])
    print("-- generated by tests/difftest/gen_exprs.py %d %d" % (seed, count))
    print("\\set VERBOSITY sqlstate")
    for line in setup_sql():
        print(line)
    g = Generator(seed)
    for _ in range(count):
        setting = g.setting()
        if setting is not None:
            print(setting)
        print(g.statement())


if __name__ == "__main__":
    main()
