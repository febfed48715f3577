package io.basalt.gpu;

/**
 * Which of a node's GPUs are held, and how much of each shared GPU: the devices held whole, and per device the number
 * of sharing pods and their summed compute (percent) and memory (MiB).
 */
public final class DeviceUsage {
  private final int size;
  private final DeviceSet all;
  private DeviceSet exclusive = DeviceSet.EMPTY;
  /** Devices with at least one sharing pod. */
  private DeviceSet shared = DeviceSet.EMPTY;
  /** Kept as claims change: filters read it for every node a search visits. */
  private DeviceSet untouched;
  /**
   * Per device, null until some pod shares one: most nodes hold whole GPUs only, and a cycle rebuilds the usage of
   * every node whose pods changed.
   */
  private int[] shares;
  private int[] cores;
  private long[] memoryMiB;

  public DeviceUsage(int size) {
    this.size = size;
    this.all = DeviceSet.all(size);
    this.untouched = all;
  }

  /** Devices held whole (unhealthy ones included). */
  public DeviceSet exclusive() {
    return exclusive;
  }

  /** Devices with at least one sharing pod. */
  public DeviceSet shared() {
    return shared;
  }

  public int shares(int device) {
    return shares == null ? 0 : shares[device];
  }

  public int coresUsed(int device) {
    return cores == null ? 0 : cores[device];
  }

  public long memoryUsedMiB(int device) {
    return memoryMiB == null ? 0 : memoryMiB[device];
  }

  /**
   * Whether {@code device} can take one more share of {@code cores} percent and {@code memoryMiB}: not held whole,
   * fewer than {@code maxShares} sharers, compute summing to at most 100, memory to at most {@code deviceMemoryMiB}
   * (not checked when the device's memory is unknown, 0), and HAMi's rules for 100% and 0% compute
   * ({@link ShareSize#hamiRulesAllow}). The one rule the engine's own accounting and the plugins
   * that choose a share's device all apply.
   */
  public boolean canShare(int device, long cores, long memoryMiB, long deviceMemoryMiB, int maxShares) {
    if (exclusive.contains(device) || shares(device) >= maxShares || coresUsed(device) + cores > 100
        || !ShareSize.hamiRulesAllow(cores, shares(device), coresUsed(device))) {
      return false;
    }
    return deviceMemoryMiB <= 0 || memoryUsedMiB(device) + memoryMiB <= deviceMemoryMiB;
  }

  /** Whether {@code other} records the same holders: the same devices held whole and the same shares of each. */
  public boolean sameAs(DeviceUsage other) {
    if (other == null || other.size != size || !other.exclusive.equals(exclusive)
        || !other.shared.equals(shared)) {
      return false;
    }
    for (int d = 0; d < size; d++) {
      if (shares(d) != other.shares(d) || coresUsed(d) != other.coresUsed(d)
          || memoryUsedMiB(d) != other.memoryUsedMiB(d)) {
        return false;
      }
    }
    return true;
  }

  /** Devices nobody holds or shares: what a whole-GPU pod can take. */
  public DeviceSet untouched() {
    return untouched;
  }

  /** Adds ({@code sign} 1) or removes (-1) a claim. */
  public void add(DeviceClaim claim, int sign) {
    DeviceSet devices = claim.devices();
    if (!claim.shared()) {
      exclusive = sign > 0 ? exclusive.or(devices) : exclusive.andNot(devices);
      untouched = all.andNot(exclusive).andNot(shared);
      return;
    }
    for (int d = devices.first(); d >= 0 && d < size; d = devices.next(d + 1)) {
      if (shares == null) {
        shares = new int[size];
        cores = new int[size];
        memoryMiB = new long[size];
      }
      shares[d] += sign;
      cores[d] += sign * claim.cores();
      memoryMiB[d] += sign * claim.memoryMiB();
      shared = shares[d] > 0 ? shared.with(d) : shared.without(d);
    }
    untouched = all.andNot(exclusive).andNot(shared);
  }
}
