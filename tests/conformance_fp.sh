#!/bin/sh
# conformance_fp.sh BLOOMSIM - npm bloom-filters 3.0.4's CuckooFilter and XorFilter
# (tests/conformance/package-lock.json) and RocksDB 7.8.3's Ribbon filter
# (librocksdb-dev, NewRibbonFilterPolicy), each against bloomsim's transcription, slot
# for slot: tests/adapters_fp.sh's sessions (designs and refusals, 1,000 keys of each
# kind, failures, every answer and every slot, 100,000 sequential keys, throws, garbage,
# audit --exec) on their adapters in tests/conformance/, against `bloomsim adapter
# bloom-filters-cuckoo`, `bloom-filters-xor` and `rocksdb-ribbon`. node_modules missing
# fails the test, saying that scripts/deps installs it (npm ci); a machine without node
# skips the JavaScript ones.
ADAPTERS_ONLY="bloom-filters-cuckoo bloom-filters-xor rocksdb-ribbon" exec tests/adapters.sh "$@"
