package io.basalt.model;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Interns resource names into small integers so a {@link ResourceVector} is a plain {@code long[]}: the hot path
 * compares arrays, never maps. The three built-ins have fixed slots; scalar resources (GPUs, hugepages, ...) get the
 * next free slot the first time they are seen, process-wide.
 */
public final class ResourceNames {
  public static final String CPU_NAME = "cpu";
  public static final String MEMORY_NAME = "memory";
  public static final String PODS_NAME = "pods";

  /** Milli-CPU. */
  public static final int CPU = 0;
  /** Bytes. */
  public static final int MEMORY = 1;
  /** Pod count. */
  public static final int PODS = 2;

  /**
   * Most names interned: every vector and node copy has a slot per name, so names a tenant makes up must not grow
   * them without bound. Real clusters use a few dozen.
   */
  public static final int MAX_NAMES = 256;

  private static final Map<String, Integer> INDEX = new ConcurrentHashMap<>();
  private static volatile String[] names = {CPU_NAME, MEMORY_NAME, PODS_NAME};

  static {
    INDEX.put(CPU_NAME, CPU);
    INDEX.put(MEMORY_NAME, MEMORY);
    INDEX.put(PODS_NAME, PODS);
  }

  private ResourceNames() {}

  /**
   * The slot of {@code name}, interning it if new.
   *
   * @throws IllegalArgumentException naming the resource when {@link #MAX_NAMES} names are already in use
   */
  public static int index(String name) {
    return index(name, MAX_NAMES);
  }

  /** {@link #index} with a bound of {@code max} names; tests pass the current count to see the bound refuse. */
  static int index(String name, int max) {
    Integer i = INDEX.get(name);
    if (i != null) {
      return i;
    }
    synchronized (ResourceNames.class) {
      if (!INDEX.containsKey(name) && names.length >= max) {
        throw new IllegalArgumentException("resource " + name + ": " + max
            + " resource names are already in use; no more are counted");
      }
      return INDEX.computeIfAbsent(name, n -> {
        String[] grown = Arrays.copyOf(names, names.length + 1);
        grown[grown.length - 1] = n;
        names = grown;
        return grown.length - 1;
      });
    }
  }

  /** The slot of {@code name}, or -1 if no object ever used it (so nothing can request or offer it). */
  public static int indexIfKnown(String name) {
    Integer i = INDEX.get(name);
    return i == null ? -1 : i;
  }

  public static String name(int index) {
    return names[index];
  }

  /** Number of slots interned so far. */
  public static int count() {
    return names.length;
  }

  /** Scalar resources are counted in whole units (GPUs, devices), as opposed to cpu and memory. */
  public static boolean isScalar(int index) {
    return index > PODS;
  }
}
