package io.basalt.config;

import java.util.List;
import java.util.Map;

/**
 * A parsed {@code volcano-scheduler.conf}: the actions in run order, the plugin tiers, and per-action arguments
 * ({@code configurations}).
 */
public record SchedulerConf(List<String> actions, List<Tier> tiers, Map<String, Map<String, Object>> configurations) {
  public SchedulerConf {
    actions = List.copyOf(actions);
    tiers = List.copyOf(tiers);
    configurations = Map.copyOf(configurations);
  }

  /** Arguments of {@code action} from {@code configurations}, empty when none. */
  public Arguments actionArguments(String action) {
    return new Arguments(configurations.getOrDefault(action, Map.of()), "configurations." + action);
  }

  /** Every plugin entry, tier by tier. */
  public List<PluginOption> allPlugins() {
    return tiers.stream().flatMap(t -> t.plugins().stream()).toList();
  }
}
