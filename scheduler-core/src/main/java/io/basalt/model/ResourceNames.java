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

  private static final Map<String, Integer> INDEX = new ConcurrentHashMap<>();
  private static volatile String[] names = {CPU_NAME, MEMORY_NAME, PODS_NAME};

  static {
    INDEX.put(CPU_NAME, CPU);
    INDEX.put(MEMORY_NAME, MEMORY);
    INDEX.put(PODS_NAME, PODS);
  }

  private ResourceNames() {}

  /** The slot of {@code name}, interning it if new. */
  public static int index(String name) {
    Integer i = INDEX.get(name);
    if (i != null) {
      return i;
    }
    synchronized (ResourceNames.class) {
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
