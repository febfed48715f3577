package io.basalt.kube.live;

import io.basalt.model.Pod;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Binding;
import io.kubernetes.client.openapi.models.V1DeleteOptions;
import io.kubernetes.client.openapi.models.V1Eviction;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1Preconditions;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import okhttp3.Call;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * The four API calls the binder makes, each answering a plain {@link Reply} instead of throwing, so the retry logic
 * sees one shape. Binding and eviction are sent as raw calls because the server answers a v1 Status, which the
 * generated client fails to read as V1Binding / V1Eviction after the work is done (kubernetes/kubernetes#80663).
 */
final class BindCalls {
  /**
   * HTTP status code (0: no answer, e.g. I/O error or timeout), the reply body or error text, and the server's
   * {@code Retry-After} (zero when it sent none).
   */
  record Reply(int code, String body, Duration retryAfter) {
    Reply(int code, String body) {
      this(code, body, Duration.ZERO);
    }

    boolean ok() {
      return code >= 200 && code < 300;
    }
  }

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
  Reply bind(Pod pod, String node, Map<String, String> annotations) {
    V1Binding binding = new V1Binding().apiVersion("v1").kind("Binding")
        .metadata(new V1ObjectMeta().name(pod.name()).namespace(pod.namespace()).uid(pod.uid())
            .annotations(annotations.isEmpty() ? null : annotations))
        .target(new V1ObjectReference().apiVersion("v1").kind("Node").name(node));
    try {
      return raw(core.createNamespacedPodBinding(pod.name(), pod.namespace(), binding).buildCall(null));
    } catch (ApiException e) {
      return new Reply(e.getCode(), String.valueOf(e.getMessage()));
    }
  }

  /** POST pods/{name}/eviction (policy/v1), which honours PodDisruptionBudgets. */
  Reply evict(Pod pod) {
    V1Eviction eviction = new V1Eviction().apiVersion("policy/v1").kind("Eviction")
        .metadata(new V1ObjectMeta().name(pod.name()).namespace(pod.namespace()))
        .deleteOptions(new V1DeleteOptions().preconditions(new V1Preconditions().uid(pod.uid())));
    try {
      return raw(core.createNamespacedPodEviction(pod.name(), pod.namespace(), eviction).buildCall(null));
    } catch (ApiException e) {
      return new Reply(e.getCode(), String.valueOf(e.getMessage()));
    }
  }

  /** The node the pod is bound to now ("" if pending), or null with the reply when it cannot be read. */
  NodeOf nodeOf(Pod pod) {
    try {
      V1Pod now = core.readNamespacedPod(pod.name(), pod.namespace()).execute();
      if (now.getMetadata() != null && pod.uid() != null && !pod.uid().equals(now.getMetadata().getUid())) {
        return new NodeOf(null, new Reply(404, "pod re-created with uid " + now.getMetadata().getUid()));
      }
      String node = now.getSpec() == null ? null : now.getSpec().getNodeName();
      return new NodeOf(node == null ? "" : node, new Reply(200, ""));
    } catch (ApiException e) {
      return new NodeOf(null, new Reply(e.getCode(), String.valueOf(e.getMessage())));
    }
  }

  record NodeOf(String node, Reply reply) {}

  private Reply raw(Call call) {
    call.timeout().timeout(callTimeout.toMillis(), TimeUnit.MILLISECONDS);
    try (Response response = call.execute()) {
      ResponseBody body = response.body();
      return new Reply(response.code(), body == null ? "" : body.string(),
          retryAfter(response.header("Retry-After")));
    } catch (IOException e) {
      return new Reply(0, e.toString());
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
}
