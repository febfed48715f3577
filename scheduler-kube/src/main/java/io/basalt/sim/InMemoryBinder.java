package io.basalt.sim;

import io.basalt.kube.devices.DeviceSteps;
import io.basalt.kube.prebind.PreBindStep;
import io.basalt.kube.prebind.PreBindSteps;
import io.basalt.scheduler.BindOutcomes;
import io.basalt.scheduler.Binder;
import io.basalt.session.SessionResult;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The simulator's binder: its API accepts every bind and eviction at once (the cycle has already placed the pod, or
 * marked the victim terminating, in the cache), so each is reported done on the spot; it remembers what it did for
 * the report. Each bind runs the same pre-bind steps as the live binder ({@link DeviceSteps}), against objects kept in
 * memory; a step that cannot finish (never, while the simulated node agents act at once) fails the bind, undone.
 */
public final class InMemoryBinder implements Binder {
  private final List<SessionResult.Binding> bound = new ArrayList<>();
  private final List<SessionResult.Eviction> evicted = new ArrayList<>();
  private final Set<String> evictedUids = new HashSet<>();

  private final Supplier<Instant> clock;
  private final PreBindSteps steps;
  private final InMemoryObjects objects = new InMemoryObjects();

  public InMemoryBinder() {
    this(Instant::now);
  }

  /** @param clock when each bind is sent, for the time-stamped annotations of HAMi's protocol */
  public InMemoryBinder(Supplier<Instant> clock) {
    this(clock, DeviceSteps.all(clock));
  }

  /** @param steps what runs before each bind (tests give their own) */
  InMemoryBinder(Supplier<Instant> clock, PreBindSteps steps) {
    this.clock = clock;
    this.steps = steps;
  }

  @Override
  public void bind(List<SessionResult.Binding> bindings, BindOutcomes outcomes) {
    for (SessionResult.Binding decided : bindings) {
      PreBindSteps.Run run = steps.start(decided);
      Map<String, String> annotations = run.annotate(clock.get());
      if (run.preBind(annotations, objects).state() != PreBindStep.State.DONE) {
        run.unreserve(objects);
        outcomes.notBound(decided.pod().uid(), true);
        continue;
      }
      bound.add(new SessionResult.Binding(decided.pod(), decided.node(), annotations, decided.claims()));
      outcomes.bound(decided.pod().uid());
      objects.agentsAct();
    }
  }

  @Override
  public void evict(List<SessionResult.Eviction> evictions, BindOutcomes outcomes) {
    for (SessionResult.Eviction e : evictions) {
      if (evictedUids.add(e.pod().uid())) { // a victim goes once; it stays terminating in the simulated cluster
        evicted.add(e);
      }
      outcomes.evicted(e.pod().uid());
    }
  }

  /** The DRA claims the binds wrote, as the report lists them, by {@code namespace/name}. */
  public List<SimulationReport.Claim> claims() {
    List<SimulationReport.Claim> out = new ArrayList<>();
    objects.claimStatuses().forEach((key, status) -> out.add(ClaimRows.of(key, status)));
    return out;
  }

  /** What the pre-bind steps left written (tests). */
  InMemoryObjects objects() {
    return objects;
  }

  public List<SessionResult.Binding> bound() {
    return bound;
  }

  public List<SessionResult.Eviction> evicted() {
    return evicted;
  }
}
