package io.basalt.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Issue 35: bad manifests are reported naming the object and the field, in the author's words. The parser's own
 * ("Expected BEGIN_ARRAY but was BEGIN_OBJECT at path $.spec.taints", "Not a JSON Object: null",
 * "com.google.gson.stream.MalformedJsonException", Java's NullPointerException text) never reaches the user.
 */
class ParserMessagesTest {
  /** Words of Gson, Jackson and the JDK that a message must not carry. */
  private static final Pattern PARSER_WORDS = Pattern.compile(
      "BEGIN_|END_(OBJECT|ARRAY)|\\bSTRING\\b|Exception|Not a JSON|\\$\\.|com\\.google|java\\.|jackson|Cannot invoke"
          + "|JsonObject|JsonArray|JsonPrimitive|See https");

  private final ManifestReader reader = new ManifestReader();

  private static final String POD = "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ml}\n";
  private static final String NODE = "apiVersion: v1\nkind: Node\nmetadata: {name: n}\n";

  /** Each bad document and the one message it must give (after "t.yaml doc 1: "). */
  private static final List<String[]> TABLE = List.of(
      new String[] {POD + "spec: hello", "Pod ml/p: spec: expected a mapping, got a string"},
      new String[] {POD + "spec: {containers: {name: c}}", "Pod ml/p: spec.containers: expected a list, got a mapping"},
      new String[] {POD + "spec: {containers: [a]}", "Pod ml/p: spec.containers[0]: expected a mapping, got a string"},
      new String[] {POD + "spec: {containers: [{name: c, resources: [1]}]}",
          "Pod ml/p: spec.containers[0].resources: expected a mapping, got a list"},
      new String[] {POD + "spec: {containers: [{name: c, resources: {limits: cpu}}]}",
          "Pod ml/p: spec.containers[0].resources.limits: expected a map of resource name to quantity, got a string"},
      new String[] {POD + "spec: {containers: [{name: c, resources: {limits: {cpu: [1]}}}]}",
          "Pod ml/p: spec.containers[0].resources.limits.cpu: expected a quantity, got a list"},
      new String[] {"apiVersion: v1\nkind: Pod\nmetadata: {name: p, labels: [a]}\nspec: {containers: [{name: c}]}",
          "Pod default/p: metadata.labels: expected a mapping, got a list"},
      new String[] {"apiVersion: v1\nkind: Pod\nmetadata: {name: p, annotations: {a: {b: c}}}\n"
          + "spec: {containers: [{name: c}]}", "Pod default/p: metadata.annotations.a: expected a string, got a mapping"},
      new String[] {POD + "spec: {nodeSelector: [a], containers: [{name: c}]}",
          "Pod ml/p: spec.nodeSelector: expected a mapping, got a list"},
      new String[] {POD + "spec: {tolerations: {key: a}, containers: [{name: c}]}",
          "Pod ml/p: spec.tolerations: expected a list, got a mapping"},
      new String[] {POD + "spec: {affinity: x, containers: [{name: c}]}",
          "Pod ml/p: spec.affinity: expected a mapping, got a string"},
      new String[] {POD + "spec: {priority: [1], containers: [{name: c}]}",
          "Pod ml/p: spec.priority: expected an integer, got a list"},
      new String[] {"apiVersion: v1\nkind: Pod\nmetadata: [1]\nspec: {containers: [{name: c}]}",
          "Pod default/<unnamed>: metadata: expected a mapping, got a list"},
      new String[] {NODE + "spec: {taints: {key: a}}", "Node n: spec.taints: expected a list, got a mapping"},
      new String[] {NODE + "status: {allocatable: [1]}",
          "Node n: status.allocatable: expected a map of resource name to quantity, got a list"},
      new String[] {"apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata: {name: g, namespace: ml}\n"
          + "spec: [1]", "PodGroup ml/g: spec: expected a mapping, got a list"},
      new String[] {"apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata: {name: q}\n"
          + "spec: {capability: [cpu]}", "Queue q: spec.capability: expected a map of resource name to quantity, "
          + "got a list"});

  @Test
  void eachBadDocumentNamesItsObjectAndField() {
    List<String> all = new ArrayList<>();
    for (String[] row : TABLE) {
      Manifests m = reader.readString("t.yaml", row[0]);
      List<String> said = new ArrayList<>(m.errors());
      said.addAll(m.warnings());
      all.addAll(said);
      assertEquals(List.of("t.yaml doc 1: " + row[1]), said, row[0]);
    }
    assertNoParserWords(all);
  }

  @Test
  void brokenJsonSaysWhereWithoutGsonsClassOrLink() {
    ManifestException e = assertThrows(ManifestException.class, () -> ManifestDocuments.json("t.json",
        "{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"spec\": {\"containers\": [{\"name\": \"c\"}}",
        (doc, where) -> { }));
    assertEquals("t.json doc 1: malformed JSON: unterminated array at line 1, column 75 (in spec.containers[1])",
        e.getMessage());
  }

  @Test
  void aNullInAListNamesItsPlace() {
    Manifests m = reader.readString("t.yaml", POD + "spec: {containers: [{name: c, resources: {claims: [null]}}]}");
    List<String> said = new ArrayList<>(m.errors());
    said.addAll(m.warnings());
    assertEquals(List.of("t.yaml doc 1: Pod ml/p: spec.containers[0].resources.claims[0]: a null where an object "
        + "belongs"), said);
  }

  /** A value no reader expected (a null where the model needs one) leaves the object out, named, not a crash. */
  @Test
  void anObjectNoConverterCanReadIsLeftOutNamed() {
    ClusterObjects o = reader.readString("t.yaml", NODE + "status: {allocatable: {cpu: \"8\"}}\n---\n"
        + "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: c, namespace: ml}\n"
        + "spec: {accessModes: [null], resources: {requests: {storage: 1Gi}}}").toModel();
    assertEquals(1, o.nodes().size(), "the rest still loads");
    assertTrue(o.errors().stream().anyMatch(e -> e.startsWith("t.yaml doc 2: PersistentVolumeClaim ml/c: ")),
        o.errors().toString());
    assertNoParserWords(o.errors());
  }

  @Test
  void gsonsWordsAreTranslated() {
    assertEquals("spec.taints: expected a list, got a mapping",
        ParserWords.problem(new IllegalStateException("Expected BEGIN_ARRAY but was BEGIN_OBJECT at path $.spec.taints")));
    assertEquals("metadata.annotations: expected a string, got a number", ParserWords.problem(
        new IllegalStateException("Expected STRING but was NUMBER at line 3 column 9 path $.metadata.annotations.")));
    assertEquals("a value of the wrong type, or a missing one, where the object needs one",
        ParserWords.problem(new IllegalStateException("Not a JSON Object: null")));
    assertEquals("a value of the wrong type, or a missing one, where the object needs one",
        ParserWords.problem(new NullPointerException("Cannot invoke \"com.google.gson.JsonElement.getAsString()\"")));
    assertEquals("spec: expected a mapping, got a string, number or boolean", ParserWords.problem(
        new IllegalStateException("Expected a com.google.gson.JsonObject but was com.google.gson.JsonPrimitive; "
            + "at path $.spec")));
    assertEquals("spec.devices: expected a list, got null", ParserWords.problem(new IllegalStateException(
        "Expected a com.google.gson.JsonArray but was com.google.gson.JsonNull; at path $.spec.devices")));
    assertEquals("'x' is not a number", ParserWords.problem(new IllegalArgumentException("'x' is not a number")),
        "Basalt's own words pass unchanged");
  }

  private static void assertNoParserWords(List<String> messages) {
    for (String s : messages) {
      assertFalse(PARSER_WORDS.matcher(s).find(), "parser wording: " + s);
    }
  }
}
