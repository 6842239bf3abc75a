// rocksdb_adapter.cc - the adapter protocol (docs/adapter.md) for RocksDB's Bloom
// filters as Debian packages them (librocksdb-dev 7.8.3): a test-only program, built by
// tests/conformance/build.sh with `c++ ... -lrocksdb`; bloomsim never links it.
//   rocksdb_adapter fastlocal   FastLocalBloom, BlockBasedTableOptions::format_version 5
//   rocksdb_adapter legacy      the legacy full filter, format_version 4
//   rocksdb_adapter ribbon      the Standard128Ribbon filter, NewRibbonFilterPolicy
//                               (bloom_equivalent_bits_per_key), format_version 5
//
// The classes that build and read a filter (FilterBitsBuilder, FilterBitsReader) are
// internal since 7.0 (rocksdb/filter_policy.h:41-43 @v7.8.3: only declared), so the
// adapter goes through what a user does: it writes a table file (SstFileWriter,
// rocksdb/sst_file_writer.h:92-162) with a block-based table whose filter policy is
// NewBloomFilterPolicy(bits_per_key) (filter_policy.h:169-170), reads the filter block
// back from the file, and asks the table for its answers through a DB that ingests the
// file (DB::IngestExternalFile, db.h) and DB::Get, counting the filter's answers in the
// perf context (bloom_sst_hit_count / bloom_sst_miss_count, perf_context.h:214-216,
// counted by FullFilterBlockReader::MayMatch, table/block_based/full_filter_block.cc:
// 190-196 @v7.8.3, at PerfLevel::kEnableCount).
//
// The file holds the inserted keys (each once, in bytewise order, as a table does, with
// empty values) and one range deletion from "" to past every key inserted or queried.
// A range deletion enters no filter (BlockBasedTableBuilder::Add,
// table/block_based/block_based_table_builder.cc:1001 @v7.8.3: only point keys reach
// filter_builder->Add, :981) but widens the file's key range
// (db/external_sst_file_ingestion_job.cc:723-745 @v7.8.3), so that DB::Get consults
// the filter for every query instead of skipping the file for keys outside the
// inserted keys' range; reads set ignore_range_deletions. The filter is then exactly
// the filter of a table of the inserted keys. Every Get must count exactly one filter
// answer, or the adapter stops with an error.
//
// The filter block (its metaindex key "fullfilter.rocksdb.BuiltinBloomFilter",
// block_based_table_builder.cc:1587-1590, BuiltinFilterPolicy's compatibility name,
// table/block_based/filter_policy.cc:1317 @v7.8.3) is found through the file's footer
// (table/format.cc:197-212 @v7.8.3: the last 53 bytes end with format_version and the
// magic number 0x88e241b785f4cff7, and start with the checksum type and the metaindex
// block's handle, two varint64s) and its metaindex block (restart interval 1,
// table/meta_blocks.cc:35-36; entries shared, non-shared and value lengths as
// varint32s, then the key delta and the value; the block ends with its restart
// offsets and their count).
//
// The filter's bytes (filter_policy.cc @v7.8.3):
//  - fastlocal (FastLocalBloomBitsBuilder::Finish, :330-392): len bytes of 64-byte
//    cache lines, then 5 bytes of metadata: -1 (newer Bloom), 0 (this
//    sub-implementation), num_probes, 0, 0. len = CalculateSpace's whole cache lines
//    (:410-424). A probe of line L at bit position b in 0..511 sets
//    data[64 L + b / 8] |= 1 << (b % 8) (util/bloom_impl.h:206-213);
//  - legacy (LegacyBloomBitsBuilder::Finish, :1080-1125): total_bits / 8 bytes of
//    512-bit lines (an odd number of them, :1147-1157), then 5 bytes of metadata:
//    num_probes, then num_lines as a little-endian uint32. A probe sets bit b of line L
//    as data[64 L + b / 8] |= 1 << (b % 8) (util/bloom_impl.h:432-444).
//  - ribbon (Standard128RibbonBitsBuilder::Finish, :612-765): the solution's 16-byte
//    segments (128-bit words, low 64 bits first, little-endian), then 5 bytes of
//    metadata: -2, the ordinal seed, num_blocks in 24 bits; or, below 1,024 slots where
//    it is smaller (:789-796) or when all 256 seeds fail (:681-692), the fastlocal filter
//    above (-1). A fingerprint filter of the protocol: `design-bpk N B` answers `design M
//    ?`, `failures` answers `failures 0 R`, R the seeds that failed: the seed byte less the
//    first one tried, Lower32of64(Hash64(first key)) & 255 (:647-650, util/hash.h: the
//    library's exported rocksdb::Hash64), 256 when RocksDB logged "Too many re-seeds"
//    (the adapter's Logger sees its warnings). A table's first key is its least.
// In each, bit i of the filter is bit i mod 8 of byte i / 8: the protocol's layout. The
// adapter strips the 5 metadata bytes: m = 8 * (filter length - 5), k from the metadata.
//
// RocksDB takes bits per key, never a rate: `design-bpk N B` (a double, as
// NewBloomFilterPolicy takes it: fastlocal uses it in millibits, legacy rounded to a
// whole number, filter_policy.cc:1343-1357); `design N P` is refused. A table's filter
// is sized by its number of keys when the file is written, so the adapter keeps the
// inserted keys and writes the file at the first query or bits after an insert;
// `design` answers the m and k of the filter RocksDB builds for N keys (it writes a file
// of N distinct keys and reads them off). An insert of a key already inserted changes
// nothing (a table holds each key once).
// Keys: u64 as its 8 bytes little-endian, str as the line's bytes, hex as its bytes: the
// Slice a RocksDB user passes.
#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/options.h>
#include <rocksdb/perf_context.h>
#include <rocksdb/perf_level.h>
#include <rocksdb/sst_file_writer.h>
#include <rocksdb/table.h>
#include <rocksdb/version.h>

#include <cerrno>
#include <cstdarg>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace rocksdb {
uint64_t Hash64(const char *data, size_t n);  // util/hash.h, exported by librocksdb
}

namespace {

// Counts RocksDB's warnings that its Ribbon filter fell back after 256 seeds.
struct SeedLogger : public rocksdb::Logger {
  int reseeds = 0;
  using rocksdb::Logger::Logv;
  void Logv(const char *format, va_list ap) override {
    char line[512];
    std::vsnprintf(line, sizeof line, format, ap);
    if (std::strstr(line, "Too many re-seeds")) ++reseeds;
  }
};
std::shared_ptr<SeedLogger> seed_logger = std::make_shared<SeedLogger>();
bool ribbon = false;

std::string workdir;            // a scratch directory for the table files and the DB
rocksdb::DB *db = nullptr;       // the DB that ingested the current file, if any

void cleanup() {
  delete db;
  db = nullptr;
  if (workdir.empty()) return;
  rocksdb::Options o;
  rocksdb::DestroyDB(workdir + "/db", o).PermitUncheckedError();
  std::remove((workdir + "/keys.sst").c_str());
  std::remove((workdir + "/design.sst").c_str());
  rmdir(workdir.c_str());
  workdir.clear();
}

[[noreturn]] void fail(const std::string &what) {
  std::cout << "error " << what << std::endl;
  cleanup();
  std::exit(1);
}

void check(const rocksdb::Status &s, const char *what) {
  if (!s.ok()) fail(std::string("rocksdb: ") + what + ": " + s.ToString());
}

#include "adapter_io.h"

// The options of the mode's tables: no compression (the filter block is never
// compressed; the rest need not be either), the filter policy and format version.
rocksdb::Options table_options(int format_version, double bits_per_key) {
  rocksdb::BlockBasedTableOptions t;
  t.filter_policy.reset(ribbon ? rocksdb::NewRibbonFilterPolicy(bits_per_key)
                               : rocksdb::NewBloomFilterPolicy(bits_per_key));
  t.format_version = format_version;
  rocksdb::Options o;
  o.info_log = seed_logger;
  o.compression = rocksdb::kNoCompression;
  o.table_factory.reset(rocksdb::NewBlockBasedTableFactory(t));
  return o;
}

// Writes a table file of keys (sorted, distinct), with a range deletion from "" to end
// when end is not empty.
template <class Keys>
void write_table(const rocksdb::Options &o, const std::string &path, const Keys &keys,
                 const std::string &end) {
  rocksdb::SstFileWriter w(rocksdb::EnvOptions(), o);
  check(w.Open(path), "SstFileWriter::Open");
  for (const std::string &k : keys) check(w.Put(k, ""), "SstFileWriter::Put");
  if (!end.empty()) check(w.DeleteRange("", end), "SstFileWriter::DeleteRange");
  check(w.Finish(), "SstFileWriter::Finish");
}

bool varint(const std::string &s, size_t *pos, size_t end, uint64_t *v) {
  *v = 0;
  for (int shift = 0; shift <= 63 && *pos < end; shift += 7) {
    unsigned char c = static_cast<unsigned char>(s[(*pos)++]);
    *v |= uint64_t{c & 127u} << shift;
    if (c < 128) return true;
  }
  return false;
}

uint64_t fixed(const std::string &s, size_t pos, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; i++) v |= uint64_t{static_cast<unsigned char>(s[pos + i])} << (8 * i);
  return v;
}

// The full filter block of a table file written by write_table (format versions 1 on),
// with its metadata; empty if the file has none.
std::string read_filter(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::string f((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t footer = 53;  // 1 + 2 * 20 + 4 + 8
  if (f.size() < footer || fixed(f, f.size() - 8, 8) != 0x88e241b785f4cff7ull)
    fail("rocksdb: " + path + " is not a block-based table of format version 1 or later");
  size_t pos = f.size() - footer + 1;  // past the checksum type
  uint64_t meta_offset, meta_size;
  if (!varint(f, &pos, f.size(), &meta_offset) || !varint(f, &pos, f.size(), &meta_size) ||
      meta_size < 4 || meta_offset + meta_size > f.size())
    fail("rocksdb: bad metaindex handle in " + path);
  const size_t block = meta_offset, block_end = meta_offset + meta_size;
  uint64_t restarts = fixed(f, block_end - 4, 4) & 0x7fffffffu;
  if (4 * (restarts + 1) > meta_size) fail("rocksdb: bad metaindex block in " + path);
  const size_t entries_end = block_end - 4 * (restarts + 1);
  std::string key;
  for (pos = block; pos < entries_end;) {
    uint64_t shared, unshared, vlen, offset, size;
    if (!varint(f, &pos, entries_end, &shared) || !varint(f, &pos, entries_end, &unshared) ||
        !varint(f, &pos, entries_end, &vlen) || shared > key.size() ||
        pos + unshared + vlen > entries_end)
      fail("rocksdb: bad metaindex entry in " + path);
    key = key.substr(0, shared) + f.substr(pos, unshared);
    pos += unshared;
    size_t value = pos, value_end = pos + vlen;
    pos = value_end;
    if (key != "fullfilter.rocksdb.BuiltinBloomFilter") continue;
    if (!varint(f, &value, value_end, &offset) || !varint(f, &value, value_end, &size) ||
        offset + size > f.size())
      fail("rocksdb: bad filter handle in " + path);
    return f.substr(offset, size);
  }
  return "";
}

struct Filter {
  uint64_t m = 0;
  int k = 0;
};

Filter shape(const std::string &filter, bool legacy) {
  Filter s;
  s.m = 8 * (filter.size() - 5);
  s.k = static_cast<unsigned char>(filter[filter.size() - (legacy ? 5 : 3)]);
  if (ribbon && static_cast<signed char>(filter[filter.size() - 5]) == -2) return s;
  if (!legacy && static_cast<signed char>(filter[filter.size() - 5]) != -1)
    fail("rocksdb: the filter is not a FastLocalBloom filter (metadata marker)");
  if (legacy && fixed(filter, filter.size() - 4, 4) * 512 != s.m)
    fail("rocksdb: the legacy filter's line count disagrees with its length");
  return s;
}

}  // namespace

int main(int argc, char **argv) {
  std::ios::sync_with_stdio(false);
  if (argc != 2 || (std::strcmp(argv[1], "fastlocal") && std::strcmp(argv[1], "legacy") &&
                    std::strcmp(argv[1], "ribbon"))) {
    std::cerr << "usage: rocksdb_adapter fastlocal|legacy|ribbon\n";
    return 2;
  }
  const bool legacy = std::strcmp(argv[1], "legacy") == 0;
  ribbon = std::strcmp(argv[1], "ribbon") == 0;
  const int format_version = legacy ? 4 : 5;
  const char *tmp = std::getenv("TMPDIR");
  std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/rocksdb-adapter.XXXXXX";
  std::vector<char> dir(templ.begin(), templ.end());
  dir.push_back('\0');
  if (!mkdtemp(dir.data())) {
    std::cerr << "rocksdb_adapter: cannot make a scratch directory under " << templ << "\n";
    return 2;
  }
  workdir = dir.data();
  rocksdb::SetPerfLevel(rocksdb::PerfLevel::kEnableCount);

  double bpk = 0;                 // the design's bits per key; 0 before a design
  std::set<std::string> keys;     // inserted so far
  std::string filter;             // of the current file; empty when stale
  std::string end = "\xff";       // the range deletion's end: past every key seen
  int build_reseeds = 0;          // RocksDB's warnings of 256 failed seeds in the last build
  // The file of the inserted keys, its filter, and the DB that ingested it, made when
  // first needed after an insert (or after a query key past the range deletion).
  auto build = [&]() {
    if (!filter.empty()) return;
    if (keys.empty()) fail("rocksdb writes no filter for a table of no keys");
    delete db;
    db = nullptr;
    rocksdb::Options o = table_options(format_version, bpk);
    rocksdb::DestroyDB(workdir + "/db", o).PermitUncheckedError();
    const int reseeds = seed_logger->reseeds;
    write_table(o, workdir + "/keys.sst", keys, end);
    build_reseeds = seed_logger->reseeds - reseeds;
    filter = read_filter(workdir + "/keys.sst");
    if (filter.size() < 5) fail("rocksdb: the table file has no full filter block");
    o.create_if_missing = true;
    check(rocksdb::DB::Open(o, workdir + "/db", &db), "DB::Open");
    rocksdb::IngestExternalFileOptions ingest;
    ingest.move_files = true;
    check(db->IngestExternalFile({workdir + "/keys.sst"}, ingest), "IngestExternalFile");
  };

  std::string cmd;
  while (next_line(cmd)) {
    std::vector<std::string> w = split(cmd);
    uint64_t n, count;
    double b;
    if (w.size() == 2 && w[0] == "hello" && w[1] == "1") {
      std::cout << "hello 1 RocksDB " << rocksdb::GetRocksVersionAsString() << " ("
                << (legacy   ? "legacy Bloom, format_version 4"
                    : ribbon ? "Standard128Ribbon, format_version 5"
                             : "FastLocalBloom, format_version 5")
                << "; Debian librocksdb-dev, "
                << (ribbon ? "NewRibbonFilterPolicy" : "NewBloomFilterPolicy") << ", SstFileWriter)\n";
    } else if (w.size() == 1 && w[0] == "quit") {
      break;
    } else if (w.size() == 3 && (w[0] == "design" || w[0] == "design-bpk")) {
      bool rate = w[0] == "design";
      if (!parse_u64(w[1], &n) || n == 0 || !parse_double(w[2], &b) || !(b > 0) ||
          (rate && !(b < 1)))
        fail("malformed " + w[0] + ": " + cmd);
      bpk = 0;
      keys.clear();
      filter.clear();
      end = "\xff";
      if (rate) {
        std::cout << "error RocksDB takes bits per key ("
                  << (ribbon ? "NewRibbonFilterPolicy" : "NewBloomFilterPolicy")
                  << "(double)), not a rate\n";
      } else if (b < 0.5) {
        std::cout << "error RocksDB builds no filter below 0.5 bits per key\n";
      } else {
        // A file of n distinct keys (i big-endian, so in order): its filter's m and k.
        struct Counting {
          uint64_t n;
          struct It {
            uint64_t i;
            std::string operator*() const {
              std::string k(8, '\0');
              for (int j = 0; j < 8; j++) k[j] = static_cast<char>(i >> (56 - 8 * j));
              return k;
            }
            It &operator++() { ++i; return *this; }
            bool operator!=(const It &o) const { return i != o.i; }
          };
          It begin() const { return {0}; }
          It end() const { return {n}; }
        } dummy{n};
        rocksdb::Options o = table_options(format_version, b);
        write_table(o, workdir + "/design.sst", dummy, "");
        std::string f = read_filter(workdir + "/design.sst");
        std::remove((workdir + "/design.sst").c_str());
        if (f.size() < 5) fail("rocksdb: the design's table file has no full filter block");
        Filter s = shape(f, legacy);
        bpk = b;
        if (ribbon) {
          if (b < 1.0 || !(b < 100.0))
            std::cerr << "rocksdb_adapter: bits per key " << w[2] << " are "
                      << (b < 1.0 ? "1" : "100") << " (BloomLikeFilterPolicy's clamp)\n";
          std::cout << "design " << s.m << " ?\n";
        } else {
          std::cout << "design " << s.m << " " << s.k << "\n";
        }
      }
    } else if (w.size() == 3 && w[0] == "design-fp") {
      if (!parse_u64(w[1], &n) || n == 0 || !parse_u64(w[2], &count))
        fail("malformed design-fp: " + cmd);
      bpk = 0;
      keys.clear();
      filter.clear();
      std::cout << "error RocksDB takes bits per key, not fingerprint bits\n";
    } else if (w.size() == 1 && w[0] == "failures" && ribbon) {
      if (bpk == 0) fail("no filter: a design must come first");
      build();
      uint64_t retried = 0;
      if (static_cast<signed char>(filter[filter.size() - 5]) == -2) {
        const std::string &first = *keys.begin();
        unsigned start = static_cast<unsigned>(rocksdb::Hash64(first.data(), first.size())) & 255;
        retried = (static_cast<unsigned char>(filter[filter.size() - 4]) - start) & 255;
      } else if (build_reseeds > 0) {
        retried = 256;
      }
      std::cout << "failures 0 " << retried << "\n";
    } else if (w.size() == 3 && (w[0] == "insert" || w[0] == "query")) {
      const std::string &kind = w[1];
      if (kind != "u64" && kind != "str" && kind != "hex") fail("unknown key kind: " + kind);
      if (!parse_u64(w[2], &count)) fail("malformed count: " + cmd);
      if (bpk == 0) fail("no filter: a design must come first");
      std::vector<std::string> batch;
      std::string s;
      for (uint64_t i = 0; i < count; i++) {
        if (!next_line(s)) fail("end of input inside a key list");
        batch.push_back(key_bytes(kind, s));
      }
      for (const std::string &k : batch) {
        if (k >= end) {  // widen the range deletion past it (the filter stays the same)
          end = k + "\xff";
          filter.clear();
        }
      }
      if (w[0] == "insert") {
        keys.insert(batch.begin(), batch.end());
        filter.clear();
        std::cout << "inserted " << count << "\n";
        std::cout.flush();
        continue;
      }
      build();
      std::string answer, value;
      answer.reserve(count);
      rocksdb::ReadOptions ro;
      ro.ignore_range_deletions = true;
      rocksdb::PerfContext *perf = rocksdb::get_perf_context();
      for (const std::string &k : batch) {
        uint64_t hit = perf->bloom_sst_hit_count, miss = perf->bloom_sst_miss_count;
        rocksdb::Status st = db->Get(ro, k, &value);
        if (!st.ok() && !st.IsNotFound()) check(st, "DB::Get");
        uint64_t dh = perf->bloom_sst_hit_count - hit, dm = perf->bloom_sst_miss_count - miss;
        if (dh + dm != 1) fail("rocksdb: a Get did not consult the filter exactly once");
        answer += dh ? '1' : '0';
      }
      std::cout << answer << "\n";
    } else if (w.size() == 1 && w[0] == "bits") {
      if (bpk == 0) fail("no filter: a design must come first");
      build();
      Filter s = shape(filter, legacy);
      // all but the 5 metadata bytes
      std::cout << "bits " << s.m << " " << to_hex(filter.data(), s.m / 8) << "\n";
    } else {
      fail("unknown command: " + cmd);
    }
    std::cout.flush();
  }
  cleanup();
  return 0;
}
