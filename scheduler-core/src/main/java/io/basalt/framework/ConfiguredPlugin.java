package io.basalt.framework;

import io.basalt.config.PluginOption;
import java.util.function.Function;

/**
 * One tier entry ready for sessions: its enable flags and tier, its arguments read once when the config was compiled,
 * and how to build a fresh instance for each session from them (plugins keep per-session state).
 */
public record ConfiguredPlugin<A>(PluginOption option, int tier, A arguments,
    Function<? super A, ? extends Plugin> factory) {
  public Plugin newInstance() {
    return factory.apply(arguments);
  }
}
