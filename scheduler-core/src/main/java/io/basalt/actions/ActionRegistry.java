package io.basalt.actions;

import io.basalt.config.Arguments;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Actions by the names {@code volcano-scheduler.conf} uses; each is built once per config from its
 * {@code configurations} entry.
 */
public final class ActionRegistry {
  private static final Map<String, Function<Arguments, Action>> BUILTIN = Map.of(
      "enqueue", args -> new Enqueue(),
      "allocate", Allocate::new,
      "backfill", Backfill::new,
      "preempt", args -> new Preempt(),
      "reclaim", args -> new Reclaim());

  private final Map<String, Function<Arguments, Action>> factories;

  private ActionRegistry(Map<String, Function<Arguments, Action>> factories) {
    this.factories = new TreeMap<>(factories);
  }

  public static ActionRegistry builtin() {
    return new ActionRegistry(BUILTIN);
  }

  public boolean contains(String name) {
    return factories.containsKey(name);
  }

  public Set<String> names() {
    return factories.keySet();
  }

  /** Builds action {@code name}; argument problems are left in {@code arguments}. */
  public Action create(String name, Arguments arguments) {
    Function<Arguments, Action> f = factories.get(name);
    if (f == null) {
      throw new IllegalArgumentException("unknown action " + name);
    }
    return f.apply(arguments);
  }
}
