package io.basalt.kube.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.basalt.kube.ManifestReader;
import io.basalt.kube.Manifests;
import io.basalt.kube.kinds.core.NodeConversion;
import io.basalt.kube.kinds.core.PodConversion;
import io.basalt.model.Pod;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Lean pods are what the informers store: the engine must see exactly the same pods as from the whole objects. Every
 * pod of every fixture under {@code test-fixtures}, and a realistic training pod (env, probes, managed fields,
 * projected volumes, container statuses), converts to an equal {@link Pod} record lean and whole.
 */
class LeanObjectsTest {
  private static final LeanObjects LEAN = LeanObjects.lean();

  private static Pod convert(JsonObject json) {
    return PodConversion.toPod(JSON.getGson().fromJson(json, V1Pod.class));
  }

  private static JsonObject lean(JsonObject whole) {
    JsonObject copy = whole.deepCopy();
    LEAN.strip(V1Pod.class, copy);
    return copy;
  }

  private static Path fixtures() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isDirectory(dir.resolve("test-fixtures"))) {
        return dir.resolve("test-fixtures");
      }
    }
    throw new IllegalStateException("no test-fixtures");
  }

  @Test
  void everyFixturePodConvertsAlikeLeanAndWhole() throws IOException {
    List<Path> dirs;
    try (Stream<Path> walk = Files.walk(fixtures())) {
      dirs = walk.filter(Files::isDirectory).sorted().toList();
    }
    int pods = 0;
    List<String> differ = new ArrayList<>();
    for (Path dir : dirs) {
      Manifests m = new ManifestReader(Instant.parse("2026-01-01T00:00:00Z")).read(dir);
      for (V1Pod pod : m.pods()) {
        JsonObject whole = JsonParser.parseString(JSON.serialize(pod)).getAsJsonObject();
        Pod expected;
        try {
          expected = convert(whole);
        } catch (RuntimeException e) {
          continue; // a fixture of an invalid pod: nothing to compare
        }
        pods++;
        if (!expected.equals(convert(lean(whole)))) {
          differ.add(dir.getFileName() + ": " + pod.getMetadata().getName());
        }
      }
    }
    assertTrue(pods > 100, "fixture pods compared: " + pods);
    assertEquals(List.of(), differ);
  }

  @Test
  void everyFixtureNodeAndAGpuNodeConvertAlikeLeanAndWhole() throws IOException {
    List<JsonObject> nodes = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(fixtures())) {
      for (Path dir : walk.filter(Files::isDirectory).sorted().toList()) {
        for (V1Node node : new ManifestReader(Instant.parse("2026-01-01T00:00:00Z")).read(dir).nodes()) {
          nodes.add(JsonParser.parseString(JSON.serialize(node)).getAsJsonObject());
        }
      }
    }
    try (InputStream in = getClass().getResourceAsStream("/live/gpu-node.json")) {
      nodes.add(JsonParser.parseString(new String(in.readAllBytes(), StandardCharsets.UTF_8)).getAsJsonObject());
    }
    assertTrue(nodes.size() > 50, "nodes compared: " + nodes.size());
    for (JsonObject whole : nodes) {
      JsonObject lean = whole.deepCopy();
      LEAN.strip(V1Node.class, lean);
      assertEquals(NodeConversion.toNode(JSON.getGson().fromJson(whole, V1Node.class)),
          NodeConversion.toNode(JSON.getGson().fromJson(lean, V1Node.class)), whole.toString());
    }
    JsonObject gpuNode = nodes.get(nodes.size() - 1).deepCopy();
    LEAN.strip(V1Node.class, gpuNode);
    assertFalse(gpuNode.getAsJsonObject("status").has("images"));
    assertTrue(gpuNode.toString().length() * 2 < nodes.get(nodes.size() - 1).toString().length());
  }

  @Test
  void aRealisticTrainingPodConvertsAlikeAndShrinks() throws IOException {
    JsonObject whole;
    try (InputStream in = getClass().getResourceAsStream("/live/training-pod.json")) {
      whole = JsonParser.parseString(new String(in.readAllBytes(), StandardCharsets.UTF_8)).getAsJsonObject();
    }
    JsonObject lean = lean(whole);
    Pod expected = convert(whole);
    assertEquals(expected, convert(lean));
    assertFalse(expected.constraints().hostPorts().isEmpty(), "host ports are read, so kept");

    assertFalse(lean.getAsJsonObject("metadata").has("managedFields"));
    JsonObject trainer = lean.getAsJsonObject("spec").getAsJsonArray("containers").get(0).getAsJsonObject();
    assertFalse(trainer.has("env") || trainer.has("command") || trainer.has("livenessProbe"), trainer.toString());
    assertFalse(lean.getAsJsonObject("status").has("containerStatuses"));
    // What others read next stays: claims, ephemeral claim templates, resource claims and their statuses.
    String volumes = lean.getAsJsonObject("spec").get("volumes").toString();
    assertTrue(volumes.contains("\"claimName\":\"train-ckpt\"") && volumes.contains("volumeClaimTemplate"), volumes);
    assertTrue(lean.getAsJsonObject("spec").has("resourceClaims"));
    assertTrue(lean.getAsJsonObject("status").has("resourceClaimStatuses"));
    int before = whole.toString().length();
    int after = lean.toString().length();
    assertTrue(after * 2 < before, "lean " + after + " bytes of " + before);
  }

  /** The informers build objects by plain field binding: every fixture object comes out equal to client-java's. */
  @Test
  void objectsReadAsClientJavaReadsThem() throws IOException {
    List<JsonObject> pods = new ArrayList<>();
    List<JsonObject> nodes = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(fixtures())) {
      for (Path dir : walk.filter(Files::isDirectory).sorted().toList()) {
        Manifests m = new ManifestReader(Instant.parse("2026-01-01T00:00:00Z")).read(dir);
        m.pods().forEach(p -> pods.add(JsonParser.parseString(JSON.serialize(p)).getAsJsonObject()));
        m.nodes().forEach(n -> nodes.add(JsonParser.parseString(JSON.serialize(n)).getAsJsonObject()));
      }
    }
    for (String r : List.of("/live/training-pod.json", "/live/gpu-node.json")) {
      try (InputStream in = getClass().getResourceAsStream(r)) {
        JsonObject o = JsonParser.parseString(new String(in.readAllBytes(), StandardCharsets.UTF_8))
            .getAsJsonObject();
        (r.contains("pod") ? pods : nodes).add(o);
      }
    }
    // managedFields (free-form fieldsV1) reads differently; the informers drop it anyway, so it is left out here.
    for (JsonObject o : pods) {
      o.getAsJsonObject("metadata").remove("managedFields");
    }
    for (JsonObject o : nodes) {
      o.getAsJsonObject("metadata").remove("managedFields");
    }
    for (JsonObject p : pods) {
      assertEquals(JSON.getGson().fromJson(p, V1Pod.class), ListWatch.decode(p.deepCopy(), V1Pod.class,
          LeanObjects.whole()), p.toString());
    }
    for (JsonObject n : nodes) {
      assertEquals(JSON.getGson().fromJson(n, V1Node.class), ListWatch.decode(n.deepCopy(), V1Node.class,
          LeanObjects.whole()), n.toString());
    }
  }

  /**
   * The informers build a listed object straight from the stream, skipping dropped fields as they read: every fixture
   * pod and node, and the realistic pod and node (managed fields, env, probes, projected volumes, images), come out
   * equal to stripping the JSON tree and then binding it.
   */
  @Test
  void streamedObjectsEqualStrippedThenBound() throws IOException {
    List<JsonObject> pods = new ArrayList<>();
    List<JsonObject> nodes = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(fixtures())) {
      for (Path dir : walk.filter(Files::isDirectory).sorted().toList()) {
        Manifests m = new ManifestReader(Instant.parse("2026-01-01T00:00:00Z")).read(dir);
        m.pods().forEach(p -> pods.add(JsonParser.parseString(JSON.serialize(p)).getAsJsonObject()));
        m.nodes().forEach(n -> nodes.add(JsonParser.parseString(JSON.serialize(n)).getAsJsonObject()));
      }
    }
    for (String r : List.of("/live/training-pod.json", "/live/gpu-node.json")) {
      try (InputStream in = getClass().getResourceAsStream(r)) {
        JsonObject o = JsonParser.parseString(new String(in.readAllBytes(), StandardCharsets.UTF_8))
            .getAsJsonObject();
        (r.contains("pod") ? pods : nodes).add(o);
      }
    }
    assertTrue(pods.size() > 100 && nodes.size() > 50, pods.size() + " pods, " + nodes.size() + " nodes");
    for (LeanObjects mode : List.of(LEAN, LeanObjects.whole())) {
      for (JsonObject p : pods) {
        assertEquals(ListWatch.decode(p.deepCopy(), V1Pod.class, mode), streamed(mode, p, V1Pod.class),
            p.toString());
      }
      for (JsonObject n : nodes) {
        assertEquals(ListWatch.decode(n.deepCopy(), V1Node.class, mode), streamed(mode, n, V1Node.class),
            n.toString());
      }
    }
    V1Pod training = streamed(LEAN, pods.get(pods.size() - 1), V1Pod.class);
    assertTrue(empty(training.getMetadata().getManagedFields()));
    assertTrue(empty(training.getSpec().getContainers().get(0).getEnv()));
    assertTrue(empty(training.getStatus().getContainerStatuses()));
    assertFalse(empty(training.getSpec().getContainers().get(0).getPorts()), "ports are read, so kept");
  }

  private static boolean empty(List<?> list) {
    return list == null || list.isEmpty();
  }

  private static <T> T streamed(LeanObjects mode, JsonObject json, Class<T> type) {
    return mode.reader(type).fromJson(new com.google.gson.stream.JsonReader(new java.io.StringReader(
        json.toString())), type);
  }

  @Test
  void wholeKeepsEverything() {
    JsonObject pod = JsonParser.parseString("{\"metadata\":{\"name\":\"p\",\"managedFields\":[{}]},"
        + "\"spec\":{\"containers\":[{\"name\":\"c\",\"env\":[]}]}}").getAsJsonObject();
    JsonObject copy = pod.deepCopy();
    LeanObjects.whole().strip(V1Pod.class, copy);
    assertEquals(pod, copy);
    LEAN.strip(V1Pod.class, copy);
    assertNotEquals(pod, copy);
  }
}
