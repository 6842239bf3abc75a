/* scheme.c - what the schemes share beyond their own files: the reasons of their
 * statuses. The schemes are defined one file each under src/schemes/ and
 * src/libraries/, and listed in registry.h. */
#include "schemes/scheme.h"

const char *scheme_strerror(int status)
{
    switch (status) {
    case SCHEME_OK: return "ok";
    case SCHEME_EKBIG: return "more probes than bits (k must be < m)";
    case SCHEME_ENOTPOW2: return "the scheme needs a power-of-two number of bits";
    case SCHEME_ESMALL: return "too few bits for the scheme";
    case SCHEME_EWORD: return "hash word outside the range the scheme draws it from";
    case SCHEME_EBLOCK: return "block size must be a power of two from 64 to 4096 bits, "
                               "and at most the filter's bits";
    case SCHEME_ESPLIT: return "k must split the block into words of a power-of-two number "
                               "of bits";
    case SCHEME_EKFIXED: return "the library this scheme follows fixes k (k must be 8)";
    case SCHEME_EMBIG: return "more bits than the library this scheme follows can address";
    case SCHEME_ELOSES: return "the library this scheme follows loses inserted keys at this "
                               "size (false negatives)";
    default: return "unknown scheme error";
    }
}
