package io.basalt.kube.kueue;

import io.basalt.kube.provisioning.ConsumeGate;
import io.basalt.kube.provisioning.NewRequest;
import io.basalt.kube.provisioning.ProvisioningState;
import io.basalt.model.Pod;
import io.basalt.model.Queue;
import io.basalt.model.Taint;
import io.basalt.model.Toleration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Live mode's Kueue state: the Kueue objects and Kueue-labelled Jobs the informers see, and, in
 * {@link KueueMode#INSTEAD}, what Basalt does in Kueue's place ({@link #plan}): the ClusterQueues and cohorts as
 * Basalt queues, and the suspended Jobs to unsuspend, each admitted whole by its ClusterQueue's quota at the first
 * flavor that fits (as {@link KueueAdmission} does in the simulator). Only Jobs whose LocalQueue names an existing
 * ClusterQueue are ever admitted. Thread-safe: informer threads write, the admission loop reads.
 */
public final class KueueLive {
  /** The pod template annotation that puts an admitted Job's pods in its ClusterQueue's Basalt queue. */
  public static final String QUEUE_ANNOTATION = io.basalt.model.Pod.QUEUE_NAME_ANNOTATION;

  private final Map<String, KueueRecord> records = new LinkedHashMap<>();
  private final Map<String, KueueJob> jobs = new LinkedHashMap<>();
  /** Jobs unsuspended here whose informer update has not come yet, by key: charged as running meanwhile. */
  private final Map<String, Unsuspend> inFlight = new HashMap<>();
  /** Unassigned pods consuming a ProvisioningRequest, by key: observed again when the request's state changes. */
  private final Map<String, Pod> consuming = new HashMap<>();
  /** Whether any pod ever consumed a request: until then pods pass without taking this object's lock. */
  private volatile boolean anyConsuming;
  /** Kueue's provisioning check: the Jobs waiting for a ProvisioningRequest, and those given up on. */
  private final ProvisioningCheck check;

  public KueueLive() {
    this(java.time.Instant::now);
  }

  /** @param clock when a failed ProvisioningRequest's backoff ends; never read by scheduling decisions */
  public KueueLive(Supplier<java.time.Instant> clock) {
    this.check = new ProvisioningCheck(clock);
  }

  /** Whether the cluster's free room holds a Job on the node selector and tolerations it would be admitted with. */
  @FunctionalInterface
  public interface Room {
    boolean holds(KueueJob job, Map<String, String> nodeSelector, List<Toleration> tolerations);
  }

  /**
   * A suspended Job to start: its template gets the flavors' node labels and tolerations, as Kueue writes them, and
   * the annotation naming its ClusterQueue's Basalt queue.
   *
   * @param tolerations the template's tolerations with the flavors' added; empty when the flavors add none
   * @param flavors the flavor chosen per resource group of the ClusterQueue (null for a group not asked of)
   * @param annotations more pod template annotations: the ProvisioningRequest its pods consume
   */
  public record Unsuspend(String namespace, String name, String clusterQueue, Map<String, String> nodeSelector,
      List<Toleration> tolerations, List<String> flavors, Map<String, String> annotations) {
    public Unsuspend {
      nodeSelector = Map.copyOf(nodeSelector);
      tolerations = List.copyOf(tolerations);
      flavors = java.util.Collections.unmodifiableList(new ArrayList<>(flavors)); // null: a group not asked of
      annotations = Map.copyOf(annotations);
    }

    /** Without template annotations beyond the queue's. */
    public Unsuspend(String namespace, String name, String clusterQueue, Map<String, String> nodeSelector,
        List<Toleration> tolerations, List<String> flavors) {
      this(namespace, name, clusterQueue, nodeSelector, tolerations, flavors, Map.of());
    }

    Unsuspend withAnnotations(Map<String, String> more) {
      return new Unsuspend(namespace, name, clusterQueue, nodeSelector, tolerations, flavors, more);
    }

    public String key() {
      return namespace + "/" + name;
    }
  }

  /**
   * One pass of admission: the queues the cache should hold, the Jobs to unsuspend now, one line per Job held or
   * object not supported, and the ProvisioningRequests to create (Kueue's provisioning check).
   */
  public record Plan(List<Queue> queues, List<Unsuspend> unsuspend, List<String> warnings,
      List<NewRequest> provision, List<QueueStatus> statuses) {
    public Plan(List<Queue> queues, List<Unsuspend> unsuspend, List<String> warnings) {
      this(queues, unsuspend, warnings, List.of(), List.of());
    }
  }

  public synchronized void put(KueueRecord r) {
    put(r, p -> { });
  }

  /**
   * Keeps {@code r}; a ProvisioningRequest whose state changes hands the pods consuming it to {@code observe} again,
   * gated or not, under this object's lock so no older view of a pod overtakes a newer one.
   */
  public synchronized void put(KueueRecord r, Consumer<Pod> observe) {
    KueueRecord before = records.put(key(r), r);
    if (r instanceof KueueRecord.ProvisioningRequest req && (!(before instanceof KueueRecord.ProvisioningRequest b)
        || b.state() != req.state())) {
      reobserve(req.key(), observe);
    }
  }

  /** @param key the informer's key: {@code namespace/name} for a LocalQueue, the name otherwise */
  public synchronized void remove(String kind, String key) {
    remove(kind, key, p -> { });
  }

  public synchronized void remove(String kind, String key, Consumer<Pod> observe) {
    KueueRecord gone = records.remove(kind + " " + key);
    if (gone instanceof KueueRecord.ProvisioningRequest req) {
      reobserve(req.key(), observe);
    }
  }

  /**
   * Hands {@code pod} to {@code observe} as the scheduler should see it: behind {@link ConsumeGate#GATE} while the
   * ProvisioningRequest it consumes is not provisioned (whatever the Kueue mode: the autoscaler's flow, not Kueue's).
   */
  public void observePod(Pod pod, Consumer<Pod> observe) {
    if (!anyConsuming && ConsumeGate.requestOf(pod) == null) { // most pods: no lock shared with admission
      observe.accept(pod);
      return;
    }
    observeConsuming(pod, observe);
  }

  private synchronized void observeConsuming(Pod pod, Consumer<Pod> observe) {
    String req = ConsumeGate.requestOf(pod);
    if (req == null || pod.isAssigned()) {
      consuming.remove(pod.key());
      observe.accept(pod);
      return;
    }
    consuming.put(pod.key(), pod);
    anyConsuming = true;
    observe.accept(ConsumeGate.apply(pod, requestState(req)));
  }

  public void podGone(String key) {
    if (anyConsuming) {
      synchronized (this) {
        consuming.remove(key);
      }
    }
  }

  private void reobserve(String requestKey, Consumer<Pod> observe) {
    ProvisioningState state = requestState(requestKey);
    for (Pod p : consuming.values()) {
      if (requestKey.equals(ConsumeGate.requestOf(p))) {
        observe.accept(ConsumeGate.apply(p, state));
      }
    }
  }

  private ProvisioningState requestState(String requestKey) {
    KueueRecord r = records.get("ProvisioningRequest " + requestKey);
    return r instanceof KueueRecord.ProvisioningRequest req ? req.state() : null;
  }

  /** @param job null when the Job at {@code key} names no LocalQueue (any more) */
  public synchronized void putJob(String key, KueueJob job) {
    if (job == null) {
      removeJob(key);
      return;
    }
    KueueJob before = jobs.put(key, job);
    if (before != null && before.uid() != null && !before.uid().equals(job.uid())) {
      check.gaveUp.remove(key); // a new Job of the same name
    }
    if (!job.suspended()) {
      inFlight.remove(key);
      check.waiting.remove(key);
    }
  }

  public synchronized void removeJob(String key) {
    jobs.remove(key);
    inFlight.remove(key);
    check.waiting.remove(key);
    check.gaveUp.remove(key);
  }

  /** Creating the ProvisioningRequest failed: the Job is admitted afresh at a later pass. */
  public synchronized void provisionFailed(NewRequest r) {
    check.waiting.remove(r.namespace() + "/" + r.ownerName());
  }

  /** The unsuspend call failed: the Job is pending again at the next pass. */
  public synchronized void failed(Unsuspend u) {
    inFlight.remove(u.key());
  }

  /** Whether any ClusterQueue or LocalQueue is known: admission has something to do. */
  public synchronized boolean hasQueues() {
    return records.values().stream().anyMatch(r -> r instanceof KueueRecord.ClusterQueue
        || r instanceof KueueRecord.LocalQueue);
  }

  /**
   * Admission now. Jobs running (unsuspended, unfinished) are charged to their ClusterQueue at the flavor their
   * template's node selector names (the first flavor when none matches); suspended ones, by WorkloadPriorityClass
   * value then age, are admitted while their ClusterQueue's quota holds them ({@code StrictFIFO}: a head that does
   * not fit blocks its queue). The Jobs returned count as running until the informer shows them unsuspended or
   * {@link #failed} is called.
   *
   * @param foreignQueue whether a queue of that name exists that is not Kueue's (a Volcano Queue): a ClusterQueue
   *     of the same name is then not made
   */
  public synchronized Plan plan(Predicate<String> foreignQueue) {
    return plan(foreignQueue, (j, selector, tolerations) -> true);
  }

  /**
   * As {@link #plan(Predicate)}; a Job whose ClusterQueue names Kueue's provisioning check and that {@code room}
   * says the cluster cannot hold gets a ProvisioningRequest ({@link Plan#provision}) and is unsuspended, consuming
   * it, once it is {@code Provisioned}; a failed, expired or revoked one is made again after the config's backoff,
   * at most {@code backoffLimitCount} more times.
   */
  public synchronized Plan plan(Predicate<String> foreignQueue, Room room) {
    Map<String, KueueRecord.Flavor> flavors = new LinkedHashMap<>();
    Map<String, KueueRecord.ClusterQueue> cqs = new LinkedHashMap<>();
    Map<String, KueueRecord.LocalQueue> lqs = new LinkedHashMap<>();
    Map<String, KueueRecord.Cohort> cohorts = new LinkedHashMap<>();
    Map<String, Integer> priorities = new HashMap<>();
    Map<String, KueueRecord.AdmissionCheck> checks = new HashMap<>();
    Map<String, KueueRecord.ProvisioningConfig> configs = new HashMap<>();
    List<String> warnings = new ArrayList<>();
    for (KueueRecord r : records.values()) {
      if (r instanceof KueueRecord.AdmissionCheck c) {
        checks.put(c.name(), c);
      } else if (r instanceof KueueRecord.ProvisioningConfig c) {
        configs.put(c.name(), c);
      }
      if (!r.unsupported().isEmpty()) {
        warnings.add("Kueue: " + r.display() + ": not supported, ignored: " + String.join(", ", r.unsupported()));
      }
      if (r instanceof KueueRecord.Flavor f) {
        flavors.put(f.name(), f);
      } else if (r instanceof KueueRecord.ClusterQueue q) {
        cqs.put(q.name(), q);
      } else if (r instanceof KueueRecord.LocalQueue q) {
        lqs.put(q.key(), q);
      } else if (r instanceof KueueRecord.Cohort c) {
        cohorts.put(c.name(), c);
      } else if (r instanceof KueueRecord.PriorityClass p) {
        priorities.put(p.name(), p.value());
      }
    }
    Set<String> existing = new HashSet<>();
    cqs.keySet().stream().filter(foreignQueue).forEach(existing::add);
    cohorts.keySet().stream().filter(foreignQueue).forEach(existing::add);
    cqs.values().stream().map(KueueRecord.ClusterQueue::cohort).filter(c -> c != null && foreignQueue.test(c))
        .forEach(existing::add);
    List<Queue> queues = KueueQueues.of(cqs, cohorts, existing, warnings);

    Quotas quotas = new Quotas(cqs, cohorts);
    List<KueueJob> pending = new ArrayList<>();
    List<KueueJob> waiting = new ArrayList<>();
    for (KueueJob j : jobs.values()) {
      KueueRecord.ClusterQueue cq = clusterQueueOf(j, lqs, cqs);
      Unsuspend started = inFlight.get(j.key());
      if (cq == null || j.finished()) {
        continue;
      }
      ProvisioningCheck.Waiting waits = check.waiting.get(j.key());
      if (check.gaveUp.containsKey(j.key())) {
        warnings.add("Kueue: Job " + j.key() + " stays suspended: " + check.gaveUp.get(j.key()));
      } else if (waits != null && j.suspended()) {
        FlavorChoice.charge(quotas, cq, j.request(), chosen(cq, waits.admitted.flavors()));
        waiting.add(j);
      } else if (started != null) {
        FlavorChoice.charge(quotas, cq, j.request(), chosen(cq, started.flavors()));
      } else if (!j.suspended()) {
        FlavorChoice.charge(quotas, cq, j.request(), runningFlavors(cq, j, flavors));
      } else {
        pending.add(j);
      }
    }
    pending.sort(Comparator.comparingInt((KueueJob j) -> priority(j, priorities)).reversed()
        .thenComparing(KueueJob::created, Comparator.nullsLast(Comparator.naturalOrder()))
        .thenComparing(KueueJob::key));
    List<Unsuspend> out = new ArrayList<>();
    List<NewRequest> provision = new ArrayList<>();
    for (KueueJob j : waiting) {
      check.provisioned(j, check.waiting.get(j.key()), records, inFlight, out, provision, warnings);
    }
    Set<String> blocked = new HashSet<>();
    for (KueueJob j : pending) {
      KueueRecord.LocalQueue lq = lqs.get(j.namespace() + "/" + j.localQueue());
      KueueRecord.ClusterQueue cq = clusterQueueOf(j, lqs, cqs);
      if (lq.stopped() || cq.stopped() || blocked.contains(cq.name())) {
        continue;
      }
      String unrun = ProvisioningCheck.problem(cq, checks, configs);
      if (unrun != null) { // Kueue would wait for each check: never admit without it
        warnings.add("Kueue: Job " + j.key() + " stays suspended: " + unrun);
        continue;
      }
      FlavorChoice.Assignment a = FlavorChoice.assign(quotas, cq, j.request(), f -> misfit(flavors.get(f), f, j));
      if (a.reason() != null) {
        warnings.add("Kueue: Job " + j.key() + " stays suspended: " + a.reason());
        if (cq.strictFifo()) {
          blocked.add(cq.name());
        }
        continue;
      }
      FlavorChoice.charge(quotas, cq, j.request(), a.flavors());
      Map<String, String> selector = new LinkedHashMap<>();
      List<Toleration> tolerations = new ArrayList<>(j.tolerations());
      List<String> names = new ArrayList<>();
      for (KueueRecord.FlavorQuotas fq : a.flavors()) {
        names.add(fq == null ? null : fq.flavor());
        KueueRecord.Flavor f = fq == null ? null : flavors.get(fq.flavor());
        if (f != null) {
          f.nodeLabels().forEach(selector::putIfAbsent);
          f.tolerations().stream().filter(t -> !tolerations.contains(t) && !j.tolerations().contains(t))
              .forEach(tolerations::add);
        }
      }
      Unsuspend u = new Unsuspend(j.namespace(), j.name(), cq.name(), selector,
          tolerations.size() == j.tolerations().size() ? List.of() : tolerations, names);
      if (!cq.admissionChecks().isEmpty()) {
        String checkName = cq.admissionChecks().get(0);
        KueueRecord.ProvisioningConfig config = configs.get(checks.get(checkName).config());
        if (ProvisioningCheck.needsNodes(config, j) && !room.holds(j, selector, tolerations)) {
          ProvisioningCheck.Waiting waits = new ProvisioningCheck.Waiting(checkName, config, u);
          check.waiting.put(j.key(), waits);
          provision.add(ProvisioningCheck.newRequest(j, waits));
          warnings.add("Kueue: Job " + j.key() + " admitted by quota in " + cq.display() + " waits for "
              + "ProvisioningRequest " + j.namespace() + "/" + waits.requestName(j) + " (class "
              + config.provisioningClassName() + "): the cluster cannot hold its " + j.pods() + " pods now");
          continue;
        }
      }
      inFlight.put(j.key(), u);
      out.add(u);
    }
    return new Plan(queues, out, warnings, provision, statuses(cqs, lqs, flavors));
  }

  /**
   * The ClusterQueues' and LocalQueues' status after this pass: Jobs started (here or earlier) admitted, Jobs
   * waiting for a ProvisioningRequest reserving, other suspended ones pending.
   */
  private List<QueueStatus> statuses(Map<String, KueueRecord.ClusterQueue> cqs,
      Map<String, KueueRecord.LocalQueue> lqs, Map<String, KueueRecord.Flavor> flavors) {
    QueueStatus.Tally tally = new QueueStatus.Tally();
    for (KueueJob j : jobs.values()) {
      KueueRecord.LocalQueue lq = lqs.get(j.namespace() + "/" + j.localQueue());
      KueueRecord.ClusterQueue cq = lq == null ? null : cqs.get(lq.clusterQueue());
      if (cq == null || j.finished() || check.gaveUp.containsKey(j.key())) {
        continue;
      }
      Unsuspend started = inFlight.get(j.key());
      ProvisioningCheck.Waiting waits = check.waiting.get(j.key());
      if (started != null) {
        tally.add(cq, lq, 2, j.request(), chosen(cq, started.flavors()));
      } else if (!j.suspended()) {
        tally.add(cq, lq, 2, j.request(), runningFlavors(cq, j, flavors));
      } else if (waits != null) {
        tally.add(cq, lq, 1, j.request(), chosen(cq, waits.admitted.flavors()));
      } else {
        tally.add(cq, lq, 0, j.request(), List.of());
      }
    }
    return tally.statuses(cqs, lqs);
  }

  private static KueueRecord.ClusterQueue clusterQueueOf(KueueJob j, Map<String, KueueRecord.LocalQueue> lqs,
      Map<String, KueueRecord.ClusterQueue> cqs) {
    KueueRecord.LocalQueue lq = lqs.get(j.namespace() + "/" + j.localQueue());
    return lq == null ? null : cqs.get(lq.clusterQueue());
  }

  private static int priority(KueueJob j, Map<String, Integer> priorities) {
    return j.priorityClass() == null ? 0 : priorities.getOrDefault(j.priorityClass(), 0);
  }

  /** The flavors named, per resource group of {@code cq}. */
  private static List<KueueRecord.FlavorQuotas> chosen(KueueRecord.ClusterQueue cq, List<String> names) {
    List<KueueRecord.FlavorQuotas> out = new ArrayList<>();
    for (int i = 0; i < cq.resourceGroups().size(); i++) {
      String name = i < names.size() ? names.get(i) : null;
      out.add(cq.resourceGroups().get(i).flavors().stream().filter(f -> f.flavor().equals(name)).findFirst()
          .orElse(null));
    }
    return out;
  }

  /** Per group, the first flavor whose node labels the Job's template selects; the group's first flavor else. */
  private static List<KueueRecord.FlavorQuotas> runningFlavors(KueueRecord.ClusterQueue cq, KueueJob j,
      Map<String, KueueRecord.Flavor> flavors) {
    List<KueueRecord.FlavorQuotas> out = new ArrayList<>();
    for (KueueRecord.ResourceGroup g : cq.resourceGroups()) {
      KueueRecord.FlavorQuotas pick = g.flavors().isEmpty() ? null : g.flavors().get(0);
      for (KueueRecord.FlavorQuotas f : g.flavors()) {
        KueueRecord.Flavor flavor = flavors.get(f.flavor());
        if (flavor != null && !flavor.nodeLabels().isEmpty() && flavor.nodeLabels().entrySet().stream()
            .allMatch(l -> l.getValue().equals(j.nodeSelector().get(l.getKey())))) {
          pick = f;
          break;
        }
      }
      out.add(pick);
    }
    return out;
  }

  private static String misfit(KueueRecord.Flavor f, String name, KueueJob j) {
    if (f == null) {
      return "ResourceFlavor " + name + " does not exist";
    }
    for (Map.Entry<String, String> l : f.nodeLabels().entrySet()) {
      String own = j.nodeSelector().get(l.getKey());
      if (own != null && !own.equals(l.getValue())) {
        return "Job " + j.key() + " selects " + l.getKey() + "=" + own + ", the flavor's nodes are " + l.getValue();
      }
    }
    for (Taint t : f.nodeTaints()) {
      if (t.blocksScheduling() && j.tolerations().stream().noneMatch(x -> x.tolerates(t))
          && f.tolerations().stream().noneMatch(x -> x.tolerates(t))) {
        return "Job " + j.key() + " does not tolerate the flavor's taint " + t;
      }
    }
    return null;
  }

  private static String key(KueueRecord r) {
    String kind;
    if (r instanceof KueueRecord.Flavor) {
      kind = "ResourceFlavor";
    } else if (r instanceof KueueRecord.ClusterQueue) {
      kind = "ClusterQueue";
    } else if (r instanceof KueueRecord.LocalQueue q) {
      return "LocalQueue " + q.key();
    } else if (r instanceof KueueRecord.Cohort) {
      kind = "Cohort";
    } else if (r instanceof KueueRecord.PriorityClass) {
      kind = "WorkloadPriorityClass";
    } else if (r instanceof KueueRecord.AdmissionCheck) {
      kind = "AdmissionCheck";
    } else if (r instanceof KueueRecord.ProvisioningConfig) {
      kind = "ProvisioningRequestConfig";
    } else if (r instanceof KueueRecord.ProvisioningRequest q) {
      return "ProvisioningRequest " + q.key();
    } else {
      kind = "Topology";
    }
    return kind + " " + r.name();
  }
}
