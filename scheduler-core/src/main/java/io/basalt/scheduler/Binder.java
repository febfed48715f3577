package io.basalt.scheduler;

import io.basalt.session.SessionResult;
import java.util.List;

/**
 * Carries out a session's decisions: in memory for the simulator, through the pods/binding and Eviction APIs live.
 * The engine never knows which one it has.
 */
public interface Binder {
  void bind(List<SessionResult.Binding> bindings);

  void evict(List<SessionResult.Eviction> evictions);
}
