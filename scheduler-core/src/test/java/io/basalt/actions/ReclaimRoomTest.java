package io.basalt.actions;

import static io.basalt.testing.TestQueues.queue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.basalt.config.Arguments;
import io.basalt.framework.Plugin;
import io.basalt.framework.PluginDescriptor;
import io.basalt.framework.PluginRegistry;
import io.basalt.framework.Registrar;
import io.basalt.framework.SessionView;
import io.basalt.model.PodGroup;
import io.basalt.session.Session;
import io.basalt.session.SessionResult;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Reclaim rules a job out before building victims only when no node could hold its first pod even with every pod of
 * the queues it may take from gone: room made up of two victim queues on one node still counts.
 */
class ReclaimRoomTest {
  private static final String QUEUE = "scheduling.volcano.sh/queue-name";

  /** Every candidate may go; the queues in {@code refused} may not be taken from. */
  private static final class Lenient implements Plugin {
    private final Set<String> refused;

    Lenient(Set<String> refused) {
      this.refused = refused;
    }

    @Override
    public String name() {
      return "test";
    }

    @Override
    public void onSessionOpen(SessionView session, Registrar registrar) {
      registrar.addReclaimable((reclaimer, candidates) -> candidates);
      registrar.addReclaimFrom(queue -> !refused.contains(queue.queue().name()));
    }
  }

  private static PodGroup gang(String name, String queue, String phase) {
    return new PodGroup("ns", name, 1, Map.of(), queue, null, null, phase, Instant.ofEpochSecond(1_600_000_000L));
  }

  /**
   * n1 (8 cpu) is full: two pods of queue b (2 cpu each), two of queue c (one opted out). The asker (queue a) needs
   * 5 cpu: only b's 4 and c's 2 together make room on n1.
   */
  private static Set<String> evicted(Set<String> refused) {
    TestSessions c = TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("8").build()).node(TestNodes.node("n2").cpu("2").build())
        .queue(queue("a")).queue(queue("b")).queue(queue("c"))
        .podGroup(gang("ask", "a", "Inqueue")).podGroup(gang("gb", "b", "Running"))
        .podGroup(gang("gc", "c", "Running"))
        .pod(TestPods.pod("ns/ask-0").cpu("5").group("ask").annotation(QUEUE, "a").build());
    for (int i = 0; i < 2; i++) {
      c.pod(TestPods.pod("ns/gb-" + i).cpu("2").group("gb").onNode("n1").build());
      c.pod(TestPods.pod("ns/gc-" + i).cpu("2").group("gc").onNode("n1")
          .annotation(VictimPlanner.PREEMPTABLE, i == 0 ? "false" : "true").build());
    }
    Session s = c.open(PluginRegistry.of(PluginDescriptor.of("test", () -> new Lenient(refused))),
        "actions: \"reclaim\"\ntiers:\n- plugins:\n  - name: test\n");
    ActionRegistry.builtin().create("reclaim", Arguments.empty()).execute(s);
    SessionResult r = s.close();
    Set<String> out = new TreeSet<>();
    for (SessionResult.Eviction e : r.evictions()) {
      out.add(e.pod().namespace() + "/" + e.pod().name());
    }
    return out;
  }

  @Test
  void roomFromTwoVictimQueuesOnOneNodeIsFound() {
    assertEquals(Set.of("ns/gb-0", "ns/gb-1", "ns/gc-1"), evicted(Set.of()));
  }

  @Test
  void aQueueTheRuleRefusesLeavesTooLittleAndNothingGoes() {
    assertEquals(Set.of(), evicted(Set.of("c")));
    assertEquals(Set.of(), evicted(Set.of("b")));
  }
}
