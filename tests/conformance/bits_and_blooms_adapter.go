// bits_and_blooms_adapter.go - the adapter protocol (docs/adapter.md) for
// bits-and-blooms/bloom 3.3.1 as Debian packages it (golang-github-willf-bloom-dev
// 3.3.1-1, import path github.com/bits-and-blooms/bloom, with its bitset,
// golang-github-bits-and-blooms-bitset-dev 1.2.2): a test-only program, built with
// adapter_io.go by tests/conformance/build.sh; bloomsim never runs it itself.
//
// The API (bloom.go of 3.3.1, /usr/share/gocode/src/github.com/willf/bloom):
//   NewWithEstimates(n, fp)   :141-145, EstimateParameters (:133-138) then New (:92-94)
//   Add, Test                 :162-168, :200-210 (baseHashes :111-117, location :120-128)
//   Cap, K, BitSet            :147-160
// The bits: BitSet().Bytes(), the bitset's []uint64 words (bitset.go :101-103), bit i
// in word i / 64 at 1 << (i mod 64) (bitset Set); printed least significant byte first,
// the protocol's layout; M = Cap().
// Keys: u64 as its 8 bytes big-endian (encoding/binary; the library has no integer Add,
// and its README writes binary.BigEndian), str and hex as their bytes.
package main

import (
	"encoding/binary"
	"errors"
	"math"

	"github.com/bits-and-blooms/bloom"
)

type bitsAndBlooms struct{ f *bloom.BloomFilter }

func (b bitsAndBlooms) mk() (uint64, uint64) { return uint64(b.f.Cap()), uint64(b.f.K()) }
func (b bitsAndBlooms) add(key []byte)       { b.f.Add(key) }
func (b bitsAndBlooms) has(key []byte) bool  { return b.f.Test(key) }
func (b bitsAndBlooms) bits() string {
	return bitsHex(uint64(b.f.Cap()), b.f.BitSet().Bytes())
}

func main() {
	serve(&library{
		name:    "bits-and-blooms/bloom",
		hello:   "bits-and-blooms/bloom 3.3.1 (Debian golang-github-willf-bloom-dev, NewWithEstimates)",
		creator: "NewWithEstimates",
		create: func(n uint64, p float64) (filter, error) {
			// EstimateParameters' m as a float: past 2^64 Go's conversion to uint is
			// undefined (the library would build a wrong size), so refused here.
			if !(math.Ceil(-1*float64(n)*math.Log(p)/math.Pow(math.Log(2), 2)) < 0x1p64) {
				return nil, errors.New("EstimateParameters' m does not fit in 64 bits")
			}
			return bitsAndBlooms{bloom.NewWithEstimates(uint(n), p)}, nil
		},
		intKey: func(x uint64) []byte {
			b := make([]byte, 8)
			binary.BigEndian.PutUint64(b, x)
			return b
		},
	})
}
