package io.basalt.actions;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.basalt.api.JobInfo;
import io.basalt.framework.JobOrderKey;
import io.basalt.framework.Plugin;
import io.basalt.framework.PluginDescriptor;
import io.basalt.framework.PluginRegistry;
import io.basalt.framework.Registrar;
import io.basalt.framework.SessionView;
import io.basalt.model.Queue;
import io.basalt.session.Session;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The sort with keys taken before sorting orders jobs exactly as the session's queue order then job order compare
 * them, keyed and plain plugin orders mixed, and asks a keyed order once per job, not per comparison.
 */
class JobsInQueueOrderKeysTest {
  private static final String QUEUE = "scheduling.volcano.sh/queue-name";
  private static int keysAsked;

  /** A keyed order (priority modulo 3, so ties), a plain comparator after it, and a queue order by weight. */
  public static final class Orders implements Plugin {
    @Override
    public String name() {
      return "orders";
    }

    @Override
    public void onSessionOpen(SessionView session, Registrar registrar) {
      registrar.addJobOrder(JobOrderKey.ascending(job -> {
        keysAsked++;
        return job.priority() % 3;
      }));
      registrar.addJobOrder(Comparator.comparingInt((JobInfo j) -> j.key().length()));
      registrar.addQueueOrder((a, b) -> Integer.compare(b.weight(), a.weight()));
    }
  }

  @Test
  void ordersAsTheComparatorsDoAndTakesEachKeyOnce() {
    Random random = new Random(11);
    TestSessions cluster = TestSessions.cluster().node(TestNodes.node("n1").cpu("1").build());
    for (int q = 0; q < 3; q++) {
      cluster.queue(new Queue("q" + q, 1 + q % 2, null, null, null, true, 0, null, "Open", Map.of()));
    }
    for (int i = 0; i < 300; i++) {
      TestPods pod = TestPods.pod("ns/p" + "x".repeat(random.nextInt(3)) + i).cpu("1")
          .annotation(QUEUE, "q" + random.nextInt(3)).priority(random.nextInt(10));
      // Equal times, times differing in nanos only, and a few pods without one.
      pod.created(random.nextInt(10) == 0 ? null : Instant.ofEpochSecond(random.nextInt(20), random.nextInt(2)));
      cluster.pod(pod.build());
    }
    Session s = cluster.open(PluginRegistry.of(PluginDescriptor.of("orders", Orders::new)),
        "actions: \"enqueue\"\ntiers:\n- plugins:\n  - name: orders\n");
    List<JobInfo> jobs = new ArrayList<>(s.jobs());
    List<JobInfo> expected = new ArrayList<>(jobs);
    Comparator<JobInfo> byQueue = (a, b) -> s.callbacks().queueOrder().compare(s.queue(a.queue()), s.queue(b.queue()));
    expected.sort(byQueue.thenComparing(s.callbacks().jobOrder()));
    keysAsked = 0;
    List<JobsInQueueOrder.Entry> sorted = JobsInQueueOrder.sorted(s, jobs);
    assertEquals(jobs.size(), keysAsked, "one key per job");
    List<JobInfo> order = new ArrayList<>();
    sorted.forEach(e -> order.add(e.job()));
    assertEquals(expected, order);

    List<JobInfo> byJobOrder = new ArrayList<>(jobs);
    byJobOrder.sort(s.callbacks().jobOrder());
    keysAsked = 0;
    List<JobInfo> keyed = new ArrayList<>(jobs);
    s.callbacks().jobSortKeys().sort(keyed);
    assertEquals(jobs.size(), keysAsked, "one key per job");
    assertEquals(byJobOrder, keyed);
  }
}
