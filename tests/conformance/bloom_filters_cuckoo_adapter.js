// bloom_filters_cuckoo_adapter.js - the adapter protocol (docs/adapter.md) for npm's
// bloom-filters 3.0.4 (Callidon/bloom-filters) CuckooFilter, the version
// tests/conformance/package.json pins: a test-only program; bloomsim never runs it itself.
//   node bloom_filters_cuckoo_adapter.js
//
// The API (Callidon/bloom-filters src/ @v3.0.4; the package runs its compiled dist/):
//   CuckooFilter.create(n, p)      cuckoo/cuckoo-filter.ts:144-153: ceil(n / 4 / 0.955)
//                                  buckets of 4 slots, fingerprints of
//                                  ceil(ceil(log2(1/p) + log2(8)) / 8) hex digits
//                                  (computeFingerpintLength, :39-42), 500 kicks
//   add(element), has(element)     :233-290, :333-339 (_locations, :372-390); add returns
//                                  false when 500 kicks found no room, every move undone
//   ._filter, ._size, ._bucketSize, ._fingerprintLength   :108-113
// `design M ?`: M = buckets x 4 x (4 L + 1), L the fingerprint's hex digits.
// The bits: each slot as W = 4 L + 1 bits, least significant first, slots in order
// (bucket i's slot j is slot 4 i + j): its low 4 L bits the fingerprint string's value
// as hexadecimal, bit 4 L set when the slot holds one (a null slot is all 0: "00" is a
// fingerprint, so a slot needs the extra bit), packed into the protocol's bit array.
// failures: the adds that returned false since the design, and 0 retries.
// Keys (adapter_io.js): u64 as its decimal string, str as the JavaScript string of the
// UTF-8 line, hex as a Buffer of its bytes (xxhashjs hashes a string's UTF-8 bytes).
'use strict'
const { CuckooFilter } = require('bloom-filters')
const { serve, installed } = require('./adapter_io.js')

// The protocol's bit array of the slots, W bits each.
function slotBits (f) {
  const L = f._fingerprintLength
  const W = 4 * L + 1
  const slots = f._size * f._bucketSize
  const out = Buffer.alloc(Math.ceil(slots * W / 8))
  let at = 0
  for (const bucket of f._filter) {
    for (let j = 0; j < f._bucketSize; j++, at += W) {
      const e = bucket._elements[j]
      if (e === null) continue
      const v = parseInt(e, 16)
      for (let b = 0; b < W; b++) {
        const bit = b < 4 * L ? Math.floor(v / 2 ** b) % 2 : 1
        if (bit) out[(at + b) >> 3] |= 1 << ((at + b) & 7)
      }
    }
  }
  return `bits ${slots * W} ${out.toString('hex')}`
}

serve({
  name: 'bloom-filters-cuckoo',
  hello: `bloom-filters ${installed('bloom-filters')} (npm bloom-filters, CuckooFilter.create)`,
  creator: 'CuckooFilter.create',
  create: (n, p) => CuckooFilter.create(n, p),
  mk: (f) => [f._size * f._bucketSize * (4 * f._fingerprintLength + 1), '?'],
  hex: true,
  add: (f, k) => f.add(k),
  has: (f, k) => f.has(k),
  bits: slotBits,
  retries: () => 0
})
