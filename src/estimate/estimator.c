/* estimator.c - the registry of estimators (estimator.h): adding one is one file and
 * one entry here. */
#include "estimate/estimator.h"

#include <string.h>

static const est_ops_t *const registry[] = {&est_lookups, &est_conditional};

size_t est_count(void) { return sizeof registry / sizeof registry[0]; }

const est_ops_t *est_at(size_t i) { return i < est_count() ? registry[i] : NULL; }

int est_find(const char *name)
{
    for (size_t i = 0; i < est_count(); i++)
        if (strcmp(registry[i]->name, name) == 0)
            return (int)i;
    return -1;
}

double est_row_work(const exp_row_t *row)
{
    double per_filter = 0;
    for (size_t j = 0; j < row_layers(row); j++) {
        const probe_geom_t *g = row_layer_geom(row, j);
        uint64_t n = row_layer_n(row, j);
        per_filter += (double)n * g->k + row->est->work(row, g, n);
    }
    return (double)row->filters * per_filter;
}
