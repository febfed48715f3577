package io.basalt.sim;

import io.basalt.cache.VolumeStore;
import io.basalt.kube.devices.DeviceSteps;
import io.basalt.kube.prebind.PreBindStep;
import io.basalt.kube.prebind.PreBindSteps;
import io.basalt.kube.volumes.VolumeBindStep;
import io.basalt.model.ClusterVolumes;
import io.basalt.model.Node;
import io.basalt.scheduler.BindOutcomes;
import io.basalt.scheduler.Binder;
import io.basalt.session.SessionResult;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
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
  /** The volume binding step and the claims and PVs it writes; null when the binder binds no claims. */
  private VolumeBindStep volumeStep;
  private SimStorage storage;

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

  /**
   * A binder that also binds the claims of the pods it binds, against the simulated cluster's {@code volumes} (the
   * cache's, so the next cycle sees them bound), playing the PV controller and the provisioners.
   */
  public InMemoryBinder(Supplier<Instant> clock, VolumeStore volumes, Function<String, Node> nodes) {
    this(clock, DeviceSteps.all(clock));
    this.storage = new SimStorage(volumes, nodes);
    objects.storage = storage;
    this.volumeStep = new VolumeBindStep(new VolumeBindStep.View() {
      @Override
      public ClusterVolumes volumes() {
        return volumes.value();
      }

      @Override
      public Node node(String name) {
        return nodes.apply(name);
      }
    });
  }

  @Override
  public void bind(List<SessionResult.Binding> bindings, BindOutcomes outcomes) {
    Set<String> noVolumes = volumeStep == null ? Set.of() : reserveVolumes(bindings);
    for (SessionResult.Binding decided : bindings) {
      if (noVolumes.contains(decided.pod().uid())) {
        outcomes.notBound(decided.pod().uid(), true);
        continue;
      }
      PreBindSteps.Run run = steps.start(decided);
      Map<String, String> annotations = run.annotate(clock.get());
      if (run.preBind(annotations, objects).state() != PreBindStep.State.DONE) {
        run.unreserve(objects);
        if (volumeStep != null) {
          volumeStep.unreserve(decided, objects);
        }
        outcomes.notBound(decided.pod().uid(), true);
        continue;
      }
      bound.add(new SessionResult.Binding(decided.pod(), decided.node(), annotations, decided.claims()));
      outcomes.bound(decided.pod().uid());
      objects.agentsAct();
      if (volumeStep != null) {
        storage.settle(decided.pod().key(), SimStorage.keys(volumeStep.written(decided.pod().uid())));
        volumeStep.settled(decided.pod().uid());
      }
    }
  }

  /**
   * Reserves the claims of every binding before any is bound, gang by gang: a member whose claims cannot be
   * reserved unreserves what its gang's other members reserved, and the whole gang is not bound. The uids not to bind.
   */
  private Set<String> reserveVolumes(List<SessionResult.Binding> bindings) {
    Map<String, List<SessionResult.Binding>> gangs = new LinkedHashMap<>();
    for (SessionResult.Binding b : bindings) {
      String gang = b.pod().groupName() == null ? "pod/" + b.pod().uid()
          : "group/" + b.pod().namespace() + "/" + b.pod().groupName();
      gangs.computeIfAbsent(gang, k -> new ArrayList<>()).add(b);
    }
    Set<String> failed = new HashSet<>();
    for (List<SessionResult.Binding> members : gangs.values()) {
      List<SessionResult.Binding> reserved = new ArrayList<>();
      boolean ok = true;
      for (SessionResult.Binding m : members) {
        if (!volumeStep.writesBefore(m, m.annotations())) {
          continue;
        }
        if (volumeStep.preBind(m, objects).state() != PreBindStep.State.DONE) {
          ok = false;
          break;
        }
        reserved.add(m);
      }
      if (!ok) {
        for (int i = reserved.size() - 1; i >= 0; i--) {
          volumeStep.unreserve(reserved.get(i), objects);
        }
        members.forEach(m -> failed.add(m.pod().uid()));
      }
    }
    return failed;
  }

  /** Per pod key, each claim's PV as this binder bound or provisioned it (empty without storage). */
  public Map<String, Map<String, String>> volumes() {
    return storage == null ? Map.of() : storage.outcomes();
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

  /** The simulated claims and PVs (tests); null without storage. */
  SimStorage storage() {
    return storage;
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
