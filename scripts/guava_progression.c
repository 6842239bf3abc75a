/* guava_progression.c - why guava32 departs from its model (README, "Guava's index
 * arithmetic in big filters"). Usage: guava-progression M N K [SAMPLES].
 *
 * The model column (rate_model_mod) treats a lookup's k probes as independent draws
 * from the uneven distribution of c mod m. This program keeps everything else of that
 * model (each bit set independently, with the probability its position's share of the
 * probes gives) but takes a lookup's probes as guava32 does: the folded progression
 * hash1 + i*hash2, i = 1..k. It averages the product of the k bits' set-probabilities
 * over sampled (hash1, hash2) and prints it with its Monte Carlo standard error, beside
 * the model. Not a test, and not used by bloomsim. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "pcg.h"
#include "rate.h"

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: guava-progression M N K [SAMPLES]\n");
        return 2;
    }
    uint64_t m = strtoull(argv[1], NULL, 10), n = strtoull(argv[2], NULL, 10);
    unsigned k = (unsigned)strtoul(argv[3], NULL, 10);
    uint64_t samples = argc > 4 ? strtoull(argv[4], NULL, 10) : 100000000;
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
    for (uint64_t s = 0; s < samples; s++) {
        uint32_t h1 = pcg32_next(&r), h2 = pcg32_next(&r);
        double p = 1;
        for (uint32_t i = 1; i <= k; i++) {
            uint32_t c = h1 + i * h2;
            if (c >> 31)
                c = ~c;
            p *= c % m < extra ? f_more : f_less;
        }
        sum += p;
        sum2 += p * p;
    }
    double mean = sum / (double)samples;
    double se = sqrt((sum2 / (double)samples - mean * mean) / (double)(samples - 1));
    double model = rate_model_mod(range, m, n, k);
    printf("m = %llu, n = %llu, k = %u: progression %.6g +- %.2g, model (independent "
           "probes) %.6g, ratio %.4f\n", (unsigned long long)m, (unsigned long long)n, k, mean,
           se, model, mean / model);
    return 0;
}
