package io.basalt.scheduler;

import io.basalt.session.SessionResult;
import java.util.List;

/**
 * Carries out a session's decisions: in memory for the simulator, through the pods/binding and Eviction APIs live.
 * The engine never knows which one it has. A binder only does I/O: the cycle has already assumed each placement and
 * marked each victim terminating in the cache ({@link Assumptions}), and the binder reports what came of each to
 * {@code outcomes}, exactly once per pod, now or later.
 */
public interface Binder {
  void bind(List<SessionResult.Binding> bindings, BindOutcomes outcomes);

  void evict(List<SessionResult.Eviction> evictions, BindOutcomes outcomes);
}
