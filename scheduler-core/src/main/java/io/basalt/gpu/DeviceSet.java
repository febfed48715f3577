package io.basalt.gpu;

/**
 * A set of GPU indices on one node, as a bit mask (a node has at most 64 GPUs). Written to the pod as
 * {@code basalt.io/gpu-devices: "2,3"}.
 */
public record DeviceSet(long mask) {
  public static final DeviceSet EMPTY = new DeviceSet(0);

  public int size() {
    return Long.bitCount(mask);
  }

  public boolean contains(int index) {
    return (mask & (1L << index)) != 0;
  }

  /** "2,3": ascending indices, comma-separated. */
  public String format() {
    StringBuilder sb = new StringBuilder();
    for (long m = mask; m != 0; m &= m - 1) {
      if (sb.length() > 0) {
        sb.append(',');
      }
      sb.append(Long.numberOfTrailingZeros(m));
    }
    return sb.toString();
  }

  /**
   * Parses "2,3" (spaces allowed).
   *
   * @throws IllegalArgumentException naming the text when it is not a list of indices 0..63
   */
  public static DeviceSet parse(String text) {
    long mask = 0;
    if (text == null || text.isBlank()) {
      return EMPTY;
    }
    for (String part : text.split(",")) {
      String p = part.trim();
      try {
        int i = Integer.parseInt(p);
        if (i < 0 || i > 63) {
          throw new NumberFormatException();
        }
        mask |= 1L << i;
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("'" + JsonFields.clip(text)
            + "' is not a list of GPU indices (e.g. \"2,3\")");
      }
    }
    return new DeviceSet(mask);
  }

  @Override
  public String toString() {
    return "[" + format() + "]";
  }
}
