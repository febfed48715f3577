package io.basalt.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.fail;

import io.basalt.gpu.DeviceClaim;
import io.basalt.gpu.DeviceSet;
import io.basalt.model.NetworkTopology;
import io.basalt.model.Pod;
import io.basalt.model.PodGroup;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** A kept task or lone-pod job, handed out again, holds exactly what a new one would; changed pods get new ones. */
class KeptTasksTest {
  /** Every field of the two classes, each set by {@link #dirty}: a new field must be reset and listed here. */
  private static final Set<String> TASK_FIELDS = Set.of("pod", "priority", "openedIn", "keptAt", "key", "role", "job",
      "status", "nodeName", "reservation", "devices", "fitError", "fitNode", "cycleState", "request", "group",
      "queueRequest", "openStatus", "priorityFromPod", "groupSize");
  private static final Set<String> JOB_FIELDS = Set.of("key", "podGroup", "implicit", "priority", "tasks",
      "tasksView", "statusCounts", "held", "minMember", "queue", "created", "minTaskMember", "openPhase",
      "openTopology", "ready", "invalid", "phase",
      "fitError", "failedTask", "unschedulableSummary", "unschedulableMessage", "enqueueRejection", "conditions",
      "conditionsView",
      "networkTopology", "domain", "gated", "gatedRequest");

  private static JobInfo newLoneJob(TaskInfo task, String queue) {
    Pod pod = task.pod();
    PodGroup pg = new PodGroup(pod.namespace(), pod.name(), 1, Map.of(), queue, pod.priorityClassName(),
        pod.request(), pod.isAssigned() ? "Running" : "Pending", pod.creationTimestamp());
    return new JobInfo(pod.key(), pg, true, task.priority());
  }

  /** One session's build of {@code pods} as lone jobs in {@code queue}. */
  private static List<JobInfo> build(KeptTasks kept, String queue, Pod... pods) {
    kept.begin();
    List<JobInfo> jobs = new ArrayList<>();
    for (Pod p : pods) {
      TaskInfo t = kept.task(p, x -> 5);
      JobInfo job = kept.loneJob(t, queue);
      job = job != null ? job : newLoneJob(t, queue);
      job.addTask(t);
      jobs.add(job);
    }
    kept.end();
    return jobs;
  }

  /** Sets every field a session can set. */
  private static void dirty(JobInfo job) {
    TaskInfo t = job.tasks().get(0);
    t.place(TaskStatus.ALLOCATED, "n1");
    t.reserve(new NodeInfo(TestNodes.node("n1").cpu("4").build(), 1, new long[0], new long[0]));
    t.setDevices(DeviceClaim.whole(DeviceSet.parse("0")));
    t.noteAttempt("n1", "Insufficient cpu");
    t.cycleState(CycleState.key("a"), x -> "first");
    t.cycleState(CycleState.key("b"), x -> 2);
    job.setPhase(PodGroupPhase.RUNNING);
    job.setFitError(t, "no room");
    job.setUnschedulable("1/1 tasks in gang unschedulable", "why");
    job.addCondition(new JobCondition("Unschedulable", "True", "NotEnoughResources", "m"));
    job.setNetworkTopology(NetworkTopology.groupSize(2));
    job.setDomain("rack-1");
    job.rejectEnqueue("queue q1 is full");
    job.addGated(io.basalt.model.ResourceVector.parse(java.util.Map.of("cpu", "1")));
  }

  @Test
  void aReopenedTaskAndJobHoldWhatNewOnesWould() throws Exception {
    Pod pod = TestPods.pod("ns/a").cpu("1").build();
    KeptTasks kept = new KeptTasks();
    JobInfo first = build(kept, "q1", pod).get(0);
    dirty(first);
    TaskInfo dirtied = first.tasks().get(0);

    JobInfo again = build(kept, "q1", pod).get(0);
    assertSame(first, again, "the lone pod's job is kept");
    assertSame(dirtied, again.tasks().get(0), "its task is kept");
    assertEquals(1, kept.reused());

    TaskInfo fresh = new TaskInfo(pod, 5, TaskStatus.PENDING);
    JobInfo freshJob = newLoneJob(fresh, "q1");
    freshJob.addTask(fresh);
    fresh.key(); // the kept one has its key cached; the key is the pod's either way
    fresh.role(); // the same for its role
    again.tasks().get(0).role();
    fresh.groupSizeAnnotation(); // and the group size it asks for
    again.tasks().get(0).groupSizeAnnotation();
    assertSameFields(TaskInfo.class, TASK_FIELDS, fresh, again.tasks().get(0), Set.of("openedIn", "keptAt", "job",
        "priorityFromPod", "queueRequest"));
    assertSame(again, again.tasks().get(0).job());
    assertSameFields(JobInfo.class, JOB_FIELDS, freshJob, again, Set.of("tasks", "tasksView"));
    assertEquals(1, again.tasks().size());
  }

  @Test
  void changedDeletedOrReprioritisedPodsGetNewObjectsAndGoneOnesAreDropped() {
    Pod a = TestPods.pod("ns/a").cpu("1").build();
    Pod b = TestPods.pod("ns/b").cpu("1").build();
    KeptTasks kept = new KeptTasks();
    List<JobInfo> one = build(kept, "q1", a, b);
    assertEquals(2, kept.size());

    Pod bChanged = TestPods.pod("ns/b").cpu("2").build();
    Pod c = TestPods.pod("ns/c").cpu("1").build();
    List<JobInfo> two = build(kept, "q1", a, bChanged, c);
    assertSame(one.get(0), two.get(0));
    assertNotSame(one.get(1), two.get(1), "a changed pod is a new record: new task and job");
    assertNotSame(one.get(1).tasks().get(0), two.get(1).tasks().get(0));
    assertEquals(1, kept.reused());
    assertEquals(3, kept.size(), "the old b record is dropped");

    build(kept, "q2", a);
    assertEquals(1, kept.size(), "b and c are gone");

    kept.begin();
    TaskInfo before = kept.task(a, x -> 5);
    kept.end();
    kept.begin();
    assertNotSame(before, kept.task(a, x -> 7), "a priority class changed: a new task");
    kept.end();
  }

  @Test
  void podsComingGoingOrReorderedAreStillFound() {
    Pod a = TestPods.pod("ns/a").cpu("1").build();
    Pod b = TestPods.pod("ns/b").cpu("1").build();
    Pod c = TestPods.pod("ns/c").cpu("1").build();
    Pod x = TestPods.pod("ns/x").cpu("1").build();
    KeptTasks kept = new KeptTasks();
    List<JobInfo> one = build(kept, "q1", a, b, c);
    List<JobInfo> two = build(kept, "q1", x, a, b, c);
    assertEquals(3, kept.reused(), "a pod in front shifts the others");
    assertSame(one.get(2), two.get(3));
    List<JobInfo> three = build(kept, "q1", c, a);
    assertEquals(2, kept.reused(), "b gone, c and a swapped");
    assertSame(two.get(3), three.get(0));
    assertSame(two.get(1), three.get(1));
    assertEquals(2, kept.size());
    List<JobInfo> four = build(kept, "q1", c, a);
    assertSame(three.get(0), four.get(0));
    assertEquals(2, kept.reused());
  }

  @Test
  void aLonePodWhoseQueueChangedGetsANewJob() {
    Pod a = TestPods.pod("ns/a").cpu("1").build();
    KeptTasks kept = new KeptTasks();
    JobInfo inQ1 = build(kept, "q1", a).get(0);
    JobInfo inQ2 = build(kept, "q2", a).get(0);
    assertNotSame(inQ1, inQ2);
    assertEquals("q2", inQ2.queue());
    assertSame(inQ1.tasks().get(0), inQ2.tasks().get(0), "the task itself is the pod's, whatever its queue");
  }

  @Test
  void theSamePodTwiceInOneSnapshotGetsTwoTasks() {
    Pod a = TestPods.pod("ns/a").cpu("1").build();
    KeptTasks kept = new KeptTasks();
    kept.begin();
    TaskInfo one = kept.task(a, x -> 0);
    TaskInfo two = kept.task(a, x -> 0);
    kept.end();
    assertNotSame(one, two);
    assertEquals(1, kept.size());
  }

  /** The array without its trailing zeros: a reopened sum keeps its length, a new one starts empty. */
  private static long[] trimmed(long[] a) {
    int n = a.length;
    while (n > 0 && a[n - 1] == 0) {
      n--;
    }
    return Arrays.copyOf(a, n);
  }

  @Test
  void aPodsOwnPriorityIsNotWorkedOutAgainAndAFinishedUnplacedPodGetsNoTask() {
    Pod own = TestPods.pod("ns/own").cpu("1").priority(9).build();
    Pod done = TestPods.pod("ns/done").cpu("1").phase("Succeeded").build();
    KeptTasks kept = new KeptTasks();
    kept.begin();
    TaskInfo first = kept.task(own, Pod::priority);
    assertEquals(null, kept.task(done, Pod::priority));
    kept.end();
    kept.begin();
    TaskInfo again = kept.task(own, x -> {
      throw new AssertionError("the pod's own priority holds while the pod is the same");
    });
    kept.end();
    assertSame(first, again);
    assertEquals(9, again.priority());
    assertEquals(1, kept.size());
  }

  private static <T> void assertSameFields(Class<T> type, Set<String> known, T expected, T actual, Set<String> skip)
      throws IllegalAccessException {
    Set<String> declared = new TreeSet<>();
    for (Field f : type.getDeclaredFields()) {
      if (Modifier.isStatic(f.getModifiers())) {
        continue;
      }
      declared.add(f.getName());
      if (!known.contains(f.getName())) {
        fail(type.getSimpleName() + "." + f.getName() + " is new: reset it in reopen() and set it in dirty()");
      }
      if (skip.contains(f.getName())) {
        continue;
      }
      f.setAccessible(true);
      Object e = f.get(expected);
      Object a = f.get(actual);
      boolean same = e instanceof int[] ea ? Arrays.equals(ea, (int[]) a)
          : e instanceof long[] el ? Arrays.equals(trimmed(el), trimmed((long[]) a)) : Objects.equals(e, a);
      assertEquals(true, same, type.getSimpleName() + "." + f.getName() + ": new " + e + ", reopened " + a);
    }
    assertEquals(new TreeSet<>(known), declared, type.getSimpleName() + "'s fields");
  }
}
