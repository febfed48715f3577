package io.basalt.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.basalt.api.JobInfo;
import io.basalt.api.KeptTasks;
import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.api.TaskStatus;
import io.basalt.framework.PluginRegistry;
import io.basalt.model.PodGroup;
import io.basalt.model.Queue;
import io.basalt.model.ResourceNames;
import io.basalt.model.ResourceVector;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * What a job keeps summed of its holding tasks ({@link JobInfo#held}) and the queue statuses built from it at close
 * are what a walk over the tasks finds: after the build, after every allocate, pipeline and evict, after commits and
 * discards, across cycles that reuse tasks and lone jobs (pods kept, changed, gone), and with fresh objects.
 */
class HeldSumsTest {
  private static final String CONF = "actions: \"enqueue\"\ntiers: []\n";

  @Test
  void heldSumsMatchAWalkThroughEveryChange() {
    for (int seed = 0; seed < 30; seed++) {
      Random r = new Random(seed);
      TestSessions c = TestSessions.cluster()
          .queue(new Queue("q0", 1, null, null, null, true, 0, null, "Open", Map.of()));
      for (int n = 0; n < 4; n++) {
        c.node(TestNodes.node("n" + n).cpu("64").memory("256Gi").build());
      }
      for (int g = 0; g < 4; g++) {
        c.podGroup(new PodGroup("ns", "g" + g, 2, Map.of(), g % 2 == 0 ? "q0" : "default", null, null, "Running",
            Instant.EPOCH));
      }
      for (int p = 0; p < 30; p++) {
        c.pod(randomPod(r, p));
      }
      KeptTasks kept = new KeptTasks();
      for (int cycle = 0; cycle < 4; cycle++) {
        boolean fresh = cycle == 3; // as explaining opens: every object new
        Session s = Session.open(c.cache().snapshot(), TestSessions.sessionProfile(PluginRegistry.of(),
            TestSessions.parse(CONF)), ExplainRecorder.NONE, fresh ? new KeptTasks() : kept);
        String where = "seed " + seed + " cycle " + cycle;
        assertHeldAsWalked(s, where + " at open");
        changeRandomly(s, r, where);
        SessionResult result = s.close();
        assertQueuesAsWalked(s, result, where + " at close");
        for (int p = 0; p < 30; p++) { // the next cycle: some pods changed, gone or new
          int roll = r.nextInt(6);
          if (roll == 0) {
            c.cache().removePod("ns-p" + p + "-uid");
          } else if (roll == 1) {
            c.pod(randomPod(r, p));
          }
        }
      }
    }
  }

  private static io.basalt.model.Pod randomPod(Random r, int p) {
    TestPods pod = TestPods.pod("ns/p" + p).cpu(String.valueOf(1 + r.nextInt(4)))
        .memory((1 + r.nextInt(8)) + "Gi");
    if (r.nextInt(3) == 0) { // a longer request vector than the others
      pod.resource("example.com/held-sums-test", String.valueOf(1 + r.nextInt(2)));
    }
    if (r.nextInt(3) == 0) {
      pod.group("g" + r.nextInt(4));
    }
    switch (r.nextInt(4)) {
      case 0 -> pod.onNode("n" + r.nextInt(4));
      case 1 -> pod.onNode("n" + r.nextInt(4)).terminating();
      default -> { }
    }
    return pod.build();
  }

  /** Allocates, pipelines and evicts at random in a few statements, committing or discarding each. */
  private static void changeRandomly(Session s, Random r, String where) {
    List<TaskInfo> tasks = new ArrayList<>();
    s.jobs().forEach(j -> tasks.addAll(j.tasks()));
    for (int round = 0; round < 4; round++) {
      Statement st = s.newStatement();
      for (int op = 0; op < 6; op++) {
        TaskInfo t = tasks.get(r.nextInt(tasks.size()));
        NodeInfo node = s.nodes().get(r.nextInt(s.nodes().size()));
        if (t.status() == TaskStatus.PENDING) {
          if (r.nextBoolean()) {
            st.allocate(t, node);
          } else {
            st.pipeline(t, node);
          }
        } else if (t.status() == TaskStatus.RUNNING) {
          st.evict(t, "test");
        }
        assertHeldAsWalked(s, where + " round " + round + " op " + op);
      }
      switch (r.nextInt(3)) {
        case 0 -> st.discard();
        case 1 -> st.commit();
        default -> st.hold();
      }
      assertHeldAsWalked(s, where + " round " + round + " after the statement");
    }
  }

  private static void assertHeldAsWalked(Session s, String where) {
    for (JobInfo job : s.jobs()) {
      long[] walked = new long[ResourceNames.count()];
      for (TaskInfo t : job.tasks()) {
        if (t.status().holdsResources()) {
          for (int i = 0; i < t.request().size(); i++) {
            walked[i] += t.request().get(i);
          }
        }
      }
      for (int i = 0; i < Math.max(walked.length, job.heldSlots()); i++) {
        assertEquals(i < walked.length ? walked[i] : 0, job.held(i), job.key() + " slot " + i + ", " + where);
      }
    }
  }

  /** Each queue's allocated is what its jobs' binding, bound and running tasks request, the pod count aside. */
  private static void assertQueuesAsWalked(Session s, SessionResult result, String where) {
    Map<String, ResourceVector> walked = new HashMap<>();
    for (JobInfo job : s.jobs()) {
      for (TaskInfo t : job.tasks()) {
        if (t.status() == TaskStatus.BINDING || t.status() == TaskStatus.BOUND || t.status() == TaskStatus.RUNNING) {
          walked.merge(job.queue(), t.request(), ResourceVector::plus);
        }
      }
    }
    for (SessionResult.QueueStatus q : result.queues()) {
      ResourceVector expected = walked.getOrDefault(q.name(), ResourceVector.ZERO).without(ResourceNames.PODS);
      assertEquals(expected, q.allocated(), q.name() + ", " + where);
    }
  }
}
