package io.basalt.scheduler;

import io.basalt.cache.ClusterCache;
import java.util.List;

/** Feeds a {@link ClusterCache}: Kubernetes YAML fixtures for the simulator, informers in live mode. */
public interface ClusterSource {
  /** Loads the current state into {@code cache} and, for live sources, keeps it current. */
  void start(ClusterCache cache) throws Exception;

  /** Objects the source could not use (unknown kinds, conversion errors), one line each, naming the object. */
  default List<String> warnings() {
    return List.of();
  }
}
