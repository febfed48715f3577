package io.basalt.gpu;

import java.util.Arrays;

/**
 * A set of GPU indices on one node, immutable. Devices 0..63 are one {@code long}, so a set on today's 8- or 16-GPU
 * nodes costs what a bit mask costs; devices from 64 on (an NVL72 rack, a 128-GPU node) take further words, up to
 * {@link GpuAnnotations#MAX_DEVICES}. Written to the pod as {@code basalt.io/gpu-devices: "2,3"}.
 *
 * <p>Iterate with {@code for (int d = s.first(); d >= 0; d = s.next(d + 1))}.
 */
public final class DeviceSet {
  public static final DeviceSet EMPTY = new DeviceSet(0, null);

  /** Devices 0..63. */
  private final long low;
  /** Devices from 64 on, 64 to a word; null when there are none, else its last word is not 0 (one form per set). */
  private final long[] high;

  private DeviceSet(long low, long[] high) {
    this.low = low;
    this.high = high;
  }

  /** The set of {@code devices}. */
  public static DeviceSet of(int... devices) {
    long[] words = new long[1];
    for (int d : devices) {
      words = set(words, d);
    }
    return fromWords(words);
  }

  /** Devices 0..{@code n - 1}: every device of an {@code n}-GPU node. */
  public static DeviceSet all(int n) {
    if (n <= 0) {
      return EMPTY;
    }
    if (n <= 64) {
      return new DeviceSet(n == 64 ? -1L : (1L << n) - 1, null);
    }
    long[] words = new long[(n + 63) >>> 6];
    Arrays.fill(words, -1L);
    if ((n & 63) != 0) {
      words[words.length - 1] = (1L << (n & 63)) - 1;
    }
    return fromWords(words);
  }

  public int size() {
    int n = Long.bitCount(low);
    if (high != null) {
      for (long w : high) {
        n += Long.bitCount(w);
      }
    }
    return n;
  }

  public boolean isEmpty() {
    return low == 0 && high == null;
  }

  public boolean contains(int device) {
    if (device < 64) {
      return device >= 0 && (low >>> device & 1) != 0;
    }
    int w = (device >>> 6) - 1;
    return high != null && w < high.length && (high[w] >>> device & 1) != 0;
  }

  /** The lowest device, or -1 when empty. */
  public int first() {
    return low != 0 ? Long.numberOfTrailingZeros(low) : next(64);
  }

  /** The lowest device at or above {@code from}, or -1 when there is none. */
  public int next(int from) {
    if (from < 64) {
      long m = from <= 0 ? low : low & (-1L << from);
      if (m != 0) {
        return Long.numberOfTrailingZeros(m);
      }
      from = 64;
    }
    if (high == null) {
      return -1;
    }
    int w = (from >>> 6) - 1;
    if (w >= high.length) {
      return -1;
    }
    long m = high[w] & (-1L << from);
    while (m == 0) {
      if (++w == high.length) {
        return -1;
      }
      m = high[w];
    }
    return ((w + 1) << 6) + Long.numberOfTrailingZeros(m);
  }

  public DeviceSet with(int device) {
    if (contains(device)) {
      return this;
    }
    if (device < 64 && device >= 0) {
      return new DeviceSet(low | 1L << device, high);
    }
    return fromWords(set(words(), device));
  }

  public DeviceSet without(int device) {
    if (!contains(device)) {
      return this;
    }
    if (device < 64) {
      return new DeviceSet(low & ~(1L << device), high);
    }
    long[] words = words();
    words[device >>> 6] &= ~(1L << device);
    return fromWords(words);
  }

  /** Devices in both. */
  public DeviceSet and(DeviceSet other) {
    if (high == null || other.high == null) {
      long m = low & other.low;
      return m == low && high == null ? this : new DeviceSet(m, null);
    }
    long[] words = new long[1 + Math.min(high.length, other.high.length)];
    for (int i = 0; i < words.length; i++) {
      words[i] = word(i) & other.word(i);
    }
    return fromWords(words);
  }

  /** Devices in either. */
  public DeviceSet or(DeviceSet other) {
    if (high == null && other.high == null) {
      long m = low | other.low;
      return m == low ? this : new DeviceSet(m, null);
    }
    long[] words = new long[Math.max(wordCount(), other.wordCount())];
    for (int i = 0; i < words.length; i++) {
      words[i] = word(i) | other.word(i);
    }
    return fromWords(words);
  }

  /** Devices in this set and not in {@code other}. */
  public DeviceSet andNot(DeviceSet other) {
    if (high == null) {
      long m = low & ~other.low;
      return m == low ? this : new DeviceSet(m, null);
    }
    long[] words = words();
    for (int i = 0; i < words.length; i++) {
      words[i] &= ~other.word(i);
    }
    return fromWords(words);
  }

  /** The {@code k} lowest devices (all of them when there are fewer). */
  public DeviceSet lowest(int k) {
    if (k <= 0) {
      return EMPTY;
    }
    if (high == null) {
      long m = 0;
      for (long f = low; f != 0 && k > 0; f &= f - 1, k--) {
        m |= Long.lowestOneBit(f);
      }
      return m == low ? this : new DeviceSet(m, null);
    }
    long[] words = new long[1];
    for (int d = first(); d >= 0 && k > 0; d = next(d + 1), k--) {
      words = set(words, d);
    }
    return fromWords(words);
  }

  /** The devices in ascending order. */
  public int[] toArray() {
    int[] out = new int[size()];
    int i = 0;
    for (int d = first(); d >= 0; d = next(d + 1)) {
      out[i++] = d;
    }
    return out;
  }

  /** "2,3": ascending indices, comma-separated. */
  public String format() {
    StringBuilder sb = new StringBuilder();
    for (int d = first(); d >= 0; d = next(d + 1)) {
      if (sb.length() > 0) {
        sb.append(',');
      }
      sb.append(d);
    }
    return sb.toString();
  }

  /**
   * Parses "2,3" (spaces allowed).
   *
   * @throws IllegalArgumentException naming the text when it is not a list of indices below
   *     {@link GpuAnnotations#MAX_DEVICES}
   */
  public static DeviceSet parse(String text) {
    if (text == null || text.isBlank()) {
      return EMPTY;
    }
    long[] words = new long[1];
    for (String part : text.split(",")) {
      try {
        int i = Integer.parseInt(part.trim());
        if (i < 0 || i >= GpuAnnotations.MAX_DEVICES) {
          throw new NumberFormatException();
        }
        words = set(words, i);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("'" + JsonFields.clip(text)
            + "' is not a list of GPU indices (e.g. \"2,3\")");
      }
    }
    return fromWords(words);
  }

  /** {@code words} with {@code device} set, grown when it lies beyond them (the caller's array may be reused). */
  static long[] set(long[] words, int device) {
    if (device < 0) {
      throw new IllegalArgumentException("GPU index " + device + " is negative");
    }
    int w = device >>> 6;
    if (w >= words.length) {
      words = Arrays.copyOf(words, Math.max(w + 1, 2 * words.length));
    }
    words[w] |= 1L << device;
    return words;
  }

  /** The set whose device d is bit d of {@code words} (word 0 holding devices 0..63); the array is not kept. */
  static DeviceSet fromWords(long[] words) {
    int n = words.length;
    while (n > 1 && words[n - 1] == 0) {
      n--;
    }
    long low = n == 0 ? 0 : words[0];
    if (n <= 1) {
      return low == 0 ? EMPTY : new DeviceSet(low, null);
    }
    return new DeviceSet(low, Arrays.copyOfRange(words, 1, n));
  }

  private int wordCount() {
    return high == null ? 1 : 1 + high.length;
  }

  private long word(int i) {
    if (i == 0) {
      return low;
    }
    return high != null && i <= high.length ? high[i - 1] : 0;
  }

  private long[] words() {
    long[] out = new long[wordCount()];
    out[0] = low;
    if (high != null) {
      System.arraycopy(high, 0, out, 1, high.length);
    }
    return out;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DeviceSet s && s.low == low && Arrays.equals(s.high, high);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(low) * 31 + Arrays.hashCode(high);
  }

  @Override
  public String toString() {
    return "[" + format() + "]";
  }
}
