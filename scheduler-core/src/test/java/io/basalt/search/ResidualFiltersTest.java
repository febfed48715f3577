package io.basalt.search;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.framework.FilterResult;
import io.basalt.framework.Plugin;
import io.basalt.framework.PluginDescriptor;
import io.basalt.framework.PluginRegistry;
import io.basalt.framework.PodSigner;
import io.basalt.framework.Registrar;
import io.basalt.framework.SessionView;
import io.basalt.framework.TaskFilter;
import io.basalt.session.Session;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import org.junit.jupiter.api.Test;

/**
 * A filter that signs nothing for a task (as spread and pod affinity do for pods with constraints) is asked on every
 * visit, while the filters that sign keep their verdicts for the task's key: the unsigned filter's new answer counts
 * at once, and the signed one is not asked again on nodes that did not change.
 */
class ResidualFiltersTest {
  private int signedCalls;
  private int residualCalls;
  /** The one node the unsigned filter lets through; it moves between searches while no node changes. */
  private String open = "n1";

  private final class TwoFilters implements Plugin {
    @Override
    public String name() {
      return "two";
    }

    @Override
    public void onSessionOpen(SessionView session, Registrar registrar) {
      TaskFilter signed = (task, node) -> {
        signedCalls++;
        return node.name().equals("n0") ? FilterResult.unfit("n0 is closed") : FilterResult.OK;
      };
      registrar.addFilter(PodSigner.signedFilter(signed, TaskInfo::request));
      registrar.addFilter((task, node) -> {
        residualCalls++;
        return node.name().equals(open) || node.name().equals("n0") ? FilterResult.OK : FilterResult.unfit("moved");
      });
    }
  }

  private Session open() {
    TestSessions cluster = TestSessions.cluster();
    for (int i = 0; i < 6; i++) {
      cluster.node(TestNodes.node("n" + i).cpu("8").build());
    }
    cluster.pod(TestPods.pod("ns/p0").cpu("1").build());
    cluster.pod(TestPods.pod("ns/p1").cpu("1").build());
    return cluster.open(PluginRegistry.of(PluginDescriptor.of("two", TwoFilters::new)),
        "actions: \"allocate\"\ntiers:\n- plugins:\n  - name: two\n");
  }

  @Test
  void theSignedFiltersVerdictsAreKeptAndTheUnsignedOneIsAskedEachTime() {
    Session s = open();
    NodeSearch search = new NodeSearch(100);
    assertEquals("n1", search.find(s, TestSessions.task(s, "ns/p0")).node().name());
    assertEquals(6, signedCalls, "the first search asks every node");
    assertEquals(5, residualCalls, "the unsigned filter is asked where the signed one passed");
    open = "n4";
    // p1 has p0's request and no node changed: the signed filter's verdicts serve it, the unsigned one is asked anew.
    NodeInfo second = search.find(s, TestSessions.task(s, "ns/p1")).node();
    assertEquals("n4", second.name(), "the unsigned filter's new answer counts");
    assertEquals(6, signedCalls, "the signed filter was not asked again");
    assertEquals(10, residualCalls);
  }

  @Test
  void aNodeTheSignedFilterRefusesStaysRefusedWhateverTheUnsignedOneSays() {
    Session s = open();
    NodeSearch search = new NodeSearch(100);
    open = "none";
    // Only n0 passes the unsigned filter, and the signed one refuses it.
    NodeSearch.Result r = search.find(s, TestSessions.task(s, "ns/p0"));
    assertEquals(null, r.node());
    assertEquals("0/6 nodes are available: 5 moved, 1 n0 is closed.", r.fitError());
  }
}
