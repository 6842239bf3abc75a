// bloom_filters.js - what npm's bloom-filters 3.0.4 computes, from its own code, for
// tests/conformance.sh to set beside bloomsim's: the positions of chosen hash words
// (Hashing.doubleHashing, which getIndexes calls for each probe), the design of
// BloomFilter.create(n, p), and the words its hashing yields for a key (hashTwice).
// Usage: node bloom_filters.js positions A B M K | design N P | words KEY; with `-` in
// place of the numbers, positions and design read them from stdin, a case a line, and
// answer a line each (one node for many cases).
'use strict'
const path = require('path')
const base = path.join(__dirname, 'node_modules', 'bloom-filters', 'dist')
const {BloomFilter} = require(path.join(base, 'api.js'))
const Hashing = require(path.join(base, 'hashing', 'hashing.js')).default
const formulas = require(path.join(base, 'formulas.js'))
const h = new Hashing()
const [what, ...args] = process.argv.slice(2)
// The cases: the arguments, or with `-` the lines of stdin.
const cases = () => args[0] === '-'
  ? require('fs').readFileSync(0, 'utf8').split('\n').filter(l => l).map(l => l.split(' ').map(Number))
  : [args.map(Number)]
if (what === 'positions') {
  for (const [a, b, m, k] of cases()) {
    const out = []
    for (let i = 0; i < k; i++) out.push(h.doubleHashing(i, a, b, m))
    console.log(out.join(' '))
  }
} else if (what === 'design') {
  // BloomFilter.create(n, p) is these two calls, then new BloomFilter(size, k), whose
  // bit set is not needed here (and would take size / 8 bytes).
  for (const [n, p] of cases()) {
    const size = formulas.optimalFilterSize(n, p)
    console.log(`${size} ${formulas.optimalHashes(size, n)}`)
  }
} else if (what === 'words') {
  const w = h.hashTwice(args[0], f_seed())
  console.log(`${w.first} ${w.second}`)
} else {
  console.error('usage: node bloom_filters.js positions A B M K | design N P | words KEY')
  process.exit(2)
}
// The seed a filter hashes with unless told otherwise (utils.ts getDefaultSeed).
function f_seed () { return new BloomFilter(8, 1).seed }
