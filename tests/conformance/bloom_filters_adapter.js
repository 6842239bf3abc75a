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
// Keys: u64 as its decimal string (a JavaScript number cannot hold every 64-bit
// integer, and add takes strings); str as the JavaScript string the UTF-8 line decodes
// to (invalid UTF-8 is refused; xxhashjs hashes a string's UTF-8 bytes); hex as a
// Buffer of its bytes.
'use strict'
const fs = require('fs')
const path = require('path')
const { BloomFilter } = require('bloom-filters')

function answer (line) { process.stdout.write(line + '\n') }
function fail (what) { answer(`error ${what}`); process.exit(1) }

// A canonical decimal unsigned 64-bit integer (digits, no leading zero), as a string.
function u64 (s) {
  if (!/^(0|[1-9][0-9]{0,19})$/.test(s) || BigInt(s) >= 1n << 64n) fail(`not a decimal u64 key: ${s}`)
  return s
}
function number (s) { return /^[0-9.eE+-]+$/.test(s) ? Number(s) : NaN }
const utf8 = new TextDecoder('utf-8', { fatal: true })
function key (kind, line) {
  if (kind === 'u64') return u64(line.toString('latin1'))
  if (kind === 'hex') {
    const h = line.toString('latin1')
    if (!/^([0-9a-f]{2})*$/.test(h)) fail(`not a lowercase hex key: ${h}`)
    return Buffer.from(h, 'hex')
  }
  try { return utf8.decode(line) } catch (e) { fail('a str key that is not UTF-8') }
}

const installed = JSON.parse(fs.readFileSync(
  path.join(__dirname, 'node_modules', 'bloom-filters', 'package.json'), 'utf8')).version
let filter = null
let pending = null  // the insert or query whose key lines are being read

function command (cmd) {
  const w = cmd.split(' ')
  if (w.some(x => x === '') || w.length > 3) fail(`unknown command: ${cmd}`)
  if (w.length === 2 && w[0] === 'hello' && w[1] === '1') {
    answer(`hello 1 bloom-filters ${installed} (npm bloom-filters, BloomFilter.create)`)
  } else if (w.length === 1 && w[0] === 'quit') {
    process.exit(0)
  } else if (w.length === 3 && (w[0] === 'design' || w[0] === 'design-bpk')) {
    const n = /^[1-9][0-9]*$/.test(w[1]) ? Number(w[1]) : NaN
    const p = number(w[2])
    if (!(n >= 1) || !(p > 0) || (w[0] === 'design' && !(p < 1))) fail(`malformed ${w[0]}: ${cmd}`)
    filter = null
    if (w[0] === 'design-bpk') return answer('error bloom-filters takes a rate (BloomFilter.create), not bits per key')
    if (n > Number.MAX_SAFE_INTEGER) return answer('error bloom-filters takes n as a JavaScript number')
    try {
      filter = BloomFilter.create(n, p)
    } catch (e) {
      return answer(`error bloom-filters refused it: ${String(e).replace(/\n/g, ' ')}`)
    }
    answer(`design ${filter._size} ${filter._nbHashes}`)
  } else if (w.length === 3 && (w[0] === 'insert' || w[0] === 'query')) {
    if (w[1] !== 'u64' && w[1] !== 'str' && w[1] !== 'hex') fail(`unknown key kind: ${w[1]}`)
    if (!/^(0|[1-9][0-9]*)$/.test(w[2]) || !Number.isSafeInteger(Number(w[2]))) fail(`malformed count: ${cmd}`)
    if (!filter) fail('no filter: a design must come first')
    pending = { insert: w[0] === 'insert', kind: w[1], left: Number(w[2]), count: w[2], out: [] }
    if (pending.left === 0) done()
  } else if (w.length === 1 && w[0] === 'bits') {
    if (!filter) fail('no filter: a design must come first')
    const bytes = Buffer.from(filter._filter.array.buffer, filter._filter.array.byteOffset,
      Math.ceil(filter._size / 8))
    answer(`bits ${filter._size} ${bytes.toString('hex')}`)
  } else {
    fail(`unknown command: ${cmd}`)
  }
}
function keyLine (line) {
  const k = key(pending.kind, line)
  if (pending.insert) filter.add(k)
  else pending.out.push(filter.has(k) ? '1' : '0')
  if (--pending.left === 0) done()
}
function done () {
  answer(pending.insert ? `inserted ${pending.count}` : pending.out.join(''))
  pending = null
}
function line (buf) { return pending ? keyLine(buf) : command(buf.toString('latin1')) }

let rest = Buffer.alloc(0)
process.stdin.on('data', (chunk) => {
  const buf = rest.length ? Buffer.concat([rest, chunk]) : chunk
  let start = 0
  for (let nl; (nl = buf.indexOf(10, start)) !== -1; start = nl + 1) line(buf.subarray(start, nl))
  rest = Buffer.from(buf.subarray(start))
})
process.stdin.on('end', () => {
  if (rest.length) line(rest)
  if (pending) fail('end of input inside a key list')
  process.exit(0)
})
