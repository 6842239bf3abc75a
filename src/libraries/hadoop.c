/* hadoop.c - Apache Hadoop's org.apache.hadoop.util.bloom: its index arithmetic, its
 * model, the sizing of BloomMapFile, and its row.
 *
 * Sources: apache/hadoop hadoop-common org/apache/hadoop/util/bloom/HashFunction.java
 * (hash(Key), read at 51ed1d7b of the collabH/hadoop mirror), BloomFilter.java at
 * 48817814, and org/apache/hadoop/io/BloomMapFile.java (Writer).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "libraries/arith.h"
#include "hashes/hashes.h"
#include "libraries/library.h"
#include "rates/rate.h"
#include "libraries/registry.h"
#include "schemes/words.h"

/* ---- the index arithmetic ----
 * k 32-bit hashes, each seeded with the previous one's output: with an ideal hash, k
 * independent 32-bit words x_i, drawn fresh per probe (as `independent` draws). Probe i
 * is Math.abs(x_i % maxValue) with x_i a Java int and maxValue = m an int: the remainder
 * takes the dividend's sign, so the position is |x_i| mod m. m must fit an int (m <
 * 2^31, else SCHEME_EMBIG). No hash words: positions_drawn maps the k draws. */
static int hadoop_geometry(uint64_t m, unsigned k, uint64_t block, probe_geom_t *g)
{
    if (m > INT32_MAX)
        return SCHEME_EMBIG;
    return scheme_geom_plain(m, k, block, g);
}
/* Java's Math.abs((int)x % m) for a 32-bit word x and 0 < m < 2^31. */
SCHEME_HOT uint64_t hadoop_index(uint32_t x, uint64_t m)
{
    int64_t v = (int64_t)(int32_t)x % (int64_t)m; /* C's % also truncates toward zero */
    return (uint64_t)(v < 0 ? -v : v);
}
#define hadoop_draw nowords_draw
#define hadoop_start nowords_start
SCHEME_HOT uint64_t hadoop_next(const probe_geom_t *g, pcg32_t *r, probe_it_t *it)
{
    (void)it;
    return hadoop_index(pcg32_next(r), g->m);
}
SCHEME_LOOPS(hadoop)

static void hadoop_positions_drawn(const probe_geom_t *g, const uint64_t *h, const uint64_t *d,
                                   uint64_t *pos)
{
    (void)h;
    for (unsigned i = 0; i < g->k; i++)
        pos[i] = hadoop_index((uint32_t)d[i], g->m);
}

/* Model: |x % m| of an int32 x: each half of the int32 range, folded by the absolute
 * value, is a uniform range of 2^31 values taken mod m (rate_model_mod's range 2^31;
 * the two halves differ by one value). */
static double hadoop_model(const probe_geom_t *g, uint64_t n)
{
    return rate_model_mod(UINT64_C(1) << 31, g->m, n, g->k);
}

const scheme_t scheme_hadoop = {
    .name = "hadoop",
    .summary = "Hadoop util.bloom: k independent int32 words, Math.abs(x % m); m < 2^31",
    .geometry = hadoop_geometry, SCHEME_LOOP_FNS(hadoop),
    .positions_drawn = hadoop_positions_drawn, .draw_bound = scheme_draw_below_2_32,
    .model = hadoop_model,
    .m_cap = "m < 2^31",
};

/* ---- sizing: BloomMapFile.Writer.initBloomFilter (BloomMapFile.java:166-180 @fb8932a7):
 * HASH_COUNT = 5; numKeys = conf.getInt(...), an int (Integer.parseInt: past 2^31 - 1 it
 * cannot be configured); errorRate = conf.getFloat(...), a float; vectorSize =
 * (int)Math.ceil((double)(-HASH_COUNT * numKeys) / Math.log(1.0 - Math.pow(errorRate,
 * 1.0/HASH_COUNT))). -5 numKeys is int arithmetic and wraps: W = (-5 n) mod 2^32 read as
 * signed. Nothing checks it: where W >= 0 the size is <= 0 and HashFunction's constructor
 * throws IllegalArgumentException("maxValue must be > 0") (HashFunction.java:84-85), so
 * 429,496,730 to 858,993,459 keys (and 1,288,490,189 to 1,717,986,918) are refused; where
 * W < 0 again (858,993,460 to 1,288,490,188 keys, and 1,717,986,919 to 2^31 - 1) the
 * writer silently builds the filter of -W keys, (5 n - 2^32) or (5 n - 2^33), and puts
 * all n in it: at 10^9 keys and the default 0.005, 1,656,859,344 bits, the size for
 * 1.41 * 10^8 keys. (int) saturates at 2^31 - 1 bits. The filter indexes vectorSize:
 * m = m_c. ---- */
static int hadoop_design(uint64_t n, double p, double bpk, sizing_out_t *out)
{
    (void)bpk;
    if (n > INT32_MAX)
        return SIZING_EKEYS;
    double pf = (double)(float)p;
    if (!(pf > 0 && pf < 1))
        return SIZING_EDOM; /* p rounds to 0 or 1 as a float */
    int32_t w = (int32_t)(uint32_t)(UINT64_C(0x100000000) - 5 * n); /* -5 n, int wraparound */
    double x = ceil((double)w / log(1.0 - pow(pf, 1.0 / 5)));
    if (!(x >= 1))
        return SIZING_EZERO; /* a size <= 0: "maxValue must be > 0" */
    out->m_computed = out->m = x > INT32_MAXD ? (uint64_t)INT32_MAXD : (uint64_t)x;
    out->k = 5;
    return SIZING_OK;
}

static const char *hadoop_refusal(int status)
{
    switch (status) {
    case SIZING_EKEYS:
        return "Hadoop reads the key count as an int (Integer.parseInt): at most 2^31 - 1";
    case SIZING_EZERO:
        return "Hadoop's -5 * numKeys wraps (int arithmetic) to a size <= 0 and HashFunction "
               "throws IllegalArgumentException (\"maxValue must be > 0\")";
    default:
        return NULL;
    }
}

const sizing_rule_t sizing_hadoop = {
    .name = "hadoop",
    .summary = "Hadoop BloomMapFile: k = 5, m = ceil(-5N / ln(1 - P^(1/5))) with P a float "
               "and -5N an int that wraps",
    .kind = SIZING_RULE_LIBRARY, .over = SIZING_OVER_UNIFORM, .design = hadoop_design,
    .refusal = hadoop_refusal,
};

/* ---- real keys: util/bloom/HashFunction.java hash(Key): initval = 0; for each of the
 * k probes initval = hashFunction.hash(bytes, initval) (MurmurHash, the default hash type
 * of BloomMapFile's Hash.getHashType), the probe taking Math.abs(initval % maxValue). The
 * key's bytes are BloomMapFile.Writer.append's key.write(buf): a LongWritable is 8 bytes
 * big-endian; a Text is WritableUtils.writeVInt(length) then its UTF-8 bytes. ---- */
static size_t hadoop_vint(uint64_t v, uint8_t *o)
{
    if (v <= 127) { /* writeVLong: -112 <= i <= 127 is one byte */
        o[0] = (uint8_t)v;
        return 1;
    }
    int n = 0;
    for (uint64_t t = v; t != 0; t >>= 8)
        n++;
    o[0] = (uint8_t)(-112 - n); /* a length byte: -113 for one byte of value, ... */
    for (int i = 0; i < n; i++)
        o[1 + i] = (uint8_t)(v >> (8 * (n - 1 - i)));
    return (size_t)n + 1;
}
static void hadoop_words(const rkey_t *key, const probe_geom_t *g, uint64_t *out)
{
    uint8_t stack[LIBRARY_WORDS_KEY_MAX + 16], *buf = stack;
    size_t len;
    if (key->kind == KEY_INT) {
        for (int i = 0; i < 8; i++)
            buf[i] = (uint8_t)(key->u >> (56 - 8 * i));
        len = 8;
    } else {
        if (key->len > LIBRARY_WORDS_KEY_MAX && !(buf = malloc(key->len + 16)))
            abort();
        len = hadoop_vint(key->len, buf);
        memcpy(buf + len, key->bytes, key->len);
        len += key->len;
    }
    uint32_t h = 0;
    for (unsigned i = 0; i < g->k; i++)
        out[i] = h = hash_murmur2_hadoop(buf, len, h);
    if (buf != stack)
        free(buf);
}
static const library_words_t words_hadoop = {
    .hash = "MurmurHash (Hadoop), k chained from seed 0",
    .key_bytes = "integer: a LongWritable, 8 bytes big-endian; string: a Text, vint length + "
                 "UTF-8",
    .kinds = LIBRARY_KEYS_INT_BYTES, .word_bits = 32, .drawn = 1, .words = hadoop_words,
};

const library_t library_hadoop = {
    .name = "hadoop",
    .version = "Apache Hadoop util/bloom/BloomFilter.java @48817814, HashFunction.java "
               "@51ed1d7b; BloomMapFile's sizing",
    .scheme = &scheme_hadoop, .sizing = &sizing_hadoop, .hash = "k x 32-bit",
    .cause = "arithmetic: Math.abs(int % m) on int32 words, m below 2^31; k fixed at 5; "
             "sizing: -5N wraps past 429496729 keys (refused, or silently far too small)",
    .report = "",
    .words = &words_hadoop,
};
