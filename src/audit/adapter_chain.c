/* adapter_chain.c - see adapter_chain.h. */
#include "audit/adapter_chain.h"

#include <inttypes.h>
#include <stdlib.h>

/* Link j of the chain, made by the library's rule from link j - 1: NULL or the refusal. */
static const char *link_new(adapter_chain_t *a)
{
    size_t j = a->nlinks;
    if (j == CHAIN_MAX_LINKS)
        return chain_strerror(a->c, CHAIN_ELINKS);
    if (j == a->cap) {
        size_t cap = a->cap ? 2 * a->cap : 16;
        adapter_link_t *l = realloc(a->link, cap * sizeof *l);
        if (!l)
            return "out of memory";
        a->link = l, a->cap = cap;
    }
    adapter_link_t *l = &a->link[j];
    *l = (adapter_link_t){0};
    int st = a->c->link(&a->p, j, j ? &a->link[j - 1].size : NULL, &l->size);
    if (st != SIZING_OK)
        return chain_strerror(a->c, st);
    if ((st = a->c->scheme->geometry(l->size.m, l->size.k, 0, &l->g)) != SCHEME_OK)
        return scheme_strerror(st);
    if (bits_alloc(&l->b, l->g.m) != 0)
        return "out of memory";
    a->nlinks++;
    return NULL;
}

void adapter_chain_free(adapter_chain_t *a)
{
    for (size_t j = 0; j < a->nlinks; j++)
        bits_free(&a->link[j].b);
    free(a->link);
    *a = (adapter_chain_t){0};
}

const char *adapter_chain_design(adapter_chain_t *a, const library_chain_t *c,
                                 const chain_params_t *p)
{
    adapter_chain_free(a);
    a->c = c, a->p = *p;
    int st = chain_check(c, p);
    const char *why = st != SIZING_OK ? chain_strerror(c, st) : link_new(a);
    if (why)
        adapter_chain_free(a);
    return why;
}

static int link_has(adapter_chain_t *a, adapter_link_t *l, const rkey_t *k)
{
    library_words_positions(a->c->words, a->c->scheme, &l->g, k, a->pos);
    for (unsigned i = 0; i < l->g.k; i++)
        if (!bits_test(&l->b, a->pos[i]))
            return 0;
    return 1;
}

int adapter_chain_has(adapter_chain_t *a, const rkey_t *k)
{
    for (size_t j = 0; j < a->nlinks; j++)
        if (link_has(a, &a->link[j], k))
            return 1;
    return 0;
}

const char *adapter_chain_add(adapter_chain_t *a, const rkey_t *k)
{
    if (a->c->swallows && adapter_chain_has(a, k))
        return NULL;
    size_t j = a->nlinks - 1;
    adapter_link_t *l = &a->link[j];
    int full = a->c->full ? a->c->full(&a->p, j, &l->size, l->added, l->set)
                          : l->added >= l->size.capacity;
    if (full) {
        const char *why = link_new(a);
        if (why)
            return why;
        l = &a->link[++j];
    }
    library_words_positions(a->c->words, a->c->scheme, &l->g, k, a->pos);
    for (unsigned i = 0; i < l->g.k; i++)
        if (!bits_test(&l->b, a->pos[i])) {
            bits_set(&l->b, a->pos[i]);
            l->set++;
        }
    l->added++;
    return NULL;
}

void adapter_chain_links(const adapter_chain_t *a, FILE *out)
{
    fprintf(out, "links %zu", a->nlinks);
    for (size_t j = 0; j < a->nlinks; j++)
        fprintf(out, " %" PRIu64 " %u", a->link[j].g.m, a->link[j].g.k);
}

void adapter_hex_bits(FILE *out, const bits_t *const *b, const uint64_t *m, size_t n)
{
    uint64_t total = 0;
    for (size_t j = 0; j < n; j++)
        total += m[j];
    fprintf(out, "bits %" PRIu64 " ", total);
    unsigned byte = 0, got = 0; /* bits gathered into the byte being written */
    for (size_t j = 0; j < n; j++)
        for (uint64_t i = 0; i < m[j]; i++) {
            byte |= (unsigned)bits_test(b[j], i) << got;
            if (++got == 8) {
                fprintf(out, "%02x", byte);
                byte = 0, got = 0;
            }
        }
    if (got)
        fprintf(out, "%02x", byte);
}

void adapter_chain_bits(const adapter_chain_t *a, size_t j0, size_t j1, FILE *out)
{
    const bits_t *b[CHAIN_MAX_LINKS];
    uint64_t m[CHAIN_MAX_LINKS];
    for (size_t j = j0; j < j1; j++)
        b[j - j0] = &a->link[j].b, m[j - j0] = a->link[j].g.m;
    adapter_hex_bits(out, b, m, j1 - j0);
}
