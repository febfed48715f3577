package io.basalt.framework;

import io.basalt.api.JobInfo;
import io.basalt.api.QueueInfo;
import io.basalt.api.TaskInfo;
import java.util.Collection;
import java.util.Comparator;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * How a plugin offers its callbacks when a session opens: one method per kind of callback, bound to the plugin and
 * its tier. The tier entry's enable flags ({@code enableJobOrder: false}, ...) decide which registrations take
 * effect, so plugins never read the flags. The rules that combine the answers of several plugins live with the
 * session ({@code io.basalt.session.Callbacks}), never in a plugin.
 */
public interface Registrar {
  /** Whether this plugin's tier entry sets {@code enableHierarchy: true} (a mode, not a callback kind). */
  boolean hierarchyEnabled();

  void addJobOrder(Comparator<JobInfo> fn);

  void addTaskOrder(Comparator<TaskInfo> fn);

  void addQueueOrder(Comparator<QueueInfo> fn);

  void addFilter(TaskFilter fn);

  void addScorer(NodeScorer fn);

  /** Permit phase: is the job's gang complete enough to bind? */
  void addJobReady(Predicate<JobInfo> fn);

  /** Permit phase: may a job that is not ready keep its reservations (placed plus pipelined tasks)? */
  void addJobPipelined(Function<JobInfo, Vote> fn);

  void addJobEnqueueable(Function<JobInfo, Vote> fn);

  /** Told when a job is admitted, so admission plugins count it against later jobs. */
  void addJobEnqueued(Consumer<JobInfo> fn);

  void addJobValid(JobValidator fn);

  void addAllocatable(BiPredicate<QueueInfo, TaskInfo> fn);

  void addOverused(Predicate<QueueInfo> fn);

  void addAllocationListener(AllocationListener listener);

  void addPreemptable(VictimSelector fn);

  void addReclaimable(VictimSelector fn);

  /**
   * May reclaim still take from {@code queue} (it holds more than its deserved share)? Asked by the reclaim action
   * before each victim, after the earlier ones were taken, whatever the tiers answered about the victims.
   */
  void addReclaimFrom(Predicate<QueueInfo> fn);

  /** May {@code queue} take resources back from other queues for this task (e.g. it stays within its share)? */
  void addPreemptive(BiPredicate<QueueInfo, TaskInfo> fn);

  /**
   * Resources this plugin accounts per device (GPU shares, their compute and memory): the engine's node-level fit
   * leaves them to it, since nodes often do not list them in their allocatable at all.
   */
  void addDeviceResources(Collection<String> names);

  /** Ranks network domains for topology-constrained jobs; registering one turns topology-aware placement on. */
  void addDomainScorer(DomainScorer fn);

  /** Picks exact GPUs; the first chooser registered with an answer decides. */
  void addDeviceChooser(DeviceChooser fn);
}
