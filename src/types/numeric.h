/*
 * numeric.h -- internal interface of the numeric type family
 * (numeric.c, numeric_arith.c, numeric_math.c, numeric_agg.c), also used
 * by formatting.c (to_char's scientific notation and V scaling).  Only
 * those files include it; other layers reach numeric through the
 * registry (types/builtins.h).
 *
 * Two forms of a value:
 *
 *   - the stored form, a varlena laid out byte for byte as PostgreSQL
 *     stores it (see the diagram in numeric.c), which is what Datums of
 *     type numeric point at;
 *   - NumericVar, the working form every computation uses: a sign, the
 *     base-10000 weight of the first digit, the digits themselves and the
 *     display scale.
 *
 * A NumericVar's value is
 *
 *     sign * sum(digits[i] * 10000^(weight - i)),  i = 0 .. ndigits-1
 *
 * printed with dscale decimal digits after the point (dscale may exceed
 * the fractional digits actually stored: the rest are zeroes).  Special
 * values (NaN, +Infinity, -Infinity) carry only their sign code; their
 * other fields are ignored and they never reach the var-level arithmetic,
 * whose callers handle them first.
 *
 * Memory: a var owns `buf` (palloc'd in the current memory context, one
 * spare zero digit in front of `digits` so that rounding may carry out of
 * the top digit) unless buf is NULL, in which case `digits` is borrowed
 * (a constant, or the digits of a stored value).  Every var-level
 * function allows the result to be one of its inputs.
 *
 * "rscale" below is the number of decimal digits wanted after the
 * decimal point; it may be negative where stated (rounding before the
 * point).
 */
#ifndef TDB_TYPES_NUMERIC_H
#define TDB_TYPES_NUMERIC_H

#include "common/base.h"
#include "types/fmgr.h"

#ifndef Max
#define Max(x, y) ((x) > (y) ? (x) : (y))
#endif
#ifndef Min
#define Min(x, y) ((x) < (y) ? (x) : (y))
#endif

#define NBASE 10000
#define HALF_NBASE 5000
#define DEC_DIGITS 4 /* decimal digits per base-NBASE digit */

typedef int16 NumericDigit;

/* Sign codes: the top bits of a stored value's first header word. */
#define NUMERIC_POS 0x0000
#define NUMERIC_NEG 0x4000
#define NUMERIC_SHORT 0x8000
#define NUMERIC_SPECIAL 0xC000
#define NUMERIC_NAN 0xC000
#define NUMERIC_PINF 0xD000
#define NUMERIC_NINF 0xF000

/* Limits, as PostgreSQL's numeric.h. */
#define NUMERIC_MAX_PRECISION 1000
#define NUMERIC_MIN_SCALE (-1000)
#define NUMERIC_MAX_SCALE 1000
#define NUMERIC_MAX_DISPLAY_SCALE NUMERIC_MAX_PRECISION
#define NUMERIC_MIN_DISPLAY_SCALE 0
#define NUMERIC_MAX_RESULT_SCALE (NUMERIC_MAX_PRECISION * 2)
#define NUMERIC_MIN_SIG_DIGITS 16
#define NUMERIC_DSCALE_MAX 0x3FFF
#define NUMERIC_WEIGHT_MAX 32767

typedef struct NumericVar {
    int ndigits;          /* number of digits in digits[]; 0 for zero */
    int weight;           /* base-NBASE weight of digits[0] */
    int sign;             /* NUMERIC_POS, _NEG, _NAN, _PINF or _NINF */
    int dscale;           /* display scale (decimal digits after '.') */
    NumericDigit *buf;    /* owned digit buffer, or NULL if borrowed */
    NumericDigit *digits; /* the digits, most significant first */
} NumericVar;

static inline bool
numvar_is_special(const NumericVar *var)
{
    return (var->sign & NUMERIC_SPECIAL) == NUMERIC_SPECIAL;
}

/* Constants (digits borrowed: never modify them, never free them). */
extern const NumericVar tdb_numvar_zero;
extern const NumericVar tdb_numvar_one;
extern const NumericVar tdb_numvar_two;
extern const NumericVar tdb_numvar_minus_one;
extern const NumericVar tdb_numvar_nan;
extern const NumericVar tdb_numvar_pinf;
extern const NumericVar tdb_numvar_ninf;

/* ----- variables (numeric_arith.c) ----- */

/* An empty variable (zero, no buffer). */
static inline void
numvar_init(NumericVar *var)
{
    memset(var, 0, sizeof(*var));
}

void tdb_numvar_alloc(NumericVar *var, int ndigits);
void tdb_numvar_free(NumericVar *var);
void tdb_numvar_zero_out(NumericVar *var);
void tdb_numvar_copy(const NumericVar *value, NumericVar *dest);
void tdb_numvar_strip(NumericVar *var);
void tdb_numvar_round(NumericVar *var, int rscale);
void tdb_numvar_trunc(NumericVar *var, int rscale);
void tdb_numvar_from_int64(int64 val, NumericVar *var);
void tdb_numvar_from_int128(__int128 val, NumericVar *var);
/* Round to an integer and convert; false if it does not fit. */
bool tdb_numvar_to_int64(const NumericVar *var, int64 *result);
/* The value as a double (strtod of its text; +-HUGE_VAL on overflow). */
double tdb_numvar_to_double(const NumericVar *var);
/* The text of a finite var with its dscale digits (numeric_out). */
char *tdb_numvar_to_cstring(const NumericVar *var);

int tdb_numvar_cmp(const NumericVar *var1, const NumericVar *var2);
int tdb_numvar_cmp_abs(const NumericVar *var1, const NumericVar *var2);
void tdb_numvar_add(const NumericVar *var1, const NumericVar *var2,
                    NumericVar *result);
void tdb_numvar_sub(const NumericVar *var1, const NumericVar *var2,
                    NumericVar *result);
void tdb_numvar_mul(const NumericVar *var1, const NumericVar *var2,
                    NumericVar *result, int rscale);
/* Exact long division to rscale digits, rounded or truncated; 22012 on
 * a zero divisor. */
void tdb_numvar_div(const NumericVar *var1, const NumericVar *var2,
                    NumericVar *result, int rscale, bool round);
/* Faster approximate division for the transcendental functions. */
void tdb_numvar_div_fast(const NumericVar *var1, const NumericVar *var2,
                         NumericVar *result, int rscale, bool round);
/* var / (ival * NBASE^ival_weight). */
void tdb_numvar_div_int(const NumericVar *var, int ival, int ival_weight,
                        NumericVar *result, int rscale, bool round);
int tdb_numvar_select_div_scale(const NumericVar *var1,
                                const NumericVar *var2);
void tdb_numvar_mod(const NumericVar *var1, const NumericVar *var2,
                    NumericVar *result);
void tdb_numvar_ceil(const NumericVar *var, NumericVar *result);
void tdb_numvar_floor(const NumericVar *var, NumericVar *result);

/* ----- transcendental functions (numeric_math.c) ----- */

void tdb_numvar_sqrt(const NumericVar *arg, NumericVar *result, int rscale);

/* ----- the stored form (numeric.c) ----- */

/*
 * A stored value's fields in working form.  The digits are borrowed from
 * the value when they are suitably aligned, otherwise copied; either way
 * the var must not be modified in place (use it only as an input, or as
 * the destination of a var-level function, which replaces the digits).
 */
void tdb_numeric_to_var(Datum value, NumericVar *var);
/*
 * tdb_numeric_to_var without an allocation for values of up to
 * NUMERIC_LOCAL_DIGITS digits: unaligned digits (a short varlena header
 * leaves them at an odd address) are copied into local, a caller's
 * (usually stack) array, and var borrows them; longer values get a
 * buffer as before.  The per-row operators and sum/avg's transition use
 * it: allocating and freeing a copy of each input was a third of
 * sum(numeric)'s instructions.
 */
#define NUMERIC_LOCAL_DIGITS 32
void tdb_numeric_to_var_local(Datum value, NumericVar *var,
                              NumericDigit local[NUMERIC_LOCAL_DIGITS]);
/*
 * The stored form of var (palloc'd, 4-byte header): leading and trailing
 * zero digits stripped, the short header when weight and dscale fit.
 * 22003 "value overflows numeric format" if weight or dscale do not fit.
 */
Datum tdb_numeric_from_var(const NumericVar *var);
/* tdb_numeric_from_var, then free var's digits. */
Datum tdb_numeric_from_var_free(NumericVar *var);
Datum tdb_numeric_from_int64(int64 val);
/* A copy of a stored value (any header) with a 4-byte header. */
Datum tdb_numeric_copy(Datum value);
/* The result of numeric division num1 / num2 (numeric_div). */
Datum tdb_numeric_div_datums(Datum num1, Datum num2);
/* cmp_numerics: NaN sorts above +Infinity above every finite value. */
int tdb_numeric_cmp_datums(Datum num1, Datum num2);

/* ----- SQL-callable functions (see the tables in numeric.c) ----- */

Datum tdb_numeric_add(PG_FUNCTION_ARGS);
Datum tdb_numeric_sub(PG_FUNCTION_ARGS);
Datum tdb_numeric_mul(PG_FUNCTION_ARGS);
Datum tdb_numeric_div(PG_FUNCTION_ARGS);
Datum tdb_numeric_div_trunc(PG_FUNCTION_ARGS);
Datum tdb_numeric_mod(PG_FUNCTION_ARGS);
Datum tdb_numeric_uminus(PG_FUNCTION_ARGS);
Datum tdb_numeric_uplus(PG_FUNCTION_ARGS);
Datum tdb_numeric_abs(PG_FUNCTION_ARGS);
Datum tdb_numeric_sign(PG_FUNCTION_ARGS);
Datum tdb_numeric_round(PG_FUNCTION_ARGS);
Datum tdb_numeric_round0(PG_FUNCTION_ARGS);
Datum tdb_numeric_trunc(PG_FUNCTION_ARGS);
Datum tdb_numeric_trunc0(PG_FUNCTION_ARGS);
Datum tdb_numeric_ceil(PG_FUNCTION_ARGS);
Datum tdb_numeric_floor(PG_FUNCTION_ARGS);
Datum tdb_numeric_scale(PG_FUNCTION_ARGS);
Datum tdb_numeric_min_scale(PG_FUNCTION_ARGS);
Datum tdb_numeric_trim_scale(PG_FUNCTION_ARGS);
Datum tdb_numeric_gcd(PG_FUNCTION_ARGS);
Datum tdb_numeric_lcm(PG_FUNCTION_ARGS);
Datum tdb_numeric_sqrt(PG_FUNCTION_ARGS);
Datum tdb_numeric_exp(PG_FUNCTION_ARGS);
Datum tdb_numeric_ln(PG_FUNCTION_ARGS);
Datum tdb_numeric_log(PG_FUNCTION_ARGS);
Datum tdb_numeric_log10(PG_FUNCTION_ARGS);
Datum tdb_numeric_power(PG_FUNCTION_ARGS);
Datum tdb_numeric_larger(PG_FUNCTION_ARGS);
Datum tdb_numeric_smaller(PG_FUNCTION_ARGS);

/* Aggregate support (numeric_agg.c). */
Datum tdb_numeric_avg_accum(PG_FUNCTION_ARGS);
Datum tdb_numeric_accum(PG_FUNCTION_ARGS);
Datum tdb_int8_accum(PG_FUNCTION_ARGS);
Datum tdb_int_avg_accum(PG_FUNCTION_ARGS);
Datum tdb_int_accum(PG_FUNCTION_ARGS);
Datum tdb_numeric_sum_final(PG_FUNCTION_ARGS);
Datum tdb_numeric_avg_final(PG_FUNCTION_ARGS);
Datum tdb_numeric_var_samp_final(PG_FUNCTION_ARGS);
Datum tdb_numeric_var_pop_final(PG_FUNCTION_ARGS);
Datum tdb_numeric_stddev_samp_final(PG_FUNCTION_ARGS);
Datum tdb_numeric_stddev_pop_final(PG_FUNCTION_ARGS);
Datum tdb_int_sum_final(PG_FUNCTION_ARGS);
Datum tdb_int_avg_final(PG_FUNCTION_ARGS);
Datum tdb_int_var_samp_final(PG_FUNCTION_ARGS);
Datum tdb_int_var_pop_final(PG_FUNCTION_ARGS);
Datum tdb_int_stddev_samp_final(PG_FUNCTION_ARGS);
Datum tdb_int_stddev_pop_final(PG_FUNCTION_ARGS);
Datum tdb_numeric_smaller_trans(PG_FUNCTION_ARGS);
Datum tdb_numeric_larger_trans(PG_FUNCTION_ARGS);

#endif /* TDB_TYPES_NUMERIC_H */
