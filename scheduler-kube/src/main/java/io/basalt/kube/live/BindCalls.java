package io.basalt.kube.live;

import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import io.basalt.kube.prebind.ApiObjects;
import io.basalt.kube.prebind.ApiReply;
import io.basalt.model.Pod;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Binding;
import io.kubernetes.client.openapi.models.V1DeleteOptions;
import io.kubernetes.client.openapi.models.V1Eviction;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1Preconditions;
import io.kubernetes.client.util.PatchUtils;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import okhttp3.Call;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * The API calls the binder makes (bind, evict, read back, and the pre-bind steps' reads and writes), each answering a plain {@link ApiReply}
 * instead of throwing, so the retry logic sees one shape. Binding and eviction are sent as raw calls because the server
 * answers a v1 Status, which the generated client fails to read as V1Binding / V1Eviction after the work is done
 * (kubernetes/kubernetes#80663).
 */
final class BindCalls implements ApiObjects {
  private final ApiClient client;
  private final CoreV1Api core;
  private final Duration callTimeout;

  BindCalls(ApiClient client, Duration callTimeout) {
    this.client = client;
    this.core = new CoreV1Api(client);
    this.callTimeout = callTimeout;
  }

  /**
   * POST pods/{name}/binding; the server copies the binding's annotations onto the pod with the node, and the uid
   * makes it refuse a pod re-created under the same name.
   */
  ApiReply bind(Pod pod, String node, Map<String, String> annotations) {
    V1Binding binding = new V1Binding().apiVersion("v1").kind("Binding")
        .metadata(new V1ObjectMeta().name(pod.name()).namespace(pod.namespace()).uid(pod.uid())
            .annotations(annotations.isEmpty() ? null : annotations))
        .target(new V1ObjectReference().apiVersion("v1").kind("Node").name(node));
    try {
      return raw(core.createNamespacedPodBinding(pod.name(), pod.namespace(), binding).buildCall(null));
    } catch (ApiException e) {
      return new ApiReply(e.getCode(), String.valueOf(e.getMessage()));
    }
  }

  /** The binding POST with {@code dryRun=All}: the server's checks and admission, nothing applied. */
  @Override
  public ApiReply tryBind(Pod pod, String node) {
    V1Binding binding = new V1Binding().apiVersion("v1").kind("Binding")
        .metadata(new V1ObjectMeta().name(pod.name()).namespace(pod.namespace()).uid(pod.uid()))
        .target(new V1ObjectReference().apiVersion("v1").kind("Node").name(node));
    try {
      return raw(core.createNamespacedPodBinding(pod.name(), pod.namespace(), binding).dryRun("All").buildCall(null));
    } catch (ApiException e) {
      return new ApiReply(e.getCode(), String.valueOf(e.getMessage()));
    }
  }

  /** POST pods/{name}/eviction (policy/v1), which honours PodDisruptionBudgets. */
  ApiReply evict(Pod pod) {
    V1Eviction eviction = new V1Eviction().apiVersion("policy/v1").kind("Eviction")
        .metadata(new V1ObjectMeta().name(pod.name()).namespace(pod.namespace()))
        .deleteOptions(new V1DeleteOptions().preconditions(new V1Preconditions().uid(pod.uid())));
    try {
      return raw(core.createNamespacedPodEviction(pod.name(), pod.namespace(), eviction).buildCall(null));
    } catch (ApiException e) {
      return new ApiReply(e.getCode(), String.valueOf(e.getMessage()));
    }
  }

  /** The node the pod is bound to now ("" if pending), or null with the reply when it cannot be read. */
  NodeOf nodeOf(Pod pod) {
    try {
      V1Pod now = core.readNamespacedPod(pod.name(), pod.namespace()).execute();
      if (now.getMetadata() != null && pod.uid() != null && !pod.uid().equals(now.getMetadata().getUid())) {
        return new NodeOf(null, new ApiReply(404, "pod re-created with uid " + now.getMetadata().getUid()));
      }
      String node = now.getSpec() == null ? null : now.getSpec().getNodeName();
      return new NodeOf(node == null ? "" : node, new ApiReply(200, ""));
    } catch (ApiException e) {
      return new NodeOf(null, new ApiReply(e.getCode(), String.valueOf(e.getMessage())));
    }
  }

  record NodeOf(String node, ApiReply reply) {}

  /** GET a node or a pod, for its annotations (e.g. HAMi's node lock) and resourceVersion. */
  @Override
  public Meta read(Kind kind, String namespace, String name) {
    try {
      V1ObjectMeta m = kind == Kind.NODE ? core.readNode(name).execute().getMetadata()
          : core.readNamespacedPod(name, namespace).execute().getMetadata();
      m = m == null ? new V1ObjectMeta() : m;
      return new Meta(m.getAnnotations() == null ? Map.of() : m.getAnnotations(), m.getResourceVersion(),
          new ApiReply(200, ""));
    } catch (ApiException e) {
      return new Meta(null, null, new ApiReply(e.getCode(), String.valueOf(e.getMessage())));
    }
  }

  /**
   * Sets ({@code value} non-null) or removes one annotation of a node or pod with a JSON merge patch that carries
   * {@code resourceVersion}: the server refuses it (409) when the node changed since it was read, so two writers of
   * the same annotation cannot both win.
   */
  @Override
  public ApiReply annotate(Kind kind, String namespace, String name, String key, String value,
      String resourceVersion) {
    JsonObject annotations = new JsonObject();
    annotations.add(key, value == null ? JsonNull.INSTANCE : new JsonPrimitive(value));
    JsonObject metadata = new JsonObject();
    metadata.add("annotations", annotations);
    metadata.addProperty("resourceVersion", resourceVersion);
    JsonObject patch = new JsonObject();
    patch.add("metadata", metadata);
    try {
      V1Patch body = new V1Patch(patch.toString());
      if (kind == Kind.NODE) {
        PatchUtils.patch(V1Node.class, () -> core.patchNode(name, body).buildCall(null),
            V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
      } else {
        PatchUtils.patch(V1Pod.class, () -> core.patchNamespacedPod(name, namespace, body).buildCall(null),
            V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
      }
      return new ApiReply(200, "");
    } catch (ApiException e) {
      return new ApiReply(e.getCode(), String.valueOf(e.getMessage()));
    }
  }

  @Override
  public Read<io.basalt.model.VolumeClaim> readClaim(String namespace, String name) {
    try {
      io.kubernetes.client.openapi.models.V1PersistentVolumeClaim c =
          core.readNamespacedPersistentVolumeClaim(name, namespace).execute();
      return new Read<>(io.basalt.kube.kinds.storage.PersistentVolumeClaimKind.toClaim(c),
          c.getMetadata().getResourceVersion(), new ApiReply(200, ""));
    } catch (ApiException e) {
      return new Read<>(null, null, new ApiReply(e.getCode(), String.valueOf(e.getMessage())));
    } catch (io.basalt.kube.kinds.KubeConversionException e) {
      return new Read<>(null, null, new ApiReply(422, e.getMessage()));
    }
  }

  @Override
  public Read<io.basalt.model.PersistentVolume> readVolume(String name) {
    try {
      io.kubernetes.client.openapi.models.V1PersistentVolume pv = core.readPersistentVolume(name).execute();
      return new Read<>(io.basalt.kube.kinds.storage.PersistentVolumeKind.toVolume(pv),
          pv.getMetadata().getResourceVersion(), new ApiReply(200, ""));
    } catch (ApiException e) {
      return new Read<>(null, null, new ApiReply(e.getCode(), String.valueOf(e.getMessage())));
    } catch (io.basalt.kube.kinds.KubeConversionException e) {
      return new Read<>(null, null, new ApiReply(422, e.getMessage()));
    }
  }

  /** A JSON merge patch of the claim's selected-node annotation, guarded by {@code resourceVersion}. */
  @Override
  public ApiReply selectNode(String namespace, String claim, String node, String resourceVersion) {
    JsonObject annotations = new JsonObject();
    annotations.add(io.basalt.model.VolumeClaim.SELECTED_NODE,
        node == null ? JsonNull.INSTANCE : new JsonPrimitive(node));
    JsonObject metadata = new JsonObject();
    metadata.add("annotations", annotations);
    metadata.addProperty("resourceVersion", resourceVersion);
    JsonObject patch = new JsonObject();
    patch.add("metadata", metadata);
    try {
      V1Patch body = new V1Patch(patch.toString());
      PatchUtils.patch(io.kubernetes.client.openapi.models.V1PersistentVolumeClaim.class,
          () -> core.patchNamespacedPersistentVolumeClaim(claim, namespace, body).buildCall(null),
          V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
      return new ApiReply(200, "");
    } catch (ApiException e) {
      return new ApiReply(e.getCode(), String.valueOf(e.getMessage()));
    }
  }

  /** A JSON merge patch of the PV's {@code spec.claimRef} (null clears it), guarded by {@code resourceVersion}. */
  @Override
  public ApiReply reserveVolume(String volume, io.basalt.model.VolumeClaim claim, String resourceVersion) {
    JsonObject spec = new JsonObject();
    if (claim == null) {
      spec.add("claimRef", JsonNull.INSTANCE);
    } else {
      JsonObject ref = new JsonObject();
      ref.addProperty("apiVersion", "v1");
      ref.addProperty("kind", "PersistentVolumeClaim");
      ref.addProperty("namespace", claim.namespace());
      ref.addProperty("name", claim.name());
      if (claim.uid() != null) {
        ref.addProperty("uid", claim.uid());
      }
      spec.add("claimRef", ref);
    }
    JsonObject metadata = new JsonObject();
    metadata.addProperty("resourceVersion", resourceVersion);
    JsonObject patch = new JsonObject();
    patch.add("metadata", metadata);
    patch.add("spec", spec);
    try {
      V1Patch body = new V1Patch(patch.toString());
      PatchUtils.patch(io.kubernetes.client.openapi.models.V1PersistentVolume.class,
          () -> core.patchPersistentVolume(volume, body).buildCall(null), V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
          client);
      return new ApiReply(200, "");
    } catch (ApiException e) {
      return new ApiReply(e.getCode(), String.valueOf(e.getMessage()));
    }
  }

  private ApiReply raw(Call call) {
    call.timeout().timeout(callTimeout.toMillis(), TimeUnit.MILLISECONDS);
    try (Response response = call.execute()) {
      ResponseBody body = response.body();
      return new ApiReply(response.code(), body == null ? "" : body.string(),
          retryAfter(response.header("Retry-After")));
    } catch (IOException e) {
      return new ApiReply(0, e.toString());
    }
  }

  /** Retry-After in seconds, as the API server sends it (429 throttling, 503); zero when absent or unreadable. */
  static Duration retryAfter(String header) {
    if (header == null) {
      return Duration.ZERO;
    }
    try {
      long seconds = Long.parseLong(header.trim());
      return seconds > 0 ? Duration.ofSeconds(seconds) : Duration.ZERO;
    } catch (NumberFormatException e) {
      return Duration.ZERO;
    }
  }

  /** GET a ResourceClaim ({@code resource.k8s.io/v1}) for its status and resourceVersion. */
  @Override
  public ClaimStatus readClaimStatus(String namespace, String name) {
    var r = claims().get(namespace, name);
    if (!r.isSuccess()) {
      return new ClaimStatus(null, null, new ApiReply(r.getHttpStatusCode(), String.valueOf(r.getStatus())));
    }
    JsonObject raw = r.getObject().getRaw();
    JsonObject status = raw.has("status") && raw.get("status").isJsonObject() ? raw.getAsJsonObject("status")
        : new JsonObject();
    return new ClaimStatus(status, r.getObject().getMetadata().getResourceVersion(), new ApiReply(200, ""));
  }

  /**
   * Writes a ResourceClaim's status subresource as a JSON merge patch carrying {@code resourceVersion} (refused with 409
   * when the claim changed since it was read): the allocation and the reservations are replaced, or removed (null).
   */
  @Override
  public ApiReply writeClaimStatus(String namespace, String name, JsonObject status, String resourceVersion) {
    JsonObject patchStatus = status.deepCopy();
    for (String field : new String[] {"allocation", "reservedFor"}) {
      if (!patchStatus.has(field)) {
        patchStatus.add(field, JsonNull.INSTANCE);
      }
    }
    JsonObject metadata = new JsonObject();
    metadata.addProperty("resourceVersion", resourceVersion);
    JsonObject patch = new JsonObject();
    patch.add("metadata", metadata);
    patch.add("status", patchStatus);
    try {
      var custom = new io.kubernetes.client.openapi.apis.CustomObjectsApi(client);
      V1Patch body = new V1Patch(patch.toString());
      PatchUtils.patch(Object.class, () -> custom.patchNamespacedCustomObjectStatus("resource.k8s.io", "v1",
          namespace, "resourceclaims", name, body).buildCall(null), V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
      return new ApiReply(200, "");
    } catch (ApiException e) {
      return new ApiReply(e.getCode(), String.valueOf(e.getMessage()));
    }
  }

  private io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi claims() {
    return new io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi("resource.k8s.io", "v1",
        "resourceclaims", client);
  }
}
