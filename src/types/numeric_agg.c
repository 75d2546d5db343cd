/*
 * numeric_agg.c -- aggregates with numeric results: sum(int8),
 * sum(numeric), avg(int2/int4/int8/numeric), min/max(numeric), and
 * var_samp, var_pop, stddev_samp, stddev_pop, variance, stddev over
 * int2/int4/int8/numeric.
 *
 * Transition states (transtype INTERNAL) are structs allocated in the
 * group's memory (tdb_agg_group_mcxt) on the first call, which sees a
 * NULL state; the transition functions are not strict, skip NULL inputs
 * themselves, and return the state pointer.  Final functions return NULL
 * for a missing state or one that saw no non-NULL input.
 *
 *   IntAggState      count, sum and sum of squares in 128-bit integers:
 *                    sum/avg over any integer type, and var/stddev over
 *                    int2/int4 (whose squares cannot overflow 128 bits
 *                    for any practical row count), as PostgreSQL does
 *                    with its int128 states;
 *   NumericAggState  count, exact sums of X (and X^2) as NumericSum, and
 *                    counts of NaN/+Inf/-Inf inputs: numeric input, and
 *                    var/stddev over int8.
 *
 * A NumericSum adds values exactly without normalizing after each one:
 * it keeps one signed 64-bit slot per base-NBASE digit position, and each
 * addition only adds digits into slots (|digit| < NBASE, so 2^40
 * additions cannot overflow a slot; the sum is renormalized before that).
 * The slot range grows to cover every value's digits plus one spare
 * position on top; the final normalization allows for carries past it.
 * The sum's dscale is the largest input dscale, as in PostgreSQL.
 *
 * Results are computed as PostgreSQL computes them, with the same result
 * scales: avg = sum / count with numeric division (so avg of 1 and 2 is
 * 1.5000000000000000), and variance = (N*sum(X^2) - sum(X)^2) / (N*(N-1))
 * (or N*N for the population forms) at select_div_scale, the standard
 * deviation being its square root at that scale.
 */
#include "common/base.h"

#include "common/elog.h"
#include "mmgr/mcxt.h"
#include "types/builtins.h"
#include "types/numeric.h"

/* Renormalize a NumericSum after this many additions. */
#define NUMERIC_SUM_MAX_ADDS ((int64)1 << 40)

typedef struct NumericSum {
    int64 *slots;  /* digit sums, most significant first */
    int nslots;    /* 0 until the first nonzero value */
    int weight;    /* weight of slots[0] */
    int dscale;    /* largest dscale added */
    int64 nadded;  /* additions since the last normalization */
} NumericSum;

typedef struct NumericAggState {
    MemoryContext mcxt; /* the group's memory: the sums grow there */
    bool with_squares;  /* keep sum(X^2) too */
    int64 n;            /* finite inputs */
    NumericSum sum;
    NumericSum sumsq;
    int64 nan_count;
    int64 pinf_count;
    int64 ninf_count;
} NumericAggState;

/*
 * 128-bit integers aligned to 8 bytes: the state lives in a memory
 * context chunk, MAXALIGNed (8), not at the 16 bytes __int128 would
 * demand (as PostgreSQL declares its int128 when MAXALIGN is 8).
 */
typedef __int128 int128_a8 __attribute__((aligned(8)));

typedef struct IntAggState {
    int64 n;
    int128_a8 sum;
    int128_a8 sumsq;
} IntAggState;

/* ----------------------------------------------------------------------
 * NumericSum
 * ---------------------------------------------------------------------- */

static void numeric_sum_add(NumericSum *sum, const NumericVar *var,
                            MemoryContext mcxt);

/* The exact value of sum (a new var in the current memory context). */
static void
numeric_sum_value(const NumericSum *sum, NumericVar *result)
{
    const int extra = 5; /* room for any int64 carry past slots[0] */
    int n = sum->nslots + extra;
    int64 *work;
    int64 carry = 0;
    bool negative;

    tdb_numvar_zero_out(result);
    result->dscale = sum->dscale;
    if (sum->nslots == 0)
        return;
    work = tdb_palloc0_array(int64, n);
    memcpy(work + extra, sum->slots, (Size)sum->nslots * sizeof(int64));

    /*
     * Carries with floor division put every digit in 0..NBASE-1; a
     * negative total leaves a carry of -1 out of the top, and is then
     * done again on the negated slots to get its magnitude.
     */
    negative = false;
    for (;;) {
        carry = 0;
        for (int i = n - 1; i >= 0; i--) {
            int64 v = work[i] + carry;
            int64 digit = v % NBASE;

            if (digit < 0)
                digit += NBASE;
            carry = (v - digit) / NBASE;
            work[i] = digit;
        }
        if (carry >= 0 || negative)
            break;
        negative = true;
        memset(work, 0, (Size)extra * sizeof(int64));
        for (int i = 0; i < sum->nslots; i++)
            work[extra + i] = -sum->slots[i];
    }
    Assert(carry == 0);

    tdb_numvar_alloc(result, n);
    for (int i = 0; i < n; i++)
        result->digits[i] = (NumericDigit)work[i];
    tdb_pfree(work);
    result->weight = sum->weight + extra;
    result->sign = negative ? NUMERIC_NEG : NUMERIC_POS;
    result->dscale = sum->dscale;
    tdb_numvar_strip(result);
}

/* Make the slots cover weights high .. low (inclusive). */
static void
numeric_sum_cover(NumericSum *sum, int high, int low, MemoryContext mcxt)
{
    int old_low = sum->weight - sum->nslots + 1;
    int new_high;
    int new_low;
    int64 *slots;

    if (sum->nslots > 0 && high <= sum->weight && low >= old_low)
        return;
    new_high = sum->nslots > 0 ? Max(high, sum->weight) : high;
    new_low = sum->nslots > 0 ? Min(low, old_low) : low;
    slots = tdb_mcxt_alloc_zero(
        mcxt, tdb_mcxt_array_size((Size)(new_high - new_low + 1),
                                  sizeof(int64)));
    if (sum->nslots > 0)
        memcpy(slots + (new_high - sum->weight), sum->slots,
               (Size)sum->nslots * sizeof(int64));
    /* the old slots stay in the group's memory (it may not support
     * freeing single chunks); growth is rare */
    sum->slots = slots;
    sum->weight = new_high;
    sum->nslots = new_high - new_low + 1;
}

static void
numeric_sum_add(NumericSum *sum, const NumericVar *var, MemoryContext mcxt)
{
    int64 *slot;
    int sign = var->sign == NUMERIC_NEG ? -1 : 1;

    sum->dscale = Max(sum->dscale, var->dscale);
    if (var->ndigits == 0)
        return;
    if (sum->nadded >= NUMERIC_SUM_MAX_ADDS) {
        NumericVar total;

        numvar_init(&total);
        numeric_sum_value(sum, &total);
        memset(sum->slots, 0, (Size)sum->nslots * sizeof(int64));
        sum->nadded = 0;
        numeric_sum_add(sum, &total, mcxt);
        tdb_numvar_free(&total);
    }
    /* one spare position above the value for carries */
    numeric_sum_cover(sum, var->weight + 1, var->weight - var->ndigits + 1,
                      mcxt);
    slot = &sum->slots[sum->weight - var->weight];
    for (int i = 0; i < var->ndigits; i++)
        slot[i] += sign * var->digits[i];
    sum->nadded++;
}

/* ----------------------------------------------------------------------
 * Transition functions
 * ---------------------------------------------------------------------- */

static NumericAggState *
numeric_state(FunctionCallInfo fcinfo, bool with_squares)
{
    NumericAggState *state;
    MemoryContext mcxt;

    if (!PG_ARGISNULL(0))
        return (NumericAggState *)PG_GETARG_POINTER(0);
    if (fcinfo->context == NULL)
        elog(ERROR, "aggregate function called in non-aggregate context");
    mcxt = tdb_agg_group_mcxt(fcinfo);
    state = tdb_mcxt_alloc_zero(mcxt, sizeof(NumericAggState));
    state->mcxt = mcxt;
    state->with_squares = with_squares;
    return state;
}

static void
numeric_state_add(NumericAggState *state, const NumericVar *x)
{
    switch (x->sign) {
    case NUMERIC_NAN:
        state->nan_count++;
        return;
    case NUMERIC_PINF:
        state->pinf_count++;
        return;
    case NUMERIC_NINF:
        state->ninf_count++;
        return;
    default:
        break;
    }
    state->n++;
    numeric_sum_add(&state->sum, x, state->mcxt);
    if (state->with_squares) {
        NumericVar square;

        numvar_init(&square);
        tdb_numvar_mul(x, x, &square, x->dscale * 2);
        numeric_sum_add(&state->sumsq, &square, state->mcxt);
        tdb_numvar_free(&square);
    }
}

/* numeric input: with or without the sum of squares */
static Datum
numeric_accum_common(FunctionCallInfo fcinfo, bool with_squares)
{
    NumericAggState *state = numeric_state(fcinfo, with_squares);

    if (!PG_ARGISNULL(1)) {
        NumericVar x;
        NumericDigit local[NUMERIC_LOCAL_DIGITS];

        tdb_numeric_to_var_local(PG_GETARG_DATUM(1), &x, local);
        numeric_state_add(state, &x);
        tdb_numvar_free(&x);
    }
    PG_RETURN_POINTER(state);
}

Datum
tdb_numeric_avg_accum(PG_FUNCTION_ARGS)
{
    return numeric_accum_common(fcinfo, false);
}

Datum
tdb_numeric_accum(PG_FUNCTION_ARGS)
{
    return numeric_accum_common(fcinfo, true);
}

/* int8 input for var/stddev: X^2 needs more than 128 bits in a sum */
Datum
tdb_int8_accum(PG_FUNCTION_ARGS)
{
    NumericAggState *state = numeric_state(fcinfo, true);

    if (!PG_ARGISNULL(1)) {
        NumericVar x;

        numvar_init(&x);
        tdb_numvar_from_int64(PG_GETARG_INT64(1), &x);
        numeric_state_add(state, &x);
        tdb_numvar_free(&x);
    }
    PG_RETURN_POINTER(state);
}

/*
 * The state of an integer aggregate, created on the first call.  Inputs
 * are read with PG_GETARG_INT64 whatever the integer type: int2 and int4
 * Datums are sign-extended (tuple/datum.h).
 */
static IntAggState *
int_state(FunctionCallInfo fcinfo)
{
    if (!PG_ARGISNULL(0))
        return (IntAggState *)PG_GETARG_POINTER(0);
    if (fcinfo->context == NULL)
        elog(ERROR, "aggregate function called in non-aggregate context");
    return tdb_mcxt_alloc_zero(tdb_agg_group_mcxt(fcinfo),
                               sizeof(IntAggState));
}

/* sum and avg over int2/int4/int8 */
Datum
tdb_int_avg_accum(PG_FUNCTION_ARGS)
{
    IntAggState *state = int_state(fcinfo);

    if (!PG_ARGISNULL(1)) {
        state->n++;
        state->sum += PG_GETARG_INT64(1);
    }
    PG_RETURN_POINTER(state);
}

/* var/stddev over int2/int4 */
Datum
tdb_int_accum(PG_FUNCTION_ARGS)
{
    IntAggState *state = int_state(fcinfo);

    if (!PG_ARGISNULL(1)) {
        __int128 x = PG_GETARG_INT64(1);

        state->n++;
        state->sum += x;
        state->sumsq += x * x;
    }
    PG_RETURN_POINTER(state);
}

/*
 * min/max: keep the winner, copied into the group's memory.  On a tie the
 * newer value wins (PostgreSQL's numeric_smaller/larger return their
 * second argument then), which shows when the scales differ: max of 0.00
 * and 0.000 is 0.000.
 */
static Datum
extreme_trans(FunctionCallInfo fcinfo, int want)
{
    Datum state = PG_GETARG_DATUM(0);
    Datum input = PG_GETARG_DATUM(1);
    MemoryContext old;
    Datum copy;

    if (tdb_numeric_cmp_datums(state, input) * want > 0)
        PG_RETURN_DATUM(state);
    if (fcinfo->context == NULL)
        elog(ERROR, "aggregate function called in non-aggregate context");
    old = tdb_mcxt_switch_to(tdb_agg_group_mcxt(fcinfo));
    copy = tdb_numeric_copy(input);
    tdb_mcxt_switch_to(old);
    PG_RETURN_DATUM(copy);
}

Datum
tdb_numeric_smaller_trans(PG_FUNCTION_ARGS)
{
    return extreme_trans(fcinfo, -1);
}

Datum
tdb_numeric_larger_trans(PG_FUNCTION_ARGS)
{
    return extreme_trans(fcinfo, 1);
}

/* ----------------------------------------------------------------------
 * Final functions
 * ---------------------------------------------------------------------- */

static NumericAggState *
numeric_final_state(FunctionCallInfo fcinfo)
{
    return PG_ARGISNULL(0) ? NULL
                           : (NumericAggState *)PG_GETARG_POINTER(0);
}

static int64
total_count(const NumericAggState *state)
{
    return state->n + state->nan_count + state->pinf_count +
           state->ninf_count;
}

/*
 * The result of sum/avg if the inputs included NaN or infinities:
 * NaN wins, +Inf and -Inf together give NaN.  Returns false if the sum
 * is finite.
 */
static bool
special_sum(const NumericAggState *state, Datum *result)
{
    const NumericVar *value;

    if (state->nan_count > 0 ||
        (state->pinf_count > 0 && state->ninf_count > 0))
        value = &tdb_numvar_nan;
    else if (state->pinf_count > 0)
        value = &tdb_numvar_pinf;
    else if (state->ninf_count > 0)
        value = &tdb_numvar_ninf;
    else
        return false;
    *result = tdb_numeric_from_var(value);
    return true;
}

static Datum
sum_datum(const NumericSum *sum)
{
    NumericVar var;

    numvar_init(&var);
    numeric_sum_value(sum, &var);
    return tdb_numeric_from_var_free(&var);
}

Datum
tdb_numeric_sum_final(PG_FUNCTION_ARGS)
{
    NumericAggState *state = numeric_final_state(fcinfo);
    Datum result;

    if (state == NULL || total_count(state) == 0)
        PG_RETURN_NULL();
    if (special_sum(state, &result))
        return result;
    return sum_datum(&state->sum);
}

Datum
tdb_numeric_avg_final(PG_FUNCTION_ARGS)
{
    NumericAggState *state = numeric_final_state(fcinfo);
    Datum result;

    if (state == NULL || total_count(state) == 0)
        PG_RETURN_NULL();
    if (special_sum(state, &result))
        return result;
    return tdb_numeric_div_datums(sum_datum(&state->sum),
                                  tdb_numeric_from_int64(state->n));
}

/*
 * var_samp/var_pop/stddev_samp/stddev_pop from n, sum(X), sum(X^2).
 * false if the result is NULL (n = 0, or n = 1 for the sample forms;
 * NaN and infinities count as inputs here, and make the result NaN).
 */
static bool
stddev_result(const NumericAggState *state, bool variance, bool sample,
              Datum *result)
{
    NumericVar vn;
    NumericVar vsum;
    NumericVar vsumsq;
    NumericVar denom;
    int64 total;
    int rscale;

    if (state == NULL || (total = total_count(state)) == 0 ||
        (sample && total <= 1))
        return false;
    if (state->nan_count > 0 || state->pinf_count > 0 ||
        state->ninf_count > 0) {
        *result = tdb_numeric_from_var(&tdb_numvar_nan);
        return true;
    }

    numvar_init(&vn);
    numvar_init(&vsum);
    numvar_init(&vsumsq);
    numvar_init(&denom);
    tdb_numvar_from_int64(state->n, &vn);
    numeric_sum_value(&state->sum, &vsum);
    numeric_sum_value(&state->sumsq, &vsumsq);

    /* numerator N * sum(X^2) - sum(X)^2 */
    rscale = vsum.dscale * 2;
    tdb_numvar_mul(&vsum, &vsum, &vsum, rscale);
    tdb_numvar_mul(&vn, &vsumsq, &vsumsq, rscale);
    tdb_numvar_sub(&vsumsq, &vsum, &vsumsq);

    if (tdb_numvar_cmp(&vsumsq, &tdb_numvar_zero) <= 0) {
        /* no spread (or rounding made it negative) */
        *result = tdb_numeric_from_var(&tdb_numvar_zero);
    } else {
        if (sample) {
            tdb_numvar_sub(&vn, &tdb_numvar_one, &denom);
            tdb_numvar_mul(&vn, &denom, &denom, 0); /* N * (N - 1) */
        } else {
            tdb_numvar_mul(&vn, &vn, &denom, 0); /* N * N */
        }
        rscale = tdb_numvar_select_div_scale(&vsumsq, &denom);
        tdb_numvar_div(&vsumsq, &denom, &vsum, rscale, true);
        if (!variance)
            tdb_numvar_sqrt(&vsum, &vsum, rscale);
        *result = tdb_numeric_from_var(&vsum);
    }
    tdb_numvar_free(&vn);
    tdb_numvar_free(&vsum);
    tdb_numvar_free(&vsumsq);
    tdb_numvar_free(&denom);
    return true;
}

static IntAggState *
int_final_state(FunctionCallInfo fcinfo)
{
    IntAggState *state =
        PG_ARGISNULL(0) ? NULL : (IntAggState *)PG_GETARG_POINTER(0);

    return state != NULL && state->n > 0 ? state : NULL;
}

static Datum
int128_datum(__int128 value)
{
    NumericVar var;

    numvar_init(&var);
    tdb_numvar_from_int128(value, &var);
    return tdb_numeric_from_var_free(&var);
}

Datum
tdb_int_sum_final(PG_FUNCTION_ARGS)
{
    IntAggState *state = int_final_state(fcinfo);

    if (state == NULL)
        PG_RETURN_NULL();
    return int128_datum(state->sum);
}

Datum
tdb_int_avg_final(PG_FUNCTION_ARGS)
{
    IntAggState *state = int_final_state(fcinfo);

    if (state == NULL)
        PG_RETURN_NULL();
    return tdb_numeric_div_datums(int128_datum(state->sum),
                                  tdb_numeric_from_int64(state->n));
}

/* var/stddev over numeric or int8 input */
static bool
numeric_stddev_result(FunctionCallInfo fcinfo, bool variance, bool sample,
                      Datum *result)
{
    return stddev_result(numeric_final_state(fcinfo), variance, sample,
                         result);
}

/* var/stddev over int2/int4: the 128-bit sums as a numeric state */
static bool
int_stddev_result(FunctionCallInfo fcinfo, bool variance, bool sample,
                  Datum *result)
{
    IntAggState *istate =
        PG_ARGISNULL(0) ? NULL : (IntAggState *)PG_GETARG_POINTER(0);
    NumericAggState state;
    NumericVar tmp;

    if (istate == NULL)
        return false;
    memset(&state, 0, sizeof(state));
    state.mcxt = tdb_current_mcxt;
    state.n = istate->n;
    numvar_init(&tmp);
    tdb_numvar_from_int128(istate->sum, &tmp);
    numeric_sum_add(&state.sum, &tmp, state.mcxt);
    tdb_numvar_from_int128(istate->sumsq, &tmp);
    numeric_sum_add(&state.sumsq, &tmp, state.mcxt);
    tdb_numvar_free(&tmp);
    return stddev_result(&state, variance, sample, result);
}

/* The final functions: fname computes with result_fn(fcinfo, ...). */
#define STDDEV_FINAL(fname, result_fn, variance, sample)                    \
    Datum fname(PG_FUNCTION_ARGS)                                           \
    {                                                                       \
        Datum result;                                                       \
                                                                            \
        if (!result_fn(fcinfo, variance, sample, &result))                  \
            PG_RETURN_NULL();                                               \
        return result;                                                      \
    }

STDDEV_FINAL(tdb_numeric_var_samp_final, numeric_stddev_result, true, true)
STDDEV_FINAL(tdb_numeric_var_pop_final, numeric_stddev_result, true, false)
STDDEV_FINAL(tdb_numeric_stddev_samp_final, numeric_stddev_result, false,
             true)
STDDEV_FINAL(tdb_numeric_stddev_pop_final, numeric_stddev_result, false,
             false)
STDDEV_FINAL(tdb_int_var_samp_final, int_stddev_result, true, true)
STDDEV_FINAL(tdb_int_var_pop_final, int_stddev_result, true, false)
STDDEV_FINAL(tdb_int_stddev_samp_final, int_stddev_result, false, true)
STDDEV_FINAL(tdb_int_stddev_pop_final, int_stddev_result, false, false)
