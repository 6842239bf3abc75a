// GuavaAdapter.java - the adapter protocol (docs/adapter.md) for Guava's BloomFilter as
// Debian packages it (libguava-java 31.1, /usr/share/java/guava.jar): a test-only
// program, compiled by tests/conformance/build.sh with javac into the build directory;
// bloomsim never runs it itself.
//
// Guava 31.1's API (com/google/common/hash/, line numbers of the 31.1 jar's own line
// tables, `javap -l`):
//   BloomFilter.create(Funnel, long expectedInsertions, double fpp)    BloomFilter.java:413
//       MURMUR128_MITZ_64, m = optimalNumOfBits(n, p) (:531-534) rounded up to whole
//       64-bit words, k = optimalNumOfHashFunctions(n, m) (:516); refuses n < 0 and p
//       outside (0, 1) with IllegalArgumentException (:419-439);
//   put(T) (:174), mightContain(T) (:148);
//   writeTo(OutputStream) (:574-581): the strategy's ordinal (a signed byte), k (an
//       unsigned byte), the number of 64-bit words (a big-endian int), then each word
//       (a big-endian long).
// The bits: LockFreeBitArray (BloomFilterStrategies.java:167-231) holds them in 64-bit
// words, bit b in word b >>> 6 at mask 1L << b (set, :190-209), and bitSize() = 64 *
// words (:231): bit i is bit i mod 64 of word i / 64. The adapter reads m = 64 * words
// and k from writeTo, and prints each word's 8 bytes least significant first, which is
// the protocol's layout (bit i = bit i mod 8 of byte i / 8).
//
// Keys go through Guava's own funnels, as its users pass them: u64 through
// Funnels.longFunnel() (Funnels.java:226; funnel = into.putLong, :234-235), the decimal
// read as an unsigned 64-bit value and put as the Java long with the same 64 bits; str
// through Funnels.stringFunnel(UTF_8) (:98; into.putString(s, UTF_8), :110-111), the
// line decoded as UTF-8 (invalid UTF-8 is refused); hex through
// Funnels.byteArrayFunnel() (:38; into.putBytes, :46-47). A filter has one funnel: the
// adapter's (KeyFunnel below) hands each key to the funnel of its kind, so the hasher
// receives exactly what a BloomFilter<Long>, <CharSequence> or <byte[]> feeds it; the
// strategy and the bits do not depend on the funnel.
import com.google.common.hash.BloomFilter;
import com.google.common.hash.Funnel;
import com.google.common.hash.Funnels;
import com.google.common.hash.PrimitiveSink;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.jar.JarFile;

public final class GuavaAdapter {
  /** Each key to the funnel of its kind. */
  enum KeyFunnel implements Funnel<Object> {
    INSTANCE;

    @Override
    public void funnel(Object key, PrimitiveSink into) {
      if (key instanceof Long) {
        Funnels.longFunnel().funnel((Long) key, into);
      } else if (key instanceof String) {
        Funnels.stringFunnel(StandardCharsets.UTF_8).funnel((String) key, into);
      } else {
        Funnels.byteArrayFunnel().funnel((byte[]) key, into);
      }
    }
  }

  static final char[] DIGITS = "0123456789abcdef".toCharArray();
  static final InputStream in = new BufferedInputStream(System.in, 1 << 16);
  static final PrintStream out = new PrintStream(System.out, false);

  /** The next line's bytes without its newline; null at the end of input. */
  static byte[] nextLine() throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int c;
    while ((c = in.read()) != -1 && c != '\n') {
      line.write(c);
    }
    return c == -1 && line.size() == 0 ? null : line.toByteArray();
  }

  static void fail(String what) {
    out.println("error " + what);
    out.flush();
    System.exit(1);
  }

  /** A canonical decimal unsigned 64-bit integer, as the long with its 64 bits; or null. */
  static Long parseU64(String s) {
    if (!s.matches("0|[1-9][0-9]{0,19}")) {
      return null;
    }
    try {
      return Long.parseUnsignedLong(s);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  static Double parseDouble(String s) {
    if (!s.matches("[0-9.eE+-]+")) {
      return null;
    }
    try {
      return Double.parseDouble(s);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  static Object key(String kind, byte[] line) {
    switch (kind) {
      case "u64":
        Long v = parseU64(new String(line, StandardCharsets.ISO_8859_1));
        if (v == null) {
          fail("not a decimal u64 key: " + new String(line, StandardCharsets.ISO_8859_1));
        }
        return v;
      case "str":
        try {
          return StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(line))
              .toString();
        } catch (CharacterCodingException e) {
          fail("a str key that is not UTF-8");
        }
        return null;
      default:
        String h = new String(line, StandardCharsets.ISO_8859_1);
        if (!h.matches("([0-9a-f]{2})*")) {
          fail("not a lowercase hex key: " + h);
        }
        byte[] b = new byte[h.length() / 2];
        for (int i = 0; i < b.length; i++) {
          b[i] = (byte) Integer.parseInt(h.substring(2 * i, 2 * i + 2), 16);
        }
        return b;
    }
  }

  /** The filter's writeTo form: strategy, k, words, then the words. */
  static DataInputStream serialised(BloomFilter<Object> f) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    f.writeTo(b);
    return new DataInputStream(new java.io.ByteArrayInputStream(b.toByteArray()));
  }

  static String version() {
    try (JarFile jar =
        new JarFile(
            BloomFilter.class.getProtectionDomain().getCodeSource().getLocation().getPath())) {
      return jar.getManifest().getMainAttributes().getValue("Bundle-Version");
    } catch (Exception e) {
      return "?";
    }
  }

  public static void main(String[] args) throws IOException {
    BloomFilter<Object> filter = null;
    byte[] raw;
    while ((raw = nextLine()) != null) {
      String cmd = new String(raw, StandardCharsets.ISO_8859_1);
      String[] w = cmd.split(" ", -1);
      for (String word : w) {
        if (word.isEmpty() || w.length > 3) {
          fail("unknown command: " + cmd);
        }
      }
      if (w.length == 2 && w[0].equals("hello") && w[1].equals("1")) {
        out.println("hello 1 Guava " + version() + " (Debian libguava-java, BloomFilter.create)");
      } else if (w.length == 1 && w[0].equals("quit")) {
        break;
      } else if (w.length == 3 && w[0].equals("design")) {
        Long n = parseU64(w[1]);
        Double p = parseDouble(w[2]);
        if (n == null || n == 0 || p == null || !(p > 0 && p < 1)) {
          fail("malformed design: " + cmd);
        }
        filter = null;
        if (n < 0) {
          out.println("error Guava takes a long number of expected insertions");
        } else {
          try {
            filter = BloomFilter.create(KeyFunnel.INSTANCE, n, p);
            DataInputStream s = serialised(filter);
            s.readByte();
            int k = s.readUnsignedByte();
            out.println("design " + 64L * s.readInt() + " " + k);
          } catch (IllegalArgumentException | OutOfMemoryError e) {
            filter = null;
            out.println("error Guava refused it: " + e.toString().replace('\n', ' '));
          }
        }
      } else if (w.length == 3 && w[0].equals("design-bpk")) {
        Long n = parseU64(w[1]);
        Double b = parseDouble(w[2]);
        if (n == null || n == 0 || b == null || !(b > 0)) {
          fail("malformed design-bpk: " + cmd);
        }
        filter = null;
        out.println("error Guava takes a rate (BloomFilter.create), not bits per key");
      } else if (w.length == 3 && (w[0].equals("insert") || w[0].equals("query"))) {
        String kind = w[1];
        if (!kind.equals("u64") && !kind.equals("str") && !kind.equals("hex")) {
          fail("unknown key kind: " + kind);
        }
        Long count = parseU64(w[2]);
        if (count == null || count < 0) {
          fail("malformed count: " + cmd);
        }
        if (filter == null) {
          fail("no filter: a design must come first");
        }
        boolean insert = w[0].equals("insert");
        StringBuilder answer = new StringBuilder();
        for (long i = 0; i < count; i++) {
          byte[] line = nextLine();
          if (line == null) {
            fail("end of input inside a key list");
          }
          Object key = key(kind, line);
          if (insert) {
            filter.put(key);
          } else {
            answer.append(filter.mightContain(key) ? '1' : '0');
          }
        }
        out.println(insert ? "inserted " + count : answer.toString());
      } else if (w.length == 1 && w[0].equals("bits")) {
        if (filter == null) {
          fail("no filter: a design must come first");
        }
        DataInputStream s = serialised(filter);
        s.readByte();
        s.readUnsignedByte();
        int words = s.readInt();
        char[] hex = new char[16 * words];
        for (int i = 0; i < words; i++) {
          long word = s.readLong();
          for (int j = 0; j < 8; j++) {  // least significant byte first
            int c = (int) (word >>> (8 * j)) & 0xff;
            hex[16 * i + 2 * j] = DIGITS[c >> 4];
            hex[16 * i + 2 * j + 1] = DIGITS[c & 15];
          }
        }
        out.print("bits " + 64L * words + " ");
        out.println(hex);
      } else {
        fail("unknown command: " + cmd);
      }
      out.flush();
    }
    out.flush();
    System.exit(0);
  }
}
