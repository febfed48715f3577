package io.basalt.session;

import io.basalt.api.JobInfo;
import io.basalt.api.QueueInfo;
import io.basalt.api.TaskInfo;
import io.basalt.config.Hook;
import io.basalt.config.PluginOption;
import io.basalt.framework.AllocationListener;
import io.basalt.framework.DeviceChooser;
import io.basalt.framework.DomainScorer;
import io.basalt.framework.JobValidator;
import io.basalt.framework.NodeScorer;
import io.basalt.framework.Registrar;
import io.basalt.framework.TaskFilter;
import io.basalt.framework.VictimSelector;
import io.basalt.framework.Vote;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * One plugin entry's {@link Registrar}: a registration reaches the session's {@link Callbacks} only when the entry's
 * enable flag for that kind of callback allows it ({@code enablePreemptable: false} and friends).
 */
final class TierRegistrar implements Registrar {
  private final Callbacks callbacks;
  private final String plugin;
  private final PluginOption option;
  private final int tier;

  TierRegistrar(Callbacks callbacks, String plugin, PluginOption option, int tier) {
    this.callbacks = callbacks;
    this.plugin = plugin;
    this.option = option;
    this.tier = tier;
  }

  private <F> void add(Hook hook, List<Callbacks.Entry<F>> list, F fn) {
    if (hook == null || option.enabled(hook)) {
      list.add(new Callbacks.Entry<>(plugin, tier, fn));
    }
  }

  @Override
  public boolean hierarchyEnabled() {
    return option.enabled(Hook.HIERARCHY);
  }

  @Override
  public void addJobOrder(Comparator<JobInfo> fn) {
    add(Hook.JOB_ORDER, callbacks.jobOrder, fn);
  }

  @Override
  public void addTaskOrder(Comparator<TaskInfo> fn) {
    add(Hook.TASK_ORDER, callbacks.taskOrder, fn);
  }

  @Override
  public void addQueueOrder(Comparator<QueueInfo> fn) {
    add(Hook.QUEUE_ORDER, callbacks.queueOrder, fn);
  }

  @Override
  public void addFilter(TaskFilter fn) {
    add(Hook.PREDICATE, callbacks.filters, fn);
  }

  @Override
  public void addScorer(NodeScorer fn) {
    add(Hook.NODE_ORDER, callbacks.scorers, fn);
  }

  @Override
  public void addJobReady(Predicate<JobInfo> fn) {
    add(Hook.JOB_READY, callbacks.jobReady, fn);
  }

  @Override
  public void addJobPipelined(Function<JobInfo, Vote> fn) {
    add(Hook.JOB_PIPELINED, callbacks.jobPipelined, fn);
  }

  @Override
  public void addJobEnqueueable(Function<JobInfo, Vote> fn) {
    add(Hook.JOB_ENQUEUED, callbacks.jobEnqueueable, fn);
  }

  @Override
  public void addJobEnqueued(Consumer<JobInfo> fn) {
    add(Hook.JOB_ENQUEUED, callbacks.jobEnqueued, fn);
  }

  @Override
  public void addJobValid(JobValidator fn) {
    add(null, callbacks.jobValid, fn);
  }

  @Override
  public void addAllocatable(BiPredicate<QueueInfo, TaskInfo> fn) {
    add(Hook.ALLOCATABLE, callbacks.allocatable, fn);
  }

  @Override
  public void addOverused(Predicate<QueueInfo> fn) {
    add(Hook.OVERUSED, callbacks.overused, fn);
  }

  @Override
  public void addAllocationListener(AllocationListener listener) {
    add(null, callbacks.listeners, listener);
  }

  @Override
  public void addPreemptable(VictimSelector fn) {
    add(Hook.PREEMPTABLE, callbacks.preemptable, fn);
  }

  @Override
  public void addReclaimable(VictimSelector fn) {
    add(Hook.RECLAIMABLE, callbacks.reclaimable, fn);
  }

  @Override
  public void addReclaimFrom(Predicate<QueueInfo> fn) {
    add(Hook.RECLAIMABLE, callbacks.reclaimFrom, fn);
  }

  @Override
  public void addPreemptive(BiPredicate<QueueInfo, TaskInfo> fn) {
    add(Hook.PREEMPTIVE, callbacks.preemptive, fn);
  }

  @Override
  public void addDeviceResources(Collection<String> names) {
    callbacks.markDeviceManaged(names);
  }

  @Override
  public void addDomainScorer(DomainScorer fn) {
    add(Hook.HYPER_NODE_ORDER, callbacks.domainScorers, fn);
  }

  @Override
  public void addDeviceChooser(DeviceChooser fn) {
    add(null, callbacks.deviceChoosers, fn);
  }
}
