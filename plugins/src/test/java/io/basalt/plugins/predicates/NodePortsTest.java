package io.basalt.plugins.predicates;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.framework.FilterResult;
import io.basalt.framework.PluginRegistry;
import io.basalt.framework.TaskFilter;
import io.basalt.model.HostPort;
import io.basalt.model.Node;
import io.basalt.model.Pod;
import io.basalt.model.PodConstraints;
import io.basalt.session.Session;
import io.basalt.session.Statement;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The NodePorts filter: kube-scheduler's host port conflicts, counting this session's placements and evictions. */
class NodePortsTest {
  private static final PluginRegistry REGISTRY = PluginRegistry.of(PredicatesPlugin.descriptor());
  private static final String TAKEN = "node(s) didn't have free ports for the requested pod ports";

  private static Pod withPorts(TestPods pod, HostPort... ports) {
    return pod.cpu("1").build().withConstraints(
        new PodConstraints(List.of(), List.of(ports), null, null, null, null, null, null, null));
  }

  private static HostPort tcp(int port) {
    return new HostPort("TCP", null, port);
  }

  private static Node node(String name) {
    return TestNodes.node(name).cpu("16").memory("64Gi").build();
  }

  /** The session's NodePorts filter (registered after the predicates' own). */
  private static NodePorts ports(Session s) {
    for (TaskFilter f : s.callbacks().filterChain()) {
      if (f instanceof NodePorts p) {
        return p;
      }
    }
    throw new AssertionError("no NodePorts filter in " + s.callbacks().filterChain());
  }

  /** Asks both ways a search asks (directly and prepared), which must agree. */
  private static FilterResult ask(Session s, String pod, String node) {
    TaskInfo task = TestSessions.task(s, pod);
    NodeInfo n = TestSessions.nodeInfo(s, node);
    FilterResult asked = s.callbacks().filter(task, n);
    Function<NodeInfo, FilterResult> prepared = ports(s).forTask(task);
    assertEquals(asked, prepared == null ? FilterResult.OK : prepared.apply(n), "prepared filter");
    return asked;
  }

  @Test
  void conflictsByProtocolHostIpAndPortWithTheWildcard() {
    assertTrue(tcp(8080).conflictsWith(new HostPort("TCP", "10.0.0.1", 8080)), "0.0.0.0 covers every address");
    assertTrue(new HostPort("TCP", "10.0.0.1", 8080).conflictsWith(tcp(8080)));
    assertTrue(!new HostPort("TCP", "10.0.0.1", 8080).conflictsWith(new HostPort("TCP", "10.0.0.2", 8080)));
    assertTrue(!tcp(8080).conflictsWith(new HostPort("UDP", null, 8080)), "another protocol");
    assertTrue(!tcp(8080).conflictsWith(tcp(8081)));
  }

  @Test
  void aPortHeldByAnyPodOnTheNodeRefusesThePod() {
    Node n1 = node("n1");
    Pod running = withPorts(TestPods.pod("other").onNode("n1").scheduler("default-scheduler"), tcp(8080));
    Pod same = withPorts(TestPods.pod("same"), tcp(8080));
    Pod udp = withPorts(TestPods.pod("udp"), new HostPort("UDP", null, 8080));
    Pod address = withPorts(TestPods.pod("address"), new HostPort("TCP", "10.1.1.1", 8080));
    Pod plain = TestPods.pod("plain").cpu("1").build();
    Session s = TestSessions.cluster().node(n1).pod(running).pod(same).pod(udp).pod(address).pod(plain)
        .open(REGISTRY, TestSessions.singlePlugin(PredicatesPlugin.NAME, ""));
    assertEquals(TAKEN, ask(s, same.key(), "n1").reason(), "another scheduler's pod holds 8080");
    assertTrue(ask(s, udp.key(), "n1").ok(), "UDP 8080 is another port");
    assertEquals(TAKEN, ask(s, address.key(), "n1").reason(), "the running pod binds 8080 on every address");
    assertTrue(ask(s, plain.key(), "n1").ok());
  }

  @Test
  void aPodWithoutHostPortsIsSignedAndNeverAskedOneWithPortsIsNotSigned() {
    Node n1 = node("n1");
    Pod plain = TestPods.pod("plain").cpu("1").build();
    Pod web = withPorts(TestPods.pod("web"), tcp(80));
    Session s = TestSessions.cluster().node(n1).pod(plain).pod(web)
        .open(REGISTRY, TestSessions.singlePlugin(PredicatesPlugin.NAME, ""));
    NodePorts ports = ports(s);
    assertNotNull(ports.sign(TestSessions.task(s, plain.key())), "fits everywhere: kept by the equivalence cache");
    assertNull(ports.forTask(TestSessions.task(s, plain.key())), "never asked");
    assertNull(ports.sign(TestSessions.task(s, web.key())), "reads other pods: never kept");
  }

  @Test
  void aPlacementThisSessionTakesItsPortsAndItsUndoGivesThemBack() {
    Node n1 = node("n1");
    Pod first = withPorts(TestPods.pod("first"), tcp(9000));
    Pod second = withPorts(TestPods.pod("second"), tcp(9000), tcp(9001));
    Session s = TestSessions.cluster().node(n1).pod(first).pod(second)
        .open(REGISTRY, TestSessions.singlePlugin(PredicatesPlugin.NAME, ""));
    assertTrue(ask(s, second.key(), "n1").ok(), "nothing holds 9000 yet");
    Statement st = s.newStatement();
    st.allocate(TestSessions.task(s, first.key()), TestSessions.nodeInfo(s, "n1"));
    assertEquals(TAKEN, ask(s, second.key(), "n1").reason(), "asked again after the placement: 9000 is taken");
    st.discard();
    assertTrue(ask(s, second.key(), "n1").ok(), "the discarded placement gave 9000 back");
    Statement pipelined = s.newStatement();
    pipelined.pipeline(TestSessions.task(s, first.key()), TestSessions.nodeInfo(s, "n1"));
    assertEquals(TAKEN, ask(s, second.key(), "n1").reason(), "a pipelined pod holds its ports too");
  }

  @Test
  void evictingTheHolderFreesThePort() {
    Node n1 = node("n1");
    Pod holder = withPorts(TestPods.pod("holder").onNode("n1"), tcp(7000));
    Pod next = withPorts(TestPods.pod("next"), tcp(7000));
    Session s = TestSessions.cluster().node(n1).pod(holder).pod(next)
        .open(REGISTRY, TestSessions.singlePlugin(PredicatesPlugin.NAME, ""));
    assertEquals(TAKEN, ask(s, next.key(), "n1").reason());
    Statement st = s.newStatement();
    st.evict(TestSessions.task(s, holder.key()), "test");
    assertTrue(ask(s, next.key(), "n1").ok(), "the victim's port is the preemptor's");
    st.discard();
    assertEquals(TAKEN, ask(s, next.key(), "n1").reason(), "the eviction undone: held again");
  }

  @Test
  void nodePortsEnableFalseSwitchesTheCheckOff() {
    Node n1 = node("n1");
    Pod running = withPorts(TestPods.pod("other").onNode("n1"), tcp(8080));
    Pod same = withPorts(TestPods.pod("same"), tcp(8080));
    Session s = TestSessions.cluster().node(n1).pod(running).pod(same)
        .open(REGISTRY, TestSessions.singlePlugin(PredicatesPlugin.NAME, "predicate.NodePortsEnable: false"));
    assertTrue(s.callbacks().filter(TestSessions.task(s, same.key()), TestSessions.nodeInfo(s, "n1")).ok());
    assertTrue(s.callbacks().filterChain().stream().noneMatch(f -> f instanceof NodePorts));
  }
}
