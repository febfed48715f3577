package io.basalt.kube.kueue;

import io.basalt.model.Toleration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A batch/v1 Job naming a Kueue LocalQueue, as live mode's admission reads it ({@link KueueLive}): Kueue's workload
 * of one pod set, {@code pods} pods ({@code parallelism}, at most {@code completions}) each asking {@code podRequest}.
 *
 * @param localQueue its {@code kueue.x-k8s.io/queue-name} label
 * @param suspended {@code spec.suspend: true}: not admitted yet (or evicted)
 * @param finished a {@code Complete} or {@code Failed} condition: it holds no quota any more
 * @param podRequest one pod's request by resource name, in the engine's units (the pod slot left out)
 * @param nodeSelector the pod template's node selector (an admitted Job's tells its flavor)
 * @param tolerations the pod template's tolerations
 * @param priorityClass the {@code kueue.x-k8s.io/priority-class} label, or null
 * @param priorityClassName the pod template's {@code priorityClassName}, or null
 * @param podTemplate the pod template as JSON, for the PodTemplate of a ProvisioningRequest; null when unknown
 * @param provisioningParameters the Job's {@code provreq.kueue.x-k8s.io/NAME} annotations by NAME: parameters Kueue
 *     passes on to the ProvisioningRequest it makes for the Job
 */
public record KueueJob(String namespace, String name, String uid, String localQueue, boolean suspended,
    boolean finished, int pods, Map<String, Long> podRequest, Map<String, String> nodeSelector,
    List<Toleration> tolerations, String priorityClass, String priorityClassName, Instant created,
    String podTemplate, Map<String, String> provisioningParameters) {
  public KueueJob {
    podRequest = Map.copyOf(podRequest);
    nodeSelector = Map.copyOf(nodeSelector);
    tolerations = List.copyOf(tolerations);
    provisioningParameters = Map.copyOf(provisioningParameters);
  }

  /** A Job whose template and annotations a ProvisioningRequest would not need. */
  public KueueJob(String namespace, String name, String uid, String localQueue, boolean suspended, boolean finished,
      int pods, Map<String, Long> podRequest, Map<String, String> nodeSelector, List<Toleration> tolerations,
      String priorityClass, String priorityClassName, Instant created) {
    this(namespace, name, uid, localQueue, suspended, finished, pods, podRequest, nodeSelector, tolerations,
        priorityClass, priorityClassName, created, null, Map.of());
  }

  public String key() {
    return namespace + "/" + name;
  }

  /** The whole workload's request: every pod's. */
  Map<String, Long> request() {
    java.util.Map<String, Long> r = new java.util.LinkedHashMap<>();
    podRequest.forEach((k, v) -> r.put(k, v * pods));
    return r;
  }
}
