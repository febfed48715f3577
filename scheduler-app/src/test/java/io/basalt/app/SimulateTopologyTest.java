package io.basalt.app;

import static io.basalt.app.CliRun.basalt;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonParser;
import io.basalt.fabric.Fabric;
import io.basalt.sim.FixtureSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code basalt simulate --topology / --topology-labels}: the fabric they build, precedence, bad input. */
class SimulateTopologyTest {
  private static final String CLUSTER = Scenarios.fixture("supernode/00-cluster.yaml").toString();
  private static final String NODE_GROUP = Scenarios.fixture("supernode/topology/node_group.json").toString();
  private static final String LABELS = "topology.example.com/switchbox,topology.example.com/dragonfly";

  /** The source {@code simulate args} would schedule. */
  private static FixtureSource source(String... args) throws Exception {
    SimulateCommand c = new SimulateCommand();
    new CommandLine(c).parseArgs(args);
    return c.source();
  }

  /** Every domain's tier, parent and nodes below, for comparing fabrics. */
  private static List<String> shape(Fabric f) {
    List<String> out = new ArrayList<>();
    for (int t : f.tiers()) {
      for (String d : f.domains(t)) {
        out.add(t + " " + d + " < " + f.parent(d) + ": " + f.nodesOf(d));
      }
    }
    return out;
  }

  private static List<String> warnings(CliRun r) {
    List<String> out = new ArrayList<>();
    JsonParser.parseString(r.out()).getAsJsonObject().getAsJsonArray("warnings")
        .forEach(w -> out.add(w.getAsString()));
    return out;
  }

  @Test
  void nodeGroupFileBuildsTheSameFabricAsTheHyperNodes() throws Exception {
    Fabric fromHyperNodes = source("--cluster", Path.of(CLUSTER).getParent().toString()).objects().fabric();
    FixtureSource fromJson = source("--cluster", CLUSTER, "--topology", NODE_GROUP);

    assertEquals(8, shape(fromHyperNodes).size() + 2, shape(fromHyperNodes).toString()); // 4 dragonflies, 2 boxes
    assertEquals(shape(fromHyperNodes), shape(fromJson.objects().fabric()));
    assertEquals("sb2/sb2-df1", fromJson.objects().fabric().path("sb2-df1-n7"));
    assertEquals(List.of(), fromJson.warnings());
  }

  @Test
  void labelsBuildTheSameTreeUnderTheirValues() throws Exception {
    Fabric f = source("--cluster", CLUSTER, "--topology-labels", LABELS).objects().fabric();

    assertEquals(List.of("sb1", "sb2"), f.domains(2));
    assertEquals(4, f.domains(1).size());
    assertEquals(8, f.nodesOf(f.domainOf("sb1-df2-n3", 1)).size());
    assertEquals(2, f.tierOf("topology.example.com/switchbox").getAsInt());
  }

  @Test
  void aFlagWinsOverTheHyperNodesWhichAreNamedAsIgnored() throws Exception {
    FixtureSource s = source("--cluster", Path.of(CLUSTER).getParent().toString(), "--topology-labels", LABELS);

    assertEquals(List.of("sb1", "sb2"), s.objects().fabric().domains(2));
    assertEquals(List.of("ignored: 6 HyperNode(s) in the manifests; the network fabric comes from "
        + "--topology-labels " + LABELS), s.warnings());
  }

  @Test
  void badEntriesAreNamedInTheReportsWarningsAndLeftOut(@TempDir Path dir) throws Exception {
    Path bad = dir.resolve("node_group.json");
    Files.writeString(bad, """
        [{"name": "sb1", "kind": "switchbox", "child": [
           {"name": "sb1-df1", "kind": "dragonfly", "child": [
             {"name": "sb1-df1-n1", "kind": "node"}, {"name": "ghost", "kind": "node"}]},
           {"name": "sb1-df2", "kind": "rack", "child": []}]}]
        """);

    CliRun r = basalt("simulate", "--cluster", CLUSTER, "--topology", bad.toString(), "--output", "json");

    assertEquals(0, r.exit(), r.err());
    assertEquals(List.of(
        bad + ": node_group[0].child[1].kind: unknown kind 'rack' of 'sb1-df2' (expected switchbox, dragonfly or "
            + "node), left out with everything below it",
        bad + ": node_group sb1-df1: no node 'ghost', the member dropped"), warnings(r));
    Fabric f = source("--cluster", CLUSTER, "--topology", bad.toString()).objects().fabric();
    assertEquals(List.of("sb1-df1"), f.domains(1));
    assertEquals(List.of("sb1-df1-n1"), f.nodesOf("sb1"));
  }

  @Test
  void malformedJsonIsOneWarningAndNoFabric(@TempDir Path dir) throws Exception {
    Path bad = dir.resolve("broken.json");
    Files.writeString(bad, "[{\"name\": ");

    FixtureSource s = source("--cluster", CLUSTER, "--topology", bad.toString());

    assertTrue(s.objects().fabric().isEmpty());
    assertEquals(1, s.warnings().size(), s.warnings().toString());
    assertTrue(s.warnings().get(0).startsWith(bad + ": node_group: malformed JSON"), s.warnings().get(0));
  }

  @Test
  void twoSourcesOrAMissingFileAreUsageErrors() {
    CliRun both = basalt("simulate", "--cluster", CLUSTER, "--topology", NODE_GROUP, "--topology-labels", LABELS);
    assertEquals(2, both.exit());
    assertEquals("give one topology source, not --topology and --topology-labels\n", both.err());

    CliRun missing = basalt("simulate", "--cluster", CLUSTER, "--topology", "no/such.json");
    assertEquals(2, missing.exit());
    assertTrue(missing.err().contains("--topology no/such.json: no such file"), missing.err());
  }
}
