package io.basalt.session;

import io.basalt.api.ClusterSnapshot;
import io.basalt.api.JobInfo;
import io.basalt.api.NodeInfo;
import io.basalt.api.QueueInfo;
import io.basalt.api.TaskInfo;
import io.basalt.config.Hook;
import io.basalt.config.PluginOption;
import io.basalt.config.SchedulerConf;
import io.basalt.framework.AllocationListener;
import io.basalt.framework.ConfiguredPlugin;
import io.basalt.framework.DeviceChooser;
import io.basalt.framework.FilterResult;
import io.basalt.framework.JobValidator;
import io.basalt.framework.NodeScorer;
import io.basalt.framework.Plugin;
import io.basalt.framework.SessionProfile;
import io.basalt.framework.TaskFilter;
import io.basalt.framework.VictimSelector;
import io.basalt.framework.Vote;
import io.basalt.model.PriorityClass;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * One scheduling cycle's view of the cluster: jobs, nodes and queues built from a snapshot, the plugins of every
 * tier with their callbacks, and the decisions taken so far. Actions read it and change it only through
 * {@link Statement}s; {@link #close()} turns the decisions into a {@link SessionResult}.
 *
 * <p>This is the whole surface plugins and actions see (one registration method and one combined answer per kind of
 * callback), which is why it is longer than most classes; building jobs ({@code JobsBuilder}), the combination
 * rules ({@link Callbacks}) and the result ({@code SessionOutcome}) live elsewhere.
 */
public final class Session {
  private final SchedulerConf conf;
  private final ExplainRecorder explain;
  private final List<NodeInfo> nodes;
  private final Map<String, NodeInfo> nodesByName;
  private final Map<String, JobInfo> jobs = new LinkedHashMap<>();
  private final Map<String, QueueInfo> queues = new LinkedHashMap<>();
  private final Map<String, PriorityClass> priorityClasses;
  private final Map<String, List<TaskInfo>> tasksByNode = new HashMap<>();
  private final Map<String, String> invalidJobs = new HashMap<>();
  private final Map<String, String> enqueueRejections = new HashMap<>();
  private final Callbacks callbacks = new Callbacks();
  private final List<Plugin> plugins = new ArrayList<>();
  private final Map<Plugin, Registration> registrations = new IdentityHashMap<>();
  private final List<TaskInfo> toBind = new ArrayList<>();
  private final List<SessionResult.Eviction> toEvict = new ArrayList<>();
  private final Comparator<JobInfo> jobComparator = this::compareJobs;
  private final Comparator<TaskInfo> taskComparator = this::compareTasks;
  private final Comparator<QueueInfo> queueComparator = this::compareQueues;
  private TaskFilter[] filterFns = new TaskFilter[0];
  private NodeScorer[] scorerFns = new NodeScorer[0];
  private String[] scorerNames = new String[0];
  private int nextStartNode;
  private boolean[] deviceManaged;
  private final Map<Object, String> noFit = new HashMap<>();

  private record Registration(PluginOption option, int tier) {}

  private Session(SchedulerConf conf, ClusterSnapshot snapshot, ExplainRecorder explain) {
    this.conf = conf;
    this.explain = explain;
    this.nodes = List.copyOf(snapshot.nodes());
    this.nodesByName = new HashMap<>(nodes.size() * 2);
    for (NodeInfo n : nodes) {
      nodesByName.put(n.name(), n);
    }
    this.priorityClasses = snapshot.priorityClasses();
  }

  /** Builds jobs and queues from {@code snapshot}, then lets every configured plugin register its callbacks. */
  public static Session open(ClusterSnapshot snapshot, SessionProfile profile, ExplainRecorder explain) {
    Session s = new Session(profile.conf(), snapshot, explain);
    new JobsBuilder(snapshot, s.queues, s.jobs, s.tasksByNode, s.invalidJobs, s.nodesByName).build();
    for (ConfiguredPlugin<?> entry : profile.plugins()) {
      Plugin plugin = entry.newInstance();
      s.registrations.put(plugin, new Registration(entry.option(), entry.tier()));
      s.plugins.add(plugin);
      plugin.onSessionOpen(s);
    }
    s.filterFns = s.callbacks.filters.stream().map(Callbacks.Entry::fn).toArray(TaskFilter[]::new);
    s.scorerFns = s.callbacks.scorers.stream().map(Callbacks.Entry::fn).toArray(NodeScorer[]::new);
    s.scorerNames = s.callbacks.scorers.stream().map(Callbacks.Entry::plugin).toArray(String[]::new);
    return s;
  }

  // ---- registration: plugins call these from onSessionOpen ----

  private <F> void register(Plugin plugin, Hook hook, List<Callbacks.Entry<F>> list, F fn) {
    Registration r = registrations.get(plugin);
    if (r == null) {
      throw new IllegalStateException(plugin.name() + " registers outside onSessionOpen");
    }
    if (hook == null || r.option().enabled(hook)) {
      list.add(new Callbacks.Entry<>(plugin.name(), r.tier(), fn));
    }
  }

  /** Whether the tier entry of {@code p} sets {@code enableHierarchy: true} (a mode, not a callback kind). */
  public boolean hierarchyEnabled(Plugin p) {
    Registration r = registrations.get(p);
    return r != null && r.option().enabled(Hook.HIERARCHY);
  }

  public void addJobOrder(Plugin p, Comparator<JobInfo> fn) {
    register(p, Hook.JOB_ORDER, callbacks.jobOrder, fn);
  }

  public void addTaskOrder(Plugin p, Comparator<TaskInfo> fn) {
    register(p, Hook.TASK_ORDER, callbacks.taskOrder, fn);
  }

  public void addQueueOrder(Plugin p, Comparator<QueueInfo> fn) {
    register(p, Hook.QUEUE_ORDER, callbacks.queueOrder, fn);
  }

  public void addFilter(Plugin p, TaskFilter fn) {
    register(p, Hook.PREDICATE, callbacks.filters, fn);
  }

  public void addScorer(Plugin p, NodeScorer fn) {
    register(p, Hook.NODE_ORDER, callbacks.scorers, fn);
  }

  /** Permit phase: is the job's gang complete enough to bind? */
  public void addJobReady(Plugin p, Predicate<JobInfo> fn) {
    register(p, Hook.JOB_READY, callbacks.jobReady, fn);
  }

  /** Permit phase: may a job that is not ready keep its reservations (placed plus pipelined tasks)? */
  public void addJobPipelined(Plugin p, Function<JobInfo, Vote> fn) {
    register(p, Hook.JOB_PIPELINED, callbacks.jobPipelined, fn);
  }

  public void addJobEnqueueable(Plugin p, Function<JobInfo, Vote> fn) {
    register(p, Hook.JOB_ENQUEUED, callbacks.jobEnqueueable, fn);
  }

  /** Told when a job is admitted, so admission plugins count it against later jobs. */
  public void addJobEnqueued(Plugin p, Consumer<JobInfo> fn) {
    register(p, Hook.JOB_ENQUEUED, callbacks.jobEnqueued, fn);
  }

  public void addJobValid(Plugin p, JobValidator fn) {
    register(p, null, callbacks.jobValid, fn);
  }

  public void addAllocatable(Plugin p, BiPredicate<QueueInfo, TaskInfo> fn) {
    register(p, Hook.ALLOCATABLE, callbacks.allocatable, fn);
  }

  public void addOverused(Plugin p, Predicate<QueueInfo> fn) {
    register(p, Hook.OVERUSED, callbacks.overused, fn);
  }

  public void addAllocationListener(Plugin p, AllocationListener listener) {
    register(p, null, callbacks.listeners, listener);
  }

  public void addPreemptable(Plugin p, VictimSelector fn) {
    register(p, Hook.PREEMPTABLE, callbacks.preemptable, fn);
  }

  public void addReclaimable(Plugin p, VictimSelector fn) {
    register(p, Hook.RECLAIMABLE, callbacks.reclaimable, fn);
  }

  /** May {@code queue} take resources back from other queues for this task (e.g. it stays within its share)? */
  public void addPreemptive(Plugin p, BiPredicate<QueueInfo, TaskInfo> fn) {
    register(p, Hook.PREEMPTIVE, callbacks.preemptive, fn);
  }

  /**
   * Resources a device plugin accounts per device (GPU shares, their compute and memory): the engine's node-level
   * fit leaves them to that plugin, since nodes often do not list them in their allocatable at all.
   */
  public void addDeviceResources(Plugin p, java.util.Collection<String> names) {
    register(p, null, callbacks.deviceResources, names);
    deviceManaged = new boolean[io.basalt.model.ResourceNames.count()];
    for (Callbacks.Entry<java.util.Collection<String>> e : callbacks.deviceResources) {
      for (String n : e.fn()) {
        int slot = io.basalt.model.ResourceNames.indexIfKnown(n);
        if (slot >= 0 && slot < deviceManaged.length) {
          deviceManaged[slot] = true;
        }
      }
    }
  }

  /** Slots the node-level fit skips (see {@link #addDeviceResources}); null when none. */
  public boolean[] deviceManagedResources() {
    return deviceManaged;
  }

  /** The plugin that picks exact GPUs; the first one registered decides. */
  public void addDeviceChooser(Plugin p, DeviceChooser fn) {
    register(p, null, callbacks.deviceChoosers, fn);
  }

  // ---- combined answers: actions call these ----

  public Comparator<JobInfo> jobOrder() {
    return jobComparator;
  }

  public Comparator<TaskInfo> taskOrder() {
    return taskComparator;
  }

  public Comparator<QueueInfo> queueOrder() {
    return queueComparator;
  }

  private int compareJobs(JobInfo a, JobInfo b) {
    int c = Callbacks.compare(callbacks.jobOrder, a, b);
    if (c != 0) {
      return c;
    }
    c = compareTimes(a.creationTimestamp(), b.creationTimestamp());
    return c != 0 ? c : a.key().compareTo(b.key());
  }

  private int compareTasks(TaskInfo a, TaskInfo b) {
    int c = Callbacks.compare(callbacks.taskOrder, a, b);
    if (c != 0) {
      return c;
    }
    c = compareTimes(a.pod().creationTimestamp(), b.pod().creationTimestamp());
    return c != 0 ? c : a.key().compareTo(b.key());
  }

  private int compareQueues(QueueInfo a, QueueInfo b) {
    int c = Callbacks.compare(callbacks.queueOrder, a, b);
    return c != 0 ? c : a.name().compareTo(b.name());
  }

  private static int compareTimes(java.time.Instant a, java.time.Instant b) {
    if (a == null || b == null) {
      return a == null ? (b == null ? 0 : 1) : -1;
    }
    return a.compareTo(b);
  }

  /** All filters must pass; returns the first failure. */
  public FilterResult filter(TaskInfo task, NodeInfo node) {
    for (TaskFilter f : filterFns) {
      FilterResult r = f.filter(task, node);
      if (!r.ok()) {
        return r;
      }
    }
    return FilterResult.OK;
  }

  public boolean hasFilters() {
    return filterFns.length > 0;
  }

  /** Sum of every scorer; recorded per plugin when explaining. */
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

  public boolean hasScorers() {
    return scorerFns.length > 0;
  }

  /** Every job-ready callback must agree (with none registered, any job is ready). */
  public boolean jobReady(JobInfo job) {
    for (Callbacks.Entry<Predicate<JobInfo>> e : callbacks.jobReady) {
      if (!e.fn().test(job)) {
        return false;
      }
    }
    return true;
  }

  public boolean jobPipelined(JobInfo job) {
    return !Callbacks.vote(callbacks.jobPipelined, job).isReject();
  }

  /** The combined enqueue vote; a reject carries the plugin's reason. */
  public Vote jobEnqueueable(JobInfo job) {
    return Callbacks.vote(callbacks.jobEnqueueable, job);
  }

  /** Why the job cannot be scheduled at all (missing PodGroup or queue, too few pods for its gang), or null. */
  public String jobInvalidReason(JobInfo job) {
    String r = invalidJobs.get(job.key());
    if (r != null) {
      return r;
    }
    for (Callbacks.Entry<JobValidator> e : callbacks.jobValid) {
      r = e.fn().invalidReason(job);
      if (r != null) {
        return r;
      }
    }
    return null;
  }

  /** Which candidates may be evicted for {@code preemptor} within its queue; empty when no plugin answered. */
  public List<TaskInfo> preemptable(TaskInfo preemptor, List<TaskInfo> candidates) {
    List<TaskInfo> v = Callbacks.victims(callbacks.preemptable, preemptor, candidates);
    return v == null ? List.of() : v;
  }

  /** Which candidates (of other queues) may be evicted for {@code reclaimer}; empty when no plugin answered. */
  public List<TaskInfo> reclaimable(TaskInfo reclaimer, List<TaskInfo> candidates) {
    List<TaskInfo> v = Callbacks.victims(callbacks.reclaimable, reclaimer, candidates);
    return v == null ? List.of() : v;
  }

  /** The GPUs {@code task} gets on {@code node}, or null when no plugin picks devices. */
  public io.basalt.gpu.DeviceClaim chooseDevices(TaskInfo task, NodeInfo node) {
    for (Callbacks.Entry<DeviceChooser> e : callbacks.deviceChoosers) {
      io.basalt.gpu.DeviceClaim d = e.fn().choose(task, node);
      if (d != null) {
        return d;
      }
    }
    return null;
  }

  /** Every preemptive callback must agree (none registered: yes). */
  public boolean preemptive(QueueInfo queue, TaskInfo task) {
    for (Callbacks.Entry<BiPredicate<QueueInfo, TaskInfo>> e : callbacks.preemptive) {
      if (!e.fn().test(queue, task)) {
        return false;
      }
    }
    return true;
  }

  public boolean allocatable(QueueInfo queue, TaskInfo task) {
    for (Callbacks.Entry<BiPredicate<QueueInfo, TaskInfo>> e : callbacks.allocatable) {
      if (!e.fn().test(queue, task)) {
        return false;
      }
    }
    return true;
  }

  public boolean overused(QueueInfo queue) {
    for (Callbacks.Entry<Predicate<QueueInfo>> e : callbacks.overused) {
      if (e.fn().test(queue)) {
        return true;
      }
    }
    return false;
  }

  /** Admits a Pending job: it becomes Inqueue and admission plugins count it. */
  public void enqueue(JobInfo job) {
    job.setPhase("Inqueue");
    for (Callbacks.Entry<Consumer<JobInfo>> e : callbacks.jobEnqueued) {
      e.fn().accept(job);
    }
  }

  public void rejectEnqueue(JobInfo job, String reason) {
    enqueueRejections.put(job.key(), reason);
  }

  // ---- state ----

  public Statement newStatement() {
    return new Statement(this);
  }

  public Collection<JobInfo> jobs() {
    return Collections.unmodifiableCollection(jobs.values());
  }

  public JobInfo job(String key) {
    return jobs.get(key);
  }

  public Collection<QueueInfo> queues() {
    return Collections.unmodifiableCollection(queues.values());
  }

  public QueueInfo queue(String name) {
    return queues.get(name);
  }

  /** What all nodes offer together, per resource slot (a fresh array). */
  public long[] clusterAllocatable() {
    long[] total = new long[io.basalt.model.ResourceNames.count()];
    for (NodeInfo n : nodes) {
      for (int r = 0; r < total.length; r++) {
        total[r] += n.allocatable(r);
      }
    }
    return total;
  }

  /** Nodes in a stable order; index positions are stable for the session. */
  public List<NodeInfo> nodes() {
    return nodes;
  }

  public NodeInfo node(String name) {
    return name == null ? null : nodesByName.get(name);
  }

  /** Tasks on {@code node}: running, releasing, and placed this session. */
  public List<TaskInfo> tasksOn(String node) {
    List<TaskInfo> r = tasksByNode.get(node);
    return r == null ? List.of() : Collections.unmodifiableList(r);
  }

  public Map<String, PriorityClass> priorityClasses() {
    return priorityClasses;
  }

  public SchedulerConf conf() {
    return conf;
  }

  public ExplainRecorder explain() {
    return explain;
  }

  /** Where a rotating node search starts, so successive tasks do not all probe the same nodes first. */
  public int nextStartNode() {
    return nextStartNode;
  }

  public void setNextStartNode(int index) {
    this.nextStartNode = index;
  }

  /**
   * Why a task of this shape found no node earlier in the session, or null. Placing tasks only takes resources
   * away, so the answer holds until something is given back (a discarded statement, an eviction); filters are
   * assumed not to turn a node feasible because another pod was placed.
   */
  public String knownNoFit(Object shape) {
    return noFit.get(shape);
  }

  public void rememberNoFit(Object shape, String reason) {
    noFit.put(shape, reason);
  }

  /** Gives up a task's nomination at once (its node can no longer take it), freeing what was held there. */
  public void dropReservation(TaskInfo task) {
    NodeInfo held = task.reservation();
    if (held != null) {
      held.adjustPipelined(task.request(), -1);
      task.reserve(null);
      resourcesFreed();
    }
  }

  /** Resources were given back: earlier "no node fits" answers may no longer hold. */
  void resourcesFreed() {
    noFit.clear();
  }

  void onPlaced(TaskInfo task, NodeInfo node) {
    tasksByNode.computeIfAbsent(node.name(), n -> new ArrayList<>()).add(task);
    notifyAllocate(task);
  }

  void onUnplaced(TaskInfo task, NodeInfo node) {
    List<TaskInfo> list = tasksByNode.get(node.name());
    if (list != null) {
      list.remove(task);
    }
    notifyDeallocate(task);
  }

  void notifyAllocate(TaskInfo task) {
    for (Callbacks.Entry<AllocationListener> e : callbacks.listeners) {
      e.fn().onAllocate(task);
    }
  }

  void notifyDeallocate(TaskInfo task) {
    for (Callbacks.Entry<AllocationListener> e : callbacks.listeners) {
      e.fn().onDeallocate(task);
    }
  }

  void recordBinding(TaskInfo task) {
    toBind.add(task);
  }

  void recordEviction(TaskInfo task, String reason) {
    toEvict.add(new SessionResult.Eviction(task.pod(), reason));
  }

  /** Runs plugins' close hooks and turns the session's decisions into bindings, evictions and statuses. */
  public SessionResult close() {
    for (Plugin p : plugins) {
      p.onSessionClose(this);
    }
    return SessionOutcome.of(this, toBind, toEvict, enqueueRejections);
  }

}
