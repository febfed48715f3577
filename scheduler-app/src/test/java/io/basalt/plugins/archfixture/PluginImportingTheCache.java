package io.basalt.plugins.archfixture;

import io.basalt.cache.ClusterCache;

/** Breaks the plugin rule on purpose (a plugin reaching into the cache), for ArchitectureTest's own test. */
public final class PluginImportingTheCache {
  public int schedulerNames(ClusterCache cache) {
    return cache.schedulerNames().size();
  }
}
