package io.basalt.plugins.priority;

import io.basalt.api.TaskInfo;
import io.basalt.framework.JobOrderKey;
import io.basalt.framework.Plugin;
import io.basalt.framework.PluginDescriptor;
import io.basalt.framework.Registrar;
import io.basalt.framework.SessionView;
import io.basalt.framework.VictimSelector;
import io.basalt.model.PriorityClass;
import java.util.ArrayList;
import java.util.List;

/**
 * Higher priority first: queues by their {@code spec.priority}, jobs by their PodGroup's PriorityClass value (else
 * their pods' priority), tasks within a job by pod priority. Preempt takes only strictly lower priority: a pod of another job only when that job's priority
 * is lower, a pod of the same job only when its own priority is lower. Reclaim takes pods of no higher priority
 * than the reclaimer's job. A pod whose {@code preemptionPolicy} (or its PriorityClass's) is {@code Never} evicts
 * nothing.
 */
public final class PriorityPlugin implements Plugin {
  public static final String NAME = "priority";

  public PriorityPlugin() {}

  /** No arguments. */
  public static PluginDescriptor<Void> descriptor() {
    return PluginDescriptor.of(NAME, PriorityPlugin::new);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(SessionView session, Registrar registrar) {
    registrar.addQueueOrder((a, b) -> Integer.compare(b.queue().priority(), a.queue().priority()));
    // Higher first: the key is the negated priority (exact in a double), a key so enqueue's sort reads it once.
    registrar.addJobOrder(JobOrderKey.ascending(job -> -(double) job.priority()));
    registrar.addTaskOrder((a, b) -> Integer.compare(b.priority(), a.priority()));
    VictimSelector lower = (preemptor, candidates) -> {
      if (neverPreempts(session, preemptor)) {
        return List.of();
      }
      List<TaskInfo> victims = new ArrayList<>();
      for (TaskInfo t : candidates) {
        boolean sameJob = t.job() == preemptor.job();
        if (sameJob ? t.priority() < preemptor.priority() : t.job().priority() < preemptor.job().priority()) {
          victims.add(t);
        }
      }
      return victims;
    };
    registrar.addPreemptable(lower);
    // Reclaim takes back what another queue borrowed, so equal priority may go; higher never does, so
    // experiments in one queue never evict another queue's production pods.
    registrar.addReclaimable((reclaimer, candidates) -> {
      if (neverPreempts(session, reclaimer)) {
        return List.of();
      }
      List<TaskInfo> victims = new ArrayList<>();
      for (TaskInfo t : candidates) {
        if (t.job().priority() <= reclaimer.job().priority()) {
          victims.add(t);
        }
      }
      return victims;
    });
  }

  static boolean neverPreempts(SessionView session, TaskInfo task) {
    String policy = task.pod().preemptionPolicy();
    if (policy == null && task.pod().priorityClassName() != null) {
      PriorityClass pc = session.priorityClasses().get(task.pod().priorityClassName());
      policy = pc == null ? null : pc.preemptionPolicy();
    }
    return "Never".equals(policy);
  }
}
