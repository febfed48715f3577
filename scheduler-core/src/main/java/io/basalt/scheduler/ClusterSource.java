package io.basalt.scheduler;

import io.basalt.cache.ClusterCache;

/** Feeds a {@link ClusterCache}: Kubernetes YAML fixtures for the simulator, informers in live mode. */
public interface ClusterSource {
  /** Loads the current state into {@code cache} and, for live sources, keeps it current. */
  void start(ClusterCache cache) throws Exception;
}
