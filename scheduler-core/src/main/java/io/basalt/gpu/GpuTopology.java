package io.basalt.gpu;

import java.util.List;

/**
 * A node's GPUs and how fast each pair talks, as pair scores ranked the way NVIDIA's allocator ranks link types:
 * SYS 10, NODE 20, PHB 30, PXB 40, PIX 50, and 100 per NVLink / MetaXLink lane (NV18 = 1800). Immutable; nodes
 * with the same inventory share one instance, so per-topology caches hit across a whole node pool.
 */
public final class GpuTopology {
  /** The pair score of a uniform node, where every pair is assumed equal (no topology reported). */
  static final int UNIFORM_SCORE = 10;
  /** NV18 is today's widest link; 1000 lanes (100,000) is far beyond it. */
  static final int MAX_LANES = 1000;

  private final List<GpuDevice> devices;
  /**
   * Pair scores as reported; null when the pairs follow a rule (no n x n matrix, which for thousands of devices would
   * take tens of MiB): devices in the same non-zero {@link #zones} score {@link #inZone}, all other pairs
   * {@link #across}.
   */
  private final int[][] scores;
  private final long[] zones;
  private final int inZone;
  private final int across;
  private final int maxScore;
  private final boolean uniform;
  private final DeviceSet unhealthy;

  GpuTopology(List<GpuDevice> devices, int[][] scores, boolean uniform) {
    this(devices, scores, null, 0, 0, uniform, DeviceSet.EMPTY);
  }

  private GpuTopology(List<GpuDevice> devices, int[][] scores, long[] zones, int inZone, int across, boolean uniform,
      DeviceSet unhealthy) {
    if (devices.size() > GpuAnnotations.MAX_DEVICES) {
      throw new IllegalArgumentException(devices.size() + " GPUs on one node; at most " + GpuAnnotations.MAX_DEVICES
          + " are supported");
    }
    this.devices = List.copyOf(devices);
    this.scores = scores;
    this.zones = zones;
    this.inZone = inZone;
    this.across = across;
    this.uniform = uniform;
    this.unhealthy = unhealthy;
    this.maxScore = computeMaxScore();
  }

  /** {@code count} GPUs about which nothing is known: every pair scores the same. */
  public static GpuTopology uniform(int count) {
    GpuDevice[] d = new GpuDevice[count];
    for (int i = 0; i < count; i++) {
      d[i] = new GpuDevice(i, "", "", 0);
    }
    return new GpuTopology(List.of(d), null, null, 0, UNIFORM_SCORE, true, DeviceSet.EMPTY);
  }

  /**
   * A device plugin's inventory that reports devices but no links: every pair scores {@code score}; {@code unhealthy}
   * marks devices no pod may be given.
   */
  public static GpuTopology unlinked(List<GpuDevice> devices, int score, DeviceSet unhealthy) {
    return new GpuTopology(devices, null, null, 0, score, false, unhealthy);
  }

  /** Devices in the same non-zero {@code zones} entry score {@code inZone}; other pairs {@code across}. */
  static GpuTopology zoned(List<GpuDevice> devices, long[] zones, int inZone, int across) {
    return new GpuTopology(devices, null, zones.clone(), inZone, across, false, DeviceSet.EMPTY);
  }

  /**
   * The score of one {@code nvidia-smi topo -m} link code ({@code X} for the device itself is 0).
   *
   * @throws IllegalArgumentException for a code that is not one of X, NV&lt;n&gt;, MX&lt;n&gt; (n in 1..1000), PIX,
   *     PXB, PHB, NODE, SYS
   */
  public static int pairScore(String code) {
    String c = code == null ? "" : code.trim().toUpperCase(java.util.Locale.ROOT);
    switch (c) {
      case "X":
        return 0;
      case "SYS":
        return 10;
      case "NODE":
        return 20;
      case "PHB":
        return 30;
      case "PXB":
        return 40;
      case "PIX":
        return 50;
      default:
        if ((c.startsWith("NV") || c.startsWith("MX")) && c.length() > 2) {
          try {
            int lanes = Integer.parseInt(c.substring(2));
            if (lanes > MAX_LANES) {
              throw new IllegalArgumentException("link code '" + code + "' has more than " + MAX_LANES + " lanes");
            }
            if (lanes > 0) {
              return 100 * lanes;
            }
          } catch (NumberFormatException e) {
            // falls through to the error below
          }
        }
        throw new IllegalArgumentException("unknown link code '" + code
            + "' (expected X, NV<n>, MX<n>, PIX, PXB, PHB, NODE or SYS)");
    }
  }

  public int size() {
    return devices.size();
  }

  public GpuDevice device(int index) {
    return devices.get(index);
  }

  public List<GpuDevice> devices() {
    return devices;
  }

  /** How fast devices {@code i} and {@code j} talk (0 for a device with itself). */
  public int score(int i, int j) {
    if (scores != null) {
      return scores[i][j];
    }
    if (i == j) {
      return 0;
    }
    return zones != null && zones[i] != 0 && zones[i] == zones[j] ? inZone : across;
  }

  /** True when no topology was reported and all pairs are assumed equal. */
  public boolean isUniform() {
    return uniform;
  }

  /** Devices reported unhealthy; they count as held. */
  public DeviceSet unhealthy() {
    return unhealthy;
  }

  /** The index of the device with {@code uuid}, or -1. */
  public int indexOf(String uuid) {
    for (GpuDevice d : devices) {
      if (!d.uuid().isEmpty() && d.uuid().equals(uuid)) {
        return d.index();
      }
    }
    return -1;
  }

  /** The best pair score on this node, for normalising. */
  public int maxScore() {
    return maxScore;
  }

  private int computeMaxScore() {
    if (scores == null) {
      int n = devices.size();
      if (n < 2) {
        return 0;
      }
      if (zones == null) {
        return across;
      }
      java.util.Set<Long> seen = new java.util.HashSet<>();
      boolean linked = false;
      boolean unlinked = false;
      for (long z : zones) {
        unlinked |= z == 0;
        linked |= z != 0 && !seen.add(z);
      }
      unlinked |= seen.size() > 1;
      return Math.max(linked ? inZone : 0, unlinked ? across : 0);
    }
    int m = 0;
    for (int[] row : scores) {
      for (int s : row) {
        m = Math.max(m, s);
      }
    }
    return m;
  }
}
