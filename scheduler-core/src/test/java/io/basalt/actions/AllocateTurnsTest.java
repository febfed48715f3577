package io.basalt.actions;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.basalt.api.JobInfo;
import io.basalt.api.TaskStatus;
import io.basalt.config.Arguments;
import io.basalt.framework.AllocationListener;
import io.basalt.framework.JobOrderKey;
import io.basalt.framework.Plugin;
import io.basalt.framework.PluginDescriptor;
import io.basalt.framework.PluginRegistry;
import io.basalt.framework.Registrar;
import io.basalt.framework.SessionView;
import io.basalt.model.PodGroup;
import io.basalt.session.Session;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Allocate takes a waiting job's order keys once, when it joins its queue's heap: the jobs it places, in turn, are
 * those the live job order picks at every step, with keys that move as a job's own placements do (a job that yields
 * joins again with its new keys).
 */
class AllocateTurnsTest {
  /** Ready at minMember; fewer placed tasks first (a key each placement moves), then priority, then the plain order. */
  public static final class Turns implements Plugin {
    static final List<String> placed = new ArrayList<>();

    @Override
    public String name() {
      return "turns";
    }

    @Override
    public void onSessionOpen(SessionView session, Registrar registrar) {
      registrar.addJobReady(job -> job.readyTaskNum() >= job.minMember());
      registrar.addJobOrder(JobOrderKey.ascending(job -> job.count(TaskStatus.ALLOCATED)));
      registrar.addJobOrder(JobOrderKey.ascending(job -> -(double) job.priority()));
      registrar.addAllocationListener(AllocationListener.of((task, sign) -> {
        if (sign > 0) {
          placed.add(task.job().key());
        }
      }));
    }
  }

  @Test
  void jobsTakeTurnsAsTheLiveOrderPicksThem() {
    for (int seed = 0; seed < 10; seed++) {
      Random r = new Random(seed);
      TestSessions c = TestSessions.cluster().node(TestNodes.node("n1").cpu("1000").build());
      for (int g = 0; g < 8; g++) {
        c.podGroup(new PodGroup("ns", "g" + g, 1 + r.nextInt(2), Map.of(), "default", null, null, "Inqueue",
            Instant.ofEpochSecond(r.nextInt(3))));
        for (int p = 0, n = 1 + r.nextInt(4); p < n; p++) {
          c.pod(TestPods.pod("ns/g" + g + "-" + p).cpu("1").group("g" + g).priority(r.nextInt(3)).build());
        }
      }
      Session s = c.open(PluginRegistry.of(PluginDescriptor.of("turns", Turns::new)),
          "actions: \"allocate\"\ntiers:\n- plugins:\n  - name: turns\n");
      List<String> expected = liveTurns(s);
      Turns.placed.clear();
      ActionRegistry.builtin().create("allocate", Arguments.empty()).execute(s);
      assertEquals(expected, Turns.placed, "seed " + seed);
    }
  }

  /**
   * What allocate places, worked out with the live order before it runs: the first job in order places tasks until it
   * is ready, then gives the others a turn if it has tasks left (its placements counted as the key does).
   */
  private static List<String> liveTurns(Session s) {
    List<JobInfo> waiting = new ArrayList<>(s.jobs());
    Map<JobInfo, int[]> left = new java.util.IdentityHashMap<>();
    Map<JobInfo, int[]> done = new java.util.IdentityHashMap<>();
    for (JobInfo j : waiting) {
      left.put(j, new int[] {j.tasks().size()});
      done.put(j, new int[1]);
    }
    java.util.Comparator<JobInfo> order = java.util.Comparator.comparingInt((JobInfo j) -> done.get(j)[0])
        .thenComparing(j -> -j.priority())
        .thenComparing(JobInfo::creationTimestamp)
        .thenComparing(JobInfo::key);
    List<String> out = new ArrayList<>();
    while (!waiting.isEmpty()) {
      JobInfo job = java.util.Collections.min(waiting, order);
      do {
        out.add(job.key());
        done.get(job)[0]++;
        left.get(job)[0]--;
      } while (left.get(job)[0] > 0 && done.get(job)[0] < job.minMember());
      if (left.get(job)[0] == 0) {
        waiting.remove(job);
      }
    }
    return out;
  }
}
