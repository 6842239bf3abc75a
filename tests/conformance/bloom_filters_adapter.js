// bloom_filters_adapter.js - the adapter protocol (docs/adapter.md) for npm's
// bloom-filters 3.0.4 (Callidon/bloom-filters), the version tests/conformance/package.json
// pins: a test-only program; bloomsim never runs it itself.
//   node bloom_filters_adapter.js
//
// The API (Callidon/bloom-filters src/ @v3.0.4; the package runs its compiled dist/):
//   BloomFilter.create(n, p)                    bloom/bloom-filter.ts:97-101
//       size = ceil(-n ln p / ln^2 2), k = ceil(size / n ln 2) (formulas.ts:38-51), then
//       new BloomFilter(size, k) (:76-89);
//   add(element), has(element)                  :154-190
//       element a string, ArrayBuffer or Buffer (HashableInput, utils.ts:62), hashed
//       twice with XXH64 (seeds the filter's seed + 1 and + 2; the default seed
//       0x1234567890, utils.ts:179-181) by Hashing.getIndexes (hashing/hashing.ts:118);
//   ._size, ._nbHashes, ._filter                :47-69
// The bits: ._filter, a BitSet (bloom/bit-set.ts): a Uint8Array, bit b in byte b / 8 at
// 1 << (b % 8) (add, :64-68): already the protocol's layout (bit i = bit i mod 8 of byte
// i / 8). The BitSet rounds its size up to whole bytes (:44-48); the filter indexes
// ._size bits: m = ._size, k = ._nbHashes.
// Keys (adapter_io.js, the protocol loop the JavaScript adapters share): u64 as its
// decimal string (add takes strings); str as the JavaScript string the UTF-8 line
// decodes to (xxhashjs hashes a string's UTF-8 bytes); hex as a Buffer of its bytes.
'use strict'
const { BloomFilter } = require('bloom-filters')
const { serve, installed } = require('./adapter_io.js')

serve({
  name: 'bloom-filters',
  hello: `bloom-filters ${installed('bloom-filters')} (npm bloom-filters, BloomFilter.create)`,
  creator: 'BloomFilter.create',
  create: (n, p) => BloomFilter.create(n, p),
  mk: (f) => [f._size, f._nbHashes],
  hex: true,
  add: (f, k) => f.add(k),
  has: (f, k) => f.has(k),
  bits: (f) => `bits ${f._size} ${Buffer.from(f._filter.array.buffer, f._filter.array.byteOffset,
    Math.ceil(f._size / 8)).toString('hex')}`
})
