package io.basalt.app.replay;

import io.basalt.app.bench.InProcessEngine;
import io.basalt.app.replay.OpenbTrace.TraceNode;
import io.basalt.app.replay.OpenbTrace.TracePod;
import io.basalt.app.replay.ReplayResult.ModelStranding;
import io.basalt.app.replay.ReplayResult.Sample;
import io.basalt.gpu.GpuAnnotations;
import io.basalt.model.Pod;
import io.basalt.scheduler.SchedulerProfile;
import io.basalt.session.SessionResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What both protocols share: the engine over the trace's nodes in HAMi form, the replay's own device books of what
 * was bound, and the samples of the run. A protocol submits pods, runs cycles and takes samples; this keeps the
 * books.
 */
final class ReplayRun {
  /** Reasons kept for the pods never placed: the commonest, with their counts. */
  static final int TOP_REASONS = 5;

  private final OpenbTrace trace;
  private final InProcessEngine engine;
  private final DeviceLedger ledger;
  private final Fragmentation fragmentation;
  private final Map<String, TracePod> submitted = new HashMap<>();
  private final List<Sample> samples = new ArrayList<>();
  private final Map<String, String> lastReason = new HashMap<>();
  private final Map<String, int[]> outcomes = new TreeMap<>(ReplayRun::byClass);
  private int cycles;
  private int placed;

  ReplayRun(OpenbTrace trace, SchedulerProfile profile) {
    this.trace = trace;
    this.engine = new InProcessEngine(profile, HamiForm.SCHEDULER_NAME);
    this.ledger = new DeviceLedger(trace.nodes());
    this.fragmentation = new Fragmentation(trace.pods(), ledger.models());
    for (TraceNode n : trace.nodes()) {
      engine.cache().putNode(HamiForm.node(n));
    }
  }

  /** Adds {@code pod} as pending pod {@code uid}, created at {@code at}. */
  void submit(String uid, TracePod pod, long at) {
    submitted.put(uid, pod);
    outcomes.computeIfAbsent(ReplayResult.requestClass(pod), c -> new int[2])[0]++;
    engine.cache().putPod(HamiForm.pod(pod, uid, at));
  }

  /** One scheduling cycle; the uids bound in it, booked. */
  List<String> cycle() {
    SessionResult result = engine.runOnce();
    cycles++;
    for (SessionResult.PendingPod p : result.pending()) {
      lastReason.put(p.pod().uid(), p.reason());
    }
    List<String> bound = new ArrayList<>(result.bindings().size());
    for (SessionResult.Binding b : result.bindings()) {
      String uid = b.pod().uid();
      Pod now = engine.cache().pod(uid);
      TracePod p = submitted.get(uid);
      if (now != null && now.isAssigned() && p != null) {
        ledger.place(uid, p, now.nodeName(), now.annotations().get(GpuAnnotations.DEVICES));
        bound.add(uid);
        lastReason.remove(uid);
        placed++;
        outcomes.get(ReplayResult.requestClass(p))[1]++;
      }
    }
    return bound;
  }

  /** Whether {@code uid} is still waiting for a node. */
  boolean pending(String uid) {
    Pod p = engine.cache().pod(uid);
    return p != null && !p.isAssigned();
  }

  /** {@code uid} leaves the cluster (it finished, was skipped or withdrawn): its room is free again. */
  void remove(String uid) {
    engine.cache().removePod(uid);
    ledger.release(uid);
  }

  TracePod pod(String uid) {
    return submitted.get(uid);
  }

  /** A sample of the books as they are now. */
  void sample(long time, long arrivedMilli, int pending, int running) {
    sample(time, arrivedMilli, ledger.allocatedMilli(), fragmentedPercent(), pending, running);
  }

  /** A sample of figures the protocol worked out itself. */
  void sample(long time, long arrivedMilli, long allocatedMilli, double fragmentedPercent, int pending,
      int running) {
    double capacity = ledger.capacityMilli();
    samples.add(new Sample(time, 100 * arrivedMilli / capacity, 100 * allocatedMilli / capacity, fragmentedPercent,
        pending, running));
  }

  /** Fragmented free GPU capacity now, in percent of all. */
  double fragmentedPercent() {
    return 100 * fragmentation.measure(ledger).fragmentedMilli() / ledger.capacityMilli();
  }

  /** Per model at the end: GPUs, free GPUs, fragmented (stranded) GPUs. */
  List<ModelStranding> stranding() {
    Fragmentation.Measure m = fragmentation.measure(ledger);
    Map<String, Long> gpus = new TreeMap<>();
    for (TraceNode n : trace.nodes()) {
      gpus.merge(n.model(), (long) n.gpus(), Long::sum);
    }
    List<ModelStranding> out = new ArrayList<>();
    gpus.forEach((model, count) -> out.add(new ModelStranding(model, count,
        m.freeByModel().getOrDefault(model, 0L) / 1000.0, m.fragmentedByModel().getOrDefault(model, 0.0) / 1000.0)));
    return out;
  }

  ReplayResult result(String protocol, String config, long seed, int arrived, long[] waits, double wallSeconds) {
    Map<String, ReplayResult.Outcome> byClass = new LinkedHashMap<>();
    outcomes.forEach((c, n) -> byClass.put(c, new ReplayResult.Outcome(n[0], n[1])));
    Map<String, Integer> reasons = new HashMap<>();
    lastReason.values().forEach(r -> reasons.merge(r, 1, Integer::sum));
    Map<String, Integer> top = new LinkedHashMap<>();
    reasons.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(TOP_REASONS)
        .forEach(e -> top.put(e.getKey(), e.getValue()));
    return new ReplayResult(protocol, config, seed, trace.nodes().size(), trace.gpus(), arrived, placed,
        arrived - placed, cycles, List.copyOf(samples), stranding(), waits, List.copyOf(ledger.violations()),
        byClass, top, wallSeconds);
  }

  /** Request classes in size order: cpu only, share, then by GPU count. */
  private static int byClass(String a, String b) {
    return Integer.compare(rank(a), rank(b));
  }

  private static int rank(String requestClass) {
    return requestClass.startsWith("cpu") ? -2 : requestClass.equals("share") ? -1
        : Integer.parseInt(requestClass.substring(0, requestClass.indexOf(' ')));
  }

  long capacityMilli() {
    return ledger.capacityMilli();
  }
}
