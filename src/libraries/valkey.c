/* valkey.c - valkey-bloom, Valkey's Bloom module: its scaling filter, a chain of the Rust
 * `bloomfilter` crate's filters (rust.c's scheme and sizing rule: valkey-bloom 1.0.0
 * depends on bloomfilter 3.0.1, Cargo.toml at 02b8970b).
 *
 * Source: valkey-io/valkey-bloom at e627e871, src/bloom/utils.rs (BloomFilterType::
 * new_reserved, add_item, calculate_fp_rate, BloomFilter::validate_size) and
 * src/configs.rs (the defaults and limits).
 */
#include <math.h>

#include "libraries/chain.h"
#include "libraries/registry.h"

/* ---- the scaling filter ----
 * new_reserved makes the first filter for the capacity at fp_rate itself, not tightened.
 * add_item returns 0, adding nothing, when any filter reports the key (item_exists: the
 * key is swallowed); adds to the newest filter while its num_items < capacity; else (not
 * NONSCALING, expansion 0) makes a filter of capacity * expansion (checked_mul: overflow
 * is "ERR bloom object reached max number of filters") at fp_rate * tightening_ratio^n,
 * n the filters so far (calculate_fp_rate: at most f64::MIN_POSITIVE is the same error),
 * refused when validate_size finds its bitmap (bloomfilter's compute_bitmap_size bytes)
 * plus the BloomFilter struct (a Box and two i64: 24 bytes) above the 64 MiB a filter
 * may take (BLOOM_MEMORY_LIMIT_PER_FILTER_DEFAULT): "ERR operation results in filter
 * allocation exceeding size limit". Defaults (configs.rs): capacity 100, fp rate 0.01,
 * expansion 2, tightening ratio 0.5 (the module setting bloom-tightening-ratio, and
 * BF.INSERT's TIGHTENING, both refusing a ratio outside (0, 1): "ERR (0 < tightening ratio
 * range < 1)"; bloomsim's --tightening, a stack's NAME/E/T). BF.RESERVE refuses a rate outside (0, 1) ("ERR (0 < error rate range < 1)"),
 * a capacity below 1 ("ERR (capacity should be larger than 0)") and an expansion outside
 * 1 to u32::MAX ("ERR bad expansion"). The filters' target rates add up to 2 P. */
#define VALKEY_TIGHTENING 0.5
#define VALKEY_FILTER_LIMIT (64.0 * 1024 * 1024)
#define VALKEY_FILTER_STRUCT 24.0

enum { VALKEY_ESIZE = 200, VALKEY_EFILTERS };

static int valkey_check(const chain_params_t *p)
{
    return chain_check_whole(p, 4294967295.0);
}

static int valkey_link(const chain_params_t *p, size_t j, const sizing_layer_t *prev,
                       sizing_layer_t *out)
{
    uint64_t cap = p->capacity;
    double rate = p->rate;
    if (j > 0) {
        if ((double)prev->capacity * p->expansion > 9223372036854775807.0)
            return VALKEY_EFILTERS;
        cap = prev->capacity * (uint64_t)p->expansion;
        rate = p->rate * pow(p->tightening, (double)j);
        if (!(rate > 0x1p-1022))
            return VALKEY_EFILTERS;
    }
    uint64_t m;
    unsigned k;
    int st = sizing_design(&sizing_rust_bloomfilter, cap, rate, &m, &k);
    if (st != SIZING_OK)
        return st;
    if ((double)m / 8 + VALKEY_FILTER_STRUCT > VALKEY_FILTER_LIMIT)
        return VALKEY_ESIZE;
    *out = (sizing_layer_t){.capacity = cap, .rate = rate, .m = m, .k = k};
    return SIZING_OK;
}

/* BF.RESERVE key P N NONSCALING: one filter of N at P. */
static int valkey_reserve(const chain_params_t *p, uint64_t n, uint64_t *m, unsigned *k)
{
    return sizing_design(&sizing_rust_bloomfilter, n, p->rate, m, k);
}

static const char *valkey_refusal(int status)
{
    switch (status) {
    case CHAIN_ECAPACITY:
        return "valkey-bloom refuses it: \"ERR (capacity should be larger than 0)\"";
    case CHAIN_ERATE:
        return "valkey-bloom refuses it: \"ERR (0 < error rate range < 1)\"";
    case CHAIN_EEXPANSION:
    case CHAIN_EWHOLE:
        return "valkey-bloom refuses it: \"ERR bad expansion\" (1 to 2^32 - 1)";
    case CHAIN_ETIGHTENING:
        return "valkey-bloom refuses it: \"ERR (0 < tightening ratio range < 1)\"";
    case VALKEY_ESIZE:
        return "valkey-bloom refuses the next filter: \"ERR operation results in filter "
               "allocation exceeding size limit\" (64 MiB a filter)";
    case VALKEY_EFILTERS:
        return "valkey-bloom refuses the next filter: \"ERR bloom object reached max number "
               "of filters\"";
    default:
        return NULL;
    }
}

const library_chain_t chain_valkey_bloom = {
    .name = "valkey-bloom",
    .version = "valkey-bloom 1.0.0 (valkey-io/valkey-bloom e627e871) src/bloom/utils.rs, "
               "src/configs.rs; links of the Rust bloomfilter crate 3.0.1",
    .summary = "BF.ADD / BF.RESERVE P C [EXPANSION E]: filter 0 of C keys at P, filter j of E "
               "times the last's capacity at P T^j (T 0.5); full at its capacity of keys added; a "
               "key any filter reports present is not added; 64 MiB a filter",
    .scheme = &scheme_rust_bloomfilter,
    .defaults = {.capacity = 100, .rate = 0.01, .expansion = 2,
                 .tightening = VALKEY_TIGHTENING},
    .has_expansion = 1, .has_tightening = 1, .swallows = 1,
    .check = valkey_check, .link = valkey_link, .reserve = valkey_reserve,
    .refusal = valkey_refusal,
};
