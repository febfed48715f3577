package io.basalt.app;

import io.basalt.kube.live.InformerSource;
import io.basalt.kube.live.KubeBinder;
import io.basalt.model.Pod;
import io.basalt.scheduler.CycleObserver;
import io.basalt.session.SessionResult;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The live scheduler's Prometheus metrics, as operators know them from kube-scheduler and Volcano: scheduling
 * attempts by result, e2e scheduling latency, cycle and per-action duration, pending pods per queue, queue
 * allocated/deserved per resource, binds and bind failures.
 */
final class SchedulerMetrics implements CycleObserver {
  private static final double[] SECONDS = {0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60,
      300};

  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final Counter attempts = Counter.builder().name("basalt_schedule_attempts_total")
      .help("Scheduling attempts by result: scheduled (bound or being bound) or unschedulable (left pending).")
      .labelNames("result").register(registry);
  private final Histogram e2e = Histogram.builder().name("basalt_e2e_scheduling_duration_seconds")
      .help("From pod creation to its binding confirmed by the API server.").classicOnly()
      .classicUpperBounds(SECONDS).register(registry);
  private final Histogram cycle = Histogram.builder().name("basalt_cycle_duration_seconds")
      .help("One scheduling cycle: snapshot, session, actions, close, hand-off to the binder.").classicOnly()
      .classicUpperBounds(SECONDS).register(registry);
  private final Histogram action = Histogram.builder().name("basalt_action_duration_seconds")
      .help("One action of a cycle.").labelNames("action").classicOnly().classicUpperBounds(SECONDS)
      .register(registry);
  private final Gauge pending = Gauge.builder().name("basalt_pending_pods")
      .help("Pods of this scheduler left pending by the last cycle, per queue.").labelNames("queue")
      .register(registry);
  private final Gauge allocated = Gauge.builder().name("basalt_queue_allocated")
      .help("What a queue's running pods hold, per resource (milli-CPU for cpu, bytes for memory, else units).")
      .labelNames("queue", "resource").register(registry);
  private final Gauge deserved = Gauge.builder().name("basalt_queue_deserved")
      .help("A queue's deserved share per resource, when a plugin divides the cluster.")
      .labelNames("queue", "resource").register(registry);

  /** Binder counters, read at scrape time. */
  void watchBinder(Supplier<KubeBinder.Counters> counters) {
    CounterWithCallback.builder().name("basalt_binds_total").help("Pods bound through the API.")
        .callback(cb -> cb.call(counters.get().bindsOk())).register(registry);
    CounterWithCallback.builder().name("basalt_bind_failures_total")
        .help("Bindings given up after retries, including races lost to another scheduler.")
        .callback(cb -> cb.call(counters.get().bindFailures())).register(registry);
    CounterWithCallback.builder().name("basalt_evictions_total").help("Pods evicted by preempt or reclaim.")
        .callback(cb -> cb.call(counters.get().evictionsOk())).register(registry);
  }

  /** Events dropped because more were waiting for the API server than the queue holds (they are best effort). */
  void watchEvents(LongSupplier dropped) {
    CounterWithCallback.builder().name("basalt_events_dropped_total")
        .help("Events not sent because the event queue was full.")
        .callback(cb -> cb.call(dropped.getAsLong())).register(registry);
  }

  /**
   * Whether the config source's latest content is the config in force, read at scrape time: 0 means an edit was
   * rejected (or the start fell back to the built-in default), which an alert can catch before anyone reads a log.
   */
  void watchConfig(BooleanSupplier valid) {
    GaugeWithCallback.builder().name("basalt_config_valid")
        .help("1 when the scheduler config's latest content is in force; 0 when it was rejected and the last good "
            + "config (or at start the built-in default) runs instead.")
        .callback(cb -> cb.call(valid.getAsBoolean() ? 1 : 0)).register(registry);
  }

  /**
   * Relists by informer and cause, read at scrape time: each is a full LIST of a kind (at 100,000 pods about
   * 900 MB), so a rate above zero outside restarts is worth an alert.
   */
  void watchInformers(Supplier<List<InformerSource.Relist>> relists) {
    CounterWithCallback.builder().name("basalt_informer_relists_total")
        .help("Full re-reads of a kind after its first LIST, by informer and cause (expired: the server's history "
            + "no longer reached back to the watch's resourceVersion).")
        .labelNames("kind", "cause")
        .callback(cb -> relists.get().forEach(r -> cb.call(r.count(), r.kind(), r.cause()))).register(registry);
  }

  /** A pod's binding landed: its end-to-end latency, creation to bound. */
  void bound(Pod pod) {
    if (pod.creationTimestamp() != null) {
      e2e.observe(Math.max(0, Duration.between(pod.creationTimestamp(), Instant.now()).toNanos() / 1e9));
    }
  }

  @Override
  public void actionDone(String name, long nanos) {
    action.labelValues(name).observe(nanos / 1e9);
  }

  @Override
  public void cycleDone(SessionResult result, long nanos) {
    cycle.observe(nanos / 1e9);
    attempts.labelValues("scheduled").inc(result.bindings().size());
    Map<String, Integer> perQueue = new HashMap<>();
    int tried = 0;
    for (SessionResult.PendingPod p : result.pending()) {
      perQueue.merge(p.queue(), 1, Integer::sum);
      tried += p.gated() ? 0 : 1; // a pod waiting on its scheduling gates was not attempted
    }
    attempts.labelValues("unschedulable").inc(tried);
    for (SessionResult.QueueStatus q : result.queues()) {
      pending.labelValues(q.name()).set(perQueue.getOrDefault(q.name(), 0));
      q.allocated().toMap().forEach((r, v) -> allocated.labelValues(q.name(), r).set(v));
      if (q.deserved() != null) {
        q.deserved().toMap().forEach((r, v) -> deserved.labelValues(q.name(), r).set(v));
      }
    }
  }

  /** Writes every metric in Prometheus text format. */
  void write(OutputStream out) throws IOException {
    new PrometheusTextFormatWriter(false).write(out, registry.scrape());
  }

  String contentType() {
    return PrometheusTextFormatWriter.CONTENT_TYPE;
  }
}
