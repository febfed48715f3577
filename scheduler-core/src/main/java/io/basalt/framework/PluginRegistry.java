package io.basalt.framework;

import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;

/** Plugins known by name. Names come from the tiers config; an unknown one is a config error, never a crash. */
public final class PluginRegistry {
  private final Map<String, PluginDescriptor<?>> descriptors;

  private PluginRegistry(Map<String, PluginDescriptor<?>> descriptors) {
    this.descriptors = descriptors;
  }

  /** Every plugin on the class path, through {@link PluginProvider} services. */
  public static PluginRegistry load() {
    Map<String, PluginDescriptor<?>> all = new TreeMap<>();
    for (PluginProvider p : ServiceLoader.load(PluginProvider.class)) {
      p.plugins().forEach(d -> all.put(d.name(), d));
    }
    return new PluginRegistry(all);
  }

  public static PluginRegistry of(PluginDescriptor<?>... descriptors) {
    return of(List.of(descriptors));
  }

  public static PluginRegistry of(List<PluginDescriptor<?>> descriptors) {
    Map<String, PluginDescriptor<?>> all = new TreeMap<>();
    descriptors.forEach(d -> all.put(d.name(), d));
    return new PluginRegistry(all);
  }

  public boolean contains(String name) {
    return descriptors.containsKey(name);
  }

  public Set<String> names() {
    return descriptors.keySet();
  }

  /** The descriptor of plugin {@code name}. */
  public PluginDescriptor<?> descriptor(String name) {
    PluginDescriptor<?> d = descriptors.get(name);
    if (d == null) {
      throw new IllegalArgumentException("unknown plugin " + name);
    }
    return d;
  }
}
