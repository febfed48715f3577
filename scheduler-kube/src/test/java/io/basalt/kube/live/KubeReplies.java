package io.basalt.kube.live;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;

import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.client.ScenarioMappingBuilder;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import okhttp3.OkHttpClient;

/**
 * Reply bodies as a real kube-apiserver sends them, for the WireMock contract tests (*ContractTest), and a few stub
 * helpers. Every error is a {@code meta/v1 Status} unless noted: fields kind, apiVersion, metadata (always present,
 * empty), status, message, reason, details, code, per apimachinery pkg/apis/meta/v1/types.go ({@code Status},
 * {@code StatusDetails}, {@code StatusCause}) and the API conventions ("Response Status Kind"); message, reason and
 * details per constructor in apimachinery pkg/api/errors/errors.go. {@code details.kind} is the plural resource.
 */
final class KubeReplies {
  static final String JSON = "application/json";

  private KubeReplies() {}

  /** A client for {@code wm}: no read timeout, as watches need. */
  static ApiClient client(WireMockExtension wm) {
    return new ApiClient(new OkHttpClient.Builder().readTimeout(Duration.ZERO).build()).setBasePath(wm.baseUrl());
  }

  /** {@code code} with a JSON body. */
  static ResponseDefinitionBuilder json(int code, String body) {
    return aResponse().withStatus(code).withHeader("Content-Type", JSON).withBody(body);
  }

  /**
   * Stubs {@code request} to answer {@code replies} in turn, the last one for good (a WireMock scenario).
   * {@code request} must build a fresh mapping each time.
   */
  static void inTurn(WireMockExtension wm, Supplier<MappingBuilder> request, ResponseDefinitionBuilder... replies) {
    String scenario = UUID.randomUUID().toString();
    for (int i = 0; i < replies.length; i++) {
      ScenarioMappingBuilder m = request.get().inScenario(scenario)
          .whenScenarioStateIs(i == 0 ? Scenario.STARTED : "reply-" + i).willReturn(replies[i]);
      if (i + 1 < replies.length) {
        m.willSetStateTo("reply-" + (i + 1));
      }
      wm.stubFor(m);
    }
  }

  // ---- meta/v1 Status ------------------------------------------------------------------------------------------

  /**
   * Success reply of pods/binding and pods/eviction: their REST storage returns {@code &metav1.Status{Status:
   * Success}} and the create handler (apiserver endpoints/handlers/create.go) sets code 201. Not a Binding, which is
   * what kubernetes/kubernetes#80663 is about.
   */
  static String createdStatus() {
    return "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Success\",\"code\":201}";
  }

  static String failure(int code, String reason, String message, JsonObject details) {
    JsonObject s = new JsonObject();
    s.addProperty("kind", "Status");
    s.addProperty("apiVersion", "v1");
    s.add("metadata", new JsonObject());
    s.addProperty("status", "Failure");
    s.addProperty("message", message);
    s.addProperty("reason", reason);
    s.add("details", details);
    s.addProperty("code", code);
    return s.toString();
  }

  /** {@code details} with Go's omitempty: empty group left out. */
  static JsonObject details(String name, String group, String resource) {
    JsonObject d = new JsonObject();
    if (name != null) {
      d.addProperty("name", name);
    }
    if (group != null && !group.isEmpty()) {
      d.addProperty("group", group);
    }
    if (resource != null) {
      d.addProperty("kind", resource);
    }
    return d;
  }

  /** errors.NewNotFound(GroupResource, name): {@code <resource>[.<group>] "<name>" not found}. */
  static String notFound(String group, String resource, String name) {
    String qualified = group.isEmpty() ? resource : resource + "." + group;
    return failure(404, "NotFound", qualified + " \"" + name + "\" not found", details(name, group, resource));
  }

  /**
   * errors.NewConflict(GroupResource, name, err). The pod registry's BindingREST.assignPod wraps a refused bind this
   * way with resource {@code pods/binding}, e.g. cause {@code pod p1 is already assigned to node "n2"}.
   */
  static String conflict(String resource, String name, String cause) {
    return failure(409, "Conflict", "Operation cannot be fulfilled on " + resource + " \"" + name + "\": " + cause,
        details(name, "", resource));
  }

  /** errors.NewInternalError(err): message prefixed, the error text as the one cause. */
  static String internalError(String cause) {
    JsonObject d = new JsonObject();
    JsonObject c = new JsonObject();
    c.addProperty("message", cause);
    com.google.gson.JsonArray causes = new com.google.gson.JsonArray();
    causes.add(c);
    d.add("causes", causes);
    return failure(500, "InternalError", "Internal error occurred: " + cause, d);
  }

  /**
   * The Eviction API refusing because of a PodDisruptionBudget (registry/core/pod/storage/eviction.go): NewTooManyRequests
   * with retryAfterSeconds 0 (so no Retry-After header and none in details) plus a DisruptionBudget cause.
   */
  static String disruptionBudget(String pdb, int needs, int has) {
    JsonObject d = new JsonObject();
    JsonObject c = new JsonObject();
    c.addProperty("reason", "DisruptionBudget");
    c.addProperty("message", "The disruption budget " + pdb + " needs " + needs + " healthy pods and has " + has
        + " currently");
    com.google.gson.JsonArray causes = new com.google.gson.JsonArray();
    causes.add(c);
    d.add("causes", causes);
    return failure(429, "TooManyRequests", "Cannot evict pod as it would violate the pod's disruption budget.", d);
  }

  /**
   * Throttling by max-in-flight / API Priority and Fairness (apiserver pkg/server/filters/maxinflight.go and
   * priority-and-fairness.go, {@code tooManyRequests}): NOT a Status but Go's {@code http.Error}, i.e. plain text,
   * with a Retry-After header in seconds.
   */
  static ResponseDefinitionBuilder throttled(int retryAfterSeconds) {
    return aResponse().withStatus(429).withHeader("Content-Type", "text/plain; charset=utf-8")
        .withHeader("X-Content-Type-Options", "nosniff").withHeader("Retry-After", String.valueOf(retryAfterSeconds))
        .withBody("Too many requests, please try again later.\n");
  }

  /**
   * 404 for a resource no installed API serves (a CRD not installed): the CRD handler passes the request down the
   * delegation chain to the end-of-chain handler (apiserver pkg/util/notfoundhandler), whose {@code http.NotFound}
   * answers plain text, not a Status.
   */
  static ResponseDefinitionBuilder unservedPath() {
    return aResponse().withStatus(404).withHeader("Content-Type", "text/plain; charset=utf-8")
        .withHeader("X-Content-Type-Options", "nosniff").withBody("404 page not found\n");
  }

  // ---- objects -------------------------------------------------------------------------------------------------

  /** A v1 Pod as GET returns it; {@code node} null for pending. */
  static String pod(String namespace, String name, String uid, String node) {
    return "{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\""
        + namespace + "\",\"uid\":\"" + uid + "\",\"resourceVersion\":\"42\","
        + "\"creationTimestamp\":\"2025-01-01T00:00:00Z\"},\"spec\":{"
        + (node == null ? "" : "\"nodeName\":\"" + node + "\",")
        + "\"schedulerName\":\"basalt-scheduler\",\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"}]},"
        + "\"status\":{\"phase\":\"Pending\"}}";
  }

  /**
   * Applies a JSON merge patch (RFC 7386, what the API server does for application/merge-patch+json) to
   * {@code target}, in place: null removes a key, objects merge recursively, anything else replaces.
   */
  static JsonObject mergePatch(JsonObject target, JsonObject patch) {
    for (Map.Entry<String, JsonElement> e : patch.entrySet()) {
      JsonElement v = e.getValue();
      if (v == null || v instanceof JsonNull) {
        target.remove(e.getKey());
      } else if (v.isJsonObject() && target.has(e.getKey()) && target.get(e.getKey()).isJsonObject()) {
        mergePatch(target.getAsJsonObject(e.getKey()), v.getAsJsonObject());
      } else if (v.isJsonObject()) {
        target.add(e.getKey(), mergePatch(new JsonObject(), v.getAsJsonObject()));
      } else {
        target.add(e.getKey(), v.deepCopy());
      }
    }
    return target;
  }

  /**
   * A request body as the API server reads it: client-java's models send empty collections ({@code "labels":{}},
   * {@code "finalizers":[]}) where the Go types have omitempty, so they are dropped before comparing.
   */
  static JsonObject sent(com.github.tomakehurst.wiremock.verification.LoggedRequest request) {
    return (JsonObject) withoutEmpty(JsonParser.parseString(request.getBodyAsString()));
  }

  private static JsonElement withoutEmpty(JsonElement e) {
    if (e.isJsonObject()) {
      JsonObject out = new JsonObject();
      for (Map.Entry<String, JsonElement> m : e.getAsJsonObject().entrySet()) {
        JsonElement v = withoutEmpty(m.getValue());
        boolean empty = v.isJsonObject() && v.getAsJsonObject().size() == 0
            || v.isJsonArray() && v.getAsJsonArray().isEmpty();
        if (!empty) {
          out.add(m.getKey(), v);
        }
      }
      return out;
    }
    if (e.isJsonArray()) {
      com.google.gson.JsonArray out = new com.google.gson.JsonArray();
      e.getAsJsonArray().forEach(x -> out.add(withoutEmpty(x)));
      return out;
    }
    return e;
  }

  static JsonObject parse(String json) {
    return JsonParser.parseString(json).getAsJsonObject();
  }
}
