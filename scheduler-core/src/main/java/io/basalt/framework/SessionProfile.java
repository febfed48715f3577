package io.basalt.framework;

import io.basalt.config.SchedulerConf;
import java.util.List;

/**
 * What every session of one config opens with: the config itself and its tier entries, tier by tier, with their
 * arguments already read. Built once per config (see {@code scheduler.ConfValidator}), never per cycle.
 */
public record SessionProfile(SchedulerConf conf, List<ConfiguredPlugin<?>> plugins) {
  public SessionProfile {
    plugins = List.copyOf(plugins);
  }
}
