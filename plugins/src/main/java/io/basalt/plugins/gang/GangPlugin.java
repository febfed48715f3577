package io.basalt.plugins.gang;

import io.basalt.api.JobCondition;
import io.basalt.api.JobInfo;
import io.basalt.api.PodGroupPhase;
import io.basalt.api.TaskInfo;
import io.basalt.api.TaskStatus;
import io.basalt.framework.JobOrderKey;
import io.basalt.framework.Plugin;
import io.basalt.framework.PluginDescriptor;
import io.basalt.framework.Registrar;
import io.basalt.framework.SessionView;
import io.basalt.framework.Vote;
import java.util.HashMap;
import java.util.Map;

/**
 * All-or-nothing: a job binds only when at least {@code minMember} of its tasks (and {@code minTaskMember} per
 * role, keyed by {@code volcano.sh/task-spec}) can be placed. Also orders not-yet-ready jobs first, so a half-started
 * gang is finished before new ones start, and writes the PodGroup's Unschedulable / Scheduled condition.
 */
public final class GangPlugin implements Plugin {
  public static final String NAME = "gang";
  static final String NOT_ENOUGH_RESOURCES = "NotEnoughResources";

  public GangPlugin() {}

  /** No arguments. */
  public static PluginDescriptor<Void> descriptor() {
    return PluginDescriptor.of(NAME, GangPlugin::new);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(SessionView session, Registrar registrar) {
    registrar.addJobValid(GangPlugin::invalidReason);
    registrar.addJobReady(GangPlugin::ready);
    registrar.addJobPipelined(job -> pipelined(job) ? Vote.PERMIT : Vote.reject("gang not pipelined"));
    // Not-ready (0) before ready (1), as Boolean.compare(ready(a), ready(b)).
    registrar.addJobOrder(JobOrderKey.ascending(job -> ready(job) ? 1 : 0));
  }

  static String invalidReason(JobInfo job) {
    if (job.validTaskNum() < job.minMember()) {
      // Gated pods are no tasks: a gang that needs them waits whole, as coscheduling's PreFilter holds it.
      return "PodGroup " + job.key() + " has " + job.validTaskNum() + " valid pods, fewer than minMember "
          + job.minMember() + (job.gatedTaskNum() == 0 ? ""
          : " (" + job.gatedTaskNum() + " more waiting for their scheduling gates)");
    }
    if (!job.minTaskMember().isEmpty()) {
      Map<String, Integer> valid = new HashMap<>();
      for (TaskInfo t : job.tasks()) {
        if (t.status() != TaskStatus.FAILED && t.status() != TaskStatus.RELEASING) {
          valid.merge(t.role(), 1, Integer::sum);
        }
      }
      for (Map.Entry<String, Integer> e : job.minTaskMember().entrySet()) {
        int have = valid.getOrDefault(e.getKey(), 0);
        if (have < e.getValue()) {
          return "PodGroup " + job.key() + " has " + have + " valid pods of task '" + e.getKey()
              + "', fewer than minTaskMember " + e.getValue();
        }
      }
    }
    return null;
  }

  static boolean ready(JobInfo job) {
    return job.readyTaskNum() >= job.minMember() && rolesSatisfied(job, false);
  }

  static boolean pipelined(JobInfo job) {
    return job.readyTaskNum() + job.waitingTaskNum() >= job.minMember() && rolesSatisfied(job, true);
  }

  private static boolean rolesSatisfied(JobInfo job, boolean countPipelined) {
    if (job.minTaskMember().isEmpty()) {
      return true;
    }
    Map<String, Integer> placed = new HashMap<>();
    for (TaskInfo t : job.tasks()) {
      if (t.status().isReady() || (countPipelined && t.status() == TaskStatus.PIPELINED)) {
        placed.merge(t.role(), 1, Integer::sum);
      }
    }
    for (Map.Entry<String, Integer> e : job.minTaskMember().entrySet()) {
      if (placed.getOrDefault(e.getKey(), 0) < e.getValue()) {
        return false;
      }
    }
    return true;
  }

  @Override
  public void onSessionClose(SessionView session) {
    for (JobInfo job : session.jobs()) {
      if (job.isImplicit() || job.phase() == PodGroupPhase.PENDING || session.jobInvalidReason(job) != null) {
        continue;
      }
      if (ready(job)) {
        job.addCondition(new JobCondition("Scheduled", "True", "tasks in gang are ready to be scheduled", ""));
        continue;
      }
      int unready = job.tasks().size() - job.readyTaskNum();
      String why = job.fitError() != null ? job.fitError()
          : pipelined(job) ? "waiting for releasing resources" : "not enough resources";
      job.setUnschedulable(unready + "/" + job.tasks().size() + " tasks in gang unschedulable", why);
      job.addCondition(new JobCondition("Unschedulable", "True", NOT_ENOUGH_RESOURCES, job.unschedulableMessage()));
    }
  }
}
