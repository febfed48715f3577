package io.basalt.kube.kinds.core;

import com.google.gson.JsonObject;
import io.basalt.kube.kinds.Conversion.Ctx;
import io.basalt.kube.kinds.KindAdapter;
import io.basalt.kube.kinds.Records;
import io.basalt.model.PriorityClass;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.SchedulingV1Api;
import io.kubernetes.client.openapi.models.V1PriorityClass;
import io.kubernetes.client.openapi.models.V1PriorityClassList;
import io.kubernetes.client.util.CallGenerator;
import java.io.IOException;

/** {@code scheduling.k8s.io} PriorityClasses; manifests of any version of the group (they differ in no field read). */
public final class PriorityClassKind extends KindAdapter<V1PriorityClass> {
  /** The API server's default for {@code PriorityClass.preemptionPolicy}. */
  public static final String DEFAULT_PREEMPTION_POLICY = "PreemptLowerPriority";

  public PriorityClassKind() {
    super("scheduling.k8s.io", "v1", "PriorityClass", "priorityclasses", false, V1PriorityClass.class,
        V1PriorityClassList.class);
  }

  /** Converts a PriorityClass; {@code preemptionPolicy} defaults to PreemptLowerPriority. */
  public static PriorityClass toPriorityClass(V1PriorityClass pc) {
    Ctx ctx = Ctx.clusterScoped("PriorityClass", pc.getMetadata());
    if (pc.getValue() == null) {
      throw ctx.fail("value", "missing");
    }
    String policy = pc.getPreemptionPolicy();
    return new PriorityClass(pc.getMetadata().getName(), pc.getValue(), Boolean.TRUE.equals(pc.getGlobalDefault()),
        policy == null || policy.isEmpty() ? DEFAULT_PREEMPTION_POLICY : policy);
  }

  @Override
  public void put(V1PriorityClass pc, Records out) {
    out.priorityClass(toPriorityClass(pc));
  }

  @Override
  public void remove(V1PriorityClass pc, String key, Records.Removals out) {
    out.priorityClassGone(key);
  }

  @Override
  public boolean readsDocument(String apiVersion, String kind) {
    return apiVersion.startsWith(group() + "/") && kind().equals(kind);
  }

  @Override
  public void check(JsonObject document) throws IOException {
    V1PriorityClass.validateJsonElement(document);
  }

  @Override
  public Watch watch() {
    return Watch.ALWAYS;
  }

  @Override
  public CallGenerator listWatch(ApiClient client) {
    SchedulingV1Api scheduling = new SchedulingV1Api(client);
    return p -> scheduling.listPriorityClass().resourceVersion(p.resourceVersion).watch(p.watch)
        .timeoutSeconds(p.timeoutSeconds).allowWatchBookmarks(p.watch).buildCall(null);
  }
}
