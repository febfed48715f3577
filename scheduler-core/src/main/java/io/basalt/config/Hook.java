package io.basalt.config;

/**
 * The enable flags of a tier's plugin entry, spelled exactly as Volcano spells them (note {@code enabledOverused}
 * and {@code enabledAllocatable}). Each gates one kind of callback; an unset flag means on, except
 * {@code enableHierarchy}.
 */
public enum Hook {
  JOB_ORDER("enableJobOrder"),
  NAMESPACE_ORDER("enableNamespaceOrder"),
  HIERARCHY("enableHierarchy", false),
  JOB_READY("enableJobReady"),
  JOB_PIPELINED("enableJobPipelined"),
  TASK_ORDER("enableTaskOrder"),
  PREEMPTABLE("enablePreemptable"),
  RECLAIMABLE("enableReclaimable"),
  PREEMPTIVE("enablePreemptive"),
  QUEUE_ORDER("enableQueueOrder"),
  CLUSTER_ORDER("EnabledClusterOrder"),
  PREDICATE("enablePredicate"),
  BEST_NODE("enableBestNode"),
  NODE_ORDER("enableNodeOrder"),
  TARGET_JOB("enableTargetJob"),
  RESERVED_NODES("enableReservedNodes"),
  JOB_ENQUEUED("enableJobEnqueued"),
  VICTIM("enabledVictim"),
  JOB_STARVING("enableJobStarving"),
  OVERUSED("enabledOverused"),
  ALLOCATABLE("enabledAllocatable"),
  HYPER_NODE_ORDER("enabledHyperNodeOrder");

  private final String key;
  private final boolean defaultValue;

  Hook(String key) {
    this(key, true);
  }

  Hook(String key, boolean defaultValue) {
    this.key = key;
    this.defaultValue = defaultValue;
  }

  /** The key in {@code volcano-scheduler.conf}. */
  public String key() {
    return key;
  }

  public boolean defaultValue() {
    return defaultValue;
  }

  /** The hook with this config key, or null. */
  public static Hook byKey(String key) {
    for (Hook h : values()) {
      if (h.key.equals(key)) {
        return h;
      }
    }
    return null;
  }
}
