package io.basalt.sim;

import io.basalt.actions.ActionRegistry;
import io.basalt.cache.ClusterCache;
import io.basalt.config.SchedulerConf;
import io.basalt.framework.ExplainRecorder;
import io.basalt.framework.PluginRegistry;
import io.basalt.framework.SessionResult;
import io.basalt.model.Pod;
import io.basalt.model.PodGroup;
import io.basalt.model.Queue;
import io.basalt.scheduler.ClusterSource;
import io.basalt.scheduler.Scheduler;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Runs the real scheduling cycle over an in-memory cluster until a cycle changes nothing. Between cycles it plays
 * the kubelet's part: terminating pods finish and free their resources, so pipelined and preempting pods can land.
 */
public final class Simulator {
  /** A safety net: a scenario that still changes after this many cycles is reported, not looped forever. */
  static final int MAX_CYCLES = 500;

  private final SchedulerConf conf;
  private final PluginRegistry plugins;
  private final Set<String> schedulerNames;
  private final boolean explain;

  public Simulator(SchedulerConf conf, PluginRegistry plugins, Set<String> schedulerNames, boolean explain) {
    this.conf = conf;
    this.plugins = plugins;
    this.schedulerNames = Set.copyOf(schedulerNames);
    this.explain = explain;
  }

  public SimulationReport run(ClusterSource source) throws Exception {
    ClusterCache cache = new ClusterCache(schedulerNames, Queue.DEFAULT);
    source.start(cache);
    List<String> warnings = new ArrayList<>(source.warnings());
    InMemoryBinder binder = new InMemoryBinder(cache);
    Scheduler scheduler = new Scheduler(cache, () -> conf, plugins, ActionRegistry.builtin(), binder,
        result -> writeStatus(cache, result));
    ExplainCollector collector = explain ? new ExplainCollector() : null;
    SessionResult last = null;
    int cycles = 0;
    boolean changed = true;
    while (changed && cycles < MAX_CYCLES) {
      cycles++;
      List<PodGroup> before = podGroupsOf(cache, last);
      last = scheduler.runOnce(collector == null ? ExplainRecorder.NONE : collector);
      changed = !last.bindings().isEmpty() || !last.evictions().isEmpty() || finishTerminating(cache)
          || !before.equals(podGroupsOf(cache, last));
    }
    if (changed) {
      warnings.add("stopped after " + MAX_CYCLES + " cycles while the cluster was still changing");
    }
    return Reports.build(last, binder, collector, warnings, cycles, cache.nodeCount());
  }

  private static List<PodGroup> podGroupsOf(ClusterCache cache, SessionResult result) {
    List<PodGroup> r = new ArrayList<>();
    if (result != null) {
      for (SessionResult.JobStatus s : result.jobs()) {
        if (!s.implicit()) {
          r.add(cache.podGroup(s.key()));
        }
      }
    }
    return r;
  }

  private static void writeStatus(ClusterCache cache, SessionResult result) {
    for (SessionResult.PendingPod p : result.pending()) {
      cache.nominate(p.pod().uid(), p.nominatedNode());
    }
    for (SessionResult.JobStatus s : result.jobs()) {
      PodGroup pg = s.implicit() ? null : cache.podGroup(s.key());
      if (pg != null && !s.phase().equals(pg.phase())) {
        cache.putPodGroup(pg.withPhase(s.phase()));
      }
    }
  }

  /** The kubelet's part: every terminating pod is gone by the next cycle. */
  private static boolean finishTerminating(ClusterCache cache) {
    boolean any = false;
    for (Pod p : cache.pods()) {
      if (p.terminating()) {
        cache.removePod(p.uid());
        any = true;
      }
    }
    return any;
  }
}
