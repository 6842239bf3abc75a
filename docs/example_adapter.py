#!/usr/bin/env python3
"""example_adapter.py - a Bloom filter in Python behind the adapter protocol
(docs/adapter.md), standard library only: the shape of an adapter for any
implementation. Measure it with

    bloomsim audit --exec 'python3 docs/example_adapter.py' --keys 100000 --rate 0.01

The filter: m = ceil(-n ln p / ln^2 2) bits, k = round(m / n ln 2) probes, at
positions h1 + i h2 mod m (Kirsch and Mitzenmacher's double hashing), h1 and h2 the
two halves of the key's BLAKE2b-128. A u64 key is hashed as its 8 bytes
little-endian, a str key as its bytes, a hex key as the bytes it spells.
tests/adapter_life.sh runs it through bloomsim audit --exec.
"""
import hashlib
import math
import re
import sys

U64 = re.compile(rb"(0|[1-9][0-9]*)\Z")
HEX = re.compile(rb"([0-9a-f]{2})*\Z")


class Fail(Exception):
    """A protocol error: answered `error MESSAGE`, then the adapter exits 1."""


def key_bytes(kind, line):
    if kind == b"u64":
        if not U64.match(line) or int(line) >= 1 << 64:
            raise Fail("not a key of its kind: %r" % line)
        return int(line).to_bytes(8, "little")
    if kind == b"str":
        return line
    if kind == b"hex" and HEX.match(line):
        return bytes.fromhex(line.decode())
    raise Fail("not a key of its kind: %r" % line)


def probes(key, m, k):
    d = hashlib.blake2b(key, digest_size=16).digest()
    h1, h2 = int.from_bytes(d[:8], "little"), int.from_bytes(d[8:], "little")
    return [(h1 + i * h2) % m for i in range(k)]


def main():
    inp, out = sys.stdin.buffer, sys.stdout.buffer
    bits, m, k = None, 0, 0

    def say(text):
        out.write(text.encode() + b"\n")
        out.flush()

    def keys(kind, count):
        for _ in range(count):
            line = inp.readline()
            if not line.endswith(b"\n"):
                raise Fail("the input ended inside a command's keys")
            yield key_bytes(kind, line[:-1])

    try:
        for line in inp:
            words = line.rstrip(b"\n").split(b" ")
            cmd, args = words[0], words[1:]
            if cmd == b"hello" and args == [b"1"]:
                say("hello 1 example_adapter.py (Python %d.%d, BLAKE2b double hashing)"
                    % sys.version_info[:2])
            elif cmd == b"hello":
                raise Fail("this adapter speaks protocol version 1")
            elif cmd == b"design" and len(args) == 2 and U64.match(args[0]):
                n, p = int(args[0]), float(args[1])
                if n < 1 or not 0 < p < 1:
                    bits = None
                    say("error no design for %d keys at %g" % (n, p))
                    continue
                m = max(1, math.ceil(-n * math.log(p) / math.log(2) ** 2))
                k = max(1, round(m / n * math.log(2)))
                m = max(m, k + 1)
                bits = bytearray((m + 7) // 8)
                say("design %d %d" % (m, k))
            elif cmd == b"design-bpk":
                bits = None
                say("error this filter takes a rate (design), not bits per key")
            elif cmd in (b"insert", b"query") and len(args) == 2 and U64.match(args[1]):
                if bits is None:
                    raise Fail("%s before a design" % cmd.decode())
                answer = []
                for key in keys(args[0], int(args[1])):
                    ps = probes(key, m, k)
                    if cmd == b"insert":
                        for i in ps:
                            bits[i >> 3] |= 1 << (i & 7)
                    else:
                        answer.append("1" if all(bits[i >> 3] >> (i & 7) & 1 for i in ps)
                                      else "0")
                say("inserted %s" % args[1].decode() if cmd == b"insert" else "".join(answer))
            elif cmd == b"bits" and not args:
                if bits is None:
                    raise Fail("bits before a design")
                say("bits %d %s" % (m, bits.hex()))
            elif cmd == b"quit" and not args:
                return 0
            else:
                raise Fail("unknown command: %r" % line.rstrip(b"\n"))
    except Fail as e:
        say("error %s" % e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
