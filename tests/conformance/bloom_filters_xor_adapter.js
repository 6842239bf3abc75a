// bloom_filters_xor_adapter.js - the adapter protocol (docs/adapter.md) for npm's
// bloom-filters 3.0.4 (Callidon/bloom-filters) XorFilter, the version
// tests/conformance/package.json pins: a test-only program; bloomsim never runs it itself.
//   node bloom_filters_xor_adapter.js
//
// The API (Callidon/bloom-filters src/ @v3.0.4; the package runs its compiled dist/):
//   new XorFilter(n, bits)   bloom/xor-filter.ts:101-131: bits 8 or 16 (a falsy value is
//                            its default 8; any other throws), floor(1.23 n) + 32 slots
//                            rounded down to a multiple of 3 (_getOptimalFilterSize,
//                            :238-246), each a Buffer of bits / 8 bytes
//   add(elements)            :172-180: builds from exactly n elements (_create, :349-449:
//                            a new seed from the filter's generator until the peeling
//                            stores every key)
//   has(element)             :138-158
// `design-fp N F` is new XorFilter(N, F); `design N P` is refused (it takes bits).
// `design M ?`: M = slots x bits.
// The filter is built at once: the adapter keeps the keys inserted and calls add with all
// of them at the first query, bits or failures after an insert (add throws unless they
// are n). Repeated keys would make _create retry forever (the same key peels nowhere
// under any seed): the adapter refuses them first, as a throw of the library.
// The bits: ._filter's Buffers in order, slot i's bits / 8 bytes (little-endian, as
// readInt16LE reads them), already the protocol's layout (slot s is bits s W..s W + W - 1).
// failures: 0 failed inserts, and the builds _create retried: its calls of nextInt32
// (one a try, :354) less one, counted by wrapping the filter's nextInt32.
// Keys (adapter_io.js): u64 as its decimal string, str as the JavaScript string of the
// UTF-8 line, hex as a Buffer of its bytes (xxhashjs hashes a string's UTF-8 bytes).
'use strict'
const { XorFilter } = require('bloom-filters')
const { serve, installed } = require('./adapter_io.js')

function create (n, bits) {
  if (!bits) console.error(`bloom-filters-xor: fingerprint bits ${bits} is new XorFilter's default, 8`)
  const f = new XorFilter(n, bits)
  const next = f.nextInt32.bind(f)
  f.tries = 0
  f.nextInt32 = () => { f.tries++; return next() }
  return f
}

function build (f, keys) {
  const seen = new Set()
  for (const k of keys) {
    const b = Buffer.from(k).toString('hex')
    if (seen.has(b)) throw new Error(`a repeated key (${b}): XorFilter's _create would retry forever`)
    seen.add(b)
  }
  f.add(keys)
}

serve({
  name: 'bloom-filters-xor',
  hello: `bloom-filters ${installed('bloom-filters')} (npm bloom-filters, new XorFilter)`,
  creator: 'new XorFilter(n, bits)',
  createFp: create,
  mk: (f) => [f._filter.length * f._bits, '?'],
  hex: true,
  build,
  has: (f, k) => f.has(k),
  bits: (f) => `bits ${f._filter.length * f._bits} ${Buffer.concat(f._filter).toString('hex')}`,
  retries: (f) => Math.max(f.tries - 1, 0)
})
