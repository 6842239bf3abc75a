// bloomfilter_js_adapter.js - the adapter protocol (docs/adapter.md) for npm's
// bloomfilter (jasondavies/bloomfilter.js), at the versions tests/conformance/package.json
// pins: a test-only program; bloomsim never runs it itself.
//   node bloomfilter_js_adapter.js 0.0.21     (npm alias bloomfilter-0.0.21, CommonJS)
//   node bloomfilter_js_adapter.js 1.1.0      (npm alias bloomfilter-1.1.0, an ES module)
//
// The API, the same in both (bloomfilter.js of each package; line numbers 0.0.21 / 1.1.0):
//   BloomFilter.withTargetError(n, error)      :164-168 / :182-188
//       m = ceil(-n log2(error) / ln 2), k = ceil(ln 2 * m / n), then new BloomFilter(m, k),
//       which rounds m up to whole 32-bit buckets (:18-19 / :22-23); 1.1.0 checks its
//       arguments and refuses m above 2^32 with a RangeError (:198-232);
//   add(v), test(v)                            :100-120 / :91-111
//       both hash the string v + "" (FNV-1a 64 over its UTF-16 code units, :52-98 /
//       :43-89);
//   .m, .k, .buckets                           :20-21, :27 / :24-25, :30
// The bits: .buckets, 32-bit buckets (an Int32Array in 0.0.21, a Uint32Array in
// 1.1.0), bit b in bucket b >> 5 at 1 << (b & 31) (add, :105 / :96): bit i is bit
// i mod 32 of bucket i / 32. The adapter prints each bucket's 4 bytes least significant
// first, the protocol's layout (bit i = bit i mod 8 of byte i / 8); m = .m.
// Keys (adapter_io.js, the protocol loop the JavaScript adapters share): u64 as its
// decimal string (what add(number) hashes for a number below 2^53,
// since add stringifies its argument; a JavaScript number cannot hold every 64-bit
// integer); str as the JavaScript string the UTF-8 line decodes to (invalid UTF-8 is
// refused); hex is not supported (the library takes strings), and is refused.
'use strict'
const { serve, installed } = require('./adapter_io.js')

const version = process.argv[2]
if (version !== '0.0.21' && version !== '1.1.0') {
  process.stderr.write('usage: node bloomfilter_js_adapter.js 0.0.21|1.1.0\n')
  process.exit(2)
}
const pkg = `bloomfilter-${version}`

function bits (f) {
  const bytes = Buffer.alloc(f.buckets.length * 4)
  f.buckets.forEach((b, i) => bytes.writeUInt32LE(b >>> 0, 4 * i))
  return `bits ${f.m} ${bytes.toString('hex')}`
}

async function main () {
  const { BloomFilter } = version === '0.0.21' ? require(pkg) : await import(pkg)
  serve({
    name: 'bloomfilter.js',
    hello: `bloomfilter.js ${installed(pkg)} (npm bloomfilter, BloomFilter.withTargetError)`,
    creator: 'withTargetError',
    create: (n, p) => BloomFilter.withTargetError(n, p),
    mk: (f) => [f.m, f.k],
    hex: false,
    add: (f, k) => f.add(k),
    has: (f, k) => f.test(k),
    bits
  })
}
main()
