package io.basalt.actions;

import io.basalt.api.JobInfo;
import io.basalt.api.TaskInfo;
import io.basalt.model.ResourceVector;
import io.basalt.session.Session;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;

/**
 * Tells, before any victim pool is built, that a starving job will get no plan from {@link Evictions}, in the two
 * cases where the one trial it would get changes nothing and ends with no plan, so that trial's outcome (no
 * evictions, a hopeless shape) is had without it:
 * <ul>
 *   <li>its queue has no room ({@code allocatable} says no) and its own queue is out of the scope (reclaim): only
 *   victims in that queue could make room, and a plan gives up at once;</li>
 *   <li>its queue has room, and its first pending pod fits on no node even if every candidate pod there of the
 *   queues it may take from (in scope, and the queue rule lets them go now) were gone: every plan places that pod
 *   first, evicting nothing before, on a node with room once its victims are gone.</li>
 * </ul>
 * In a backlog the cluster is full and the queues at their share, so this is most starving jobs of most cycles.
 * One per action run.
 */
final class NoPlan {
  private record RoomAsk(ResourceVector request, BitSet takeable) {}

  /**
   * {@link RunningPods#couldHold} answers by request and queues that may be taken from, while the session gave no
   * resources back ({@link Session#resourcesFreed}): placing only takes room away, so a "no" holds until then.
   */
  private final Map<RoomAsk, Boolean> roomFor = new HashMap<>();
  private long roomForFreed = -1;

  /**
   * Whether the job, whose first pending pod is {@code first}, surely gets no plan. Only claimed where that trial is
   * the whole story: no network domain (one reach, and its shape is marked hopeless), no reservation (a search would
   * drop it), no {@code --explain} (a search records what it saw).
   */
  boolean certain(Session session, JobInfo job, TaskInfo first, VictimPlanner.Scope scope, RunningPods running) {
    if (session.explain().enabled() || first.reservation() != null || DomainPlacer.applies(session, job)) {
      return false;
    }
    if (!session.callbacks().allocatable(session.queue(job.queue()), first)) {
      return !scope.inScope(job.queue(), job.queue());
    }
    BitSet takeable = running.inScope(scope, job.queue());
    for (int q = takeable.nextSetBit(0); q >= 0; q = takeable.nextSetBit(q + 1)) {
      if (!scope.mayTake(session, running.someJobOf(q))) {
        takeable.clear(q); // refused now, refused for the whole plan (it only takes victims away)
      }
    }
    if (roomForFreed != session.resourcesFreed()) {
      roomFor.clear();
      roomForFreed = session.resourcesFreed();
    }
    return !roomFor.computeIfAbsent(new RoomAsk(first.request(), takeable),
        k -> running.couldHold(session, k.request(), k.takeable()));
  }
}
