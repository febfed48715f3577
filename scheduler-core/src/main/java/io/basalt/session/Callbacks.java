package io.basalt.session;

import io.basalt.dra.ClaimLedger;
import io.basalt.api.JobInfo;
import io.basalt.api.NodeInfo;
import io.basalt.api.QueueInfo;
import io.basalt.api.TaskInfo;
import io.basalt.config.PluginOption;
import io.basalt.framework.AllocationListener;
import io.basalt.framework.DeviceChooser;
import io.basalt.framework.DomainScorer;
import io.basalt.framework.FilterResult;
import io.basalt.framework.JobValidator;
import io.basalt.framework.NodeScorer;
import io.basalt.framework.NormalizingScorer;
import io.basalt.framework.PodSigner;
import io.basalt.framework.PreparedFilter;
import io.basalt.framework.Registrar;
import io.basalt.framework.TaskFilter;
import io.basalt.framework.VictimSelector;
import io.basalt.framework.Vote;
import io.basalt.gpu.DeviceClaim;
import io.basalt.model.ResourceNames;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The callbacks the session's plugins registered, in tier order, and the one place that combines their answers,
 * exactly as Volcano does ({@link TierRules}): orders take the first non-zero answer (then creation time, then
 * name); filters, job readiness, job validity, allocatable and preemptive must all pass; scores are summed; overused
 * is true when any plugin says so; votes are reject-wins, first-permitting-tier-decides, all-abstain-falls-through.
 * Victims are the one deliberate difference (see {@link #preemptable}). Actions ask here; plugins register through
 * {@link Registrar}.
 */
public final class Callbacks {
  /** One registration: which plugin, in which tier. */
  record Entry<F>(String plugin, int tier, F fn) {}

  private final ExplainRecorder explain;
  private final DeviceGuard devices = new DeviceGuard();
  /** DRA claims, honoured whatever the tiers say; null when the cluster states no DRA object. */
  private ClaimLedger claims;
  final List<Entry<Comparator<JobInfo>>> jobOrder = new ArrayList<>();
  final List<Entry<Comparator<TaskInfo>>> taskOrder = new ArrayList<>();
  final List<Entry<Comparator<QueueInfo>>> queueOrder = new ArrayList<>();
  final List<Entry<TaskFilter>> filters = new ArrayList<>();
  final List<Entry<NodeScorer>> scorers = new ArrayList<>();
  final List<Entry<Predicate<JobInfo>>> jobReady = new ArrayList<>();
  final List<Entry<Function<JobInfo, Vote>>> jobPipelined = new ArrayList<>();
  final List<Entry<Function<JobInfo, Vote>>> jobEnqueueable = new ArrayList<>();
  final List<Entry<Consumer<JobInfo>>> jobEnqueued = new ArrayList<>();
  final List<Entry<JobValidator>> jobValid = new ArrayList<>();
  final List<Entry<BiPredicate<QueueInfo, TaskInfo>>> allocatable = new ArrayList<>();
  final List<Entry<Predicate<QueueInfo>>> overused = new ArrayList<>();
  final List<Entry<AllocationListener>> listeners = new ArrayList<>();
  final List<Entry<VictimSelector>> preemptable = new ArrayList<>();
  final List<Entry<VictimSelector>> reclaimable = new ArrayList<>();
  final List<Entry<BiPredicate<QueueInfo, TaskInfo>>> preemptive = new ArrayList<>();
  final List<Entry<DeviceChooser>> deviceChoosers = new ArrayList<>();
  final List<Entry<DomainScorer>> domainScorers = new ArrayList<>();
  final List<Entry<Predicate<QueueInfo>>> reclaimFrom = new ArrayList<>();
  private boolean[] deviceManaged;
  private TaskFilter[] filterFns = new TaskFilter[0];
  private NodeScorer[] scorerFns = new NodeScorer[0];
  private String[] scorerNames = new String[0];
  private List<TaskFilter> filterChain = List.of();
  private List<NodeScorer> scorerList = List.of();
  private List<NormalizingScorer> normalizingList = List.of();
  private List<String> normalizingPlugins = List.of();
  private final Comparator<JobInfo> jobComparator = this::compareJobs;
  private final Comparator<TaskInfo> taskComparator = this::compareTasks;
  private final Comparator<QueueInfo> queueComparator = this::compareQueues;

  Callbacks(ExplainRecorder explain) {
    this.explain = explain;
  }

  /** The registrar for one plugin entry: its registrations take effect as the entry's enable flags allow. */
  Registrar registrar(String plugin, PluginOption option, int tier) {
    return new TierRegistrar(this, plugin, option, tier);
  }

  /** Called once every plugin registered: the hot-path callbacks become plain arrays. */
  void seal() {
    devices.open();
    filterFns = filters.stream().map(Entry::fn).toArray(TaskFilter[]::new);
    // A normalizing scorer's raw score means nothing on its own: only the node search, which has the candidates to
    // normalize over, adds it.
    scorerFns = scorers.stream().map(Entry::fn).filter(f -> !(f instanceof NormalizingScorer))
        .toArray(NodeScorer[]::new);
    scorerNames = scorers.stream().filter(e -> !(e.fn() instanceof NormalizingScorer)).map(Entry::plugin)
        .toArray(String[]::new);
    normalizingList = scorers.stream().filter(e -> e.fn() instanceof NormalizingScorer)
        .map(e -> (NormalizingScorer) e.fn()).toList();
    normalizingPlugins = scorers.stream().filter(e -> e.fn() instanceof NormalizingScorer).map(Entry::plugin)
        .toList();
    List<TaskFilter> chain = new ArrayList<>(List.of(filterFns));
    chain.add(new DeviceCheck(devices));
    if (claims != null) {
      chain.add(new ClaimCheck(claims));
    }
    filterChain = List.copyOf(chain);
    scorerList = List.of(scorerFns);
  }

  // ---- combined answers ----

  public Comparator<JobInfo> jobOrder() {
    return jobComparator;
  }

  /** The same order for sorting many jobs: each keyed order's key taken once per job (see {@link JobSortKeys}). */
  public JobSortKeys jobSortKeys() {
    return new JobSortKeys(jobOrder);
  }

  public Comparator<TaskInfo> taskOrder() {
    return taskComparator;
  }

  public Comparator<QueueInfo> queueOrder() {
    return queueComparator;
  }

  /** All filters must pass, then the engine's own device check ({@link DeviceGuard}); returns the first failure. */
  public FilterResult filter(TaskInfo task, NodeInfo node) {
    for (TaskFilter f : filterFns) {
      FilterResult r = f.filter(task, node);
      if (!r.ok()) {
        return r;
      }
    }
    FilterResult r = devices.check(task, node);
    return !r.ok() || claims == null ? r : ClaimCheck.check(claims, task, node);
  }

  /** The session's DRA claims, checked after the device check ({@link ClaimCheck}); null for none. */
  void useClaims(ClaimLedger ledger) {
    this.claims = ledger;
  }

  /**
   * Whether reclaim may still take from {@code queue}: every queue-share plugin agrees it holds more than its
   * deserved share (Volcano's proportion rule); true when none is registered.
   */
  public boolean mayReclaimFrom(QueueInfo queue) {
    for (Entry<Predicate<QueueInfo>> e : reclaimFrom) {
      if (!e.fn().test(queue)) {
        return false;
      }
    }
    return true;
  }

  /** Whether a plugin turned topology-aware placement on (by ranking domains). */
  public boolean topologyAware() {
    return !domainScorers.isEmpty();
  }

  /** Sum of every domain scorer for placing {@code job} in {@code domain}. */
  public double scoreDomain(JobInfo job, String domain) {
    double total = 0;
    for (Entry<DomainScorer> e : domainScorers) {
      total += e.fn().score(job, domain);
    }
    return total;
  }

  /**
   * Sum of every per-node scorer; recorded per plugin when explaining. {@link NormalizingScorer}s are left out: their
   * scores exist only across a search's candidates ({@link #normalizingScorers}).
   */
  public double score(TaskInfo task, NodeInfo node) {
    double total = 0;
    boolean record = explain.enabled();
    for (int i = 0; i < scorerFns.length; i++) {
      double s = scorerFns[i].score(task, node);
      if (record) {
        explain.scored(task, node, scorerNames[i], s);
      }
      total += s;
    }
    return total;
  }

  /**
   * The filters in tier order, then the engine's device check, each as a {@link TaskFilter}: what {@link #filter}
   * asks, in its order, for the node search to prepare per task and to key.
   */
  public List<TaskFilter> filterChain() {
    return filterChain;
  }

  /** The per-node scorers in tier order: what {@link #score} sums, for the node search. */
  public List<NodeScorer> scorers() {
    return scorerList;
  }

  /** The normalizing scorers in tier order, which the node search adds over the feasible nodes it found. */
  public List<NormalizingScorer> normalizingScorers() {
    return normalizingList;
  }

  /** The plugin that registered each of {@link #normalizingScorers}, for {@code --explain}. */
  public List<String> normalizingPlugins() {
    return normalizingPlugins;
  }

  public boolean hasScorers() {
    return scorerFns.length > 0 || !normalizingList.isEmpty();
  }

  /** Every job-ready callback must agree (with none registered, any job is ready). */
  public boolean jobReady(JobInfo job) {
    return TierRules.all(jobReady, job);
  }

  public boolean jobPipelined(JobInfo job) {
    return !TierRules.vote(jobPipelined, job).isReject();
  }

  /** The combined enqueue vote; a reject carries the plugin's reason. */
  public Vote jobEnqueueable(JobInfo job) {
    return TierRules.vote(jobEnqueueable, job);
  }

  /** The first plugin's reason why {@code job} can never be scheduled as it is, or null. */
  String jobInvalidReason(JobInfo job) {
    for (Entry<JobValidator> e : jobValid) {
      String r = e.fn().invalidReason(job);
      if (r != null) {
        return r;
      }
    }
    return null;
  }

  /**
   * Which candidates may be evicted for {@code preemptor} within its queue, decided by tiers as Volcano decides (see
   * {@link #victims}); empty when no plugin answered. The queue-share rule of reclaim is not left to the tiers: the
   * reclaim action asks {@link #mayReclaimFrom} itself before each victim.
   */
  public List<TaskInfo> preemptable(TaskInfo preemptor, List<TaskInfo> candidates) {
    return TierRules.victims(preemptable, preemptor, candidates);
  }

  /** Which candidates (of other queues) may be evicted for {@code reclaimer}; as {@link #preemptable}. */
  public List<TaskInfo> reclaimable(TaskInfo reclaimer, List<TaskInfo> candidates) {
    return TierRules.victims(reclaimable, reclaimer, candidates);
  }

  /** Every preemptive callback must agree (none registered: yes). */
  public boolean preemptive(QueueInfo queue, TaskInfo task) {
    return TierRules.all(preemptive, queue, task);
  }

  public boolean allocatable(QueueInfo queue, TaskInfo task) {
    return TierRules.all(allocatable, queue, task);
  }

  public boolean overused(QueueInfo queue) {
    for (Entry<Predicate<QueueInfo>> e : overused) {
      if (e.fn().test(queue)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The GPUs {@code task} gets on {@code node}, or null when no plugin picks devices. A share a plugin chooses is
   * booked at its device plugin's size and skipped when its device cannot take that ({@link DeviceGuard#settle}).
   */
  public DeviceClaim chooseDevices(TaskInfo task, NodeInfo node) {
    for (Entry<DeviceChooser> e : deviceChoosers) {
      DeviceClaim d = devices.settle(task, node, e.fn().choose(task, node));
      if (d != null) {
        return d;
      }
    }
    return null;
  }

  /**
   * The devices the session books for {@code task} on {@code node} when no plugin chose any (see
   * {@link DeviceGuard#fallback}); {@link DeviceClaim#NONE} when it asks for none.
   */
  DeviceClaim fallbackDevices(TaskInfo task, NodeInfo node) {
    return devices.fallback(task, node);
  }

  /** Slots the node-level fit skips (see {@link Registrar#addDeviceResources}); null when none. */
  public boolean[] deviceManagedResources() {
    return deviceManaged;
  }

  // ---- notifications from the session ----

  void jobEnqueued(JobInfo job) {
    for (Entry<Consumer<JobInfo>> e : jobEnqueued) {
      e.fn().accept(job);
    }
  }

  void allocated(TaskInfo task) {
    for (Entry<AllocationListener> e : listeners) {
      e.fn().onAllocate(task);
    }
  }

  void deallocated(TaskInfo task) {
    for (Entry<AllocationListener> e : listeners) {
      e.fn().onDeallocate(task);
    }
  }

  // ---- combination rules ----

  private int compareJobs(JobInfo a, JobInfo b) {
    int c = TierRules.compare(jobOrder, a, b);
    return c != 0 ? c : compareJobTies(a, b);
  }

  private static int compareJobTies(JobInfo a, JobInfo b) {
    int c = TierRules.compareTimes(a.creationTimestamp(), b.creationTimestamp());
    return c != 0 ? c : a.key().compareTo(b.key());
  }

  private int compareTasks(TaskInfo a, TaskInfo b) {
    int c = TierRules.compare(taskOrder, a, b);
    if (c != 0) {
      return c;
    }
    c = TierRules.compareTimes(a.pod().creationTimestamp(), b.pod().creationTimestamp());
    return c != 0 ? c : a.key().compareTo(b.key());
  }

  private int compareQueues(QueueInfo a, QueueInfo b) {
    int c = TierRules.compare(queueOrder, a, b);
    return c != 0 ? c : a.name().compareTo(b.name());
  }

  void markDeviceManaged(Collection<String> names) {
    if (deviceManaged == null) {
      deviceManaged = new boolean[ResourceNames.count()];
    }
    for (String n : names) {
      int slot = ResourceNames.indexIfKnown(n);
      if (slot >= 0 && slot < deviceManaged.length) {
        deviceManaged[slot] = true;
      }
    }
  }

  /** The engine's device check as the last filter of {@link #filterChain}. */
  private static final class DeviceCheck implements PreparedFilter, PodSigner {
    private final DeviceGuard devices;

    DeviceCheck(DeviceGuard devices) {
      this.devices = devices;
    }

    @Override
    public FilterResult filter(TaskInfo task, NodeInfo node) {
      return devices.check(task, node);
    }

    @Override
    public Function<NodeInfo, FilterResult> forTask(TaskInfo task) {
      return devices.forTask(task);
    }

    @Override
    public Object sign(TaskInfo task) {
      return devices.taskKey(task);
    }
  }
}
