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
// Keys: u64 as its decimal string (what add(number) hashes for a number below 2^53,
// since add stringifies its argument; a JavaScript number cannot hold every 64-bit
// integer); str as the JavaScript string the UTF-8 line decodes to (invalid UTF-8 is
// refused); hex is not supported (the library takes strings), and is refused.
'use strict'
const fs = require('fs')
const path = require('path')

const version = process.argv[2]
if (version !== '0.0.21' && version !== '1.1.0') {
  process.stderr.write('usage: node bloomfilter_js_adapter.js 0.0.21|1.1.0\n')
  process.exit(2)
}
const pkg = `bloomfilter-${version}`

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
  try { return utf8.decode(line) } catch (e) { fail('a str key that is not UTF-8') }
}
function bits (f) {
  const bytes = Buffer.alloc(f.buckets.length * 4)
  f.buckets.forEach((b, i) => bytes.writeUInt32LE(b >>> 0, 4 * i))
  return `bits ${f.m} ${bytes.toString('hex')}`
}

async function main () {
  const { BloomFilter } = version === '0.0.21' ? require(pkg) : await import(pkg)
  const installed = JSON.parse(fs.readFileSync(
    path.join(__dirname, 'node_modules', pkg, 'package.json'), 'utf8')).version
  let filter = null
  let pending = null  // the insert or query whose key lines are being read
  const command = (cmd) => {
    const w = cmd.split(' ')
    if (w.some(x => x === '') || w.length > 3) fail(`unknown command: ${cmd}`)
    if (w.length === 2 && w[0] === 'hello' && w[1] === '1') {
      answer(`hello 1 bloomfilter.js ${installed} (npm bloomfilter, BloomFilter.withTargetError)`)
    } else if (w.length === 1 && w[0] === 'quit') {
      process.exit(0)
    } else if (w.length === 3 && (w[0] === 'design' || w[0] === 'design-bpk')) {
      const n = /^[1-9][0-9]*$/.test(w[1]) ? Number(w[1]) : NaN
      const p = number(w[2])
      if (!(n >= 1) || !(p > 0) || (w[0] === 'design' && !(p < 1))) fail(`malformed ${w[0]}: ${cmd}`)
      filter = null
      if (w[0] === 'design-bpk') return answer('error bloomfilter.js takes a rate (withTargetError), not bits per key')
      if (n > Number.MAX_SAFE_INTEGER) return answer('error bloomfilter.js takes n as a JavaScript number')
      try {
        filter = BloomFilter.withTargetError(n, p)
      } catch (e) {
        return answer(`error bloomfilter.js refused it: ${String(e).replace(/\n/g, ' ')}`)
      }
      answer(`design ${filter.m} ${filter.k}`)
    } else if (w.length === 3 && (w[0] === 'insert' || w[0] === 'query')) {
      if (w[1] === 'hex') fail('bloomfilter.js takes strings: hex keys are not supported')
      if (w[1] !== 'u64' && w[1] !== 'str') fail(`unknown key kind: ${w[1]}`)
      if (!/^(0|[1-9][0-9]*)$/.test(w[2]) || !Number.isSafeInteger(Number(w[2]))) fail(`malformed count: ${cmd}`)
      if (!filter) fail('no filter: a design must come first')
      pending = { insert: w[0] === 'insert', kind: w[1], left: Number(w[2]), count: w[2], out: [] }
      if (pending.left === 0) done()
    } else if (w.length === 1 && w[0] === 'bits') {
      if (!filter) fail('no filter: a design must come first')
      answer(bits(filter))
    } else {
      fail(`unknown command: ${cmd}`)
    }
  }
  const keyLine = (line) => {
    const k = key(pending.kind, line)
    if (pending.insert) filter.add(k)
    else pending.out.push(filter.test(k) ? '1' : '0')
    if (--pending.left === 0) done()
  }
  const done = () => {
    answer(pending.insert ? `inserted ${pending.count}` : pending.out.join(''))
    pending = null
  }
  const line = (buf) => pending ? keyLine(buf) : command(buf.toString('latin1'))

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
}
main()
