package io.basalt.api;

import io.basalt.model.Pod;
import java.util.IdentityHashMap;
import java.util.function.ToIntFunction;

/**
 * Task objects, and the jobs of lone pods, kept from one session to the next for pods that did not change: a backlog
 * of 50,000 pending pods otherwise rebuilds 50,000 tasks, jobs and PodGroups every cycle to find them as they were.
 * A pod is the same when the cache hands the same immutable {@link Pod} object (any change is a new record); what
 * the session set on a kept object is reset when it is handed out again, so a session sees exactly what new objects
 * would hold.
 *
 * <p>One owner opens sessions with it, one at a time (the scheduling loop); objects of the previous session must not
 * be read once the next one began. Pods gone from the snapshot are dropped at {@link #end}.
 */
public final class KeptTasks {
  private final IdentityHashMap<Pod, TaskInfo> tasks = new IdentityHashMap<>();
  /**
   * The previous session's pods and tasks in the order it asked for them, and this session's so far: the cache hands
   * its pods in the same order cycle after cycle, so the next pod is most often the one after the last one found,
   * read from an array rather than looked up (a backlog's 50,000 lookups a cycle otherwise miss the cache each).
   */
  private Pod[] lastPods = new Pod[0];
  private TaskInfo[] lastTasks = new TaskInfo[0];
  private int lastCount;
  private Pod[] pods = new Pod[0];
  private TaskInfo[] order = new TaskInfo[0];
  private int count;
  /** Per position of the previous session's order, whether this session handed that task out again. */
  private boolean[] handedAgain = new boolean[0];
  private int cursor;
  private int session;
  private int handedOut;
  private int reused;

  /** Starts a session's build: every kept object not handed out before {@link #end} is dropped then. */
  public void begin() {
    session++;
    handedOut = 0;
    reused = 0;
    Pod[] p = lastPods;
    TaskInfo[] t = lastTasks;
    lastPods = pods;
    lastTasks = order;
    lastCount = count;
    pods = p;
    order = t;
    java.util.Arrays.fill(pods, null); // the arrays of two sessions ago: they hold no pod any longer
    java.util.Arrays.fill(order, null);
    count = 0;
    cursor = 0;
    if (handedAgain.length < lastCount) {
      handedAgain = new boolean[lastTasks.length];
    } else {
      java.util.Arrays.fill(handedAgain, 0, lastCount, false);
    }
  }

  /**
   * The task for {@code pod} as a new {@code TaskInfo(pod, priority, TaskStatus.atOpen(pod))} would be, or null for a
   * pod that gets none ({@link TaskStatus#atOpen} says so): the kept one, reset, when the pod object is the one it was
   * made for and its priority is the same (a pod's own priority is, a priority class's is worked out again); else a
   * new one, kept from now on. A kept task is handed out without reading the pod.
   */
  public TaskInfo task(Pod pod, ToIntFunction<Pod> priorityOf) {
    TaskInfo t;
    if (cursor < lastCount && lastPods[cursor] == pod) {
      t = lastTasks[cursor++];
    } else {
      t = tasks.get(pod);
      if (t != null && t.keptAt < lastCount && lastTasks[t.keptAt] == t) {
        cursor = t.keptAt + 1; // in step again after pods came or went
      } else if (t == null && cursor < lastCount) {
        cursor++; // most often a changed pod in its old one's place: the next pod is the one after
      }
    }
    if (t != null && t.openedIn == session) {
      return new TaskInfo(pod, t.priority(), TaskStatus.atOpen(pod)); // the same pod twice in one snapshot: not kept
    }
    if (t != null && (t.priorityFromPod || priorityOf.applyAsInt(pod) == t.priority())) {
      t.reopen();
      if (t.keptAt < lastCount && lastTasks[t.keptAt] == t) {
        handedAgain[t.keptAt] = true; // its position in the previous session's order, before it moves on
      }
      reused++;
    } else {
      TaskStatus status = TaskStatus.atOpen(pod);
      if (status == null) {
        return null;
      }
      t = new TaskInfo(pod, priorityOf.applyAsInt(pod), status);
      t.priorityFromPod = pod.priority() != null;
      tasks.put(pod, t);
    }
    t.openedIn = session;
    t.keptAt = count;
    if (count == pods.length) {
      pods = java.util.Arrays.copyOf(pods, Math.max(16, count * 2));
      order = java.util.Arrays.copyOf(order, pods.length);
    }
    pods[count] = pod;
    order[count++] = t;
    handedOut++;
    return t;
  }

  /**
   * The lone-pod job of {@code task} (just handed out by {@link #task}) as its previous session had it, reset, when it
   * was a lone pod's job in {@code queue} of the same priority; else null (make a new one). Everything else a lone
   * pod's job holds comes from the pod, which is unchanged when its task was kept.
   */
  public JobInfo loneJob(TaskInfo task, String queue) {
    JobInfo job = task.job();
    if (job != null && job.isImplicit() && job.queue().equals(queue) && job.priority() == task.priority()
        && job.tasks().size() == 1 && job.tasks().get(0) == task) {
      job.reopen();
      return job;
    }
    return null;
  }

  /**
   * Ends a session's build: drops what was not handed out (pods deleted or changed). Everything kept was handed out
   * by the previous session, so its order is looked through, not the map, and only the tasks left out are read.
   */
  public void end() {
    for (int i = 0; i < lastCount && tasks.size() > handedOut; i++) {
      if (!handedAgain[i]) {
        tasks.remove(lastPods[i], lastTasks[i]); // unless a new task for the same pod took its place
      }
    }
  }

  /** Tasks handed out again this session, for tests and metrics. */
  public int reused() {
    return reused;
  }

  /** Pods kept for the next session. */
  public int size() {
    return tasks.size();
  }
}
