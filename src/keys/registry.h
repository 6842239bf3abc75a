/* registry.h - the key sets, one line each, in the order messages, `audit --help` and
 * `bloomsim list` name them. An entry X(id) stands for keyset_id, the descriptor
 * (keyset_kind_t, keys.h) that the key set's own file in src/keys/ (its id, .c)
 * defines; keys.c builds the table from this list. The first entry is the default, where no key set is given. Adding a key set is
 * its file, its line here and its line in src/keys/meson.build.
 */
#ifndef BLOOMSIM_KEYS_REGISTRY_H
#define BLOOMSIM_KEYS_REGISTRY_H

#define KEYSET_REGISTRY(X) \
    X(ideal)               \
    X(seq)                 \
    X(seq_str)             \
    X(random)              \
    X(uuid)                \
    X(file)                \
    X(filter_bench)        \
    X(url)                 \
    /* the end of the list */

/* How many there are. */
#define KEYSET_ONE(id) +1
enum { KEYSET_COUNT = 0 KEYSET_REGISTRY(KEYSET_ONE) };

#endif
