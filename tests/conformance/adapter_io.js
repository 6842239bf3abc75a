// adapter_io.js - the protocol loop (docs/adapter.md) the JavaScript adapters share:
// reading lines, the commands and their checks, key lines as the library takes them.
// Test-only, like the adapters. serve(lib) answers on stdout until quit or the end of
// input; lib names the library and wraps its calls:
//   name, hello       its name in error answers, and the hello line's text
//   creator           the call that designs, named when another design is asked
//   create(n, p)      a new filter (a throw is the library's refusal); or, for a
//   createFp(n, f)    fingerprint filter designed by its fingerprint bits (design-fp)
//   mk(f)             [m, k] of filter f ([m, '?'] for a fingerprint filter's table)
//   hex               whether it takes hex keys (as a Buffer of their bytes)
//   add(f, key), has(f, key), bits(f)   insert, test, and the `bits M HEX` answer;
//                     add returning false is an insert the library reports failed
//   build(f, keys)    for a filter built at once from all its keys (an xor filter):
//                     called at the first query, bits or failures after an insert
//   retries(f)        a fingerprint filter's builds retried with another seed; with it
//                     the adapter answers `failures F R` (F the failed adds since design)
//   createChain(n, p, e, t)   a scalable filter (docs/adapter.md, Chains): `design-chain
//                     N P E T`, e and t a number or '-' (its own); `design N P` calls it
//                     with '-', '-'. With it, links(f) answers `links` and bits(f, j)
//                     `bits J` (j undefined for `bits`: every link's)
// A throw of the library outside a design ends the adapter with its message.
// Keys: u64 as its decimal string (a JavaScript number cannot hold every 64-bit
// integer); str as the JavaScript string the UTF-8 line decodes to (invalid UTF-8 is
// refused). installed(pkg): the version of the package in node_modules/ beside the
// adapters (its package.json), for the hello line.
'use strict'

const fs = require('fs')
const path = require('path')

function installed (pkg) {
  return JSON.parse(fs.readFileSync(
    path.join(__dirname, 'node_modules', pkg, 'package.json'), 'utf8')).version
}

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

function serve (lib) {
  let filter = null
  let pending = null  // the insert or query whose key lines are being read
  let kept = []       // the keys of a filter built at once, since its last build
  let dirty = false
  let failed = 0
  const throws = (e) => fail(`${lib.name} throws: ${String(e).replace(/\n/g, ' ')}`)
  const design = (w, cmd) => {
    const n = /^[1-9][0-9]*$/.test(w[1]) ? Number(w[1]) : NaN
    const p = w[0] === 'design-fp' ? (/^(0|[1-9][0-9]*)$/.test(w[2]) ? Number(w[2]) : NaN) : number(w[2])
    if (!(n >= 1) || !(p >= 0) || (w[0] !== 'design-fp' && !(p > 0)) || (w[0] === 'design' && !(p < 1))) fail(`malformed ${w[0]}: ${cmd}`)
    filter = null
    const asked = { design: 'a rate', 'design-bpk': 'bits per key', 'design-fp': 'fingerprint bits' }[w[0]]
    const takes = lib.createFp ? 'fingerprint bits' : 'a rate'
    if (asked !== takes) return answer(`error ${lib.name} takes ${takes} (${lib.creator}), not ${asked}`)
    if (n > Number.MAX_SAFE_INTEGER) return answer(`error ${lib.name} takes n as a JavaScript number`)
    try {
      filter = lib.createFp ? lib.createFp(n, p) : lib.create(n, p)
    } catch (e) {
      return answer(`error ${lib.name} refused it: ${String(e).replace(/\n/g, ' ')}`)
    }
    kept = []
    dirty = !!lib.build
    failed = 0
    answer(`design ${lib.mk(filter).join(' ')}`)
  }
  const designChain = (w, cmd) => {
    const n = /^[1-9][0-9]*$/.test(w[1]) ? Number(w[1]) : NaN
    const p = number(w[2])
    const [e, t] = w.length === 5 ? [w[3], w[4]] : ['-', '-']
    if (!(n >= 1) || !(p > 0 && p < 1) || ![e, t].every(x => x === '-' || !isNaN(number(x)))) fail(`malformed ${w[0]}: ${cmd}`)
    filter = null
    try {
      filter = lib.createChain(n, p, e === '-' ? e : number(e), t === '-' ? t : number(t))
    } catch (e) {
      return answer(`error ${lib.name} refused it: ${String(e).replace(/\n/g, ' ')}`)
    }
    answer(`design ${lib.mk(filter).join(' ')}`)
  }
  const built = () => {
    if (!dirty) return
    try { lib.build(filter, kept) } catch (e) { throws(e) }
    dirty = false
  }
  const command = (cmd) => {
    const w = cmd.split(' ')
    if (w.some(x => x === '') || w.length > (lib.createChain ? 5 : 3)) fail(`unknown command: ${cmd}`)
    if (w.length === 2 && w[0] === 'hello' && w[1] === '1') {
      answer(`hello 1 ${lib.hello}`)
    } else if (w.length === 1 && w[0] === 'quit') {
      process.exit(0)
    } else if (lib.createChain && ((w.length === 3 && w[0] === 'design') || (w.length === 5 && w[0] === 'design-chain'))) {
      designChain(w, cmd)
    } else if (lib.createChain && ((w.length === 1 && w[0] === 'links') || (w.length <= 2 && w[0] === 'bits'))) {
      const j = w.length === 2 && /^(0|[1-9][0-9]*)$/.test(w[1]) ? Number(w[1]) : undefined
      if (!filter || (w.length === 2 && !(j < lib.links(filter).split(' ')[1]))) fail(`${cmd}: no such link, or no design`)
      answer(w[0] === 'links' ? lib.links(filter) : lib.bits(filter, j))
    } else if (w.length === 3 && (w[0] === 'design' || w[0] === 'design-bpk' || w[0] === 'design-fp')) {
      design(w, cmd)
    } else if (w.length === 3 && (w[0] === 'insert' || w[0] === 'query')) {
      if (w[1] === 'hex' && !lib.hex) fail(`${lib.name} takes strings: hex keys are not supported`)
      if (w[1] !== 'u64' && w[1] !== 'str' && w[1] !== 'hex') fail(`unknown key kind: ${w[1]}`)
      if (!/^(0|[1-9][0-9]*)$/.test(w[2]) || !Number.isSafeInteger(Number(w[2]))) fail(`malformed count: ${cmd}`)
      if (!filter) fail('no filter: a design must come first')
      if (w[0] === 'query') built()
      pending = { insert: w[0] === 'insert', kind: w[1], left: Number(w[2]), count: w[2], out: [] }
      if (pending.left === 0) done()
    } else if (w.length === 1 && w[0] === 'bits') {
      if (!filter) fail('no filter: a design must come first')
      built()
      answer(lib.bits(filter))
    } else if (w.length === 1 && w[0] === 'failures' && lib.retries) {
      if (!filter) fail('no filter: a design must come first')
      built()
      answer(`failures ${failed} ${lib.retries(filter)}`)
    } else {
      fail(`unknown command: ${cmd}`)
    }
  }
  const keyLine = (line) => {
    const k = key(pending.kind, line)
    if (pending.insert && lib.build) {
      kept.push(k)
      dirty = true
    } else if (pending.insert) {
      let stored
      try { stored = lib.add(filter, k) } catch (e) { throws(e) }
      if (stored === false) failed++
    } else {
      let yes
      try { yes = lib.has(filter, k) } catch (e) { throws(e) }
      pending.out.push(yes ? '1' : '0')
    }
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

module.exports = { serve, installed }
