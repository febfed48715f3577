package io.basalt.kube.kinds.kueue;

import io.basalt.kube.kinds.Conversion;
import io.basalt.kube.kinds.Conversion.Ctx;
import io.basalt.kube.kinds.core.PodConversion;
import io.basalt.kube.kueue.KueueJob;
import io.basalt.model.QueueRequest;
import io.basalt.model.ResourceNames;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1JobCondition;
import io.kubernetes.client.openapi.models.V1JobSpec;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1Toleration;
import io.basalt.model.Toleration;
import java.util.ArrayList;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;

/** A batch/v1 Job as Kueue's admission reads it, for live mode ({@link KueueJob}). */
public final class KueueJobs {
  /** Kueue's label naming a WorkloadPriorityClass. */
  static final String PRIORITY_CLASS_LABEL = "kueue.x-k8s.io/priority-class";

  private KueueJobs() {}

  /** The Job as Kueue's workload, or null when it names no LocalQueue (Kueue leaves it alone, and so does Basalt). */
  public static KueueJob of(V1Job job) {
    Map<String, String> labels = job.getMetadata() == null ? null : job.getMetadata().getLabels();
    String queue = labels == null ? null : labels.get(QueueRequest.KUEUE_LABEL);
    if (queue == null || queue.isBlank() || job.getSpec() == null) {
      return null;
    }
    Ctx ctx = Ctx.namespaced("Job", job.getMetadata());
    V1JobSpec spec = job.getSpec();
    int pods = spec.getParallelism() == null ? 1 : spec.getParallelism();
    if (spec.getCompletions() != null) {
      pods = Math.min(pods, spec.getCompletions());
    }
    V1PodSpec podSpec = spec.getTemplate() == null ? null : spec.getTemplate().getSpec();
    Map<String, Long> request = new LinkedHashMap<>();
    Map<String, String> selector = Map.of();
    List<Toleration> tolerations = new ArrayList<>();
    String priorityClassName = null;
    if (podSpec != null) {
      PodConversion.podRequest(podSpec, ctx).toMap().forEach((r, v) -> {
        if (!r.equals(ResourceNames.PODS_NAME) && v > 0) {
          request.put(r, v);
        }
      });
      selector = Conversion.strings(podSpec.getNodeSelector());
      priorityClassName = podSpec.getPriorityClassName();
      if (podSpec.getTolerations() != null) {
        for (V1Toleration t : podSpec.getTolerations()) {
          tolerations.add(new Toleration(t.getKey(), t.getOperator() == null ? "Equal" : t.getOperator(),
              t.getValue(), t.getEffect()));
        }
      }
    }
    boolean finished = false;
    if (job.getStatus() != null && job.getStatus().getConditions() != null) {
      for (V1JobCondition c : job.getStatus().getConditions()) {
        finished |= ("Complete".equals(c.getType()) || "Failed".equals(c.getType())) && "True".equals(c.getStatus());
      }
    }
    return new KueueJob(Conversion.namespaceOf(job.getMetadata()), job.getMetadata().getName(),
        job.getMetadata().getUid(), queue, Boolean.TRUE.equals(spec.getSuspend()), finished, Math.max(pods, 0),
        request, selector, tolerations, labels.get(PRIORITY_CLASS_LABEL), priorityClassName,
        Conversion.instant(job.getMetadata().getCreationTimestamp()),
        spec.getTemplate() == null ? null : io.kubernetes.client.openapi.JSON.getGson().toJson(spec.getTemplate()),
        provisioningParameters(job.getMetadata().getAnnotations()));
  }

  /** Kueue's prefix of Job annotations passed on as a ProvisioningRequest's parameters. */
  static final String PROVISIONING_PARAMETER_PREFIX = "provreq.kueue.x-k8s.io/";

  private static Map<String, String> provisioningParameters(Map<String, String> annotations) {
    Map<String, String> out = new LinkedHashMap<>();
    if (annotations != null) {
      annotations.forEach((k, v) -> {
        if (k.startsWith(PROVISIONING_PARAMETER_PREFIX) && v != null) {
          out.put(k.substring(PROVISIONING_PARAMETER_PREFIX.length()), v);
        }
      });
    }
    return out;
  }
}
