/* registry.c - the tables of registry.h's lists, finding entries by name, and the words
 * of the schemes' caps. */
#include "libraries/registry.h"

#include <stdio.h>
#include <string.h>

#define REGISTRY_ADDRESS_SCHEME(id) &scheme_##id,
#define REGISTRY_ADDRESS_SIZING(id) &sizing_##id,
#define REGISTRY_ADDRESS_LIBRARY(id) &library_##id,

static const scheme_t *const schemes[] = {REGISTRY_SCHEMES(REGISTRY_ADDRESS_SCHEME)
                                          REGISTRY_LIBRARY_FILES(REGISTRY_ADDRESS_SCHEME)};
static const sizing_rule_t *const rules[] = {REGISTRY_SIZING_RULES(REGISTRY_ADDRESS_SIZING)
                                             REGISTRY_LIBRARY_FILES(REGISTRY_ADDRESS_SIZING)};
static const library_t *const libraries[] = {REGISTRY_LIBRARIES(REGISTRY_ADDRESS_LIBRARY)
                                             REGISTRY_LIBRARY_FILES(REGISTRY_ADDRESS_LIBRARY)};

#define REGISTRY_ADDRESS_CHAIN(id) &chain_##id,
static const library_chain_t *const chains[] = {REGISTRY_CHAINS(REGISTRY_ADDRESS_CHAIN)};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

size_t scheme_count(void) { return COUNT(schemes); }
const scheme_t *scheme_at(size_t i) { return i < COUNT(schemes) ? schemes[i] : NULL; }
const scheme_t *scheme_find(const char *name)
{
    for (size_t i = 0; i < COUNT(schemes); i++)
        if (strcmp(schemes[i]->name, name) == 0)
            return schemes[i];
    return NULL;
}

size_t sizing_rule_count(void) { return COUNT(rules); }
const sizing_rule_t *sizing_rule_at(size_t i) { return i < COUNT(rules) ? rules[i] : NULL; }
const sizing_rule_t *sizing_find(const char *name)
{
    for (size_t i = 0; i < COUNT(rules); i++)
        if (strcmp(rules[i]->name, name) == 0)
            return rules[i];
    return NULL;
}

size_t library_count(void) { return COUNT(libraries); }
const library_t *library_at(size_t i) { return i < COUNT(libraries) ? libraries[i] : NULL; }
const library_t *library_find(const char *name)
{
    for (size_t i = 0; i < COUNT(libraries); i++)
        if (strcmp(libraries[i]->name, name) == 0)
            return libraries[i];
    return NULL;
}

/* Appends a then b to buf (size bytes) at *at, cut at its end, kept a string. */
static void put(char *buf, size_t size, size_t *at, const char *a, const char *b)
{
    int n = snprintf(buf + *at, size - *at, "%s%s", a, b);
    if (n > 0)
        *at += (size_t)n < size - *at ? (size_t)n : size - *at - 1;
}

/* The name the caps' message lists scheme s under. */
static const char *cap_name(const scheme_t *s)
{
    return s->m_cap_as ? s->m_cap_as : s->name;
}

/* Whether a scheme before j (from `from` on) has cap and, when as is not NULL, that
 * name: the cap or the name is listed already. */
static int cap_listed(size_t from, size_t j, const char *cap, const char *as)
{
    for (size_t i = from; i < j; i++)
        if (schemes[i]->m_cap && strcmp(schemes[i]->m_cap, cap) == 0 &&
            (!as || strcmp(cap_name(schemes[i]), as) == 0))
            return 1;
    return 0;
}

/* The message lists each cap once, in the order the schemes first name it, with the
 * names that share it: "(a, b: m < 2^31; c: m <= 2^32)". */
const char *scheme_refusal(const scheme_t *s, int status)
{
    if (status == SCHEME_ELOSES && s && s->loses)
        return s->loses;
    if (status != SCHEME_EMBIG)
        return scheme_strerror(status);
    static _Thread_local char buf[1024];
    size_t at = 0;
    const char *sep = "";
    put(buf, sizeof buf, &at, scheme_strerror(status), " (");
    for (size_t i = 0; i < COUNT(schemes); i++) {
        const char *cap = schemes[i]->m_cap;
        if (!cap || cap_listed(0, i, cap, NULL))
            continue;
        for (size_t j = i; j < COUNT(schemes); j++)
            if (schemes[j]->m_cap && strcmp(schemes[j]->m_cap, cap) == 0 &&
                !cap_listed(i, j, cap, cap_name(schemes[j])))
                put(buf, sizeof buf, &at, j == i ? sep : ", ", cap_name(schemes[j]));
        put(buf, sizeof buf, &at, ": ", cap);
        sep = "; ";
    }
    put(buf, sizeof buf, &at, ")", "");
    return buf;
}

size_t chain_count(void) { return COUNT(chains); }
const library_chain_t *chain_at(size_t i) { return i < COUNT(chains) ? chains[i] : NULL; }
const library_chain_t *chain_find(const char *name)
{
    for (size_t i = 0; i < COUNT(chains); i++)
        if (strcmp(chains[i]->name, name) == 0)
            return chains[i];
    return NULL;
}
