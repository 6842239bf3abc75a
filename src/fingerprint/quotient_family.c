/* quotient_family.c - see quotient_family.h: the quotient family's design, schedule,
 * space, rates and layout, from each filter's rules.
 *
 * The family follows the reference Java code of InfiniFilter and Aleph Filter,
 * github.com/nivdayan/AlephFilter at 3e1aa5f5f49d7065d7ff65ccf9cd5967c504b558 (the
 * authors' code, which "extends InfiniFilter from SIGMOD 2023"):
 *   QuotientFilter.java 73-74 (fullness_threshold = 0.8, max_entries_before_full =
 *     (int)(2^q * 0.8)), 69 (2q extension slots), 731-757 (_insert: insert, then expand
 *     once the entries reach that count), 693-706 (slot = the hash's low Q bits,
 *     fingerprint = the next bits);
 *   BasicInfiniFilter.java 171-182 (a new entry's F-bit field: F - 1 hash bits under a
 *     zero top bit), 59-72 (a query compares F - (age + 1) bits), 222-305 (expand: the
 *     pivot moves into the slot, the field shifts right and gains a unary bit; a field of
 *     ones over a zero is void), 296 (two more extension slots per expansion);
 *   FingerprintGrowthStrategy.java 30-74: the field of new entries after an expansion,
 *     UNIFORM (F) or POLYNOMIAL (ceil(log2(2^F E^2)) after the E-th);
 *   ChainedInfiniFilter.java 85 (never full), 140-203, 254-281: void entries move,
 *     keeping their bits, to a secondary InfiniFilter asked after the main one
 *     (207-223), grown past threshold / 0.95 (276-281) and widened to hold them
 *     (303-310);
 *   DuplicatingChainedInfiniFilter.java 97-109 (Aleph: a void entry is copied into both
 *     halves at each expansion; the copies count as entries), 111-143 (void entries are
 *     also kept in a secondary table), 164-169 (grown past the threshold), 255-258 (a
 *     query asks the main table only).
 * Each filter's file cites the rules it takes from these (quotient.c: FingerprintSacrifice).
 */
#include "fingerprint/quotient_family.h"
#include "fingerprint/kept_bits.h"

#include <math.h>
#include <string.h>

/* ---- rates ---- */

static double qf_exact(const fp_state_t *s)
{
    double sum = 0;
    for (size_t g = 0; g < s->ngens; g++)
        sum += (double)s->gen_n[g] * log1p(-ldexp(1.0, -(int)s->gen_t[g]));
    return -expm1(sum);
}

/* The rate of the main table alone (the keys a lookup finds there). */
static double main_rate(const fp_state_t *s)
{
    double sum = 0;
    for (size_t g = 0; g < s->ngens; g++)
        if (s->gen_t[g] >= s->q)
            sum += (double)s->gen_n[g] * log1p(-ldexp(1.0, -(int)s->gen_t[g]));
    return -expm1(sum);
}

static double qf_places(const fp_state_t *s)
{
    if (fp_qf_rules(s->filter)->voids == FP_VOIDS_COPY || s->secondary == 0)
        return 1;
    return 1 + (1 - main_rate(s)); /* the secondary, after the main table says no */
}

/* Pairs of keys that coincide on the shorter of their kept bits: the later one adds
 * nothing to the built filter's rate. Each pair of generations (T_a <= T_b) gives
 * n_a n_b such events of probability 2^-T_a, each costing 2^-T_b; rare and nearly
 * independent, so the variance is their sum times the cost squared. */
static double qf_between_var(const fp_state_t *s)
{
    double v = 0;
    for (size_t a = 0; a < s->ngens; a++)
        for (size_t b = a; b < s->ngens; b++) {
            unsigned lo = s->gen_t[a] < s->gen_t[b] ? s->gen_t[a] : s->gen_t[b];
            unsigned hi = s->gen_t[a] < s->gen_t[b] ? s->gen_t[b] : s->gen_t[a];
            double pairs = a == b ? (double)s->gen_n[a] * (double)s->gen_n[a] / 2
                                  : (double)s->gen_n[a] * (double)s->gen_n[b];
            v += pairs * ldexp(1.0, -(int)lo) * ldexp(1.0, -2 * (int)hi);
        }
    return v;
}

/* ---- designs ---- */

/* Entries a table of 2^q slots takes before it expands: (long)(2^q * threshold). */
static uint64_t threshold_entries(double threshold, unsigned q)
{
    return (uint64_t)floor(ldexp(threshold, (int)q));
}

/* The smallest q with floor(threshold 2^q) > n, and the fewest bits (the field with its
 * age bit) whose rate 1 - (1 - 2^-(q + bits - age))^n is at most p. */
static int qf_design(const fp_filter_t *f, uint64_t n, double p, double threshold,
                     unsigned bits, fp_design_t *d)
{
    unsigned age = fp_qf_rules(f)->age_bit, q = 1;
    while (q <= FP_MAX_Q && threshold_entries(threshold, q) <= n)
        q++;
    if (q > FP_MAX_Q)
        return FP_EBIG;
    if (bits && (bits < 1 + age || bits > FP_MAX_BITS))
        return FP_EBITS;
    if (!bits)
        for (unsigned b = 1 + age; b <= FP_MAX_BITS && !bits; b++)
            if (fp_one_minus_pow(ldexp(1.0, -(int)(q + b - age)), (double)n) <= p)
                bits = b;
    if (!bits)
        return FP_ERATE;
    *d = (fp_design_t){.q = q, .bits = bits, .threshold = threshold};
    return FP_OK;
}

/* ---- schedules ---- */

unsigned fp_qf_widened(unsigned F0, unsigned E)
{
    if (E <= 1)
        return F0;
    /* The fewest F with 2^F >= 2^F0 E^2: F0 + ceil(2 log2 E), in integers. The reference
     * computes ceil(log(2^F0 E^2) / log(2)) in doubles, which with glibc's log gives one
     * bit more where the exact value is a whole 29, 31, 39, 47 ... bits. */
    uint64_t e2 = (uint64_t)E * E;
    unsigned extra = 0;
    while ((UINT64_C(1) << extra) < e2)
        extra++;
    return F0 + extra;
}

int fp_qf_grow_widening(unsigned F0, unsigned E, unsigned *width)
{
    *width = fp_qf_widened(F0, E);
    return 1;
}

static unsigned qf_new_bits(const fp_state_t *s)
{
    return s->width - fp_qf_rules(s->filter)->age_bit;
}

/* Physical entries of the main table at Q: InfiniFilter keeps those with T >= Q (a void
 * entry, T = Q, stays one expansion before it moves); Aleph every entry, a void one as
 * 2^(Q - T) copies; the plain quotient filter every entry. */
static uint64_t main_count(const fp_state_t *s, unsigned Q)
{
    fp_qf_voids_t voids = fp_qf_rules(s->filter)->voids;
    uint64_t c = 0, cap = UINT64_C(1) << 62;
    for (size_t g = 0; g < s->ngens; g++) {
        unsigned t = s->gen_t[g];
        uint64_t k = s->gen_n[g];
        if (t < Q && voids == FP_VOIDS_MOVE)
            continue;
        if (t < Q && voids == FP_VOIDS_COPY)
            k = Q - t >= 62 || k > cap >> (Q - t) ? cap : k << (Q - t);
        c = c + k > cap ? cap : c + k;
    }
    return c;
}

/* Insert the n keys generation by generation: in generation E the table has 2^Q slots,
 * and the key that brings its entries to floor(threshold 2^Q) is inserted, then the
 * table expands, or, where the rules cannot expand it again, is full; what a new entry
 * keeps is the rules' field less the age bit. */
static int qf_run(fp_state_t *s)
{
    const fp_qf_rules_t *ru = fp_qf_rules(s->filter);
    const fp_design_t *d = &s->d;
    uint64_t n = s->keys;
    unsigned Q = d->q, width = d->bits, E = 0;
    uint64_t entries = 0, stored = 0;
    while (stored < n) {
        uint64_t thr = threshold_entries(d->threshold, Q);
        if (s->ngens == E) {
            s->gen_t[E] = Q + width - ru->age_bit;
            if (s->gen_t[E] > FP_HASH_BITS)
                return FP_EBIG;
            s->ngens++;
        }
        uint64_t room = thr > entries ? thr - entries : 1;
        uint64_t take = n - stored < room ? n - stored : room;
        s->gen_n[E] += take;
        stored += take;
        entries += take;
        if (entries < thr)
            break;
        unsigned next;
        if (!ru->grow(d->bits, E + 1, &next))
            break; /* full, and every later key refused */
        if (Q == FP_MAX_Q)
            return FP_EBIG;
        Q++, E++;
        width = next;
        entries = main_count(s, Q);
    }
    s->stored = stored;
    s->refused = n - stored;
    s->expansions = E;
    s->q = Q;
    s->width = width;
    s->main_entries = main_count(s, Q);
    return FP_OK;
}

/* Entries that reach the secondary table at expansion e (main table 2^qb slots before
 * it): InfiniFilter moves those that were void at qb (T = qb), Aleph copies in those that
 * become void at qb + 1 (T = qb + 1). */
static uint64_t secondary_arrivals(const fp_state_t *s, unsigned qb, fp_qf_voids_t voids)
{
    unsigned t = voids == FP_VOIDS_COPY ? qb + 1 : qb;
    uint64_t c = 0;
    for (size_t g = 0; g < s->ngens; g++)
        if (s->gen_t[g] == t)
            c += s->gen_n[g];
    return c;
}

/* The secondary table grows past its threshold: each doubling is BasicInfiniFilter's
 * expand (BasicInfiniFilter.java 226-234: UNIFORM asks for the original field F; a field
 * wider than F loses one bit instead), from ChainedInfiniFilter.java 283-297. */
static void secondary_grow(unsigned *sq, unsigned *w, uint64_t count, double lim, unsigned F)
{
    while ((double)count / ldexp(1.0, (int)*sq) > lim) {
        (*sq)++;
        *w = F < *w ? *w - 1 : F;
    }
}

/* The secondary table as the reference builds it, expansion by expansion: its slots
 * (2^sq) and field (w) when the last entries moved in.
 * InfiniFilter (ChainedInfiniFilter.java): created when the first void entries move, at
 * 2^max(p, 3) slots, p = ceil(log2 voids), with a field of qb - p + 1 (254-262, 225-231;
 * the reference takes the log in doubles, bloomsim the exact integer); an entry moves in
 * (164), then the table doubles while its entries pass threshold / 0.95 (167-171, 233-251,
 * 276-297), then the field widens while sq + w <= qb + 1 (173, 303-310).
 * Aleph (DuplicatingChainedInfiniFilter.java 111-141): created at the first entry that
 * becomes void, at 2^max(q0 + 1, 3) slots whatever its count (num_expansions is e - 1
 * there), with a field of qb + 2 - (q0 + 1); before each entry goes in (141) the table
 * doubles while its entries pass the threshold itself (128-131, 164-168), then the field
 * widens as InfiniFilter's (132). The field widens only when entries move in, and from the
 * main table's qb before the expansion. */
static void qf_secondary(fp_state_t *s, fp_qf_voids_t voids)
{
    const unsigned F = s->d.bits, q0 = s->d.q;
    const double lim = voids == FP_VOIDS_COPY ? s->d.threshold : s->d.threshold / 0.95;
    unsigned sq = 0, w = 0;
    uint64_t count = 0;
    for (unsigned e = 1; e <= s->expansions; e++) {
        unsigned qb = q0 + e - 1;
        uint64_t c = secondary_arrivals(s, qb, voids);
        if (c && !sq) {
            unsigned p = voids == FP_VOIDS_COPY ? q0 + 1 : 0;
            while (voids != FP_VOIDS_COPY && (UINT64_C(1) << p) < c)
                p++;
            sq = p > 3 ? p : 3;
            w = voids == FP_VOIDS_COPY ? qb + 2 - p : qb - p + 1;
        }
        while (c) {
            /* Duplicating checks the threshold before an entry goes in, Chained after: the
             * entries up to the one that finds the table past it go in together. */
            if (voids == FP_VOIDS_COPY)
                secondary_grow(&sq, &w, count, lim, F);
            while (sq + w <= qb + 1)
                w++;
            uint64_t take = (uint64_t)floor(lim * ldexp(1.0, (int)sq)) + 1 - count;
            take = take < c ? take : c;
            count += take, c -= take;
            if (voids != FP_VOIDS_COPY) {
                secondary_grow(&sq, &w, count, lim, F);
                while (sq + w <= qb + 1)
                    w++;
            }
        }
    }
    s->secondary = count;
    s->secondary_q = sq;
    s->secondary_width = w;
}

/* The space at its state: the main table's 2^Q slots and 2Q extension slots, each 3
 * metadata bits and the field; the secondary table with its 2 sq extension slots, as
 * qf_secondary builds it. */
static void qf_space(fp_state_t *s)
{
    fp_qf_voids_t voids = fp_qf_rules(s->filter)->voids;
    unsigned Q = s->q;
    s->slots = UINT64_C(1) << Q;
    s->bits = (s->slots + 2 * (uint64_t)Q) * (3 + (uint64_t)s->width);
    for (size_t g = 0; g < s->ngens; g++)
        if (s->gen_t[g] <= Q)
            s->voids += s->gen_n[g];
    if (voids == FP_VOIDS_STAY)
        return;
    qf_secondary(s, voids);
    if (!s->secondary)
        return;
    unsigned sq = s->secondary_q;
    s->bits += ((UINT64_C(1) << sq) + 2 * (uint64_t)sq) * (3 + (uint64_t)s->secondary_width);
}

static int qf_entry_of(const fp_state_t *s, size_t g, pcg_u128 h, fp_entry_t *e)
{
    const fp_qf_rules_t *ru = fp_qf_rules(s->filter);
    if (g >= s->ngens)
        return -1;
    unsigned Q = s->q, T = s->gen_t[g];
    memset(e, 0, sizeof *e);
    if (T < Q) {
        e->where = ru->voids == FP_VOIDS_COPY ? 2 : 1;
        e->slot = (uint64_t)fp_low_bits(h, T);
        e->copies = ru->voids == FP_VOIDS_COPY ? UINT64_C(1) << (Q - T) : 0;
        return 0;
    }
    unsigned b = T - Q, W = s->width;
    e->slot = (uint64_t)fp_low_bits(h, Q);
    e->copies = 1;
    e->bits = b;
    uint64_t hash = (uint64_t)fp_low_bits(h >> Q, b);
    if (!ru->age_bit) {
        e->field = hash;
        return 0;
    }
    uint64_t ones = W - 1 - b; /* the unary age mark, over a zero */
    if (W > 64)
        return -1; /* a field past 64 bits: not laid out here */
    e->field = (((UINT64_C(1) << ones) - 1) << (b + 1)) | hash;
    return 0;
}

/* ---- size --filter ---- */

size_t fp_qf_growth_widening(const fp_state_t *s, char *buf, size_t len, size_t at)
{
    unsigned F = s->d.bits;
    return fp_text(buf, len, at, "each expansion   older entries one hash bit shorter; after "
                   "the E-th, new fields of F + ceil(2 log2 E) bits (%u, %u, %u, %u after the "
                   "1st to 4th); an entry with none left %s\n", fp_qf_widened(F, 1),
                   fp_qf_widened(F, 2), fp_qf_widened(F, 3), fp_qf_widened(F, 4),
                   fp_qf_rules(s->filter)->voids == FP_VOIDS_COPY
                       ? "is copied into both halves" : "moves to a secondary table");
}

/* The design's slots, fields, bits and exact rate, then what an expansion does. */
static size_t qf_describe(const fp_state_t *s, char *buf, size_t len)
{
    const fp_qf_rules_t *ru = fp_qf_rules(s->filter);
    unsigned q = s->d.q, F = s->d.bits, next;
    size_t at = fp_text(buf, len, 0, "q = %u: %llu slots (+ %u extension slots), %s after "
                        "%llu keys\n", q, (unsigned long long)(UINT64_C(1) << q), 2 * q,
                        ru->grow(F, 1, &next) ? "expands" : "full",
                        (unsigned long long)floor(ldexp(s->d.threshold, (int)q)));
    if (ru->age_bit)
        at = fp_text(buf, len, at, "F = %u-bit fingerprint field (1 age bit, %u hash bits), "
                     "3 metadata bits a slot: %u bits a slot\n", F, F - 1, F + 3);
    else
        at = fp_text(buf, len, at, "r = %u remainder bits, 3 metadata bits a slot: %u bits "
                     "a slot\n", F, F + 3);
    at = fp_text(buf, len, at, "bits = %llu (%.4g bits per key), %llu bytes\n",
                 (unsigned long long)s->bits, (double)s->bits / (double)s->keys,
                 (unsigned long long)((s->bits + 7) / 8));
    at = fp_text(buf, len, at, "exact            %.17g\n", qf_exact(s));
    return ru->growth(s, buf, len, at);
}

const fp_ops_t fp_qf_ops = {
    .takes_threshold = 1,
    .design = qf_design,
    .run = qf_run,
    .space = qf_space,
    .new_bits = qf_new_bits,
    .exact = qf_exact,
    .places = qf_places,
    .between_var = qf_between_var,
    .entry_of = qf_entry_of,
    .describe = qf_describe,
    .table_bytes = fp_kept_bytes,
    .table_alloc = fp_kept_alloc,
    .table_free = fp_kept_free,
    .build = fp_kept_build,
    .lookups = fp_kept_lookups,
    .conditional = fp_kept_conditional,
};
