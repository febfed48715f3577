package io.basalt.actions;

import static io.basalt.testing.TestQueues.queue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.basalt.api.JobInfo;
import io.basalt.framework.PluginRegistry;
import io.basalt.session.Session;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class JobsInQueueOrderTest {
  private static final String QUEUE = "scheduling.volcano.sh/queue-name";

  private static Session session() {
    // Without plugins: queues by name, jobs by creation time then key.
    return TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("8").build())
        .queue(queue("a")).queue(queue("b"))
        .pod(TestPods.pod("ns/b-old").cpu("1").annotation(QUEUE, "b").created(Instant.ofEpochSecond(1)).build())
        .pod(TestPods.pod("ns/a-new").cpu("1").annotation(QUEUE, "a").created(Instant.ofEpochSecond(9)).build())
        .pod(TestPods.pod("ns/b-new").cpu("1").annotation(QUEUE, "b").created(Instant.ofEpochSecond(5)).build())
        .pod(TestPods.pod("ns/a-old").cpu("1").annotation(QUEUE, "a").created(Instant.ofEpochSecond(2)).build())
        .open(PluginRegistry.of(), "actions: \"enqueue\"\ntiers: []\n");
  }

  private static List<String> queuesThenCreation(Session s, List<JobInfo> jobs) {
    List<String> out = new ArrayList<>();
    for (JobInfo j : jobs) {
      out.add(j.queue() + "@" + j.creationTimestamp().getEpochSecond());
    }
    return out;
  }

  @Test
  void sortsByQueueThenJobOrder() {
    Session s = session();
    List<JobInfo> jobs = new ArrayList<>(s.jobs());
    JobsInQueueOrder.sort(s, jobs);
    assertEquals(List.of("a@2", "a@9", "b@1", "b@5"), queuesThenCreation(s, jobs));
  }

  @Test
  void sortedPairsEachJobWithItsQueueAndLeavesTheListAlone() {
    Session s = session();
    List<JobInfo> jobs = new ArrayList<>(s.jobs());
    List<JobInfo> before = List.copyOf(jobs);
    List<JobsInQueueOrder.Entry> sorted = JobsInQueueOrder.sorted(s, jobs);
    assertEquals(before, jobs);
    List<JobInfo> order = new ArrayList<>();
    for (JobsInQueueOrder.Entry e : sorted) {
      assertSame(s.queue(e.job().queue()), e.queue());
      order.add(e.job());
    }
    assertEquals(List.of("a@2", "a@9", "b@1", "b@5"), queuesThenCreation(s, order));
  }
}
