package io.basalt.actions;

import io.basalt.api.JobInfo;
import io.basalt.api.TaskInfo;
import io.basalt.session.Session;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiPredicate;

/**
 * A victim scope for tests: victims of the queues {@code rule} admits (preemptor's queue, victim's queue), every
 * candidate allowed, every job takeable; counts the queue checks and records who the candidates were asked for.
 */
final class TestScope implements VictimPlanner.Scope {
  private final BiPredicate<String, String> rule;
  int asked;
  final List<String> askers = new ArrayList<>();

  private TestScope(BiPredicate<String, String> rule) {
    this.rule = rule;
  }

  /** Victims of queue {@code victimQueue} only. */
  static TestScope onlyQueue(String victimQueue) {
    return new TestScope((preemptor, victim) -> victim.equals(victimQueue));
  }

  /** Victims of every other queue (reclaim's reach). */
  static TestScope otherQueues() {
    return new TestScope((preemptor, victim) -> !victim.equals(preemptor));
  }

  /** Victims of the preemptor's own queue (preempt's reach). */
  static TestScope ownQueue() {
    return new TestScope(String::equals);
  }

  @Override
  public boolean inScope(String preemptorQueue, String victimQueue) {
    asked++;
    return rule.test(preemptorQueue, victimQueue);
  }

  @Override
  public List<TaskInfo> allowed(Session session, TaskInfo preemptor, List<TaskInfo> candidates) {
    askers.add(preemptor.key());
    return candidates;
  }

  @Override
  public boolean mayTake(Session session, JobInfo victim) {
    return true;
  }
}
