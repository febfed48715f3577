package io.basalt.api;

import io.basalt.model.ResourceVector;

/**
 * What a fit check reads of a request: the resources it asks for, in ascending slot order, without those the engine
 * leaves to the device check. Worked out once per search, so a node visit compares a few numbers instead of walking
 * the request and the skipped slots again.
 */
public final class Demand {
  private final int[] slots;
  private final long[] amounts;

  private Demand(int[] slots, long[] amounts) {
    this.slots = slots;
    this.amounts = amounts;
  }

  /** {@code request}'s positive slots, except where {@code skip} (null for none) is true. */
  public static Demand of(ResourceVector request, boolean[] skip) {
    int[] positive = request.positiveSlots();
    int n = 0;
    for (int i : positive) {
      n += checked(i, skip) ? 1 : 0;
    }
    int[] slots = new int[n];
    long[] amounts = new long[n];
    int k = 0;
    for (int i : positive) {
      if (checked(i, skip)) {
        slots[k] = i;
        amounts[k++] = request.get(i);
      }
    }
    return new Demand(slots, amounts);
  }

  private static boolean checked(int slot, boolean[] skip) {
    return skip == null || slot >= skip.length || !skip[slot];
  }

  /**
   * The first slot whose {@code field} in a node's packed accounting ({@code count} slots of {@link NodeInfo#STRIDE}
   * numbers each) is less than asked, or -1.
   */
  int firstShort(long[] packed, int count, int field) {
    for (int k = 0; k < slots.length; k++) {
      int i = slots[k];
      if (amounts[k] > (i < count ? packed[i * NodeInfo.STRIDE + field] : 0)) {
        return i;
      }
    }
    return -1;
  }
}
