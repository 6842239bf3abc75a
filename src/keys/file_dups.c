/* file_dups.c - the lines of a key file (file.c) asked about that are also inserted:
 * such a query is a key of the filter, its 1 no false positive, so a file holding one
 * is refused (docs/model.md, Key sets and real hashes), naming the first and the count.
 * One pass over the inserted lines into a hash table of their offsets, one over the
 * queried lines looking each up; the bytes are compared, so a hash collision is never
 * taken for a duplicate. Memory: 16 bytes an inserted line, freed before it returns. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hashes/hashes.h"
#include "keys/keys.h"

/* The line at offset off, as file.c streams it (without "\n" or a final "\r"):
 * its length, and the offset of the next line into *next. */
static size_t line_len(const keyset_t *ks, size_t off, size_t *next)
{
    const uint8_t *p = ks->map + off, *end = ks->map + ks->size;
    const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
    size_t len = (size_t)((nl ? nl : end) - p);
    *next = nl ? (size_t)(nl - ks->map) + 1 : ks->size;
    return len > 0 && p[len - 1] == '\r' ? len - 1 : len;
}

/* FNV-1a, 64 bits (Fowler, Noll and Vo), finished by a multiply-xorshift. */
static uint64_t line_hash(const uint8_t *p, size_t len)
{
    uint64_t h = hash_fnv1a64(p, len);
    h ^= h >> 32;
    return h * 0x9e3779b97f4a7c15u;
}

int keyset_file_duplicates(const keyset_t *ks, char *err, size_t errlen)
{
    if (ks->inserts == 0 || ks->lines <= ks->inserts)
        return KEYSET_OK;
    uint64_t cap = 16;
    while (cap < 2 * ks->inserts)
        cap *= 2;
    uint64_t *slot = cap <= SIZE_MAX / sizeof *slot ? calloc((size_t)cap, sizeof *slot) : NULL;
    if (!slot) {
        snprintf(err, errlen, "out of memory checking key file %s for queried lines that "
                 "are inserted", ks->path);
        return KEYSET_ENOMEM;
    }
    size_t off = 0, next;
    for (uint64_t i = 0; i < ks->inserts; i++, off = next) { /* slot: offset + 1 */
        size_t len = line_len(ks, off, &next);
        uint64_t j = line_hash(ks->map + off, len) & (cap - 1);
        while (slot[j])
            j = (j + 1) & (cap - 1);
        slot[j] = off + 1;
    }
    uint64_t dups = 0, first = 0, first_ins = 0;
    for (uint64_t line = ks->inserts; off < ks->size; line++, off = next) {
        size_t len = line_len(ks, off, &next), o;
        for (uint64_t j = line_hash(ks->map + off, len) & (cap - 1); slot[j];
             j = (j + 1) & (cap - 1))
            if (line_len(ks, o = slot[j] - 1, &(size_t){0}) == len &&
                memcmp(ks->map + o, ks->map + off, len) == 0) {
                if (dups++ == 0)
                    first = off, first_ins = o;
                break;
            }
    }
    free(slot);
    if (!dups)
        return KEYSET_OK;
    uint64_t qline = 1, iline = 1; /* 1-based line numbers of the first duplicate */
    for (const uint8_t *p = ks->map; (p = memchr(p, '\n', first - (size_t)(p - ks->map)));
         p++)
        qline++, iline += (size_t)(p - ks->map) < first_ins;
    char shown[64];
    size_t len = line_len(ks, first, &next), s = 0;
    for (; s < len && s < sizeof shown - 4; s++)
        shown[s] = ks->map[first + s] >= 32 && ks->map[first + s] < 127 ? (char)ks->map[first + s]
                                                                       : '?';
    strcpy(shown + s, s < len ? "..." : "");
    snprintf(err, errlen, "key file %s:%llu: '%s' is also line %llu, an inserted one: a "
             "queried line must not be an inserted key (%llu queried lines are; remove them)",
             ks->path, (unsigned long long)qline, shown, (unsigned long long)iline,
             (unsigned long long)dups);
    return KEYSET_EFILE;
}
