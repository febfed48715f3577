package io.basalt.kube;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.Gson;
import io.basalt.model.Pod;
import io.basalt.model.ResourceNames;
import io.basalt.testing.FuzzQuantities;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Absurd quantities where tenants write them (a pod's requests and limits, a node's allocatable, a PodGroup's
 * minResources, a Queue's capability), through the manifest reader, client-java's {@code Quantity} and
 * {@code kinds.Conversion}: every object loads, or is left out with one error naming the object and the field the
 * quantity sits in; nothing throws and nothing hangs. A pod of a quantity of the grammar within range asks exactly
 * its value rounded up. Bounded by the number of cases; {@code -Dbasalt.fuzz.seed}, {@code -Dbasalt.fuzz.count}.
 */
class ManifestQuantityFuzzTest {
  private static final long SEED = Long.getLong("basalt.fuzz.seed", 35L);
  private static final int COUNT = Integer.getInteger("basalt.fuzz.count", 5040);
  private static final int PER_MANIFEST = 60;
  private static final Pattern NUMBER = Pattern.compile("[0-9][0-9.eE+-]*");
  private static final List<String> RESOURCES = List.of("cpu", "memory", "nvidia.com/gpu");
  private static final Gson GSON = new Gson();

  @Test
  void absurdQuantitiesInManifestsAreLoadedOrNamedNeverACrash() {
    Random r = new Random(SEED);
    assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
      int named = 0;
      int exact = 0;
      for (int done = 0; done < COUNT; done += PER_MANIFEST) {
        StringBuilder yaml = new StringBuilder();
        Map<String, String> fieldOf = new HashMap<>();
        Map<String, FuzzQuantities.Case> caseOf = new HashMap<>();
        Map<String, String> textOf = new HashMap<>();
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < PER_MANIFEST; i++) {
          FuzzQuantities.Case c = FuzzQuantities.next(r);
          String resource = RESOURCES.get(r.nextInt(RESOURCES.size()));
          String value = scalar(r, c.text());
          String name = "o" + i;
          texts.add(c.text());
          String key;
          String field;
          switch (i % 6) {
            case 0 -> {
              key = "Node " + name;
              field = "status.allocatable." + resource;
              yaml.append("{apiVersion: v1, kind: Node, metadata: {name: ").append(name)
                  .append("}, status: {allocatable: {").append(resource).append(": ").append(value).append("}}}\n");
            }
            case 1 -> {
              key = "PodGroup t/" + name;
              field = "spec.minResources." + resource;
              yaml.append("{apiVersion: scheduling.volcano.sh/v1beta1, kind: PodGroup, metadata: {name: ").append(name)
                  .append(", namespace: t}, spec: {minMember: 1, minResources: {").append(resource).append(": ")
                  .append(value).append("}}}\n");
            }
            case 2 -> {
              key = "Queue " + name;
              field = "spec.capability." + resource;
              yaml.append("{apiVersion: scheduling.volcano.sh/v1beta1, kind: Queue, metadata: {name: ").append(name)
                  .append("}, spec: {weight: 1, capability: {").append(resource).append(": ").append(value)
                  .append("}}}\n");
            }
            default -> {
              String list = i % 6 == 5 ? "limits" : "requests";
              key = "Pod t/" + name;
              field = "spec.containers[0].resources." + list + "." + resource;
              yaml.append("{apiVersion: v1, kind: Pod, metadata: {name: ").append(name)
                  .append(", namespace: t}, spec: {containers: [{name: c, resources: {").append(list).append(": {")
                  .append(resource).append(": ").append(value).append("}}}]}}\n");
              caseOf.put(name, new FuzzQuantities.Case(resource, c.exact()));
              textOf.put(name, c.text());
            }
          }
          yaml.append("---\n");
          fieldOf.put(key, field);
        }
        ClusterObjects o;
        try {
          o = new ManifestReader().readString("q.yaml", yaml.toString()).toModel();
        } catch (RuntimeException e) {
          throw new AssertionError("seed " + SEED + " manifest at case " + done + " threw " + e + "\n" + texts, e);
        }
        for (String error : o.errors()) {
          named++;
          boolean names = fieldOf.entrySet().stream()
              .anyMatch(e -> error.contains(e.getKey() + ": " + e.getValue() + ": "));
          assertTrue(names && error.length() < 400, "seed " + SEED + " case " + done + ": an error not naming its "
              + "object and field, or too long: " + error);
          assertTrue(!error.contains("Exception") && !error.contains("java."), "parser wording: " + error);
        }
        for (Pod p : o.pods()) {
          FuzzQuantities.Case c = caseOf.get(p.name());
          long asked = p.request().get(ResourceNames.index(c.text()));
          assertTrue(asked >= 0, "pod " + p.name() + " asks " + asked);
          if (c.exact() != null && c.exact().signum() >= 0) {
            java.math.BigDecimal units = "cpu".equals(c.text()) ? c.exact().movePointRight(3) : c.exact();
            java.math.BigInteger ceil = units.setScale(0, java.math.RoundingMode.CEILING).toBigIntegerExact();
            long expected = ceil.bitLength() < 64 ? ceil.longValueExact() : io.basalt.kube.kinds.Conversion.MAX_REQUEST;
            assertTrue(expected == asked, "seed " + SEED + " case " + done + ": pod " + p.name() + " of "
                + c.exact() + " (" + textOf.get(p.name()) + ") " + c.text() + " asks " + asked + ", not " + expected);
            exact++;
          }
        }
      }
      System.out.println("fuzz cases: ManifestQuantityFuzzTest " + COUNT + " (quantities)");
      assertTrue(named > COUNT / 10, "many quantities should be refused: " + named);
      assertTrue(exact > COUNT / 10, "many pods should be checked exactly: " + exact);
    });
  }

  /** The text as a YAML scalar: a bare number sometimes (the reader keeps its text), else a JSON string. */
  private static String scalar(Random r, String text) {
    return r.nextBoolean() && NUMBER.matcher(text).matches() ? text : GSON.toJson(text);
  }
}
