// dcso_adapter.go - the adapter protocol (docs/adapter.md) for DCSO's bloom 0.2.4 as
// Debian packages it (golang-github-dcso-bloom-dev 0.2.4-3, github.com/DCSO/bloom): a
// test-only program, built with adapter_io.go by tests/conformance/build.sh; bloomsim
// never runs it itself.
//
// The API (bloom.go of 0.2.4, /usr/share/gocode/src/github.com/DCSO/bloom):
//   Initialize(n, p)                 :300-310 (m, M words, k; make panics past maxAlloc)
//   Add, Check                       :214-231, :278-296 (Fingerprint :202-211)
//   NumBits, NumHashFuncs            :123-137
//   Write                            :145-178: 6 header words, then the M words of v,
//                                    each little-endian
// The bits: Write's words after its 48-byte header, bit i in word i / 64 at
// 1 << (i mod 64) (Add, :221-223): already the protocol's layout, cut to
// ceil(m / 8) bytes; M = NumBits().
// Initialize builds a filter of 0 bits and 0 probes, which finds every key, where the
// rate is so high that m computes 0: refused here (as bloomsim's dcso-bloom rule does),
// and its make's panic past 2^48 bytes is its refusal.
// Keys: u64 as its decimal string (a line of the library's bloom tool, bloom/manage.go),
// str and hex as their bytes.
package main

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"

	"github.com/DCSO/bloom"
)

type dcso struct{ f *bloom.BloomFilter }

func (d dcso) mk() (uint64, uint64) { return d.f.NumBits(), d.f.NumHashFuncs() }
func (d dcso) add(key []byte)       { d.f.Add(key) }
func (d dcso) has(key []byte) bool  { return d.f.Check(key) }
func (d dcso) bits() string {
	var b bytes.Buffer
	if err := d.f.Write(&b); err != nil {
		fail("Write: " + err.Error())
	}
	m := d.f.NumBits()
	return fmt.Sprintf("bits %d %s", m, hex.EncodeToString(b.Bytes()[48:48+(m+7)/8]))
}

func create(n uint64, p float64) (f filter, err error) {
	defer func() {
		if r := recover(); r != nil {
			f, err = nil, fmt.Errorf("Initialize panics: %v", r)
		}
	}()
	g := bloom.Initialize(n, p)
	if g.NumBits() == 0 {
		return nil, errors.New("Initialize computes 0 bits and 0 probes: that filter finds every key")
	}
	return dcso{&g}, nil
}

func main() {
	serve(&library{
		name:    "DCSO bloom",
		hello:   "DCSO bloom 0.2.4 (Debian golang-github-dcso-bloom-dev, Initialize)",
		creator: "Initialize",
		create:  create,
		intKey:  func(x uint64) []byte { return []byte(strconv.FormatUint(x, 10)) },
	})
}
