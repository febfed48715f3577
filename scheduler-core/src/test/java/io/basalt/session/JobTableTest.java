package io.basalt.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.basalt.api.JobInfo;
import io.basalt.model.PodGroup;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The job table answers as the linked map it replaced: same gets, same replaced jobs, same order. */
class JobTableTest {
  private static JobInfo job(String key) {
    String[] parts = key.split("/", 2);
    return new JobInfo(key, new PodGroup(parts[0], parts[1], 1, Map.of(), "default", null, null, "Pending", null),
        true, 0);
  }

  @Test
  void answersAsALinkedMapOnRandomPutsWithRepeatedKeys() {
    for (int seed = 0; seed < 40; seed++) {
      Random r = new Random(seed);
      int keys = 1 + r.nextInt(seed < 20 ? 40 : 30_000);
      // Sized too small on purpose for some seeds: the table must grow while keeping every answer.
      JobTable table = new JobTable(r.nextBoolean() ? keys : 1);
      Map<String, JobInfo> reference = new LinkedHashMap<>();
      int puts = keys + r.nextInt(keys + 1);
      for (int i = 0; i < puts; i++) {
        JobInfo j = job("ns" + r.nextInt(3) + "/pod-" + r.nextInt(keys));
        assertSame(reference.put(j.key(), j), table.put(j), "seed " + seed + ", put " + j.key());
        String probe = "ns" + r.nextInt(3) + "/pod-" + r.nextInt(keys + 5);
        assertSame(reference.get(probe), table.get(probe), "seed " + seed + ", get " + probe);
      }
      assertEquals(new ArrayList<>(reference.values()), table.values(), "seed " + seed + ": order");
      assertEquals(reference.size(), table.size());
      for (String k : reference.keySet()) {
        assertSame(reference.get(k), table.get(k));
      }
    }
  }

  @Test
  void keysWithEqualHashesAreToldApart() {
    // "Aa" and "BB" have the same String hash: probing must compare keys, not hashes.
    JobTable table = new JobTable(4);
    JobInfo a = job("ns/Aa");
    JobInfo b = job("ns/BB");
    table.put(a);
    table.put(b);
    assertSame(a, table.get("ns/Aa"));
    assertSame(b, table.get("ns/BB"));
    assertEquals(List.of(a, b), table.values());
  }
}
