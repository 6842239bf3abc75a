// blobloom_adapter.go - the adapter protocol (docs/adapter.md) for greatroar/blobloom
// 0.7.1 as Debian packages it (golang-github-greatroar-blobloom-dev 0.7.1-1): a test-only
// program, built with adapter_io.go by tests/conformance/build.sh; bloomsim never runs
// it itself.
//
// The API (0.7.1, /usr/share/gocode/src/github.com/greatroar/blobloom):
//   Optimize(Config{Capacity, FPRate})   optimize.go:57-120 (nbits, nhashes)
//   New(nbits, nhashes)                  bloomfilter.go:66-86 (nhashes at least 2)
//   Add(h), Has(h), NumBits()            bloomfilter.go:89-97, :167-178, :190-192
// The library takes a 64-bit hash from its user: the adapter hashes each key with
// hash/fnv's New64 (FNV-1 64), as its Example_fnv does (example_test.go:29-66).
// K: nhashes - 1, the bits a key sets (the first hash picks the block, Add :90-96).
// The bits: the Filter's blocks, b []block with block [16]uint32 (bloomfilter.go:53-56,
// :235), unexported: read through a struct of the same layout (unsafe); bit j of block
// b is bit j mod 32 of its word j / 32 (setbit :256-259), so bit i = 512 b + j is bit
// i mod 32 of uint32 i / 32, each printed least significant byte first; M = NumBits().
// Keys: u64 as its 8 bytes big-endian (encoding/binary), str and hex as their bytes.
package main

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"unsafe"

	"github.com/greatroar/blobloom"
)

// The layout of blobloom.Filter (bloomfilter.go:53-56).
type filterLayout struct {
	b [][blobloom.BlockBits / 32]uint32
	k int
}

type blob struct {
	f       *blobloom.Filter
	nhashes int
}

func hash(key []byte) uint64 {
	h := fnv.New64()
	h.Write(key)
	return h.Sum64()
}

func (b blob) mk() (uint64, uint64) { return b.f.NumBits(), uint64(b.nhashes - 1) }
func (b blob) add(key []byte)       { b.f.Add(hash(key)) }
func (b blob) has(key []byte) bool  { return b.f.Has(hash(key)) }
func (b blob) bits() string {
	l := (*filterLayout)(unsafe.Pointer(b.f))
	if l.k != b.nhashes || uint64(len(l.b))*blobloom.BlockBits != b.f.NumBits() {
		fail("blobloom.Filter's layout is not bloomfilter.go's")
	}
	buf := make([]byte, 0, len(l.b)*blobloom.BlockBits/8)
	w := make([]byte, 4)
	for _, blk := range l.b {
		for _, x := range blk {
			binary.LittleEndian.PutUint32(w, x)
			buf = append(buf, w...)
		}
	}
	return fmt.Sprintf("bits %d %s", b.f.NumBits(), hex.EncodeToString(buf))
}

func main() {
	serve(&library{
		name:    "blobloom",
		hello:   "blobloom 0.7.1 (Debian golang-github-greatroar-blobloom-dev, Optimize, New; keys by hash/fnv New64)",
		creator: "Optimize",
		create: func(n uint64, p float64) (filter, error) {
			nbits, nhashes := blobloom.Optimize(blobloom.Config{Capacity: n, FPRate: p})
			if nhashes < 2 {
				nhashes = 2 // New's own floor (bloomfilter.go:70-72)
			}
			return blob{blobloom.New(nbits, nhashes), nhashes}, nil
		},
		intKey: func(x uint64) []byte {
			b := make([]byte, 8)
			binary.BigEndian.PutUint64(b, x)
			return b
		},
	})
}
