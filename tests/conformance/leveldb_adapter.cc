// leveldb_adapter.cc - the adapter protocol (docs/adapter.md) for LevelDB's Bloom filter
// as Debian packages it (libleveldb-dev 1.23): a test-only program, built by
// tests/conformance/build.sh with `c++ ... -lleveldb`; bloomsim never links it.
//
// LevelDB 1.23's public API (/usr/include/leveldb/filter_policy.h = google/leveldb
// include/leveldb/filter_policy.h @1.23):
//   NewBloomFilterPolicy(int bits_per_key)                                  (:68)
//   FilterPolicy::CreateFilter(const Slice* keys, int n, std::string* dst)  (:43-44)
//       appends a filter of the n keys to dst;
//   FilterPolicy::KeyMayMatch(const Slice& key, const Slice& filter)        (:51)
// and its implementation, util/bloom.cc @1.23: k = (size_t)(bits_per_key * 0.69),
// clamped to 1..30 (:21-23); the filter of n keys has bits = n * bits_per_key, at least
// 64, rounded up to whole bytes (:30-37), followed by one byte holding k (:41); key h
// sets bit h % bits at array[bitpos / 8] |= 1 << (bitpos % 8) (:49-50).
// So m = 8 * (filter size - 1) and k = the filter's last byte, and the bits are the
// filter string without its last byte, already in the protocol's layout (bit i = bit
// i mod 8 of byte i / 8).
//
// LevelDB takes bits per key, never a rate: `design-bpk N B` with a whole B (an int);
// `design N P` is refused. A LevelDB filter is built from all its keys at once, sized
// by their number: the adapter keeps the inserted keys and builds the filter, from all
// of them, at the first query or bits after an insert. `design` answers the m and k of
// the filter LevelDB builds from N keys (it builds one, from N empty keys: the size and
// k depend only on the count).
// Keys: u64 as its 8 bytes little-endian, str as the line's bytes, hex as its bytes: the
// Slice a LevelDB user passes.
#include <leveldb/db.h>
#include <leveldb/filter_policy.h>
#include <leveldb/slice.h>

#include <cerrno>
#include <cinttypes>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

namespace {

[[noreturn]] void fail(const std::string &what) {
  std::cout << "error " << what << std::endl;
  std::exit(1);
}

#include "adapter_io.h"

}  // namespace

int main() {
  std::ios::sync_with_stdio(false);
  std::unique_ptr<const leveldb::FilterPolicy> policy;
  std::vector<std::string> keys;  // inserted so far
  std::string filter;             // built from keys, or empty when stale
  // The filter of all keys inserted so far, built when first needed after an insert.
  auto built = [&]() -> const std::string & {
    if (filter.empty()) {
      std::vector<leveldb::Slice> slices(keys.begin(), keys.end());
      policy->CreateFilter(slices.data(), static_cast<int>(slices.size()), &filter);
    }
    return filter;
  };
  std::string cmd;
  while (next_line(cmd)) {
    std::vector<std::string> w = split(cmd);
    uint64_t n, count;
    double b;
    if (w.size() == 2 && w[0] == "hello" && w[1] == "1") {
      std::cout << "hello 1 LevelDB " << leveldb::kMajorVersion << "." << leveldb::kMinorVersion
                << " (Debian libleveldb-dev, NewBloomFilterPolicy)\n";
    } else if (w.size() == 1 && w[0] == "quit") {
      break;
    } else if (w.size() == 3 && w[0] == "design") {
      if (!parse_u64(w[1], &n) || n == 0 || !parse_double(w[2], &b) || !(b > 0 && b < 1))
        fail("malformed design: " + cmd);
      policy.reset();
      keys.clear();
      filter.clear();
      std::cout << "error LevelDB takes bits per key (NewBloomFilterPolicy(int)), not a rate\n";
    } else if (w.size() == 3 && w[0] == "design-bpk") {
      if (!parse_u64(w[1], &n) || n == 0 || !parse_double(w[2], &b) || !(b > 0))
        fail("malformed design-bpk: " + cmd);
      policy.reset();
      keys.clear();
      filter.clear();
      if (b != static_cast<int>(b) || b > INT_MAX) {
        std::cout << "error LevelDB takes whole bits per key (an int)\n";
      } else if (n > INT_MAX) {
        std::cout << "error LevelDB's CreateFilter takes an int number of keys\n";
      } else {
        policy.reset(leveldb::NewBloomFilterPolicy(static_cast<int>(b)));
        std::vector<leveldb::Slice> empty(n);
        std::string probe;
        policy->CreateFilter(empty.data(), static_cast<int>(n), &probe);
        std::cout << "design " << 8 * (probe.size() - 1) << " "
                  << static_cast<int>(static_cast<unsigned char>(probe.back())) << "\n";
      }
    } else if (w.size() == 3 && (w[0] == "insert" || w[0] == "query")) {
      const std::string &kind = w[1];
      if (kind != "u64" && kind != "str" && kind != "hex") fail("unknown key kind: " + kind);
      if (!parse_u64(w[2], &count)) fail("malformed count: " + cmd);
      if (!policy) fail("no filter: a design must come first");
      std::string answer, s;
      if (w[0] == "insert") {
        for (uint64_t i = 0; i < count; i++) {
          if (!next_line(s)) fail("end of input inside a key list");
          keys.push_back(key_bytes(kind, s));
        }
        if (keys.size() > INT_MAX) fail("LevelDB's CreateFilter takes an int number of keys");
        filter.clear();
        std::cout << "inserted " << count << "\n";
        std::cout.flush();
        continue;
      }
      const std::string &f = built();
      answer.reserve(count);
      for (uint64_t i = 0; i < count; i++) {
        if (!next_line(s)) fail("end of input inside a key list");
        answer += policy->KeyMayMatch(key_bytes(kind, s), f) ? '1' : '0';
      }
      std::cout << answer << "\n";
    } else if (w.size() == 1 && w[0] == "bits") {
      if (!policy) fail("no filter: a design must come first");
      const std::string &f = built();
      // all but the trailing k byte
      std::cout << "bits " << 8 * (f.size() - 1) << " " << to_hex(f.data(), f.size() - 1) << "\n";
    } else {
      fail("unknown command: " + cmd);
    }
    std::cout.flush();
  }
  return 0;
}
