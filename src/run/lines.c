/* lines.c - see lines.h. */
#include "run/lines.h"

#include <math.h>

double lines_absent_lookup(const probe_geom_t *g, double fill)
{
    if (!(fill >= 0 && fill <= 1) || g->k == 0)
        return NAN;
    if (g->block || g->blocks) {
        uint64_t b = g->block ? g->block : g->m / g->blocks;
        return b <= LINES_BITS ? 1 : NAN;
    }
    double x = fill;
    if (g->w == g->m) { /* one array: a probe may land in a line read before */
        double lines = ceil((double)g->m / LINES_BITS);
        x *= 1 - 1 / lines;
    }
    double sum = 0, t = 1;
    for (unsigned j = 0; j < g->k; j++, t *= x)
        sum += t;
    return sum;
}
