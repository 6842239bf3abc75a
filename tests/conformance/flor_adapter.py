#!/usr/bin/env python3
# flor_adapter.py - the adapter protocol (docs/adapter.md) for DCSO's Flor 1.1.3, the
# Python port of DCSO's bloom, as Debian packages it (python3-flor 1.1.3-2, module flor):
# a test-only program; bloomsim never runs it itself.
#   python3 flor_adapter.py
#
# The API (flor/filter.py of 1.1.3, /usr/lib/python3/dist-packages/flor):
#   BloomFilter(n, p)          :16-25 (m, M bytes, k, as bloom.go's Initialize)
#   add(value), check(value)   :84-106 (fingerprint :108-115, fnv_1 of flor/fnv.py)
#   .m, .k, ._bytes            :20-24
# add raises CapacityError once N, the count of adds that set a new bit, reaches n
# (:94-97), after it has set the key's bits: a filter for n keys takes n - 1 that way.
# The adapter catches it, says so once on stderr, and goes on: the filter is the one
# the library built, every key's bits set (bloomsim's dcso-bloom, which has no count).
# A design of 0 bits (m computes 0) is refused, as bloomsim's dcso-bloom rule refuses it:
# the library builds a filter of no bytes whose add fails.
# The bits: ._bytes, bit i at bit i mod 8 of byte i / 8 (add, :88-93): the protocol's
# layout, cut to ceil(m / 8) bytes; M = .m.
# Keys: value must be bytes (fnv_1 raises TypeError otherwise): u64 as its decimal string
# (as the Go library's bloom tool takes a line), str and hex as their bytes.
import re
import sys

from flor import BloomFilter

out = sys.stdout
CANONICAL = re.compile(rb'(0|[1-9][0-9]*)')
HEX = re.compile(rb'([0-9a-f]{2})*')
NUMBER = re.compile(r'[0-9.eE+-]+')


def answer(line):
    out.write(line + '\n')
    out.flush()


def fail(what):
    answer('error ' + what)
    sys.exit(1)


def u64(s, what):
    if not CANONICAL.fullmatch(s) or int(s) >= 1 << 64:
        fail('not a decimal u64 %s: %s' % (what, s.decode('latin-1')))
    return int(s)


def key(kind, line):
    if kind == b'u64':
        return str(u64(line, 'key')).encode()
    if kind == b'hex':
        if not HEX.fullmatch(line):
            fail('not a lowercase hex key: ' + line.decode('latin-1'))
        return bytes.fromhex(line.decode())
    return bytes(line)


def design(w, cmd):
    n = u64(w[1], 'N')
    p = w[2].decode('latin-1')
    try:
        p = float(p) if NUMBER.fullmatch(p) else float('nan')
    except ValueError:
        p = float('nan')
    if n < 1 or not p > 0 or (w[0] == b'design' and not p < 1):
        fail('malformed %s' % cmd.decode('latin-1'))
    if w[0] == b'design-bpk':
        answer('error Flor takes a rate (BloomFilter(n, p)), not bits per key')
        return None
    f = BloomFilter(n, p)
    if f.m == 0:
        answer('error Flor computes 0 bits and 0 probes: that filter finds every key')
        return None
    answer('design %d %d' % (f.m, f.k))
    return f


def main():
    stdin = sys.stdin.buffer
    f = None
    warned = False
    while True:
        raw = stdin.readline()
        if not raw:
            sys.exit(0)
        cmd = raw[:-1] if raw.endswith(b'\n') else raw
        w = cmd.split(b' ')
        if any(x == b'' for x in w):
            fail('unknown command: ' + cmd.decode('latin-1'))
        if w == [b'hello', b'1']:
            answer('hello 1 Flor 1.1.3 (Debian python3-flor, BloomFilter(n, p))')
        elif w == [b'quit']:
            sys.exit(0)
        elif len(w) == 3 and w[0] in (b'design', b'design-bpk'):
            f = None
            f = design(w, cmd)
        elif len(w) == 3 and w[0] in (b'insert', b'query'):
            if w[1] not in (b'u64', b'str', b'hex'):
                fail('unknown key kind: ' + w[1].decode('latin-1'))
            count = u64(w[2], 'count')
            if f is None:
                fail('no filter: a design must come first')
            res = []
            for _ in range(count):
                line = stdin.readline()
                if not line:
                    fail('end of input inside a key list')
                k = key(w[1], line[:-1] if line.endswith(b'\n') else line)
                if w[0] == b'query':
                    res.append('1' if f.check(k) else '0')
                    continue
                try:
                    f.add(k)
                except BloomFilter.CapacityError:
                    if not warned:
                        sys.stderr.write('flor: CapacityError ("Bloom filter is full!") at '
                                         'N = n = %d; its bits are set, going on\n' % f.n)
                        warned = True
            answer('inserted %d' % count if w[0] == b'insert' else ''.join(res))
        elif w == [b'bits']:
            if f is None:
                fail('no filter: a design must come first')
            answer('bits %d %s' % (f.m, bytes(f._bytes[:(f.m + 7) // 8]).hex()))
        else:
            fail('unknown command: ' + cmd.decode('latin-1'))


main()
