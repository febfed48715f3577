package io.basalt.kube.fabric;

import static io.basalt.kube.fabric.Fixtures.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.basalt.fabric.Fabric;
import io.basalt.fabric.FabricBuilder;
import io.basalt.model.Node;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HyperNodeReaderTest {
  static final List<Node> NODES = List.of(
      node("a1", Map.of("rack", "r1", "zone", "z1")), node("a2", Map.of("rack", "r1")),
      node("b1", Map.of("rack", "r2", "zone", "z1")), node("b2", Map.of("rack", "r2")), node("c1"));

  /** A HyperNode document; {@code members} is the JSON of spec.members. */
  static JsonObject hn(String name, int tier, String members) {
    return JsonParser.parseString("{\"apiVersion\":\"topology.volcano.sh/v1alpha1\",\"kind\":\"HyperNode\","
        + "\"metadata\":{\"name\":\"" + name + "\"},\"spec\":{\"tier\":" + tier + ",\"members\":" + members + "}}")
        .getAsJsonObject();
  }

  static String member(String selector) {
    return "{\"type\":\"Node\",\"selector\":" + selector + "}";
  }

  static String child(String name) {
    return "{\"type\":\"HyperNode\",\"selector\":{\"exactMatch\":{\"name\":\"" + name + "\"}}}";
  }

  @Test
  void exactRegexAndLabelMembersNested() {
    FabricBuilder.Result r = HyperNodeReader.read(List.of(
        hn("s0", 1, "[" + member("{\"exactMatch\":{\"name\":\"a1\"}}") + ","
            + member("{\"exactMatch\":{\"name\":\"a2\"}}") + "]"),
        hn("s1", 1, "[" + member("{\"regexMatch\":{\"pattern\":\"^b\"}}") + "]"),
        hn("s2", 2, "[" + child("s0") + "," + child("s1") + "]"),
        hn("s3", 1, "[" + member("{\"labelMatch\":{\"matchExpressions\":"
            + "[{\"key\":\"rack\",\"operator\":\"DoesNotExist\"}]}}") + "]")), NODES);
    assertEquals(List.of(), r.problems());
    Fabric f = r.fabric();
    assertEquals(List.of("a1", "a2"), f.nodesOf("s0"));
    assertEquals(List.of("b1", "b2"), f.nodesOf("s1"));
    assertEquals(List.of("a1", "a2", "b1", "b2"), f.nodesOf("s2"));
    assertEquals(List.of("c1"), f.nodesOf("s3"));
    assertEquals("s2/s1", f.path("b2"));
    assertEquals(Fabric.ROOT, f.parent("s3"));
  }

  @Test
  void labelMatchTakesMatchLabelsAndExpressions() {
    FabricBuilder.Result r = HyperNodeReader.read(List.of(
        hn("r1", 1, "[" + member("{\"labelMatch\":{\"matchLabels\":{\"rack\":\"r1\"}}}") + "]"),
        hn("z1", 2, "[" + member("{\"labelMatch\":{\"matchLabels\":{\"zone\":\"z1\"},\"matchExpressions\":"
            + "[{\"key\":\"rack\",\"operator\":\"NotIn\",\"values\":[\"r1\"]}]}}") + "," + child("r1") + "]")),
        NODES);
    assertEquals(List.of(), r.problems());
    assertEquals(List.of("a1", "a2"), r.fabric().nodesOf("r1"));
    assertEquals(List.of("a1", "a2", "b1"), r.fabric().nodesOf("z1"));
    assertEquals(List.of("b1"), r.fabric().domain("z1").nodes());
  }

  @Test
  void regexMatchesAnywhereInTheNameAsGoDoes() {
    FabricBuilder.Result r = HyperNodeReader.read(
        List.of(hn("s", 1, "[" + member("{\"regexMatch\":{\"pattern\":\"1\"}}") + "]")), NODES);
    assertEquals(List.of("a1", "b1", "c1"), r.fabric().nodesOf("s"));
  }

  /** Hardening II: java.util.regex backtracked on this for as long as anyone waited. */
  @Test
  void aCatastrophicPatternMatchesInLinearTime() {
    List<Node> nodes = List.of(node("a".repeat(5_000) + "b"), node("aaa"));
    FabricBuilder.Result r = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
        java.time.Duration.ofSeconds(10), () -> HyperNodeReader.read(
            List.of(hn("s", 1, "[" + member("{\"regexMatch\":{\"pattern\":\"^(a+)+$\"}}") + "]")), nodes));
    assertEquals(List.of("aaa"), r.fabric().nodesOf("s"));
  }

  @Test
  void aBadSelectorNamesTheObjectAndField() {
    FabricBuilder.Result r = HyperNodeReader.read(List.of(hn("s0", 1, "["
        + member("{\"exactMatch\":{\"name\":\"a1\"}}") + ","
        + member("{\"exactMatch\":{\"name\":\"a2\"},\"regexMatch\":{\"pattern\":\"b\"}}") + ","
        + member("{}") + ","
        + member("{\"regexMatch\":{\"pattern\":\"(\"}}") + ","
        + member("{\"regexMatch\":{\"pattern\":\"^zz\"}}") + ","
        + member("{\"exactMatch\":{\"name\":\"ghost\"}}") + ","
        + member("{\"labelMatch\":{\"matchExpressions\":[{\"key\":\"rack\",\"operator\":\"Gt\","
            + "\"values\":[\"1\"]}]}}") + ","
        + member("{\"labelMatch\":{\"matchExpressions\":[{\"key\":\"rack\",\"operator\":\"In\"}]}}") + ","
        + "{\"type\":\"Switch\",\"selector\":{\"exactMatch\":{\"name\":\"a1\"}}},"
        + "{\"type\":\"HyperNode\",\"selector\":{\"labelMatch\":{}}},"
        + "{\"type\":\"Node\"}"
        + "]")), NODES);
    assertEquals(List.of(
        "HyperNode s0: spec.members[1].selector: exactly one of exactMatch, regexMatch, labelMatch",
        "HyperNode s0: spec.members[2].selector: exactly one of exactMatch, regexMatch, labelMatch",
        "HyperNode s0: spec.members[3].selector.regexMatch.pattern: '(' is not a regular expression: missing closing )",
        "HyperNode s0: spec.members[4].selector.regexMatch.pattern: '^zz' matches no node",
        "HyperNode s0: spec.members[5].selector.exactMatch.name: no node 'ghost'",
        "HyperNode s0: spec.members[6].selector.labelMatch.matchExpressions[0].operator: 'Gt' is not In, NotIn, Exists "
            + "or DoesNotExist",
        "HyperNode s0: spec.members[7].selector.labelMatch.matchExpressions[0].values: required for operator In",
        "HyperNode s0: spec.members[8].type: 'Switch' is neither Node nor HyperNode",
        "HyperNode s0: spec.members[9].selector.labelMatch: only for Node members",
        "HyperNode s0: spec.members[10].selector: missing"), r.problems());
    assertEquals(List.of("a1"), r.fabric().nodesOf("s0"));
  }

  @Test
  void aHyperNodeWithoutNameOrTierIsIgnored() {
    JsonObject noTier = hn("t", 1, "[]");
    noTier.getAsJsonObject("spec").remove("tier");
    JsonObject textTier = hn("u", 1, "[]");
    textTier.getAsJsonObject("spec").addProperty("tier", "one");
    JsonObject noName = hn("v", 1, "[]");
    noName.remove("metadata");
    FabricBuilder.Result r = HyperNodeReader.read(List.of(noTier, textTier, noName, hn("w", 1, "{}")), NODES);
    assertEquals(List.of("HyperNode t: spec.tier: missing, ignored",
        "HyperNode u: spec.tier: expected a whole number, got \"one\", ignored",
        "HyperNode <unnamed>: metadata.name: missing, ignored",
        "HyperNode w: spec.members: expected a list, got {}, ignored"), r.problems());
    assertTrue(r.fabric().isEmpty());
  }

  @Test
  void treeProblemsComeFromTheBuilderNamedAsHyperNodes() {
    FabricBuilder.Result r = HyperNodeReader.read(List.of(
        hn("x", 2, "[" + child("y") + "]"), hn("y", 3, "[" + child("x") + "]"),
        hn("d1", 1, "[" + member("{\"regexMatch\":{\"pattern\":\"^a\"}}") + "]"),
        hn("d2", 1, "[" + member("{\"exactMatch\":{\"name\":\"a2\"}}") + "]")), NODES);
    assertEquals(List.of("HyperNode x: cycle x -> y -> x, all 2 ignored",
        "HyperNode d2: node 'a2' is already in HyperNode 'd1' of tier 1, ignored"), r.problems());
    assertNull(r.fabric().domain("x"));
  }

  @Test
  void tierNameIsTheSpecsTierName() {
    JsonObject h = hn("s", 4, "[" + member("{\"exactMatch\":{\"name\":\"a1\"}}") + "]");
    h.getAsJsonObject("spec").addProperty("tierName", "spine");
    assertEquals(4, HyperNodeReader.read(List.of(h), NODES).fabric().tierOf("spine").getAsInt());
  }
}
