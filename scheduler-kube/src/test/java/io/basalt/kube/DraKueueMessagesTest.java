package io.basalt.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * Issue 35: the DRA and Kueue kinds' readers name the object and the field of a bad value too. Every value of every
 * DRA and Kueue object in the fixtures is swapped, one at a time, for a list, a mapping, a string, a number, a
 * boolean and null; each message the loader gives must name the field's path, never the generic "a value of the
 * wrong type" nor a parser's words.
 */
class DraKueueMessagesTest {
  private static final Set<String> KINDS = Set.of("DeviceClass", "ResourceClaim", "ResourceClaimTemplate",
      "ResourceSlice", "ResourceFlavor", "ClusterQueue", "LocalQueue", "Topology", "Cohort",
      "WorkloadPriorityClass");
  private static final List<JsonElement> SWAPS = List.of(new JsonArray(), new JsonObject(),
      new JsonPrimitive("x"), new JsonPrimitive(7), new JsonPrimitive(true), JsonNull.INSTANCE);
  private static final String GENERIC = "a value of the wrong type";

  @Test
  void everySwappedValueOfADraOrKueueObjectIsReportedWithItsField() throws IOException {
    List<JsonObject> docs = new ArrayList<>();
    for (String dir : List.of("../test-fixtures/dra", "../test-fixtures/kueue")) {
      try (Stream<Path> files = Files.walk(Path.of(dir))) {
        for (Path f : files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
          for (Object o : new Yaml().loadAll(Files.readString(f))) {
            if (o instanceof Map<?, ?> m && KINDS.contains(String.valueOf(m.get("kind")))) {
              docs.add(new Gson().toJsonTree(o).getAsJsonObject());
            }
          }
        }
      }
    }
    assertTrue(docs.size() >= 10, "DRA and Kueue objects in the fixtures: " + docs.size());
    ManifestReader reader = new ManifestReader();
    Set<String> generic = new TreeSet<>();
    int cases = 0;
    for (JsonObject doc : docs) {
      List<Place> paths = new ArrayList<>();
      collect(doc.get("spec"), new Place(List.of("spec"), "spec"), paths);
      for (Place path : paths) {
        for (JsonElement swap : SWAPS) {
          JsonObject mutant = doc.deepCopy();
          set(mutant, path, swap);
          cases++;
          List<String> said = new ArrayList<>();
          try {
            Manifests m = reader.readString("t.json", mutant.toString());
            said.addAll(m.errors());
            said.addAll(m.warnings());
            said.addAll(m.toModel().errors());
          } catch (ManifestException e) {
            said.add(e.getMessage());
          }
          for (String s : said) {
            if (s.contains(GENERIC) || s.contains("Exception") || s.contains("Not a JSON")) {
              generic.add(doc.get("kind").getAsString() + " " + path.path() + " <- " + swap + ": " + s);
            }
          }
        }
      }
    }
    assertTrue(cases > 500, "mutants: " + cases);
    assertEquals(Set.of(), generic, generic.size() + " of " + cases + " mutants gave a message without the field");
  }

  /** A field's place: its name or list index at each level, and how a message writes it. */
  private record Place(List<Object> steps, String path) {}

  /** Every place under {@code e}. */
  private static void collect(JsonElement e, Place at, List<Place> out) {
    if (e == null) {
      return;
    }
    out.add(at);
    if (e.isJsonObject()) {
      for (Map.Entry<String, JsonElement> c : e.getAsJsonObject().entrySet()) {
        List<Object> steps = new ArrayList<>(at.steps());
        steps.add(c.getKey());
        collect(c.getValue(), new Place(steps, at.path() + "." + c.getKey()), out);
      }
    } else if (e.isJsonArray()) {
      for (int i = 0; i < e.getAsJsonArray().size(); i++) {
        List<Object> steps = new ArrayList<>(at.steps());
        steps.add(i);
        collect(e.getAsJsonArray().get(i), new Place(steps, at.path() + "[" + i + "]"), out);
      }
    }
  }

  private static void set(JsonObject root, Place place, JsonElement value) {
    JsonElement at = root;
    List<Object> steps = place.steps();
    for (int i = 0; i < steps.size() - 1; i++) {
      at = steps.get(i) instanceof Integer n ? at.getAsJsonArray().get(n) : at.getAsJsonObject().get((String) steps.get(i));
    }
    Object last = steps.get(steps.size() - 1);
    if (last instanceof Integer n) {
      at.getAsJsonArray().set(n, value);
    } else {
      at.getAsJsonObject().add((String) last, value);
    }
  }
}
