package io.basalt.framework;

import java.util.List;

/**
 * A module's plugins, found through {@link java.util.ServiceLoader}. Each is described by a {@link PluginDescriptor}:
 * how its arguments are read, how instances are built, and the rules the config must keep for it.
 */
public interface PluginProvider {
  List<PluginDescriptor<?>> plugins();
}
