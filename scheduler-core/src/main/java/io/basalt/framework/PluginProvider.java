package io.basalt.framework;

import io.basalt.config.Arguments;
import java.util.Map;
import java.util.function.Function;

/**
 * A module's plugins by name, found through {@link java.util.ServiceLoader}. Each constructor reads its arguments
 * from {@link Arguments}, which collects bad values as problems instead of throwing.
 */
public interface PluginProvider {
  Map<String, Function<Arguments, Plugin>> plugins();
}
