package io.basalt.scheduler;

import io.basalt.actions.Action;
import io.basalt.api.ClusterSnapshot;
import io.basalt.api.KeptTasks;
import io.basalt.cache.ClusterCache;
import io.basalt.session.ExplainRecorder;
import io.basalt.session.Session;
import io.basalt.session.SessionResult;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The scheduling cycle, top to bottom: snapshot the cache, open a session, run the configured actions, close it,
 * then assume the placements and evictions in the cache, hand them to the binder, and write status. The same loop
 * serves the simulator and the live scheduler.
 */
public final class Scheduler {
  private final ClusterCache cache;
  private final Supplier<SchedulerProfile> profile;
  private final Binder binder;
  private final Assumptions assumptions;
  private final StatusSink status;
  private CycleObserver observer = CycleObserver.NONE;
  /** Tasks of unchanged pods, reused by the next cycle's session; cycles run one at a time. */
  private final KeptTasks kept = new KeptTasks();

  /**
   * @param profile read once per cycle, so a reloaded config takes effect at the next cycle; compiled once per
   *     config, so a cycle reads no config text or arguments
   */
  public Scheduler(ClusterCache cache, Supplier<SchedulerProfile> profile, Binder binder, StatusSink status) {
    this.cache = cache;
    this.profile = profile;
    this.binder = binder;
    this.assumptions = new Assumptions(cache);
    this.status = status;
  }

  /** Who is told how long cycles and actions took (metrics); nobody by default. */
  public Scheduler observedBy(CycleObserver o) {
    this.observer = o;
    return this;
  }

  public SessionResult runOnce() {
    return runOnce(ExplainRecorder.NONE);
  }

  /** One cycle; cycles run one at a time (a second caller waits), as the reused task objects require. */
  public synchronized SessionResult runOnce(ExplainRecorder explain) {
    long start = System.nanoTime();
    SchedulerProfile current = profile.get();
    ClusterSnapshot snapshot = cache.snapshot();
    // Explaining is the reference path: every object built anew, as every node is asked anew.
    Session session = Session.open(snapshot, current.session(), explain, explain.enabled() ? new KeptTasks() : kept);
    for (Action action : current.actions()) {
      long t = System.nanoTime();
      action.execute(session);
      observer.actionDone(action.name(), System.nanoTime() - t);
    }
    SessionResult result = session.close();
    // Holds carry over: a preemptor keeps the node its victims free, a hold the cycle found unusable is dropped.
    // Only holds that change something: a new or kept one, or one the snapshot had that the cycle dropped (a backlog's
    // tens of thousands of pods without one are left out).
    Map<String, String> holds = new HashMap<>();
    Map<String, String> held = snapshot.nominations();
    for (SessionResult.PendingPod p : result.pending()) {
      if (p.nominatedNode() != null || held.containsKey(p.pod().uid())) {
        holds.put(p.pod().uid(), p.nominatedNode());
      }
    }
    cache.nominateAll(holds);
    // Assumed here, not in the binder: the next snapshot never offers a pod twice, whichever binder carries it out.
    assumptions.evict(binder, result.evictions());
    assumptions.bind(binder, result.bindings());
    status.update(result);
    observer.cycleDone(result, System.nanoTime() - start);
    return result;
  }
}
