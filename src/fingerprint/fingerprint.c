/* fingerprint.c - see fingerprint.h: the filters, their designs, their schedules of
 * expansions and their exact rates; building and querying one filter is
 * fingerprint_table.c.
 *
 * The quotient family follows the reference Java code of InfiniFilter and Aleph Filter,
 * github.com/nivdayan/AlephFilter at 3e1aa5f5f49d7065d7ff65ccf9cd5967c504b558 (the
 * authors' code, which "extends InfiniFilter from SIGMOD 2023"):
 *   QuotientFilter.java 73-74 (fullness_threshold = 0.8, max_entries_before_full =
 *     (int)(2^q * 0.8)), 69 (2q extension slots), 731-757 (_insert: insert, then expand
 *     once the entries reach that count), 693-706 (slot = the hash's low Q bits,
 *     fingerprint = the next bits);
 *   FingerprintSacrifice.java 27-77: expand moves the fingerprint's lowest bit (the
 *     "pivot") into the slot number; every slot, new ones included, keeps one bit less;
 *     with no bit left the filter is full and refuses later keys;
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
 * The cuckoo filter follows github.com/efficient/cuckoofilter at
 * 917583d6abef692dfa8e14453bd77d6e0b61eef3, src/cuckoofilter.h: 52-71 (index = the high
 * 32 bits of the hash mod the buckets, tag = the low f bits, 0 made 1), 73-79 (the other
 * bucket, index ^ tag * 0x5bd1e995), 89-98 (buckets for n keys), 139-162 (insert with
 * up to 500 kicks, then a victim slot), 166-185 (lookup); src/singletable.h 18-19, 49
 * (a bucket is ceil(4f / 8) bytes).
 */
#include "fingerprint/fingerprint.h"

#include <math.h>
#include <string.h>

/* ---- the filters ---- */

#define FP_SCHEME(id, text) static const scheme_t scheme_fp_##id = {.name = text}

FP_SCHEME(quotient, "quotient");
FP_SCHEME(infinifilter, "infinifilter");
FP_SCHEME(infinifilter_widening, "infinifilter-widening");
FP_SCHEME(aleph, "aleph");
FP_SCHEME(cuckoo, "cuckoo");
FP_SCHEME(cuckoo_rebuilt, "cuckoo-rebuilt");

static const fp_filter_t filters[] = {
    {.name = "quotient", .family = FP_FAMILY_QUOTIENT, .width = FP_WIDTH_SHRINKS,
     .scheme = &scheme_fp_quotient,
     .summary = "quotient filter, 2^q slots of r-bit remainders; doubles at the load "
                "threshold by moving a remainder bit into the quotient (the rate doubles)"},
    {.name = "infinifilter", .family = FP_FAMILY_QUOTIENT, .width = FP_WIDTH_FIXED,
     .age_bit = 1, .scheme = &scheme_fp_infinifilter,
     .summary = "InfiniFilter (SIGMOD 2023): fixed F-bit fields with a unary age mark; "
                "newer entries keep longer fingerprints, void ones move to a secondary"},
    {.name = "infinifilter-widening", .family = FP_FAMILY_QUOTIENT, .width = FP_WIDTH_WIDENS,
     .age_bit = 1, .scheme = &scheme_fp_infinifilter_widening,
     .summary = "InfiniFilter with fields widening to F + ceil(2 log2 E) after the E-th "
                "expansion (its POLYNOMIAL growth): a bounded rate"},
    {.name = "aleph", .family = FP_FAMILY_QUOTIENT, .width = FP_WIDTH_WIDENS, .age_bit = 1,
     .duplicates = 1, .scheme = &scheme_fp_aleph,
     .summary = "Aleph Filter (VLDB 2024), widening fields: void entries copied at each "
                "expansion, so a lookup asks one table"},
    {.name = "cuckoo", .family = FP_FAMILY_CUCKOO, .scheme = &scheme_fp_cuckoo,
     .summary = "cuckoo filter (CoNEXT 2014): buckets of 4 f-bit tags, two candidates, 500 "
                "kicks; sized for design_keys, refuses keys once full"},
    {.name = "cuckoo-rebuilt", .family = FP_FAMILY_CUCKOO, .rebuilt = 1,
     .scheme = &scheme_fp_cuckoo_rebuilt,
     .summary = "cuckoo filter sized for the keys inserted at each point (the static "
                "reference)"},
};

size_t fp_filter_count(void) { return sizeof filters / sizeof filters[0]; }

const fp_filter_t *fp_filter_at(size_t i) { return i < fp_filter_count() ? &filters[i] : NULL; }

const fp_filter_t *fp_filter_find(const char *name)
{
    for (size_t i = 0; i < fp_filter_count(); i++)
        if (strcmp(filters[i].name, name) == 0)
            return &filters[i];
    return NULL;
}

const char *fp_strerror(int status)
{
    switch (status) {
    case FP_OK: return "ok";
    case FP_EBITS: return "fingerprint bits outside what the filter takes (quotient 1 to 64; "
                          "InfiniFilter and Aleph 2 to 64, one bit marks the entry's age; "
                          "cuckoo 1 to 32)";
    case FP_ERATE: return "no fingerprint the filter takes meets the rate";
    case FP_EBIG: return "the filter would need more than 2^40 slots or 128 hash bits";
    default: return "unknown error";
    }
}

/* The low t bits of a 128-bit hash, t <= 128. */
static pcg_u128 low_bits(pcg_u128 h, unsigned t)
{
    return t >= FP_HASH_BITS ? h : h & ((((pcg_u128)1) << t) - 1);
}

/* ---- rates ---- */

/* 1 - (1 - x)^n without cancellation. */
static double one_minus_pow(double x, double n)
{
    return x >= 1 ? 1.0 : -expm1(n * log1p(-x));
}

/* The cuckoo filter's exact rate with n keys stored in z buckets of f-bit tags
 * (fingerprint.h, fp_exact): the tags fall in three classes, t = 1 (twice as likely),
 * the others that z does not divide (two buckets), and the multiples of z (one). */
static double cuckoo_rate(double n, uint64_t z, unsigned f)
{
    double pt = ldexp(1.0, -(int)f), zz = (double)z;
    uint64_t others = (UINT64_C(1) << f) - 2;
    uint64_t mult = z >= 2 ? ((UINT64_C(1) << f) - 1) / z : 0;
    double s1 = z >= 2 ? 2 : 1;
    double r = 2 * pt * one_minus_pow(2 * pt * s1 / zz, n);
    if (z == 1)
        return r + (double)others * pt * one_minus_pow(pt, n);
    return r + (double)(others - mult) * pt * one_minus_pow(2 * pt / zz, n) +
           (double)mult * pt * one_minus_pow(pt / zz, n);
}

double fp_exact(const fp_state_t *s)
{
    if (s->filter->family == FP_FAMILY_CUCKOO)
        return cuckoo_rate((double)s->keys, UINT64_C(1) << s->q, s->width);
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

double fp_places(const fp_state_t *s)
{
    if (s->filter->family == FP_FAMILY_CUCKOO)
        return 2;
    if (s->filter->duplicates || s->secondary == 0)
        return 1;
    return 1 + (1 - main_rate(s)); /* the secondary, after the main table says no */
}

/* Pairs of keys that coincide on the shorter of their kept bits: the later one adds
 * nothing to the built filter's rate. Each pair of generations (T_a <= T_b) gives
 * n_a n_b such events of probability 2^-T_a, each costing 2^-T_b; rare and nearly
 * independent, so the variance is their sum times the cost squared. */
double fp_between_var(const fp_state_t *s)
{
    if (s->filter->family == FP_FAMILY_CUCKOO) {
        double pt = ldexp(1.0, -(int)s->width), z = (double)((uint64_t)1 << s->q);
        double n = (double)s->keys, p4 = 16 * pow(pt, 4) + pow(2, s->width) * pow(pt, 4);
        return n * n / 2 * 8 / (z * z * z) * p4;
    }
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

/* The power of two at least x (efficient/cuckoofilter's upperpower2), x >= 1. */
static uint64_t upper_power2(uint64_t x)
{
    uint64_t p = 1;
    while (p < x)
        p <<= 1;
    return p;
}

static int quotient_design(const fp_filter_t *f, uint64_t n, double p, double threshold,
                           unsigned bits, fp_design_t *d)
{
    unsigned age = (unsigned)f->age_bit, q = 1;
    while (q <= FP_MAX_Q && threshold_entries(threshold, q) <= n)
        q++;
    if (q > FP_MAX_Q)
        return FP_EBIG;
    if (bits && (bits < 1 + age || bits > FP_MAX_BITS))
        return FP_EBITS;
    if (!bits)
        for (unsigned b = 1 + age; b <= FP_MAX_BITS && !bits; b++)
            if (one_minus_pow(ldexp(1.0, -(int)(q + b - age)), (double)n) <= p)
                bits = b;
    if (!bits)
        return FP_ERATE;
    *d = (fp_design_t){.q = q, .bits = bits, .threshold = threshold};
    return FP_OK;
}

static int cuckoo_design(uint64_t n, double p, double threshold, unsigned bits, fp_design_t *d)
{
    uint64_t z = upper_power2(n / FP_CUCKOO_SLOTS > 1 ? n / FP_CUCKOO_SLOTS : 1);
    if ((double)n / (double)z / FP_CUCKOO_SLOTS > 0.96)
        z <<= 1;
    unsigned q = 0;
    while ((UINT64_C(1) << q) < z)
        q++;
    if (q > FP_MAX_Q)
        return FP_EBIG;
    if (bits > FP_CUCKOO_MAX_BITS)
        return FP_EBITS;
    if (!bits)
        for (unsigned f = 1; f <= FP_CUCKOO_MAX_BITS && !bits; f++)
            if (cuckoo_rate((double)n, z, f) <= p)
                bits = f;
    if (!bits)
        return FP_ERATE;
    *d = (fp_design_t){.q = q, .bits = bits, .threshold = threshold};
    return FP_OK;
}

int fp_design(const fp_filter_t *f, uint64_t n, double p, double threshold, unsigned bits,
              fp_design_t *d)
{
    if (f->family == FP_FAMILY_CUCKOO)
        return cuckoo_design(n, p, threshold, bits, d);
    return quotient_design(f, n, p, threshold, bits, d);
}

/* ---- schedules ---- */

unsigned fp_width_after(const fp_filter_t *f, unsigned F0, unsigned E)
{
    if (f->width != FP_WIDTH_WIDENS || E <= 1)
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

unsigned fp_new_bits(const fp_state_t *s)
{
    return s->width - (unsigned)(s->filter->family == FP_FAMILY_QUOTIENT && s->filter->age_bit);
}

/* Physical entries of the main table at Q: InfiniFilter keeps those with T >= Q (a void
 * entry, T = Q, stays one expansion before it moves); Aleph every entry, a void one as
 * 2^(Q - T) copies; the plain quotient filter every entry. */
static uint64_t main_count(const fp_state_t *s, unsigned Q)
{
    uint64_t c = 0, cap = UINT64_C(1) << 62;
    for (size_t g = 0; g < s->ngens; g++) {
        unsigned t = s->gen_t[g];
        uint64_t k = s->gen_n[g];
        if (t < Q && !s->filter->duplicates && s->filter->width != FP_WIDTH_SHRINKS)
            continue;
        if (t < Q && s->filter->duplicates)
            k = Q - t >= 62 || k > cap >> (Q - t) ? cap : k << (Q - t);
        c = c + k > cap ? cap : c + k;
    }
    return c;
}

/* The space of a quotient-family filter at its state: the main table's 2^Q slots and 2Q
 * extension slots, each 3 metadata bits and the field; the secondary table, sized for its
 * entries at its threshold (InfiniFilter's threshold / 0.95, Aleph's threshold) with at
 * least 8 slots, and wide enough to keep their bits (ChainedInfiniFilter widens it so
 * that its slot and fingerprint bits pass the main table's Q + 1). */
static void quotient_space(fp_state_t *s)
{
    unsigned Q = s->q;
    s->slots = UINT64_C(1) << Q;
    s->bits = (s->slots + 2 * (uint64_t)Q) * (3 + (uint64_t)s->width);
    for (size_t g = 0; g < s->ngens; g++) {
        if (s->gen_t[g] <= Q)
            s->voids += s->gen_n[g];
        if (s->filter->age_bit && (s->gen_t[g] < Q || (s->filter->duplicates && s->gen_t[g] == Q)))
            s->secondary += s->gen_n[g];
    }
    if (!s->secondary)
        return;
    double lim = s->filter->duplicates ? s->d.threshold : s->d.threshold / 0.95;
    unsigned sq = 3;
    while ((double)s->secondary > lim * ldexp(1.0, (int)sq))
        sq++;
    s->secondary_q = sq;
    s->secondary_width = Q + 2 > sq + 2 ? Q + 2 - sq : 2;
    s->bits += ((UINT64_C(1) << sq) + 2 * (uint64_t)sq) * (3 + (uint64_t)s->secondary_width);
}

static void cuckoo_state(fp_state_t *s)
{
    uint64_t z = UINT64_C(1) << s->d.q;
    s->q = s->d.q;
    s->width = s->d.bits;
    s->stored = s->keys;
    s->slots = FP_CUCKOO_SLOTS * z;
    s->bits = 8 * z * ((FP_CUCKOO_SLOTS * (uint64_t)s->d.bits + 7) / 8);
}

/* Insert the n keys generation by generation: in generation E the table has 2^Q slots,
 * and the key that brings its entries to floor(threshold 2^Q) is inserted, then the
 * table expands; what expands and what a new entry keeps is the filter's rule. */
int fp_run(const fp_filter_t *f, const fp_design_t *d, uint64_t n, fp_state_t *s)
{
    memset(s, 0, sizeof *s);
    s->filter = f;
    s->d = *d;
    s->keys = n;
    if (f->family == FP_FAMILY_CUCKOO) {
        cuckoo_state(s);
        return FP_OK;
    }
    unsigned Q = d->q, width = d->bits, E = 0;
    uint64_t entries = 0, stored = 0;
    while (stored < n) {
        uint64_t thr = threshold_entries(d->threshold, Q);
        if (s->ngens == E) {
            s->gen_t[E] = Q + width - (unsigned)f->age_bit;
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
        if (f->width == FP_WIDTH_SHRINKS && width == 0)
            break; /* no bit left to move: full, and every later key refused */
        if (Q == FP_MAX_Q)
            return FP_EBIG;
        Q++, E++;
        width = f->width == FP_WIDTH_SHRINKS ? width - 1 : fp_width_after(f, d->bits, E);
        entries = main_count(s, Q);
    }
    s->stored = stored;
    s->refused = n - stored;
    s->expansions = E;
    s->q = Q;
    s->width = width;
    s->main_entries = main_count(s, Q);
    quotient_space(s);
    return FP_OK;
}

int fp_entry_of(const fp_state_t *s, size_t g, pcg_u128 h, fp_entry_t *e)
{
    if (s->filter->family != FP_FAMILY_QUOTIENT || g >= s->ngens)
        return -1;
    unsigned Q = s->q, T = s->gen_t[g];
    memset(e, 0, sizeof *e);
    if (T < Q) {
        e->where = s->filter->duplicates ? 2 : 1;
        e->slot = (uint64_t)low_bits(h, T);
        e->copies = s->filter->duplicates ? UINT64_C(1) << (Q - T) : 0;
        return 0;
    }
    unsigned b = T - Q, W = s->width;
    e->slot = (uint64_t)low_bits(h, Q);
    e->copies = 1;
    e->bits = b;
    uint64_t hash = (uint64_t)low_bits(h >> Q, b);
    if (!s->filter->age_bit) {
        e->field = hash;
        return 0;
    }
    uint64_t ones = W - 1 - b; /* the unary age mark, over a zero */
    if (W > 64)
        return -1; /* a field past 64 bits: not laid out here */
    e->field = (((UINT64_C(1) << ones) - 1) << (b + 1)) | hash;
    return 0;
}
