package io.basalt.sim;

import io.basalt.cache.ClusterCache;
import io.basalt.gpu.protocol.DeviceProtocols;
import io.basalt.model.PodGroup;
import io.basalt.model.Queue;
import io.basalt.scheduler.ClusterSource;
import io.basalt.scheduler.Scheduler;
import io.basalt.scheduler.SchedulerProfile;
import io.basalt.scheduler.VgpuSlotCheck;
import io.basalt.session.ExplainRecorder;
import io.basalt.session.SessionResult;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Runs the real scheduling cycle over an in-memory cluster until a cycle changes nothing. Between cycles it plays
 * the kubelet's part: terminating pods finish and free their resources, so pipelined and preempting pods can land.
 */
public final class Simulator {
  /** A safety net: a scenario that still changes after this many cycles is reported, not looped forever. */
  static final int MAX_CYCLES = 500;

  private final SchedulerProfile profile;
  private final Set<String> schedulerNames;
  private final boolean explain;
  private DeviceProtocols deviceProtocol = DeviceProtocols.AUTO;
  /**
   * What bind annotations are stamped with: a fixed instant, so the same input prints the same bindings on any
   * machine at any time (a simulated bind's time means nothing to a node).
   */
  static final Instant STAMP = Instant.EPOCH;

  private Supplier<Instant> clock = () -> STAMP;

  public Simulator(SchedulerProfile profile, Set<String> schedulerNames, boolean explain) {
    this.profile = profile;
    this.schedulerNames = Set.copyOf(schedulerNames);
    this.explain = explain;
  }

  /** How bindings tell nodes their devices ({@code --device-protocol}); auto by default. */
  public Simulator deviceProtocol(DeviceProtocols protocol) {
    this.deviceProtocol = protocol;
    return this;
  }

  /** The time bind annotations are stamped with ({@link #STAMP} by default). */
  public Simulator clock(Supplier<Instant> clock) {
    this.clock = clock;
    return this;
  }

  public SimulationReport run(ClusterSource source) throws Exception {
    ClusterCache cache = new ClusterCache(schedulerNames, Queue.DEFAULT);
    cache.setDeviceProtocol(deviceProtocol);
    source.start(cache);
    List<String> warnings = new ArrayList<>(source.warnings());
    VgpuSlotCheck.warning(profile.conf(), cache.nodes()).ifPresent(warnings::add);
    InMemoryBinder binder = new InMemoryBinder(clock, cache.volumes(), cache::node);
    InMemoryStatus status = new InMemoryStatus(cache);
    Scheduler scheduler = new Scheduler(cache, () -> profile, binder, status);
    ExplainCollector collector = explain ? new ExplainCollector() : null;
    SessionResult last = null;
    int cycles = 0;
    boolean changed = true;
    while (changed && cycles < MAX_CYCLES) {
      cycles++;
      List<PodGroup> before = podGroupsOf(cache, last);
      last = scheduler.runOnce(collector == null ? ExplainRecorder.NONE : collector);
      changed = !last.bindings().isEmpty() || !last.evictions().isEmpty() || status.finishTerminating()
          || !before.equals(podGroupsOf(cache, last));
    }
    if (changed) {
      warnings.add("stopped after " + MAX_CYCLES + " cycles while the cluster was still changing");
    }
    return Reports.build(last, binder, collector, warnings, cycles, cache.nodeCount(), cache.fabric());
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
}
