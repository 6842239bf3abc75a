/* guava_progression.c - why guava32 departs from its model (results/FINDINGS.md,
 * "Guava's index arithmetic in big filters"). Usage: guava-progression M N K [SAMPLES [FIRST]].
 *
 * The model column (rate_model_mod) treats a lookup's k probes as independent draws
 * from the uneven distribution of c mod m. This program keeps everything else of that
 * model (each bit set independently, with the probability its position's share of the
 * probes gives) but takes a lookup's probes as guava32 does: the folded progression
 * hash1 + i*hash2, i = 1..k. It averages the product of the k bits' set-probabilities
 * over sampled (hash1, hash2) and prints it with its Monte Carlo standard error, beside
 * the model, and the share of lookups whose probes all land on the positions that take
 * one value of c more than the others. Not a test, and not used by bloomsim.
 *
 * With FIRST, the pairs are not sampled but ORC's: getLongHash (Thomas Wang's hash) of
 * the integers FIRST, FIRST + 1, ..., its low word hash1 and its high word hash2, the
 * lookups of the `seq` key set at N keys when FIRST is N (results/FINDINGS.md, ORC on
 * integers). The error is then the spread of those lookups' products, as if sampled. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "hashes/hashes.h"
#include "base/pcg.h"
#include "rates/rate.h"

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: guava-progression M N K [SAMPLES [FIRST]]\n");
        return 2;
    }
    uint64_t m = strtoull(argv[1], NULL, 10), n = strtoull(argv[2], NULL, 10);
    unsigned k = (unsigned)strtoul(argv[3], NULL, 10);
    uint64_t samples = argc > 4 ? strtoull(argv[4], NULL, 10) : 100000000;
    int orc = argc > 5;
    uint64_t first = orc ? strtoull(argv[5], NULL, 10) : 0;
    const uint64_t range = UINT64_C(1) << 31; /* folded c is uniform on [0, 2^31) */
    if (m < 2 || m > range || k < 1 || samples < 2) {
        fprintf(stderr, "guava-progression: needs 2 <= M <= 2^31, K >= 1, SAMPLES >= 2\n");
        return 2;
    }
    /* Positions j < range mod m take per + 1 values of c, the others per. */
    uint64_t per = range / m, extra = range % m;
    double t = (double)n * k;
    double f_more = -expm1(t * log1p(-(double)(per + 1) / (double)range));
    double f_less = -expm1(t * log1p(-(double)per / (double)range));
    pcg32_t r;
    pcg32_seed(&r, 2012, 17);
    double sum = 0, sum2 = 0;
    uint64_t all_dense = 0; /* lookups whose k probes all take the per + 1 positions */
    for (uint64_t s = 0; s < samples; s++) {
        uint32_t h1, h2;
        if (orc) {
            uint64_t h = hash_wang64(first + s);
            h1 = (uint32_t)h, h2 = (uint32_t)(h >> 32);
        } else {
            h1 = pcg32_next(&r), h2 = pcg32_next(&r);
        }
        double p = 1;
        unsigned dense = 0;
        for (uint32_t i = 1; i <= k; i++) {
            uint32_t c = h1 + i * h2;
            if (c >> 31)
                c = ~c;
            unsigned in_band = c % m < extra;
            dense += in_band;
            p *= in_band ? f_more : f_less;
        }
        all_dense += dense == k;
        sum += p;
        sum2 += p * p;
    }
    double mean = sum / (double)samples;
    double se = sqrt((sum2 / (double)samples - mean * mean) / (double)(samples - 1));
    double model = rate_model_mod(range, m, n, k);
    printf("m = %llu, n = %llu, k = %u%s: progression %.6g +- %.2g, model (independent "
           "probes) %.6g, ratio %.4f\n", (unsigned long long)m, (unsigned long long)n, k,
           orc ? ", ORC's pairs of sequential integers" : "", mean, se, model, mean / model);
    printf("the %llu positions of %llu values of c, %.4f set (the others %.4f): every probe "
           "there in %.4f%% of lookups\n", (unsigned long long)extra,
           (unsigned long long)(per + 1), f_more, f_less, 100.0 * (double)all_dense / (double)samples);
    return 0;
}
