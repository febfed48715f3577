package io.basalt.kube.gang;

import java.time.Instant;
import java.util.Map;

/**
 * A workload object owning pods (a batch/v1 Job, a PyTorchJob, ...), reduced to what gang inference reads from it: its
 * {@code scheduling.volcano.sh/group-min-member} annotation and its queue label or annotation.
 */
public record OwnerObject(String kind, String namespace, String name, String uid, Map<String, String> labels,
    Map<String, String> annotations, Instant creationTimestamp) {
  public OwnerObject {
    labels = labels == null ? Map.of() : Map.copyOf(labels);
    annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
  }
}
