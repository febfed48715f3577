package io.basalt.plugins.queueshare;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.basalt.api.JobInfo;
import io.basalt.api.KeptTasks;
import io.basalt.api.TaskInfo;
import io.basalt.api.TaskStatus;
import io.basalt.framework.PluginDescriptor;
import io.basalt.framework.PluginRegistry;
import io.basalt.model.PodGroup;
import io.basalt.model.Queue;
import io.basalt.model.ResourceNames;
import io.basalt.model.ResourceVector;
import io.basalt.session.ExplainRecorder;
import io.basalt.session.Session;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.time.Instant;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A queue's allocated, requested and elastic sums at open, taken from what each job keeps summed of its holding tasks,
 * are what a walk over every task finds, on random clusters of gangs with and without minResources, lone pods,
 * running, releasing and pending pods, and sessions that reuse the previous one's tasks.
 */
class OpeningSumsTest {
  private static final String[] QUEUES = {"q0", "q1", "default"};

  @Test
  void openingSumsMatchAWalkOverTheTasks() {
    for (int seed = 0; seed < 40; seed++) {
      Random r = new Random(seed);
      TestSessions c = TestSessions.cluster().node(TestNodes.node("n1").cpu("512").memory("2Ti").build())
          .queue(new Queue("q0", 1, null, null, null, true, 0, null, "Open", Map.of()))
          .queue(new Queue("q1", 2, null, null, null, true, 0, null, "Open", Map.of()));
      for (int g = 0; g < 5; g++) {
        ResourceVector min = r.nextBoolean() ? null
            : ResourceVector.parse(Map.of("cpu", String.valueOf(1 + r.nextInt(6)),
                "memory", (1 + r.nextInt(9)) + "Gi"));
        c.podGroup(new PodGroup("ns", "g" + g, 1 + r.nextInt(3), Map.of(), QUEUES[r.nextInt(QUEUES.length)], null,
            min, "Running", Instant.EPOCH));
      }
      for (int p = 0; p < 5 + r.nextInt(30); p++) {
        TestPods pod = TestPods.pod("ns/p" + p).cpu(String.valueOf(1 + r.nextInt(4))).memory((1 + r.nextInt(8)) + "Gi");
        if (r.nextInt(3) > 0) {
          pod.group("g" + r.nextInt(5));
        } else {
          pod.annotation("scheduling.volcano.sh/queue-name", QUEUES[r.nextInt(QUEUES.length)]);
        }
        switch (r.nextInt(4)) {
          case 0 -> pod.onNode("n1");
          case 1 -> pod.onNode("n1").terminating();
          default -> { }
        }
        c.pod(pod.build());
      }
      KeptTasks kept = new KeptTasks();
      for (int cycle = 0; cycle < 2; cycle++) {
        ProportionPlugin plugin = new ProportionPlugin();
        Session s = Session.open(c.cache().snapshot(), TestSessions.sessionProfile(
            PluginRegistry.of(PluginDescriptor.of("proportion", () -> plugin)),
            TestSessions.parse(TestSessions.singlePlugin("proportion", ""))), ExplainRecorder.NONE, kept);
        for (String q : QUEUES) {
          assertSumsAsWalked(s, plugin.share(q), q, "seed " + seed + " cycle " + cycle);
        }
      }
    }
  }

  private static void assertSumsAsWalked(Session s, QueueShare share, String queue, String where) {
    double[] allocated = new double[share.allocated.length];
    double[] request = new double[share.request.length];
    double[] elastic = new double[share.elastic.length];
    for (JobInfo job : s.jobs()) {
      if (!job.queue().equals(queue)) {
        continue;
      }
      long[] jobHeld = new long[allocated.length];
      for (TaskInfo t : job.tasks()) {
        boolean holds = t.status().holdsResources();
        for (int i = 0; i < allocated.length; i++) {
          long v = i == ResourceNames.PODS ? 0 : t.request().get(i);
          allocated[i] += holds ? v : 0;
          request[i] += holds || t.status() == TaskStatus.PENDING ? v : 0;
          jobHeld[i] += holds ? v : 0;
        }
      }
      ResourceVector min = job.podGroup().minResources();
      boolean holding = job.tasks().stream().anyMatch(t -> t.status().holdsResources()); // the jobs walked at open
      for (int i = 0; min != null && holding && i < elastic.length; i++) {
        elastic[i] += i == ResourceNames.PODS ? 0 : Math.max(0, jobHeld[i] - min.get(i));
      }
    }
    for (int i = 0; i < allocated.length; i++) {
      String slot = queue + " " + ResourceNames.name(i) + ", " + where;
      assertEquals(allocated[i], share.allocated[i], "allocated " + slot);
      assertEquals(request[i], share.request[i], "request " + slot);
      assertEquals(elastic[i], share.elastic[i], "elastic " + slot);
    }
  }
}
