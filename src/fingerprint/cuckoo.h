/* cuckoo.h - the cuckoo filter's family (fingerprint.h; cuckoo.c): its ops, for the
 * filters that are a cuckoo filter sized one way or another (cuckoo.c's `cuckoo`, sized
 * for the design's keys; cuckoo_rebuilt.c's, for the keys inserted). */
#ifndef BLOOMSIM_CUCKOO_H
#define BLOOMSIM_CUCKOO_H

#include "fingerprint/fingerprint.h"

/* A tag is cut from a 32-bit word: at most 32 bits. */
#define FP_CUCKOO_MAX_BITS 32
/* Tags per bucket, kicks before the victim slot is used (kMaxCuckooCount). */
#define FP_CUCKOO_SLOTS 4
#define FP_CUCKOO_KICKS 500

extern const fp_ops_t fp_cuckoo_ops;

#endif
