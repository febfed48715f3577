package io.basalt.kube.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.fabric.Fabric;
import io.basalt.fabric.FabricBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

class NodeGroupReaderTest {
  /** The sample of the MetaX topo-master documentation. */
  static final String SAMPLE = "[{\"name\":\"switchbox-sample1\",\"kind\":\"switchbox\",\"status\":\"Ready\",\"child\":"
      + "[{\"name\":\"dragonfly-sample1\",\"kind\":\"dragonfly\",\"status\":\"Ready\",\"child\":"
      + "[{\"name\":\"node-sample1\",\"kind\":\"node\",\"status\":\"Ready\"},"
      + "{\"name\":\"node-sample2\",\"kind\":\"node\",\"status\":\"Ready\"}]}]}]";

  @Test
  void readsTheSeedSample() {
    FabricBuilder.Result r = NodeGroupReader.read(SAMPLE, null);
    assertEquals(List.of(), r.problems());
    Fabric f = r.fabric();
    assertEquals("switchbox-sample1/dragonfly-sample1", f.path("node-sample2"));
    assertEquals("dragonfly-sample1", f.domainOf("node-sample1", 1));
    assertEquals("switchbox-sample1", f.domainOf("node-sample1", 2));
    assertEquals(2, f.tierOf("switchbox").getAsInt());
    assertEquals(1, f.tierOf("dragonfly").getAsInt());
    assertFalse(f.unready("node-sample1"));
  }

  @Test
  void aNodeNotReadyIsMarkedUnready() {
    String notReady = "\"node-sample2\",\"kind\":\"node\",\"status\":\"NotReady\"";
    String json = SAMPLE.replace(notReady.replace("NotReady", "Ready"), notReady);
    FabricBuilder.Result r = NodeGroupReader.read(json, null);
    assertTrue(r.fabric().unready("node-sample2"));
    assertEquals(List.of("node-sample1"), r.fabric().readyNodes("dragonfly-sample1"));
    assertEquals(List.of("node-sample1", "node-sample2"), r.fabric().nodesOf("dragonfly-sample1"));
  }

  @Test
  void anUnknownKindIsNamedAndLeftOut() {
    FabricBuilder.Result r = NodeGroupReader.read(SAMPLE.replace("\"kind\":\"switchbox\"", "\"kind\":\"spine\""), null);
    assertEquals(List.of("node_group[0].kind: unknown kind 'spine' of 'switchbox-sample1' (expected switchbox, "
        + "dragonfly or node), left out with everything below it"), r.problems());
    assertTrue(r.fabric().isEmpty());
  }

  @Test
  void malformedJsonIsOneProblemAndAnEmptyFabric() {
    FabricBuilder.Result r = NodeGroupReader.read(SAMPLE.substring(0, 60), null);
    assertEquals(1, r.problems().size());
    assertTrue(r.problems().get(0).startsWith("node_group: malformed JSON: "), r.problems().get(0));
    assertTrue(r.fabric().isEmpty());
    assertEquals(List.of("node_group: expected a list of switchboxes or dragonflies"),
        NodeGroupReader.read("{\"name\":\"x\"}", null).problems());
  }

  /** TopologyDocumentFuzzTest seed 35: Gson's path of 255 "[0]"s made the problem 800 characters. */
  @Test
  void tooDeepIsOneShortProblem() {
    FabricBuilder.Result r = NodeGroupReader.read("[".repeat(5_000), null);
    assertEquals(List.of("node_group: malformed JSON: Nesting limit 255 reached at line 1 column 257"),
        r.problems());
  }

  @Test
  void bareDragonfliesAndAWrappingObjectAreFine() {
    String bare = "[{\"name\":\"df1\",\"kind\":\"dragonfly\",\"child\":[{\"name\":\"n1\",\"kind\":\"node\"}]},"
        + "{\"name\":\"df2\",\"kind\":\"dragonfly\",\"child\":[{\"name\":\"n2\",\"kind\":\"node\"}]}]";
    FabricBuilder.Result r = NodeGroupReader.read("{\"node_group\":" + bare + "}", List.of("n1", "n2", "n3"));
    assertEquals(List.of(), r.problems());
    assertEquals(List.of("df1", "df2"), r.fabric().domains(1));
    assertEquals(List.of("n1", "n2", "n3"), r.fabric().nodesOf(Fabric.ROOT));
    assertEquals(Fabric.ROOT, r.fabric().parent("df1"));
  }

  @Test
  void nodesTheClusterDoesNotHaveAreReported() {
    FabricBuilder.Result r = NodeGroupReader.read(SAMPLE, List.of("node-sample1"));
    assertEquals(List.of("node_group dragonfly-sample1: no node 'node-sample2', the member dropped"), r.problems());
  }

  @Test
  void entriesOfTheWrongShapeAreNamed() {
    FabricBuilder.Result r = NodeGroupReader.read("[{\"kind\":\"dragonfly\"},3,{\"name\":\"d\",\"kind\":\"dragonfly\","
        + "\"child\":{}}]", null);
    assertEquals(List.of("node_group[0].name: missing", "node_group[1]: expected a mapping, got 3",
        "node_group[2].child: expected a list, got {}"), r.problems());
  }
}
