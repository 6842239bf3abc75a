// bloom_filters_slices_adapter.js - the adapter protocol (docs/adapter.md) for npm's
// bloom-filters 3.0.4 (Callidon/bloom-filters) PartitionedBloomFilter, the version
// tests/conformance/package.json pins: a test-only program; bloomsim never runs it itself.
//   node bloom_filters_slices_adapter.js
//
// The API (the package's compiled dist/bloom/partitioned-bloom-filter.js; its source
// src/bloom/partitioned-bloom-filter.ts @v3.0.4):
//   PartitionedBloomFilter.create(n, p)         lines 136-141
//       size = ceil(n -ln p / (ln 0.5 ln 0.5)), k = ceil(ln p / ln 0.5) (lines 67-82),
//       then new PartitionedBloomFilter(size, k, 0.5, n): k slices, each a BitSet of
//       _m = ceil(size / k) bits (lines 116-128);
//   add(element), has(element)                  lines 200-226
//       getIndexes(element, _m, k, seed) (hashing/hashing.js:104-114), index i set in
//       slice i; the element hashed as the BloomFilter hashes it (bloom_filters_adapter.js).
// The bits: slice i's bit j is the protocol's bit i _m + j (slice after slice, each
// BitSet's bit b in byte b / 8 at 1 << (b % 8)), m = k _m; k = _nbHashes.
'use strict'
const { PartitionedBloomFilter } = require('bloom-filters')
const { serve, installed } = require('./adapter_io.js')

function bits (f) {
  const s = f._m
  const k = f._nbHashes
  const out = Buffer.alloc(Math.ceil(k * s / 8))
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < s; j++) {
      if (f._filter[i].has(j)) {
        const b = i * s + j
        out[Math.floor(b / 8)] |= 1 << (b % 8)
      }
    }
  }
  return `bits ${k * s} ${out.toString('hex')}`
}

serve({
  name: 'bloom-filters-slices',
  hello: `bloom-filters ${installed('bloom-filters')} (npm bloom-filters, PartitionedBloomFilter.create)`,
  creator: 'PartitionedBloomFilter.create',
  create: (n, p) => PartitionedBloomFilter.create(n, p),
  mk: (f) => [f._nbHashes * f._m, f._nbHashes],
  hex: true,
  add: (f, k) => f.add(k),
  has: (f, k) => f.has(k),
  bits
})
