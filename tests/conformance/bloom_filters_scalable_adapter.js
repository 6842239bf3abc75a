// bloom_filters_scalable_adapter.js - the adapter protocol (docs/adapter.md, Chains) for
// npm's bloom-filters 3.0.4 (Callidon/bloom-filters) ScalableBloomFilter, the version
// tests/conformance/package.json pins: a test-only program; bloomsim never runs it itself.
//   node bloom_filters_scalable_adapter.js
//
// The API (the package's compiled dist/bloom/scalable-bloom-filter.js; its source
// src/bloom/scalable-bloom-filter.ts @v3.0.4):
//   new ScalableBloomFilter(initial_size, error_rate, ratio)   lines 81-101
//       defaults 8, 0.01, 0.5; link 0 = PartitionedBloomFilter.create(initial_size,
//       error_rate, ratio) (the ratio is each link's loadFactor);
//   add(element)                                lines 131-149
//       a new link create(initial_size 2^(L+1) ln 2, error_rate ratio^L, ratio) when the
//       newest's _currentload() (set bits over _size) is > its _loadFactor; the element
//       added to the newest;
//   has(element)                                lines 157-159: some link has it.
// `design N P` is new ScalableBloomFilter(N, P) (its ratio 0.5); `design-chain N P E T`
// new ScalableBloomFilter(N, P, T) (T '-': 0.5), E '-' only (its growth _s is a static 2).
// The package checks none of its arguments: the adapter refuses a ratio outside (0, 1)
// as bloomsim does (a load factor there makes k and the size NaN or not positive).
// `links`: `links L M0 K0 ...`, link j's M = k _m (its slices' bits) and K = k. `bits J`:
// link J's slices one after another, slice i's bit b at the protocol's bit i _m + b (as
// bloom_filters_slices_adapter.js); `bits`: every link's bits, oldest first, each link's
// bit i at the sum of the earlier links' M plus i. Keys are hashed as the
// PartitionedBloomFilter hashes them (bloom_filters_adapter.js: u64 as its decimal
// string, hex as a Buffer).
'use strict'
const { ScalableBloomFilter } = require('bloom-filters')
const { serve, installed } = require('./adapter_io.js')

function linkBits (link, out, at) {
  const s = link._m
  for (let i = 0; i < link._nbHashes; i++) {
    for (let j = 0; j < s; j++) {
      if (link._filter[i].has(j)) {
        const b = at + i * s + j
        out[Math.floor(b / 8)] |= 1 << (b % 8)
      }
    }
  }
}

function bits (f, j) {
  const links = j === undefined ? f._filters : [f._filters[j]]
  const m = links.reduce((a, l) => a + l._nbHashes * l._m, 0)
  const out = Buffer.alloc(Math.ceil(m / 8))
  let at = 0
  for (const l of links) {
    linkBits(l, out, at)
    at += l._nbHashes * l._m
  }
  return `bits ${m} ${out.toString('hex')}`
}

serve({
  name: 'bloom-filters-scalable',
  hello: `bloom-filters ${installed('bloom-filters')} (npm bloom-filters, ScalableBloomFilter)`,
  creator: 'new ScalableBloomFilter',
  create: (n, p) => new ScalableBloomFilter(n, p),
  createChain: (n, p, e, t) => {
    if (e !== '-') throw new Error('ScalableBloomFilter takes no growth: its _s is 2')
    if (t !== '-' && !(t > 0 && t < 1)) throw new Error(`a ratio outside (0, 1): ${t}`)
    return t === '-' ? new ScalableBloomFilter(n, p) : new ScalableBloomFilter(n, p, t)
  },
  mk: (f) => [f._filters[0]._nbHashes * f._filters[0]._m, f._filters[0]._nbHashes],
  links: (f) => `links ${f._filters.length} ${f._filters.map(l => `${l._nbHashes * l._m} ${l._nbHashes}`).join(' ')}`,
  hex: true,
  add: (f, k) => f.add(k),
  has: (f, k) => f.has(k),
  bits
})
