package io.basalt.api;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * What a search or a plugin works out once per task and cycle and keeps on the task (kube-scheduler's CycleState),
 * by typed key: the node search's shape of a pod, the victim planner's size of a running pod, a GPU plugin's reading
 * of a request. Each asker declares its own {@link Key}, so askers never push each other out and never cast. Values
 * are dropped when the task is reused by the next cycle ({@link TaskInfo#cycleState}).
 */
public final class CycleState {
  private static final AtomicInteger KEYS = new AtomicInteger();

  private CycleState() {}

  /** A slot of per-task, per-cycle state holding a {@code T}; declare one per kind of value, as a constant. */
  public static final class Key<T> {
    final int id = KEYS.getAndIncrement();
    private final String name;

    private Key(String name) {
      this.name = name;
    }

    @Override
    public String toString() {
      return name;
    }
  }

  /** A new key, named for messages. */
  public static <T> Key<T> key(String name) {
    return new Key<>(name);
  }

  /** Keys made so far: the most slots a task may need. */
  static int keys() {
    return KEYS.get();
  }
}
