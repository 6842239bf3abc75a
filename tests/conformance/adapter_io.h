// adapter_io.h - the line handling the C++ adapters share (docs/adapter.md): reading a
// line, the canonical u64 and the rate or bits per key of a command, a key line's bytes,
// bytes as hexadecimal and a command's words. Test-only, like the adapters. An adapter
// includes it inside its anonymous namespace, after defining
// `[[noreturn]] void fail(const std::string &)`, which answers `error ...` and exits
// (key_bytes calls it on a malformed key).
#ifndef BLOOMSIM_ADAPTER_IO_H
#define BLOOMSIM_ADAPTER_IO_H

// The next line without its newline; false at the end of input.
bool next_line(std::string &s) { return static_cast<bool>(std::getline(std::cin, s)); }

// A canonical decimal unsigned 64-bit integer: digits only, no leading zero.
bool parse_u64(const std::string &s, uint64_t *out) {
  if (s.empty() || s.size() > 20 || (s[0] == '0' && s.size() > 1)) return false;
  uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    unsigned d = static_cast<unsigned>(c - '0');
    if (v > (UINT64_MAX - d) / 10) return false;
    v = v * 10 + d;
  }
  *out = v;
  return true;
}

bool parse_double(const std::string &s, double *out) {
  char *end;
  errno = 0;
  *out = std::strtod(s.c_str(), &end);
  return !s.empty() && *end == '\0' && errno == 0;
}

// The bytes of one key line of kind u64 (8 bytes little-endian), str or hex.
std::string key_bytes(const std::string &kind, const std::string &s) {
  if (kind == "u64") {
    uint64_t v;
    if (!parse_u64(s, &v)) fail("not a decimal u64 key: " + s);
    std::string b(8, '\0');
    for (int i = 0; i < 8; i++) b[i] = static_cast<char>(v >> (8 * i));
    return b;
  }
  if (kind == "str") return s;
  static const std::string digits = "0123456789abcdef";
  if (s.size() % 2) fail("odd-length hex key: " + s);
  std::string b(s.size() / 2, '\0');
  for (size_t i = 0; i < b.size(); i++) {
    size_t hi = digits.find(s[2 * i]), lo = digits.find(s[2 * i + 1]);
    if (hi == std::string::npos || lo == std::string::npos) fail("not a lowercase hex key: " + s);
    b[i] = static_cast<char>(hi * 16 + lo);
  }
  return b;
}

// N bytes from P as lowercase hexadecimal, two digits a byte (a "bits" answer).
std::string to_hex(const char *p, size_t n) {
  static const char digits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(2 * n);
  for (size_t i = 0; i < n; i++) {
    unsigned char c = static_cast<unsigned char>(p[i]);
    hex += digits[c >> 4];
    hex += digits[c & 15];
  }
  return hex;
}

// A command's words, split at single spaces; empty if malformed.
std::vector<std::string> split(const std::string &cmd) {
  std::vector<std::string> w;
  size_t start = 0;
  for (;;) {
    size_t sp = cmd.find(' ', start);
    w.push_back(cmd.substr(start, sp == std::string::npos ? std::string::npos : sp - start));
    if (w.back().empty()) return {};
    if (sp == std::string::npos) return w;
    start = sp + 1;
  }
}

#endif
