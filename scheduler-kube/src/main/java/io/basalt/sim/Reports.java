package io.basalt.sim;

import io.basalt.fabric.Fabric;
import io.basalt.session.SessionResult;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/** Turns the simulator's last session and binder log into a {@link SimulationReport}. */
final class Reports {
  private Reports() {}

  static SimulationReport build(SessionResult last, InMemoryBinder binder, ExplainCollector explain,
      List<String> warnings, int cycles, int nodes, Fabric fabric) {
    List<SimulationReport.Bound> bound = new ArrayList<>();
    for (SessionResult.Binding b : binder.bound()) {
      String devices = b.annotations().get(io.basalt.gpu.GpuAnnotations.DEVICES);
      bound.add(new SimulationReport.Bound(b.pod().key(), b.node(),
          devices == null ? List.of() : List.of(devices.split(",")),
          explain == null ? null : explain.forPod(b.pod().key()), fabric.path(b.node()),
          new TreeMap<>(b.annotations())));
    }
    List<SimulationReport.Pending> pending = new ArrayList<>();
    List<SimulationReport.Group> groups = new ArrayList<>();
    List<SimulationReport.QueueRow> queues = new ArrayList<>();
    if (last != null) {
      for (SessionResult.PendingPod p : last.pending()) {
        pending.add(new SimulationReport.Pending(p.pod().key(), p.reason(),
            explain == null ? null : explain.forPod(p.pod().key()), p.nominatedNode()));
      }
      for (SessionResult.QueueStatus q : last.queues()) {
        queues.add(new SimulationReport.QueueRow(q.name(), q.weight(),
            q.deserved() == null ? null : q.deserved().toQuantities(), q.allocated().toQuantities(), q.overused()));
      }
      for (SessionResult.JobStatus s : last.jobs()) {
        if (!s.implicit()) {
          groups.add(new SimulationReport.Group(s.key(), s.phase().wireName(), s.minMember(), s.scheduled(),
              s.inferredFrom() == null ? "PodGroup" : s.inferredFrom(), explain == null ? null
              : explain.forJob(s.key())));
        }
      }
    }
    List<SimulationReport.Evicted> evicted = new ArrayList<>();
    for (SessionResult.Eviction e : binder.evicted()) {
      evicted.add(new SimulationReport.Evicted(e.pod().key(), e.reason()));
    }
    List<SimulationReport.VolumeRow> volumes = new ArrayList<>();
    binder.volumes().forEach((pod, claims) -> claims.forEach((claim, pv) ->
        volumes.add(new SimulationReport.VolumeRow(pod, claim, pv))));
    return new SimulationReport(bound, pending, evicted, groups, queues, List.copyOf(warnings), cycles, nodes,
        volumes, binder.claims());
  }
}
