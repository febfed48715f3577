package io.basalt.framework;

import io.basalt.config.Arguments;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/** Plugins known by name. Names come from the tiers config; an unknown one is a config error, never a crash. */
public final class PluginRegistry {
  private final Map<String, Function<Arguments, Plugin>> factories;

  private PluginRegistry(Map<String, Function<Arguments, Plugin>> factories) {
    this.factories = factories;
  }

  /** Every plugin on the class path, through {@link PluginProvider} services. */
  public static PluginRegistry load() {
    Map<String, Function<Arguments, Plugin>> all = new TreeMap<>();
    for (PluginProvider p : ServiceLoader.load(PluginProvider.class)) {
      all.putAll(p.plugins());
    }
    return new PluginRegistry(all);
  }

  public static PluginRegistry of(Map<String, Function<Arguments, Plugin>> factories) {
    return new PluginRegistry(new TreeMap<>(factories));
  }

  public boolean contains(String name) {
    return factories.containsKey(name);
  }

  public Set<String> names() {
    return factories.keySet();
  }

  /** Builds plugin {@code name}; argument problems are left in {@code arguments}. */
  public Plugin create(String name, Arguments arguments) {
    Function<Arguments, Plugin> f = factories.get(name);
    if (f == null) {
      throw new IllegalArgumentException("unknown plugin " + name);
    }
    return f.apply(arguments);
  }
}
