package io.basalt.session;

import io.basalt.api.ClusterSnapshot;
import io.basalt.api.JobInfo;
import io.basalt.api.JobsAtOpen;
import io.basalt.api.KeptTasks;
import io.basalt.api.NodeInfo;
import io.basalt.api.PodGroupPhase;
import io.basalt.api.QueueInfo;
import io.basalt.api.TaskInfo;
import io.basalt.api.TaskStatus;
import io.basalt.model.NetworkTopology;
import io.basalt.model.Pod;
import io.basalt.model.PodGroup;
import io.basalt.model.PriorityClass;
import io.basalt.model.Queue;
import io.basalt.model.ResourceNames;
import io.basalt.model.ResourceVector;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;

/**
 * Turns a snapshot's pods into the session's jobs: pods of one PodGroup form a gang, a pod without one is a job of
 * its own. Also resolves priorities and re-reserves nodes for pods nominated to them by an earlier preemption.
 *
 * <p>A pod with scheduling gates is no task (kube-scheduler keeps it out of its queue until ungated): it is not
 * searched for, admitted or counted, only reported as gated. Its gang learns how many of its pods are gated
 * ({@link JobInfo#gatedTaskNum()}), so one that cannot reach minMember without them waits holding nothing.
 */
final class JobsBuilder {
  private static final ResourceVector ONE_POD = ResourceVector.builder().add(ResourceNames.PODS, 1).build();

  private final ClusterSnapshot snapshot;
  private final Map<String, QueueInfo> queues;
  private final JobTable jobs;
  private final Map<String, String> invalidJobs;
  private final java.util.function.Function<String, NodeInfo> nodes;
  private final Map<String, PriorityClass> priorityClasses;
  private final KeptTasks kept;
  private JobsAtOpen atOpen;
  /** Pods held back by scheduling gates, in snapshot order; usually none. */
  private final List<GatedPod> gated = new ArrayList<>(0);

  /** A pending pod with scheduling gates, and the queue it would count in once ungated. */
  record GatedPod(Pod pod, String queue) {}

  JobsBuilder(ClusterSnapshot snapshot, Map<String, QueueInfo> queues, JobTable jobs,
      Map<String, String> invalidJobs,
      java.util.function.Function<String, NodeInfo> nodes, KeptTasks kept) {
    this.snapshot = snapshot;
    this.queues = queues;
    this.jobs = jobs;
    this.invalidJobs = invalidJobs;
    this.nodes = nodes;
    this.priorityClasses = snapshot.priorityClasses();
    this.kept = kept;
  }

  /** Builds the queues and jobs into the session's maps; returns the jobs sorted out for the opening passes. */
  JobsAtOpen build() {
    buildQueues();
    kept.begin();
    buildJobs();
    kept.end();
    holdOthersNominated();
    return atOpen;
  }

  /** The gated pods {@link #build} left out; valid once it returned. */
  List<GatedPod> gated() {
    return gated;
  }

  private void buildQueues() {
    for (Queue q : snapshot.queues().values()) {
      queues.put(q.name(), new QueueInfo(q));
    }
    queues.computeIfAbsent(snapshot.defaultQueue(), n -> new QueueInfo(Queue.implicitDefault(n)));
  }

  private void buildJobs() {
    String defaultQueue = snapshot.defaultQueue();
    JobInfo lastGang = null;
    String lastGroup = null;
    String lastNamespace = null;
    // The second pass below visits only what needs it: gangs, and lone pods asking for a queue that does not exist
    // (a backlog's tens of thousands of lone pods are otherwise walked twice).
    List<JobInfo> gangs = new ArrayList<>();
    List<JobInfo> loneInMissingQueue = new ArrayList<>();
    String knownLoneQueue = null;
    JobsAtOpen.Builder sorted = new JobsAtOpen.Builder();
    // A job put under the key of another, or a gang's pod joining a lone pod's job (a lone pod named like a PodGroup):
    // then the jobs are sorted out again from the map at the end.
    boolean irregular = false;
    ToIntFunction<Pod> priorityOf = this::podPriority;
    Predicate<String> queueExists = queues::containsKey;
    List<Pod> gatedPods = null;
    for (Pod pod : snapshot.pods()) {
      if (!pod.isAssigned() && pod.isGated()) {
        if (!pod.isFinished()) {
          gatedPods = gatedPods == null ? new ArrayList<>() : gatedPods;
          gatedPods.add(pod);
        }
        continue; // not a task: never searched for, admitted or counted (a binding would be refused anyway)
      }
      TaskInfo task = kept.task(pod, priorityOf);
      if (task == null) {
        continue; // finished before it was ever placed
      }
      String group = task.groupName();
      JobInfo job;
      if (group != null && !group.isEmpty()) {
        // A gang's pods mostly come one after another: the previous pod's job, when it is the same group, saves
        // building the key and looking it up.
        boolean same = lastGang != null && group.equals(lastGroup) && pod.namespace().equals(lastNamespace);
        String key = same ? lastGang.key() : pod.namespace() + "/" + group;
        job = same ? lastGang : jobs.get(key);
        if (job == null) {
          PodGroup pg = snapshot.podGroups().get(key);
          if (pg == null) {
            pg = new PodGroup(pod.namespace(), group, 1, Map.of(), defaultQueue, null, null, "Pending",
                pod.creationTimestamp());
            invalidJobs.put(key, pod.groupName().equals(pod.annotations().get(Pod.GROUP_NAME_ANNOTATION))
                || pod.controller() == null ? "PodGroup " + key + " not found"
                : "waiting for its owner " + pod.controller().display() + " to be seen");
          }
          job = new JobInfo(key, pg, false, jobPriority(pg, pod));
          irregular |= jobs.put(job) != null;
          gangs.add(job);
        }
        irregular |= job.isImplicit();
        lastGang = job;
        lastGroup = group;
        lastNamespace = pod.namespace();
      } else {
        String queue = task.queueRequest().resolve(queueExists, defaultQueue);
        job = kept.loneJob(task, queue);
        if (job == null) {
          job = loneJob(pod, queue, task);
        }
        irregular |= jobs.put(job) != null;
        if (!queue.equals(knownLoneQueue)) {
          if (queues.containsKey(queue)) {
            knownLoneQueue = queue; // most lone pods share a handful of queues
          } else {
            loneInMissingQueue.add(job);
          }
        }
      }
      job.addTask(task);
      if (task.status() == TaskStatus.PENDING) {
        sorted.pending(job.queue(), task.request());
      }
      if (task.nodeName() == null) {
        reserveNominated(job, task);
      }
      if (job.isImplicit()) {
        sorted.add(job); // complete: one task, its phase from the pod (or its nomination)
      }
    }
    if (gatedPods != null) {
      sortOutGated(gatedPods, queueExists, defaultQueue);
    }
    for (JobInfo job : loneInMissingQueue) {
      if (jobs.get(job.key()) == job) {
        invalidJobs.putIfAbsent(job.key(), "queue " + job.queue() + " not found");
      }
    }
    String knownQueue = null;
    for (JobInfo job : gangs) {
      if (jobs.get(job.key()) != job) {
        continue; // a lone pod of the same key took its place
      }
      groupSizeFromPods(job);
      if (job.podGroup().inferred() && job.phase() == PodGroupPhase.PENDING
          && job.readyTaskNum() >= job.minMember()) {
        // An inferred group has no status object remembering it started: its running members say so.
        job.setPhase(PodGroupPhase.RUNNING);
      }
      sorted.add(job);
      if (knownQueue != null && knownQueue.equals(job.queue())) {
        continue; // the previous job's queue, found: most jobs share a handful of queues
      }
      if (!queues.containsKey(job.queue())) {
        invalidJobs.putIfAbsent(job.key(), "queue " + job.queue() + " not found");
      } else {
        knownQueue = job.queue();
      }
    }
    atOpen = irregular ? JobsAtOpen.of(jobs.values()) : sorted.build();
  }

  /**
   * Tells each gang how many of its pods are gated (and what they request), and notes each gated pod's queue: its
   * gang's, its PodGroup's, or the one it asks for on its own.
   */
  private void sortOutGated(List<Pod> pods, Predicate<String> queueExists, String defaultQueue) {
    for (Pod pod : pods) {
      String group = pod.groupName();
      String queue;
      if (group != null) {
        String key = pod.namespace() + "/" + group;
        JobInfo job = jobs.get(key);
        PodGroup pg = snapshot.podGroups().get(key);
        if (job != null && !job.isImplicit()) {
          job.addGated(pod.request());
          queue = job.queue();
        } else {
          queue = pg != null ? pg.queue() : defaultQueue;
        }
      } else {
        queue = io.basalt.model.QueueRequest.of(pod).resolve(queueExists, defaultQueue);
      }
      gated.add(new GatedPod(pod, queue));
    }
  }

  /**
   * As Volcano's PodGroup controller does for a lone pod: minResources are its requests (the pod slot aside, which is
   * a node limit, not a resource to admit against).
   */
  private static JobInfo loneJob(Pod pod, String queue, TaskInfo task) {
    PodGroup pg = new PodGroup(pod.namespace(), pod.name(), 1, Map.of(), queue, pod.priorityClassName(),
        pod.request().minus(ONE_POD), pod.isAssigned() ? "Running" : "Pending", pod.creationTimestamp());
    return new JobInfo(task.key(), pg, true, task.priority()); // the task keeps the key it builds
  }

  /**
   * MetaX puts {@code metax-tech.com/gpu-group-size} on one pod's template (the master's): the first pod saying it
   * sizes the job's groups, unless its PodGroup already does. A value that is not a positive count makes the job
   * invalid, naming the pod, rather than placing it without the groups the user asked for.
   */
  private void groupSizeFromPods(JobInfo job) {
    NetworkTopology ask = job.networkTopology();
    if (ask != null && ask.gpuGroupSize() != null) {
      return;
    }
    for (TaskInfo t : job.tasks()) {
      String size = t.groupSizeAnnotation();
      if (size == null || size.isBlank()) {
        continue;
      }
      int gpus;
      try {
        gpus = Integer.parseInt(size.trim());
      } catch (NumberFormatException e) {
        gpus = 0;
      }
      if (gpus < 1) {
        invalidJobs.putIfAbsent(job.key(), "pod " + t.key() + " annotation " + NetworkTopology.GPU_GROUP_SIZE_ANNOTATION
            + ": '" + size + "' is not a positive GPU count");
        return;
      }
      job.setNetworkTopology(ask == null ? NetworkTopology.groupSize(gpus) : ask.withGpuGroupSize(gpus));
      return;
    }
  }

  private int podPriority(Pod pod) {
    if (pod.priority() != null) {
      return pod.priority();
    }
    PriorityClass pc = pod.priorityClassName() == null ? null : priorityClasses.get(pod.priorityClassName());
    if (pc != null) {
      return pc.value();
    }
    for (PriorityClass c : priorityClasses.values()) {
      if (c.globalDefault()) {
        return c.value();
      }
    }
    return 0;
  }

  private int jobPriority(PodGroup pg, Pod firstPod) {
    PriorityClass pc = pg.priorityClassName() == null ? null : priorityClasses.get(pg.priorityClassName());
    return pc != null ? pc.value() : podPriority(firstPod);
  }

  /**
   * Room another scheduler nominated to its pending pod is held for it, as kube-scheduler adds nominated pods to a node
   * before filtering: none of this scheduler's pods takes it, whatever its priority (stricter than kube-scheduler,
   * which lets a pod of higher priority than the nominated one take it; Basalt's own holds are as strict).
   */
  private void holdOthersNominated() {
    for (Pod pod : snapshot.othersNominated()) {
      NodeInfo node = nodes.apply(pod.nominatedNodeName());
      if (node != null) {
        node.adjustPipelined(pod.request(), 1);
      }
    }
  }

  /**
   * A pending pod nominated to a node (its victims are being evicted for it) gets that node's resources held for it,
   * so no other pod takes what was freed on its behalf.
   *
   * <p>Its job opens admitted (Inqueue) if it would open Pending: only an admitted job gets a nomination, and a lone
   * pod or an inferred group has no PodGroup status to remember that by. Sent through enqueue again, it would be
   * measured against its victims' resources, still used while they terminate, and refused until they are gone.
   */
  private void reserveNominated(JobInfo job, TaskInfo task) {
    String nominated = snapshot.nominations().get(task.uid());
    NodeInfo node = nominated == null ? null : nodes.apply(nominated);
    if (node != null && task.status() == TaskStatus.PENDING) {
      node.adjustPipelined(task.request(), 1);
      task.reserve(node);
      if (job.phase() == PodGroupPhase.PENDING) {
        job.setPhase(PodGroupPhase.INQUEUE);
      }
    }
  }
}
