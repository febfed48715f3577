package io.basalt.kube.kueue;

/** Who admits Kueue's workloads: Basalt ({@link #INSTEAD}, the simulator's default) or Kueue itself. */
public enum KueueMode {
  /**
   * No Kueue runs: Basalt admits each workload as Kueue would (quota per flavor, first flavor that fits, FIFO by
   * priority), holds its pods to the flavor's nodes, schedules it as one gang in its ClusterQueue's queue.
   */
  INSTEAD,
  /**
   * Kueue runs and admits (unsuspends, writes the flavor's node selector into the pods): Basalt schedules only
   * unsuspended workloads, each as one gang, and enforces no second quota.
   */
  ALONGSIDE;

  /** {@code instead} or {@code alongside}, as flags spell it. */
  public static KueueMode parse(String s) {
    for (KueueMode m : values()) {
      if (m.name().equalsIgnoreCase(s)) {
        return m;
      }
    }
    throw new IllegalArgumentException("expected instead or alongside, got '" + s + "'");
  }
}
