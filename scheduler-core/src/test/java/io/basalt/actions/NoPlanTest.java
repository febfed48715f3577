package io.basalt.actions;

import static io.basalt.testing.TestQueues.queue;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.api.TaskInfo;
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
import org.junit.jupiter.api.Test;

class NoPlanTest {
  private static final String QUEUE = "scheduling.volcano.sh/queue-name";

  /** Queue {@code full} has no room for anything. */
  private static final class FullQueue implements Plugin {
    @Override
    public String name() {
      return "test";
    }

    @Override
    public void onSessionOpen(SessionView session, Registrar registrar) {
      registrar.addAllocatable((queue, task) -> !queue.queue().name().equals("full"));
    }
  }

  /** n1 (4 cpu) runs a 4-cpu pod of queue other; the pending pods ask for 3 cpu (or 5, more than any node). */
  private static Session session() {
    return TestSessions.cluster().node(TestNodes.node("n1").cpu("4").build())
        .queue(queue("full")).queue(queue("open")).queue(queue("other"))
        .pod(TestPods.pod("ns/in-full").cpu("3").annotation(QUEUE, "full").build())
        .pod(TestPods.pod("ns/in-open").cpu("3").annotation(QUEUE, "open").build())
        .pod(TestPods.pod("ns/too-big").cpu("5").annotation(QUEUE, "open").build())
        .pod(TestPods.pod("ns/other").cpu("4").annotation(QUEUE, "other").onNode("n1").build())
        .open(PluginRegistry.of(PluginDescriptor.of("test", FullQueue::new)),
            "actions: \"reclaim\"\ntiers:\n- plugins:\n  - name: test\n");
  }

  private static boolean certain(Session s, String pod, boolean ownQueue) {
    TaskInfo t = TestSessions.task(s, pod);
    return new NoPlan().certain(s, t.job(), t, ownQueue ? TestScope.ownQueue() : TestScope.otherQueues(), RunningPods.of(s));
  }

  @Test
  void aFullQueueGetsNoPlanWhenOnlyOtherQueuesGiveVictims() {
    Session s = session();
    assertTrue(certain(s, "ns/in-full", false), "reclaim: no victim in its own queue can give it room");
    assertFalse(certain(s, "ns/in-full", true), "preempt: its own queue's victims could");
  }

  @Test
  void anOpenQueueGetsNoPlanOnlyWhenNoNodeCouldHoldItsFirstPod() {
    Session s = session();
    assertFalse(certain(s, "ns/in-open", false), "n1 holds 3 cpu once queue other's pod is gone");
    assertTrue(certain(s, "ns/in-open", true), "its own queue runs nothing on n1");
    assertTrue(certain(s, "ns/too-big", false), "no node has 5 cpu at all");
  }
}
