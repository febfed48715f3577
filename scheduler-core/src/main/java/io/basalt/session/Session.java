package io.basalt.session;

import io.basalt.dra.ClaimBinding;
import io.basalt.dra.ClaimLedger;
import io.basalt.api.ClusterSnapshot;
import io.basalt.api.ClusterTotals;
import io.basalt.api.JobInfo;
import io.basalt.api.JobsAtOpen;
import io.basalt.api.KeptTasks;
import io.basalt.api.NodeInfo;
import io.basalt.api.PodGroupPhase;
import io.basalt.api.QueueInfo;
import io.basalt.api.TaskInfo;
import io.basalt.config.SchedulerConf;
import io.basalt.fabric.Fabric;
import io.basalt.framework.ConfiguredPlugin;
import io.basalt.framework.Plugin;
import io.basalt.framework.SessionProfile;
import io.basalt.framework.SessionView;
import io.basalt.gpu.protocol.DeviceProtocols;
import io.basalt.model.PriorityClass;
import io.basalt.model.ResourceNames;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One scheduling cycle's state: jobs, nodes and queues built from a snapshot, the plugins serving it, and the
 * decisions taken so far. Actions change it only through {@link Statement}s and ask the plugins through
 * {@link #callbacks()}; {@link #close()} turns the decisions into a {@link SessionResult}. Plugins see it as a
 * read-only {@link SessionView}.
 */
public final class Session implements SessionView {
  private final SchedulerConf conf;
  private final ExplainRecorder explain;
  private final Callbacks callbacks;
  private final List<NodeInfo> nodes;
  private final Map<String, Integer> positions;
  private final NodeChanges nodeChanges;
  private final ClusterTotals totals;
  private final JobTable jobs;
  private JobsAtOpen jobsAtOpen;
  private final Map<String, QueueInfo> queues = new LinkedHashMap<>();
  private final Map<String, PriorityClass> priorityClasses;
  private final io.basalt.api.AssignedPods assignedPods;
  private final Map<String, Map<String, String>> namespaceLabels;
  private final io.basalt.model.ClusterVolumes volumes;
  private final Fabric fabric;
  private final DeviceProtocols deviceProtocol;
  private final Map<String, String> invalidJobs = new HashMap<>();
  private final List<Plugin> plugins = new ArrayList<>();
  private final List<TaskInfo> toBind = new ArrayList<>();
  private final List<SessionResult.Eviction> toEvict = new ArrayList<>();
  private final Map<Class<?>, Object> scratch = new HashMap<>();
  private long resourcesFreed;
  private long placements;
  private long[] futureIdle;
  private long futureIdleAt = -1;
  private Consumer<NodeInfo> nodeWatcher;
  /** Pending pods held back by scheduling gates: no tasks, reported as gated when the session closes. */
  private List<JobsBuilder.GatedPod> gated = List.of();
  /** DRA claims: null when the cluster states no DRA object, so pods without claims meet no check at all. */
  private final ClaimLedger claims;
  /** The claims each committed placement allocated or reserved, written when its pod binds. */
  private final Map<TaskInfo, ClaimLedger.Booking> claimBookings = new java.util.IdentityHashMap<>();

  private Session(SchedulerConf conf, ClusterSnapshot snapshot, ExplainRecorder explain) {
    this.conf = conf;
    this.explain = explain;
    this.callbacks = new Callbacks(explain);
    this.nodes = List.copyOf(snapshot.nodes());
    // Sized for the snapshot up front: a backlog's 50k jobs otherwise rehash the map a dozen times a cycle.
    this.jobs = new JobTable(snapshot.pods().size());
    this.positions = snapshot.positions();
    for (int i = 0; i < nodes.size(); i++) {
      nodes.get(i).joinSession(i);
    }
    this.nodeChanges = new NodeChanges(nodes);
    this.totals = snapshot.totals();
    this.priorityClasses = snapshot.priorityClasses();
    this.assignedPods = snapshot.assignedPods();
    this.namespaceLabels = snapshot.namespaceLabels();
    this.volumes = snapshot.volumes();
    this.fabric = snapshot.fabric();
    this.deviceProtocol = protocol(snapshot.deviceProtocol(), conf);
    this.claims = snapshot.dra().active() ? new ClaimLedger(snapshot.dra()) : null;
    callbacks.useClaims(claims);
  }

  /**
   * The snapshot's setting with the config's per-resource entries on top; a bad entry (validate rejects it) is
   * ignored rather than failing the cycle.
   */
  private static DeviceProtocols protocol(DeviceProtocols base, SchedulerConf conf) {
    try {
      return base.with(conf.configurations().getOrDefault(DeviceProtocols.CONFIGURATION, Map.of()));
    } catch (IllegalArgumentException e) {
      return base;
    }
  }

  /** How this session's bindings tell nodes their devices. */
  DeviceProtocols deviceProtocol() {
    return deviceProtocol;
  }

  /** Builds jobs and queues from {@code snapshot}, then lets every configured plugin register its callbacks. */
  public static Session open(ClusterSnapshot snapshot, SessionProfile profile, ExplainRecorder explain) {
    return open(snapshot, profile, explain, new KeptTasks());
  }

  /**
   * As {@link #open(ClusterSnapshot, SessionProfile, ExplainRecorder)}, reusing the task and lone-pod job objects
   * {@code kept} has from the previous session for pods that did not change; that session's objects are reset.
   */
  public static Session open(ClusterSnapshot snapshot, SessionProfile profile, ExplainRecorder explain,
      KeptTasks kept) {
    Session s = new Session(profile.conf(), snapshot, explain);
    JobsBuilder builder = new JobsBuilder(snapshot, s.queues, s.jobs, s.invalidJobs, s::node, kept);
    s.jobsAtOpen = builder.build();
    s.gated = builder.gated();
    if (s.claims != null) {
      s.claims.useQuota(s.deviceQuota());
    }
    QuotaCheck.reasons(snapshot, s.jobs.values(), s.invalidJobs);
    for (ConfiguredPlugin<?> entry : profile.plugins()) {
      Plugin plugin = entry.newInstance();
      s.plugins.add(plugin);
      plugin.onSessionOpen(s, s.callbacks.registrar(plugin.name(), entry.option(), entry.tier()));
    }
    s.callbacks.seal();
    return s;
  }

  /** The plugins' callbacks and the rules that combine their answers. */
  public Callbacks callbacks() {
    return callbacks;
  }

  /**
   * Per-cycle scratch an action keeps for this session (a node search's memo), made on first use and dropped with
   * the session. The session never reads it: the class that asks owns what is inside.
   */
  public <T> T scratch(Class<T> type, Supplier<T> make) {
    return type.cast(scratch.computeIfAbsent(type, k -> make.get()));
  }

  // ---- state ----

  public Statement newStatement() {
    return new Statement(this);
  }

  @Override
  public List<JobInfo> jobs() {
    return jobs.values();
  }

  @Override
  public JobsAtOpen jobsAtOpen() {
    return jobsAtOpen;
  }

  @Override
  public JobInfo job(String key) {
    return jobs.get(key);
  }

  @Override
  public Collection<QueueInfo> queues() {
    return Collections.unmodifiableCollection(queues.values());
  }

  @Override
  public QueueInfo queue(String name) {
    return queues.get(name);
  }

  @Override
  public long[] clusterAllocatable() {
    return totals.allocatable(ResourceNames.count());
  }

  /** The snapshot's sums, which the cache keeps as nodes change: no pass over the nodes per plugin. */
  @Override
  public ClusterTotals totalsAtOpen() {
    return totals;
  }

  /** The network domains over the nodes; {@link Fabric#EMPTY} when the cluster declares none. */
  @Override
  public Fabric fabric() {
    return fabric;
  }

  @Override
  public List<NodeInfo> nodes() {
    return nodes;
  }

  /** Every change made to {@link #nodes()} this session, in order, for readers that keep answers worked out from them. */
  public NodeChanges nodeChanges() {
    return nodeChanges;
  }

  /**
   * A statement (or the session) changed {@code node}; {@code freed} when it gave something back. The one place every
   * change to a node's accounting passes: the change log and the watchers hear of it here.
   */
  void changed(NodeInfo node, boolean freed) {
    nodeChanges.record(node, freed);
    if (nodeWatcher != null) {
      nodeWatcher.accept(node);
    }
  }

  @Override
  public NodeInfo node(String name) {
    Integer at = name == null ? null : positions.get(name);
    return at == null ? null : nodes.get(at);
  }

  /**
   * Tasks on {@code node}: running, releasing, and placed this session. A walk over every job: the actions keep their
   * own indexes (a map kept per node for this cost 8% of a backlog's cycle), so this is for tests and tools.
   */
  public List<TaskInfo> tasksOn(String node) {
    List<TaskInfo> out = new ArrayList<>();
    for (JobInfo job : jobs.values()) {
      for (TaskInfo t : job.tasks()) {
        if (node.equals(t.nodeName())) {
          out.add(t);
        }
      }
    }
    return Collections.unmodifiableList(out);
  }

  @Override
  public List<io.basalt.model.Pod> podsOn(NodeInfo node) {
    return assignedPods.on(node.name());
  }

  @Override
  public io.basalt.api.AssignedPods assignedPods() {
    return assignedPods;
  }

  @Override
  public io.basalt.model.ClusterVolumes volumes() {
    return volumes;
  }

  @Override
  public Map<String, String> namespaceLabels(String namespace) {
    Map<String, String> labels = namespaceLabels.get(namespace);
    return labels != null ? labels : io.basalt.model.Namespace.implicitLabels(namespace);
  }

  @Override
  public Map<String, PriorityClass> priorityClasses() {
    return priorityClasses;
  }

  @Override
  public boolean[] deviceManagedResources() {
    return callbacks.deviceManagedResources();
  }

  @Override
  public String jobInvalidReason(JobInfo job) {
    String r = invalidJobs.get(job.key());
    return r != null ? r : callbacks.jobInvalidReason(job);
  }

  public SchedulerConf conf() {
    return conf;
  }

  public ExplainRecorder explain() {
    return explain;
  }

  // ---- changes ----

  /** Admits a Pending job: it becomes Inqueue and admission plugins count it. */
  public void enqueue(JobInfo job) {
    job.setPhase(PodGroupPhase.INQUEUE);
    callbacks.jobEnqueued(job);
  }

  public void rejectEnqueue(JobInfo job, String reason) {
    job.rejectEnqueue(reason);
  }

  /** Gives up a task's nomination at once (its node can no longer take it), freeing what was held there. */
  public void dropReservation(TaskInfo task) {
    NodeInfo held = task.reservation();
    if (held != null) {
      held.adjustPipelined(task.request(), -1);
      changed(held, true);
      task.reserve(null);
      resourcesFreed++;
    }
  }

  /**
   * Tells {@code watcher} of every later change to a node's accounting in this session (a statement's placement,
   * eviction or undo, a dropped reservation), so what an action keeps summed over nodes (each network domain's free
   * room) follows the nodes without reading them all again.
   */
  public void watchNodes(Consumer<NodeInfo> watcher) {
    nodeWatcher = nodeWatcher == null ? watcher : nodeWatcher.andThen(watcher);
  }

  /**
   * How many times resources were given back this session (a discarded statement, an eviction, a dropped
   * reservation). A node search's "0/N nodes are available" message for a shape holds only while this count stays
   * the same (the answer itself is checked against the nodes that changed, see {@link NodeChanges}).
   */
  public long resourcesFreed() {
    return resourcesFreed;
  }

  void freed() {
    resourcesFreed++;
  }

  /**
   * What the whole cluster will have free once releasing pods are gone, per resource: tells "the cluster has no room"
   * from "the queue is at its share". Summed over the nodes only when something changed since the last call.
   */
  public long[] clusterFutureIdle() {
    long version = resourcesFreed + placements;
    if (futureIdle == null || futureIdleAt != version) {
      long[] total = new long[ResourceNames.count()];
      for (NodeInfo n : nodes) {
        for (int r = 0; r < total.length; r++) {
          total[r] += Math.max(0, n.futureIdle(r));
        }
      }
      futureIdle = total;
      futureIdleAt = version;
    }
    return futureIdle.clone();
  }

  List<JobsBuilder.GatedPod> gated() {
    return gated;
  }

  void onPlaced(TaskInfo task) {
    placements++;
    callbacks.allocated(task);
  }

  void onUnplaced(TaskInfo task) {
    callbacks.deallocated(task);
  }

  void recordBinding(TaskInfo task) {
    toBind.add(task);
  }

  /** Queue caps on DRA devices with what the queues' pods hold at open; null when no queue caps a DeviceClass. */
  private io.basalt.dra.DeviceQuota deviceQuota() {
    List<io.basalt.model.Queue> models = new java.util.ArrayList<>();
    queues.values().forEach(q -> models.add(q.queue()));
    Map<String, String> queueOfPod = new java.util.HashMap<>();
    return io.basalt.dra.DeviceQuota.open(models, claims.state(), uid -> {
      if (queueOfPod.isEmpty()) {
        for (JobInfo j : jobs.values()) {
          j.tasks().forEach(t -> queueOfPod.put(t.uid(), j.queue()));
        }
      }
      return queueOfPod.get(uid);
    });
  }

  /** Books {@code task}'s DRA claims on {@code node} ({@link ClaimLedger#allocate}); NONE for a pod without claims. */
  ClaimLedger.Booking bookClaims(TaskInfo task, NodeInfo node) {
    if (claims == null || !task.pod().constraints().hasResourceClaims()) {
      return ClaimLedger.Booking.NONE;
    }
    return claims.allocate(task.pod(), ClaimCheck.queueOf(task), node.node(), node.gpus());
  }

  void unbookClaims(ClaimLedger.Booking booking) {
    if (booking != ClaimLedger.Booking.NONE) {
      claims.undo(booking);
    }
  }

  /** {@code task} binds with the claims {@code booking} holds. */
  void recordBinding(TaskInfo task, ClaimLedger.Booking booking) {
    toBind.add(task);
    if (booking != ClaimLedger.Booking.NONE) {
      claimBookings.put(task, booking);
    }
  }

  /** The claims to write before {@code task}'s pod binds. */
  List<ClaimBinding> claimsBound(TaskInfo task) {
    ClaimLedger.Booking b = claimBookings.get(task);
    return b == null ? List.of() : b.claims();
  }

  void recordEviction(TaskInfo task, String reason) {
    toEvict.add(new SessionResult.Eviction(task.pod(), reason));
  }

  /** Runs plugins' close hooks and turns the session's decisions into bindings, evictions and statuses. */
  public SessionResult close() {
    for (Plugin p : plugins) {
      p.onSessionClose(this);
    }
    return SessionOutcome.of(this, toBind, toEvict);
  }
}
