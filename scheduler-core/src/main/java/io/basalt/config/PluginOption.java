package io.basalt.config;

import java.util.Map;

/**
 * One plugin entry of a tier: its name, the enable flags that were set, and its arguments.
 *
 * @param location where it stands in the config, e.g. {@code tiers[2].plugins[0]}, for error messages
 */
public record PluginOption(String name, Map<Hook, Boolean> flags, Map<String, Object> arguments, String location) {
  public PluginOption {
    flags = Map.copyOf(flags);
    arguments = Map.copyOf(arguments);
  }

  public static PluginOption of(String name) {
    return new PluginOption(name, Map.of(), Map.of(), name);
  }

  /** Whether this plugin may register callbacks of kind {@code hook}. */
  public boolean enabled(Hook hook) {
    Boolean v = flags.get(hook);
    return v == null ? hook.defaultValue() : v;
  }
}
