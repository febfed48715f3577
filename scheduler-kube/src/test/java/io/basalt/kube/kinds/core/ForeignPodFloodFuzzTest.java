package io.basalt.kube.kinds.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;

import io.basalt.kube.kinds.Records;
import io.basalt.model.Pod;
import io.basalt.model.ResourceNames;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1ResourceRequirements;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The flood, live: 200 pending pods of other schedulers with 25 distinct made-up extended resource names
 * each (5,000 names, seeded), handed to the Pod adapter as informers hand them: none is converted, so no name reaches
 * the process-wide table. Bounded by the number of cases; {@code -Dbasalt.fuzz.seed}.
 */
class ForeignPodFloodFuzzTest {
  private static final long SEED = Long.getLong("basalt.fuzz.seed", 35L);

  @Test
  void otherSchedulersPendingPodsNeverReachTheNameTable() {
    Random r = new Random(SEED);
    Records out = mock(Records.class);
    PodKind kind = new PodKind();
    int before = ResourceNames.count();
    for (int p = 0; p < 200; p++) {
      Map<String, Quantity> requests = new LinkedHashMap<>();
      for (int n = 0; n < 25; n++) {
        requests.put("flood-" + p + "-" + r.nextInt(1 << 20) + ".example.com/r" + n, new Quantity(
            Integer.toString(1 + r.nextInt(1000))));
      }
      V1Pod pod = new V1Pod().metadata(new V1ObjectMeta().name("p" + p).namespace("t").uid("u" + p))
          .spec(new V1PodSpec().schedulerName(r.nextBoolean() ? "default-scheduler" : "other")
              .addContainersItem(new V1Container().name("c").resources(new V1ResourceRequirements()
                  .requests(requests).limits(requests))));
      kind.put(pod, out);
    }
    System.out.println("fuzz cases: ForeignPodFloodFuzzTest 200 pods, 5000 names (name floods)");
    verify(out, never()).pod(any(Pod.class));
    assertEquals(before, ResourceNames.count(), "made-up names reached the table");
  }
}
