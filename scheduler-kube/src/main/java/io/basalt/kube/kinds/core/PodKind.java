package io.basalt.kube.kinds.core;

import com.google.gson.JsonObject;
import io.basalt.kube.kinds.KindAdapter;
import io.basalt.kube.kinds.Records;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodList;
import io.kubernetes.client.util.CallGenerator;
import java.io.IOException;

/** v1 Pods: every non-terminal pod (other schedulers' pods count as used on their nodes). */
public final class PodKind extends KindAdapter<V1Pod> {
  /** Non-terminal pods only: Succeeded and Failed pods hold no resources. Same selector as kube-scheduler. */
  public static final String NON_TERMINAL = "status.phase!=Succeeded,status.phase!=Failed";

  public PodKind() {
    super("", "v1", "Pod", "pods", true, V1Pod.class, V1PodList.class);
  }

  @Override
  public void put(V1Pod pod, Records out) {
    V1PodSpec spec = pod.getSpec();
    if (spec != null && (spec.getNodeName() == null || spec.getNodeName().isEmpty()) && !nominated(pod)
        && !out.wantsPending(spec.getSchedulerName() == null || spec.getSchedulerName().isEmpty()
            ? PodConversion.DEFAULT_SCHEDULER_NAME : spec.getSchedulerName())) {
      V1ObjectMeta meta = pod.getMetadata();
      if (meta != null) { // it may have been nominated before: what was held for it goes
        out.pendingSkipped(meta.getNamespace() + "/" + meta.getName(), meta.getUid());
      }
      return;
    }
    out.pod(PodConversion.toPod(pod));
  }

  /** A pending pod nominated to a node holds room there, whoever schedules it (kube-scheduler's nominated pods). */
  private static boolean nominated(V1Pod pod) {
    return pod.getStatus() != null && pod.getStatus().getNominatedNodeName() != null
        && !pod.getStatus().getNominatedNodeName().isEmpty();
  }

  @Override
  public void remove(V1Pod pod, String key, Records.Removals out) {
    out.podGone(key, pod.getMetadata() == null ? null : pod.getMetadata().getUid());
  }

  @Override
  public void check(JsonObject document) throws IOException {
    V1Pod.validateJsonElement(document);
  }

  @Override
  public Watch watch() {
    return Watch.ALWAYS;
  }

  @Override
  public CallGenerator listWatch(ApiClient client) {
    CoreV1Api core = new CoreV1Api(client);
    return p -> core.listPodForAllNamespaces().fieldSelector(NON_TERMINAL).resourceVersion(p.resourceVersion)
        .watch(p.watch).timeoutSeconds(p.timeoutSeconds).allowWatchBookmarks(p.watch).buildCall(null);
  }
}
