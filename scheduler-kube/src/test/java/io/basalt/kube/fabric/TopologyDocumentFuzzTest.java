package io.basalt.kube.fabric;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.basalt.fabric.Fabric;
import io.basalt.fabric.FabricBuilder;
import io.basalt.model.Node;
import io.basalt.testing.FuzzJson;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Malformed topology documents, as a {@code --topology-url} feed or a manifest hands them over: MetaX
 * {@code node_group} JSON and HyperNode objects of every wrong shape (nulls, lists for objects, numbers beyond every
 * range, nesting thousands deep, lists of thousands of entries, mutants of valid documents, random characters), and
 * node labels of hostile values for the label reader. Each reader returns a fabric and problems, never throws; every
 * problem names its source and stays one short line; the fabric holds only the cluster's nodes, each in at most one
 * domain per tier. 1,700 inputs per reader, 5,100 in all. Bounded by the number of cases; {@code -Dbasalt.fuzz.seed}, {@code -Dbasalt.fuzz.count}.
 */
class TopologyDocumentFuzzTest {
  private static final long SEED = Long.getLong("basalt.fuzz.seed", 35L);
  private static final int COUNT = Integer.getInteger("basalt.fuzz.count", 1700);
  private static final List<String> NAMES = List.of("n1", "n2", "n3", "n4", "gpu-a-01");
  private static final List<String> NODE_GROUPS = List.of(
      "[{\"name\":\"sb0\",\"kind\":\"switchbox\",\"child\":[{\"name\":\"df0\",\"kind\":\"dragonfly\",\"child\":["
          + "{\"name\":\"n1\",\"kind\":\"node\",\"status\":\"Ready\"},{\"name\":\"n2\",\"kind\":\"node\"}]},"
          + "{\"name\":\"df1\",\"kind\":\"dragonfly\",\"child\":[{\"name\":\"n3\",\"kind\":\"node\",\"status\":"
          + "\"NotReady\"}]}]}]",
      "{\"node_group\":[{\"name\":\"df0\",\"kind\":\"dragonfly\",\"child\":[{\"name\":\"n4\",\"kind\":\"node\"}]}]}");
  private static final List<String> HYPERNODES = List.of(
      "{\"metadata\":{\"name\":\"s0\"},\"spec\":{\"tier\":1,\"members\":[{\"type\":\"Node\",\"selector\":"
          + "{\"regexMatch\":{\"pattern\":\"^n[12]$\"}}},{\"type\":\"Node\",\"selector\":{\"exactMatch\":{\"name\":"
          + "\"n3\"}}}]}}",
      "{\"metadata\":{\"name\":\"s1\"},\"spec\":{\"tier\":2,\"tierName\":\"spine\",\"members\":[{\"type\":"
          + "\"HyperNode\",\"selector\":{\"exactMatch\":{\"name\":\"s0\"}}},{\"type\":\"Node\",\"selector\":"
          + "{\"labelMatch\":{\"matchLabels\":{\"rack\":\"r1\"},\"matchExpressions\":[{\"key\":\"zone\",\"operator\":"
          + "\"In\",\"values\":[\"z1\"]}]}}}]}}");

  @Test
  void nodeGroupFeeds() {
    FuzzJson gen = new FuzzJson(SEED);
    List<String> nodes = NAMES;
    run("node_group", gen, NODE_GROUPS, text -> () -> NodeGroupReader.read(text, nodes), "node_group");
  }

  @Test
  void hyperNodeDocuments() {
    FuzzJson gen = new FuzzJson(SEED + 1);
    List<Node> nodes = new ArrayList<>();
    for (String n : NAMES) {
      nodes.add(Fixtures.node(n, Map.of("rack", n.equals("n4") ? "r1" : "r2", "zone", "z1")));
    }
    run("HyperNode", gen, HYPERNODES, text -> {
      List<JsonObject> docs = new ArrayList<>();
      JsonElement e = parse(text);
      if (e != null && e.isJsonObject()) {
        docs.add(e.getAsJsonObject());
        docs.add(JsonParser.parseString(HYPERNODES.get(0)).getAsJsonObject());
      }
      return () -> HyperNodeReader.read(docs, nodes);
    }, "HyperNode ");
  }

  @Test
  void nodeLabels() {
    FuzzJson gen = new FuzzJson(SEED + 2);
    run("labels", gen, List.of("r1", "z1", "a.b/c"), text -> {
      List<Node> nodes = new ArrayList<>();
      for (int i = 0; i < NAMES.size(); i++) {
        String value = i % 2 == 0 ? text : gen.mutate(text);
        nodes.add(Fixtures.node(NAMES.get(i), Map.of("rack", value, "zone", value.isEmpty() ? "z" : value.substring(0,
            value.length() / 2))));
      }
      List<String> keys = gen.random().nextInt(4) == 0 ? List.of("zone", "rack", "zone") : List.of("zone", "rack");
      return () -> LabelTopologyReader.read(keys, nodes);
    }, "label");
  }

  private static JsonElement parse(String text) {
    try {
      return JsonParser.parseString(text);
    } catch (RuntimeException e) {
      return null; // the feed's own JSON reader refuses it before any topology reader sees it
    }
  }

  private static void run(String what, FuzzJson gen, List<String> valid,
      java.util.function.Function<String, Supplier<FabricBuilder.Result>> reader, String prefix) {
    assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
      int withProblems = 0;
      for (int i = 0; i < COUNT; i++) {
        String input = gen.next(valid);
        FabricBuilder.Result r;
        try {
          r = reader.apply(input).get();
        } catch (Throwable t) {
          throw new AssertionError(at(what, i, input, "threw " + t), t);
        }
        for (String p : r.problems()) {
          if (!p.contains(prefix) || p.length() > 600 || p.contains("Exception") || p.contains("java.")) {
            fail(at(what, i, input, "a long or parser-worded problem: " + p));
          }
        }
        if (!r.problems().isEmpty()) {
          withProblems++;
        }
        check(r.fabric(), what, i, input);
      }
      System.out.println("fuzz cases: TopologyDocumentFuzzTest " + what + " " + COUNT + " (topology feeds)");
      assertTrue(withProblems > COUNT / 5, what + ": many inputs should be reported: " + withProblems);
    });
  }

  /** Only the cluster's nodes, each below one domain per tier, and that domain lists it. */
  private static void check(Fabric f, String what, int i, String input) {
    Set<String> cluster = new TreeSet<>(NAMES);
    for (int tier : f.tiers()) {
      Set<String> seen = new TreeSet<>();
      for (String d : f.domains(tier)) {
        for (String n : f.nodesOf(d)) {
          if (!cluster.contains(n) || !seen.add(n) || !d.equals(f.domainOf(n, tier))) {
            fail(at(what, i, input, "node " + n + " in domain " + d + " of tier " + tier + " breaks the tree"));
          }
        }
      }
    }
  }

  private static String at(String what, int i, String input, String problem) {
    String shown = input.length() > 300 ? input.substring(0, 300) + "... (" + input.length() + ")" : input;
    return what + " input " + i + " of seed " + SEED + ": " + problem + "\n--- input ---\n" + shown;
  }
}
