#!/bin/sh
# conformance_go.sh BLOOMSIM - the Go and Python Bloom libraries Debian packages, each
# against bloomsim's transcription, bit for bit: tests/adapters.sh's sessions (designs,
# 1,000 keys of each kind, every answer and every bit, 100,000 sequential keys, garbage,
# audit --exec) on the adapters of tests/conformance/ for bits-and-blooms/bloom 3.3.1,
# blobloom 0.7.1 and DCSO's bloom 0.2.4 (Go, golang-go in GOPATH mode) and Flor 1.1.3
# (python3-flor), against `bloomsim adapter` for bits-and-blooms, blobloom and dcso-bloom;
# and seiflotfy/cuckoofilter bc60055 (golang-github-seiflotfy-cuckoofilter-dev), a cuckoo
# filter, slot for slot against `bloomsim adapter seiflotfy-cuckoo` (tests/adapters_fp.sh).
# Each whose package is absent fails the test with a line naming it and how scripts/deps
# installs it.
ADAPTERS_ONLY="bits-and-blooms blobloom dcso-bloom flor seiflotfy-cuckoo" exec tests/adapters.sh "$@"
