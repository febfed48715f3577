package io.basalt.app.bench;

import io.basalt.actions.ActionRegistry;
import io.basalt.cache.ClusterCache;
import io.basalt.config.ConfigException;
import io.basalt.config.SchedulerConf;
import io.basalt.framework.PluginRegistry;
import io.basalt.model.Queue;
import io.basalt.scheduler.ConfValidator;
import io.basalt.scheduler.Scheduler;
import io.basalt.scheduler.SchedulerProfile;
import io.basalt.session.ExplainRecorder;
import io.basalt.session.SessionResult;
import io.basalt.sim.InMemoryBinder;
import io.basalt.sim.InMemoryStatus;
import java.util.Set;

/**
 * The real scheduling cycle run in-process over an in-memory cluster: a {@link ClusterCache} fed by the caller, the
 * {@link Scheduler} and a binder and status sink that apply decisions to the cache as the API server and informers
 * would. Shared by {@code bench} and {@code replay}, so both drive the engine the same way.
 */
public final class InProcessEngine {
  private final ClusterCache cache;
  private final InMemoryBinder binder;
  private final InMemoryStatus status;
  private final Scheduler scheduler;

  public InProcessEngine(SchedulerProfile profile, String schedulerName) {
    this.cache = new ClusterCache(Set.of(schedulerName), Queue.DEFAULT);
    this.binder = new InMemoryBinder();
    this.status = new InMemoryStatus(cache);
    this.scheduler = new Scheduler(cache, () -> profile, binder, status);
  }

  /** {@code conf}, read from {@code source}, checked and compiled against this build's plugins and actions. */
  public static SchedulerProfile compile(SchedulerConf conf, String source) throws ConfigException {
    return ConfValidator.validate(conf, PluginRegistry.load(), ActionRegistry.builtin()).profileOrThrow(source + ": ");
  }

  /** One cycle: snapshot, session, actions, then bindings and evictions applied to the cache. */
  public SessionResult runOnce() {
    return scheduler.runOnce();
  }

  /** One cycle with {@code explain} recording why each node was filtered or scored. */
  public SessionResult runOnce(ExplainRecorder explain) {
    return scheduler.runOnce(explain);
  }

  public ClusterCache cache() {
    return cache;
  }

  public InMemoryBinder binder() {
    return binder;
  }

  public InMemoryStatus status() {
    return status;
  }
}
