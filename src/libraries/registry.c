/* registry.c - the tables of registry.h's lists, and finding entries by name. */
#include "libraries/registry.h"

#include <string.h>

#define REGISTRY_ADDRESS_SCHEME(id) &scheme_##id,
#define REGISTRY_ADDRESS_SIZING(id) &sizing_##id,
#define REGISTRY_ADDRESS_LIBRARY(id) &library_##id,

static const scheme_t *const schemes[] = {REGISTRY_SCHEMES(REGISTRY_ADDRESS_SCHEME)};
static const sizing_rule_t *const rules[] = {REGISTRY_SIZING_RULES(REGISTRY_ADDRESS_SIZING)};
static const library_t *const libraries[] = {REGISTRY_LIBRARIES(REGISTRY_ADDRESS_LIBRARY)};

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
