package io.basalt.config;

import java.util.List;

/** A tier: plugins whose votes are weighed together before falling through to the next tier. */
public record Tier(List<PluginOption> plugins) {
  public Tier {
    plugins = List.copyOf(plugins);
  }
}
