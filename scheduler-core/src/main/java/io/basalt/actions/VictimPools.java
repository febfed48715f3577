package io.basalt.actions;

import io.basalt.api.JobInfo;
import io.basalt.api.TaskInfo;
import io.basalt.session.Session;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One action's victim pools by who asks (queue, priority, class), each built for the first job that asks and reused
 * until an eviction commits. A job that {@link Evictions} rules out before any trial only {@linkplain #defer defers}
 * its pool: it is built, for that same first asker, just before the next job that does try, or never. Nothing changes
 * the session between the two (a job ruled out changes nothing), so the pool is the one it would have been.
 */
final class VictimPools {
  /** What the plugins' verdict on the whole pool depends on. */
  private record PoolKey(String queue, int jobPriority, String priorityClass, String preemptionPolicy) {
    static PoolKey of(TaskInfo t) {
      return new PoolKey(t.job().queue(), t.job().priority(), t.pod().priorityClassName(),
          t.pod().preemptionPolicy());
    }
  }

  private final Map<PoolKey, VictimPool> pools = new HashMap<>();
  /** Pools asked for by jobs ruled out before a trial, with their first asker; not built yet. */
  private final Map<PoolKey, TaskInfo> deferred = new LinkedHashMap<>();
  private final VictimPlanner.Scope scope;

  VictimPools(VictimPlanner.Scope scope) {
    this.scope = scope;
  }

  /** {@code first}'s pool; the deferred pools are built first, as they would have been before this job. */
  VictimPool get(Session session, TaskInfo first) {
    if (!deferred.isEmpty()) {
      deferred.forEach((key, asker) -> pools.put(key, build(session, asker)));
      deferred.clear();
    }
    return pools.computeIfAbsent(PoolKey.of(first), k -> build(session, first));
  }

  /** {@code first} would have built its pool here had its job not been ruled out: the first asker is remembered. */
  void defer(TaskInfo first) {
    PoolKey key = PoolKey.of(first);
    if (!pools.containsKey(key)) {
      deferred.putIfAbsent(key, first);
    }
  }

  /** Pools built so far (deferred ones not counted). */
  int built() {
    return pools.size();
  }

  private VictimPool build(Session session, TaskInfo asker) {
    return new VictimPool(asker, VictimPlanner.units(session, asker, scope, RunningPods.of(session)));
  }

  /**
   * After a commit, the pools that can hold a pod of a queue it changed (the victims' queues and the job's, whose pods
   * became busy) refresh the units of the jobs it touched; the others still hold exactly what a rebuild would give.
   * No pool is deferred then: the committing job built them.
   */
  void refreshTouching(Session session, List<VictimPlanner.Unit> victims, JobInfo job) {
    Set<String> queues = new HashSet<>();
    Set<JobInfo> jobs = Collections.newSetFromMap(new IdentityHashMap<>());
    queues.add(job.queue());
    jobs.add(job);
    for (VictimPlanner.Unit u : victims) {
      queues.add(u.job().queue());
      jobs.add(u.job());
    }
    pools.forEach((k, pool) -> {
      if (queues.contains(k.queue()) || queues.stream().anyMatch(q -> scope.inScope(k.queue(), q))) {
        pool.refresh(session, scope, jobs);
      }
    });
  }
}
