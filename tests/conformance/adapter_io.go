// adapter_io.go - the protocol loop (docs/adapter.md) the Go adapters share: reading
// lines, the commands and their checks, key lines as bytes. Test-only, like the adapters;
// built with each adapter's own file (tests/conformance/build.sh: GOPATH mode, offline,
// against Debian's packages under /usr/share/gocode). serve(lib) answers on stdout until
// quit or the end of input; lib names the library and wraps its calls:
//   name, hello    its name in error answers, and the hello line's text
//   creator        the call that designs, named when another design is asked
//   create(n, p)   a new filter, or the library's refusal (an error); or, for a
//   createFp(n, f) fingerprint filter designed by its fingerprint bits (design-fp), that
//   intKey(x)      the bytes a u64 key is to the library (its users' serialisation)
// and the filter it returns gives its m and k (k 0: `design M ?`, a fingerprint filter's
// table bits), adds and tests a key's bytes, and prints its bits as the protocol's
// `bits M HEX`; a fingerprint filter also answers `failures F R` (its failed inserts,
// its builds retried with another seed). Every key kind is bytes to the Go libraries
// (they take []byte): str is the line's bytes, whatever they are (no UTF-8 check), hex
// the bytes it spells.
package main

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
)

type filter interface {
	mk() (uint64, uint64)
	add(key []byte)
	has(key []byte) bool
	bits() string
}

// A fingerprint filter's failures since its design: inserts its library reported
// failed, builds retried with another seed.
type failing interface {
	failures() (uint64, uint64)
}

type library struct {
	name, hello, creator string
	create               func(n uint64, p float64) (filter, error)
	createFp             func(n uint64, f uint64) (filter, error)
	intKey               func(x uint64) []byte
}

var out = bufio.NewWriter(os.Stdout)

func answer(line string) {
	out.WriteString(line + "\n")
	out.Flush()
}

func fail(what string) {
	answer("error " + what)
	os.Exit(1)
}

var (
	canonical = regexp.MustCompile(`^(0|[1-9][0-9]*)$`)
	lowerHex  = regexp.MustCompile(`^([0-9a-f]{2})*$`)
	number    = regexp.MustCompile(`^[0-9.eE+-]+$`)
)

// A canonical decimal unsigned 64-bit integer, or the adapter ends.
func u64(s, what string) uint64 {
	x, err := strconv.ParseUint(s, 10, 64)
	if !canonical.MatchString(s) || err != nil {
		fail("not a decimal u64 " + what + ": " + s)
	}
	return x
}

func key(lib *library, kind string, line []byte) []byte {
	switch kind {
	case "u64":
		return lib.intKey(u64(string(line), "key"))
	case "hex":
		if !lowerHex.Match(line) {
			fail("not a lowercase hex key: " + string(line))
		}
		b, _ := hex.DecodeString(string(line))
		return b
	}
	return append([]byte(nil), line...)
}

// bitsHex: the protocol's `bits M HEX` of m bits held in 64-bit words, bit i in word
// i / 64 at 1 << (i mod 64), each word printed least significant byte first.
func bitsHex(m uint64, words []uint64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "bits %d ", m)
	for i := uint64(0); i < (m+7)/8; i++ {
		fmt.Fprintf(&b, "%02x", byte(words[i/8]>>(8*(i%8))))
	}
	return b.String()
}

func serve(lib *library) {
	in := bufio.NewReaderSize(os.Stdin, 1<<16)
	var f filter
	readLine := func() ([]byte, bool) {
		line, err := in.ReadBytes('\n')
		if err != nil { // the end of input: a last line without its newline counts
			if len(line) == 0 {
				return nil, false
			}
			return line, true
		}
		return line[:len(line)-1], true
	}
	for {
		raw, ok := readLine()
		if !ok {
			os.Exit(0)
		}
		cmd := string(raw)
		w := strings.Split(cmd, " ")
		for _, x := range w {
			if x == "" {
				fail("unknown command: " + cmd)
			}
		}
		switch {
		case len(w) == 2 && w[0] == "hello" && w[1] == "1":
			answer("hello 1 " + lib.hello)
		case len(w) == 1 && w[0] == "quit":
			os.Exit(0)
		case len(w) == 3 && (w[0] == "design" || w[0] == "design-bpk" || w[0] == "design-fp"):
			n := u64(w[1], "N")
			var p float64
			var err error
			if w[0] == "design-fp" {
				p = float64(u64(w[2], "F"))
			} else if p, err = strconv.ParseFloat(w[2], 64); !number.MatchString(w[2]) ||
				err != nil || !(p > 0) || (w[0] == "design" && !(p < 1)) {
				fail("malformed " + w[0] + ": " + cmd)
			}
			if n < 1 {
				fail("malformed " + w[0] + ": " + cmd)
			}
			f = nil
			takes, asked := "a rate", map[string]string{"design": "a rate",
				"design-bpk": "bits per key", "design-fp": "fingerprint bits"}[w[0]]
			if lib.createFp != nil {
				takes = "fingerprint bits"
			}
			if asked != takes {
				answer("error " + lib.name + " takes " + takes + " (" + lib.creator + "), not " + asked)
				continue
			}
			var g filter
			if lib.createFp != nil {
				g, err = lib.createFp(n, uint64(p))
			} else {
				g, err = lib.create(n, p)
			}
			if err != nil {
				answer("error " + lib.name + " refused it: " + err.Error())
				continue
			}
			f = g
			m, k := f.mk()
			if k == 0 {
				answer(fmt.Sprintf("design %d ?", m))
			} else {
				answer(fmt.Sprintf("design %d %d", m, k))
			}
		case len(w) == 1 && w[0] == "failures":
			ff, ok := f.(failing)
			if f == nil || !ok {
				fail("unknown command: " + cmd)
			}
			a, b := ff.failures()
			answer(fmt.Sprintf("failures %d %d", a, b))
		case len(w) == 3 && (w[0] == "insert" || w[0] == "query"):
			if w[1] != "u64" && w[1] != "str" && w[1] != "hex" {
				fail("unknown key kind: " + w[1])
			}
			count := u64(w[2], "count")
			if f == nil {
				fail("no filter: a design must come first")
			}
			var res bytes.Buffer
			for i := uint64(0); i < count; i++ {
				line, ok := readLine()
				if !ok {
					fail("end of input inside a key list")
				}
				k := key(lib, w[1], line)
				if w[0] == "insert" {
					f.add(k)
				} else if f.has(k) {
					res.WriteByte('1')
				} else {
					res.WriteByte('0')
				}
			}
			if w[0] == "insert" {
				answer("inserted " + w[2])
			} else {
				answer(res.String())
			}
		case len(w) == 1 && w[0] == "bits":
			if f == nil {
				fail("no filter: a design must come first")
			}
			answer(f.bits())
		default:
			fail("unknown command: " + cmd)
		}
	}
}
