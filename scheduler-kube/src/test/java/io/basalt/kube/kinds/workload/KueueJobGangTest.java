package io.basalt.kube.kinds.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.basalt.kube.gang.GroupInference;
import io.basalt.kube.gang.OwnerObject;
import io.basalt.kube.kinds.Conversion;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1JobSpec;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Live mode alongside Kueue: a Job Kueue admitted starts whole, its gang all the pods it runs at once. */
class KueueJobGangTest {
  private static OwnerObject owner(Map<String, String> labels, Map<String, String> annotations, Integer parallelism,
      Integer completions) {
    V1Job job = new V1Job().metadata(new V1ObjectMeta().name("train").namespace("ml").uid("u1").labels(labels)
        .annotations(annotations)).spec(new V1JobSpec().parallelism(parallelism).completions(completions));
    return WorkloadKind.kueueGang(job, Conversion.owner("Job", job.getMetadata()));
  }

  @Test
  void aKueueJobsGangIsItsParallelismAtMostItsCompletions() {
    Map<String, String> kueue = Map.of("kueue.x-k8s.io/queue-name", "ml-research-queue");
    assertEquals("4", owner(kueue, Map.of(), 4, 4).annotations().get(GroupInference.MIN_MEMBER_ANNOTATION));
    assertEquals("2", owner(kueue, Map.of(), 4, 2).annotations().get(GroupInference.MIN_MEMBER_ANNOTATION));
    assertEquals("3", owner(kueue, Map.of(GroupInference.MIN_MEMBER_ANNOTATION, "3"), 4, 4).annotations()
        .get(GroupInference.MIN_MEMBER_ANNOTATION), "a size the Job states wins");
    assertNull(owner(Map.of(), Map.of(), 4, 4).annotations().get(GroupInference.MIN_MEMBER_ANNOTATION),
        "no Kueue label: each pod as before");
  }
}
