// seiflotfy_adapter.go - the adapter protocol (docs/adapter.md) for seiflotfy/cuckoofilter
// as Debian packages it (golang-github-seiflotfy-cuckoofilter-dev
// 0.0~git20201222.bc60055-2, github.com/seiflotfy/cuckoofilter): a test-only program,
// built with adapter_io.go by tests/conformance/build.sh; bloomsim never runs it itself.
//
// The API (/usr/share/gocode/src/github.com/seiflotfy/cuckoofilter at bc60055):
//   NewFilter(capacity)     cuckoofilter.go:21-32: getNextPow2(capacity) / 4 buckets of
//                           4 one-byte fingerprints (bucket.go:5-10)
//   Insert, Lookup          :60-70, :35-42: Insert returns false when 500 kicks found no
//                           room (the last fingerprint kicked out is then dropped)
//   Encode                  :130-139: byte 4 i + j is slot j of bucket i
// Its design takes a capacity only, its fingerprints one byte: `design-fp N 8` is
// NewFilter(N); any other width is refused, and `design N P` too. `design M ?`: M =
// 8 len(Encode()), its buckets' bits.
// The bits: Encode()'s bytes, already the protocol's layout (slot s = byte s, 0 empty).
// The kicks draw from Go's top-level math/rand (rand.Intn), whose source Go 1.19 seeds
// with 1; each design reseeds it with rand.Seed(1), so that every filter of a session
// is a function of its keys (build.sh runs it with GODEBUG=randseednop=0, which keeps
// Seed working on Go 1.24 and later, where it would do nothing).
// failures: the Inserts that returned false since the design, and 0 retries.
// Keys: u64 as 8 bytes big-endian (encoding/binary), str and hex as their bytes.
package main

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand"

	cuckoo "github.com/seiflotfy/cuckoofilter"
)

type seiflotfy struct {
	f      *cuckoo.Filter
	failed uint64
}

func (s *seiflotfy) mk() (uint64, uint64) { return 8 * uint64(len(s.f.Encode())), 0 }
func (s *seiflotfy) add(key []byte) {
	if !s.f.Insert(key) {
		s.failed++
	}
}
func (s *seiflotfy) has(key []byte) bool        { return s.f.Lookup(key) }
func (s *seiflotfy) failures() (uint64, uint64) { return s.failed, 0 }
func (s *seiflotfy) bits() string {
	b := s.f.Encode()
	return fmt.Sprintf("bits %d %x", 8*len(b), b)
}

func createFp(n uint64, f uint64) (g filter, err error) {
	if f != 8 {
		return nil, errors.New("seiflotfy/cuckoofilter's fingerprints are one byte: design-fp N 8")
	}
	defer func() {
		if r := recover(); r != nil {
			g, err = nil, fmt.Errorf("NewFilter panics: %v", r)
		}
	}()
	rand.Seed(1)
	return &seiflotfy{f: cuckoo.NewFilter(uint(n))}, nil
}

func main() {
	serve(&library{
		name:     "seiflotfy-cuckoo",
		hello:    "seiflotfy/cuckoofilter bc60055 (Debian golang-github-seiflotfy-cuckoofilter-dev, NewFilter)",
		creator:  "NewFilter(capacity), one-byte fingerprints",
		createFp: createFp,
		intKey: func(x uint64) []byte {
			b := make([]byte, 8)
			binary.BigEndian.PutUint64(b, x)
			return b
		},
	})
}
