package io.basalt.actions;

import static io.basalt.testing.TestQueues.queue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.basalt.framework.PluginRegistry;
import io.basalt.model.PodGroup;
import io.basalt.session.Session;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class VictimPoolsTest {
  private static final String QUEUE = "scheduling.volcano.sh/queue-name";

  private static Session session() {
    TestSessions c = TestSessions.cluster().node(TestNodes.node("n1").cpu("8").build())
        .queue(queue("a")).queue(queue("b")).queue(queue("v"))
        .podGroup(new PodGroup("ns", "g", 1, Map.of(), "v", null, null, "Running",
            Instant.ofEpochSecond(1_600_000_000L)))
        .pod(TestPods.pod("ns/a1").cpu("1").annotation(QUEUE, "a").build())
        .pod(TestPods.pod("ns/a2").cpu("1").annotation(QUEUE, "a").build())
        .pod(TestPods.pod("ns/b1").cpu("1").annotation(QUEUE, "b").build())
        .pod(TestPods.pod("ns/g-0").cpu("4").group("g").onNode("n1").build());
    return c.open(PluginRegistry.of(), "actions: \"reclaim\"\ntiers: []\n");
  }

  @Test
  void aDeferredPoolIsBuiltForItsFirstAskerBeforeTheNextJobThatTries() {
    Session s = session();
    TestScope scope = TestScope.otherQueues();
    VictimPools pools = new VictimPools(scope);
    pools.defer(TestSessions.task(s, "ns/a1"));
    pools.defer(TestSessions.task(s, "ns/a2")); // same pool: the first asker stays
    assertEquals(List.of(), scope.askers, "nothing built while only ruled-out jobs asked");
    VictimPool b = pools.get(s, TestSessions.task(s, "ns/b1"));
    assertEquals(List.of("ns/a1", "ns/b1"), scope.askers, "queue a's pool first, for a1, as it would have been");
    assertSame(b, pools.get(s, TestSessions.task(s, "ns/b1")));
    VictimPool a = pools.get(s, TestSessions.task(s, "ns/a2"));
    assertSame(a, pools.get(s, TestSessions.task(s, "ns/a1")));
    assertEquals(2, scope.askers.size(), "reused, not built again for a2");
    assertEquals(2, pools.built());
  }

  @Test
  void deferringAPoolAlreadyBuiltChangesNothing() {
    Session s = session();
    TestScope scope = TestScope.otherQueues();
    VictimPools pools = new VictimPools(scope);
    VictimPool a = pools.get(s, TestSessions.task(s, "ns/a1"));
    pools.defer(TestSessions.task(s, "ns/a2"));
    assertSame(a, pools.get(s, TestSessions.task(s, "ns/a2")));
    assertEquals(List.of("ns/a1"), scope.askers);
  }
}
