package io.basalt.actions;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.api.JobInfo;
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
import java.util.List;
import java.util.Map;
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

  /** Victims from the queues {@code inScope} says, every one allowed. */
  private record Scope(boolean ownQueue) implements VictimPlanner.Scope {
    @Override
    public boolean inScope(String preemptorQueue, String victimQueue) {
      return ownQueue == victimQueue.equals(preemptorQueue);
    }

    @Override
    public List<TaskInfo> allowed(Session session, TaskInfo preemptor, List<TaskInfo> candidates) {
      return candidates;
    }

    @Override
    public boolean mayTake(Session session, JobInfo victim) {
      return true;
    }
  }

  private static Queue queue(String name) {
    return new Queue(name, 1, null, null, null, true, 0, null, "Open", Map.of());
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
    return new NoPlan().certain(s, t.job(), t, new Scope(ownQueue), RunningPods.of(s));
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
