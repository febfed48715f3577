package io.basalt.model;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An immutable amount of every resource: milli-CPU, memory bytes, pod count and any scalar resource, indexed by
 * {@link ResourceNames}. Slots beyond the array's length are zero, so vectors made before a new resource name was
 * interned stay valid.
 */
public final class ResourceVector {
  public static final ResourceVector ZERO = new ResourceVector(new long[0]);

  private final long[] values;
  /**
   * The hash, worked out on first use (0 until then), as String keeps its own: admission and shape memos look vectors
   * up once per pending pod per cycle.
   */
  private int hash;
  /**
   * The slots holding a positive amount, ascending: what a fit check must look at. Computed on first use; a record's
   * final field makes a racy first use by two threads safe (each sees a complete array).
   */
  private Slots positive;

  private record Slots(int[] indices) {}

  private ResourceVector(long[] values) {
    this.values = values;
  }

  /**
   * The indices of the slots holding a positive amount, in ascending order: a request typically names four of a
   * dozen resources, and fit checks run for every node a search visits. The array is shared: do not modify it.
   */
  public int[] positiveSlots() {
    Slots p = positive;
    if (p == null) {
      int n = 0;
      for (long v : values) {
        n += v > 0 ? 1 : 0;
      }
      int[] indices = new int[n];
      for (int i = 0, k = 0; i < values.length; i++) {
        if (values[i] > 0) {
          indices[k++] = i;
        }
      }
      p = new Slots(indices);
      positive = p;
    }
    return p.indices();
  }

  /** Wraps {@code values} without copying: callers hand over ownership. */
  static ResourceVector wrap(long[] values) {
    return new ResourceVector(values);
  }

  public static ResourceVector of(long[] values) {
    return new ResourceVector(values.clone());
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Parses a map of resource name to Kubernetes quantity string, e.g. {@code {"cpu": "2", "memory": "4Gi"}}. */
  public static ResourceVector parse(Map<String, String> quantities) {
    Builder b = builder();
    quantities.forEach((name, q) -> b.add(name, Quantities.parse(name, q)));
    return b.build();
  }

  public long get(int index) {
    return index < values.length ? values[index] : 0;
  }

  public long get(String name) {
    int i = ResourceNames.indexIfKnown(name);
    return i < 0 ? 0 : get(i);
  }

  /** Number of slots stored; every slot at or beyond it is zero. */
  public int size() {
    return values.length;
  }

  public boolean isZero() {
    for (long v : values) {
      if (v != 0) {
        return false;
      }
    }
    return true;
  }

  /** True when no resource but the pod count is requested (a BestEffort pod, served by backfill). */
  public boolean isBestEffort() {
    for (int i = 0; i < values.length; i++) {
      if (i != ResourceNames.PODS && values[i] != 0) {
        return false;
      }
    }
    return true;
  }

  public ResourceVector plus(ResourceVector other) {
    long[] r = Arrays.copyOf(values, Math.max(values.length, other.values.length));
    for (int i = 0; i < other.values.length; i++) {
      r[i] += other.values[i];
    }
    return new ResourceVector(r);
  }

  public ResourceVector minus(ResourceVector other) {
    long[] r = Arrays.copyOf(values, Math.max(values.length, other.values.length));
    for (int i = 0; i < other.values.length; i++) {
      r[i] -= other.values[i];
    }
    return new ResourceVector(r);
  }

  /** This vector with slot {@code index} set to zero (e.g. without the pod count, for quota and status). */
  public ResourceVector without(int index) {
    if (get(index) == 0) {
      return this;
    }
    long[] r = values.clone();
    r[index] = 0;
    return new ResourceVector(r);
  }

  /** Component-wise max, as Kubernetes combines init containers with the sum of app containers. */
  public ResourceVector max(ResourceVector other) {
    long[] r = Arrays.copyOf(values, Math.max(values.length, other.values.length));
    for (int i = 0; i < other.values.length; i++) {
      r[i] = Math.max(r[i], other.values[i]);
    }
    return new ResourceVector(r);
  }

  /** Every slot scaled by {@code factor}, rounded down. */
  public ResourceVector times(double factor) {
    long[] r = new long[values.length];
    for (int i = 0; i < r.length; i++) {
      r[i] = (long) (values[i] * factor);
    }
    return new ResourceVector(r);
  }

  /** True when every slot of this is at most the same slot of {@code other}. */
  public boolean lessEqual(ResourceVector other) {
    for (int i = 0; i < values.length; i++) {
      if (values[i] > other.get(i)) {
        return false;
      }
    }
    return true;
  }

  /** The first slot whose amount exceeds {@code available}, or -1 when this fits. */
  public int firstExceeding(ResourceVector available) {
    return firstExceeding(available, null);
  }

  /** As {@link #firstExceeding(ResourceVector)}, ignoring the slots {@code skip} marks (null: none). */
  public int firstExceeding(ResourceVector available, boolean[] skip) {
    for (int i = 0; i < values.length; i++) {
      if (values[i] > available.get(i) && (skip == null || i >= skip.length || !skip[i])) {
        return i;
      }
    }
    return -1;
  }

  /** Copies into a fresh array at least {@code minLength} long. */
  public long[] toArray(int minLength) {
    return Arrays.copyOf(values, Math.max(minLength, values.length));
  }

  /** Non-zero slots by name, in slot order; for output and messages. */
  public Map<String, Long> toMap() {
    Map<String, Long> m = new LinkedHashMap<>();
    for (int i = 0; i < values.length; i++) {
      if (values[i] != 0) {
        m.put(ResourceNames.name(i), values[i]);
      }
    }
    return m;
  }

  /** Non-zero slots as Kubernetes quantities ({@code cpu: "1500m"}, {@code memory: "4Gi"}). */
  public Map<String, String> toQuantities() {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < values.length; i++) {
      if (values[i] != 0) {
        m.put(ResourceNames.name(i), Quantities.format(i, values[i]));
      }
    }
    return m;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof ResourceVector other)) {
      return false;
    }
    int n = Math.max(values.length, other.values.length);
    for (int i = 0; i < n; i++) {
      if (get(i) != other.get(i)) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int hashCode() {
    int h = hash;
    if (h == 0) {
      hash = h = computeHash();
    }
    return h;
  }

  private int computeHash() {
    int last = values.length;
    while (last > 0 && values[last - 1] == 0) {
      last--;
    }
    int h = 1;
    for (int i = 0; i < last; i++) {
      h = 31 * h + Long.hashCode(values[i]);
    }
    return h;
  }

  @Override
  public String toString() {
    return toQuantities().toString();
  }

  /** Accumulates amounts by name or slot. */
  public static final class Builder {
    private long[] values = new long[ResourceNames.count()];

    /** Adds {@code amount} of {@code name}; a zero of a name never seen interns nothing. */
    public Builder add(String name, long amount) {
      if (amount == 0 && ResourceNames.indexIfKnown(name) < 0) {
        return this;
      }
      return add(ResourceNames.index(name), amount);
    }

    public Builder add(int index, long amount) {
      if (index >= values.length) {
        values = Arrays.copyOf(values, Math.max(index + 1, ResourceNames.count()));
      }
      values[index] += amount;
      return this;
    }

    public Builder set(String name, long amount) {
      int index = ResourceNames.index(name);
      add(index, 0);
      values[index] = amount;
      return this;
    }

    public ResourceVector build() {
      return new ResourceVector(values.clone());
    }
  }
}
