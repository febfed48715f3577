package io.basalt.actions;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.basalt.config.Arguments;
import io.basalt.framework.PluginRegistry;
import io.basalt.model.Queue;
import io.basalt.session.Session;
import io.basalt.session.SessionResult;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EnqueueTest {
  private static Queue queue(String name, String state) {
    return new Queue(name, 1, null, null, null, true, 0, null, state, Map.of());
  }

  @Test
  void aClosedQueueAdmitsNothingAndSaysWhy() {
    Session s = TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("8").build())
        .queue(queue("open", "Open")).queue(queue("shut", "Closed"))
        .pod(TestPods.pod("ns/in-open").cpu("1").annotation("scheduling.volcano.sh/queue-name", "open").build())
        .pod(TestPods.pod("ns/in-shut").cpu("1").annotation("scheduling.volcano.sh/queue-name", "shut").build())
        .open(PluginRegistry.of(), "actions: \"enqueue, allocate\"\ntiers: []\n");
    ActionRegistry actions = ActionRegistry.builtin();
    actions.create("enqueue", Arguments.empty()).execute(s);
    actions.create("allocate", Arguments.empty()).execute(s);
    SessionResult r = s.close();
    assertEquals(1, r.bindings().size());
    assertEquals("ns/in-open", r.bindings().get(0).pod().key());
    assertEquals("pod not admitted to queue shut: queue shut is Closed", r.pending().get(0).reason());
  }

  @Test
  void aPodNamingAQueueThatDoesNotExistWaitsWithTheReason() {
    Session s = TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("8").build())
        .pod(TestPods.pod("ns/lost").cpu("1").annotation("scheduling.volcano.sh/queue-name", "nowhere").build())
        .open(PluginRegistry.of(), "actions: \"enqueue, allocate\"\ntiers: []\n");
    ActionRegistry.builtin().create("enqueue", Arguments.empty()).execute(s);
    ActionRegistry.builtin().create("allocate", Arguments.empty()).execute(s);
    SessionResult r = s.close();
    assertEquals(0, r.bindings().size());
    assertEquals("queue nowhere not found", r.pending().get(0).reason());
  }
}
