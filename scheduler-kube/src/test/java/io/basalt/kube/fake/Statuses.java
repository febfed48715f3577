package io.basalt.kube.fake;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import java.util.Map;

/**
 * The {@code meta.k8s.io/v1 Status} replies of a real API server. Shape (field names and order: kind, apiVersion,
 * metadata, status, message, reason, details{name, group, kind, uid, causes, retryAfterSeconds}, code) from
 * apimachinery pkg/apis/meta/v1/types.go {@code Status}/{@code StatusDetails} and the API conventions doc
 * (sig-architecture/api-conventions.md, "Response Status Kind"); messages, reasons and details per constructor from
 * apimachinery pkg/api/errors/errors.go ({@code NewNotFound}, {@code NewAlreadyExists}, {@code NewConflict},
 * {@code NewResourceExpired}, {@code NewTooManyRequests}, {@code NewInternalError}, ...). Note {@code details.kind} is
 * the plural resource, not the Kind, except for Invalid ("Yes we set Kind field to resource", store.go).
 */
final class Statuses {
  /** apimachinery storage {@code OptimisticLockErrorMsg}. */
  static final String OPTIMISTIC_LOCK = "the object has been modified; please apply your changes to the latest version"
      + " and try again";

  private static final Map<Integer, String> REASONS = Map.ofEntries(
      Map.entry(400, "BadRequest"), Map.entry(401, "Unauthorized"), Map.entry(403, "Forbidden"),
      Map.entry(404, "NotFound"), Map.entry(405, "MethodNotAllowed"), Map.entry(409, "Conflict"),
      Map.entry(410, "Expired"), Map.entry(415, "UnsupportedMediaType"), Map.entry(422, "Invalid"),
      Map.entry(429, "TooManyRequests"), Map.entry(500, "InternalError"), Map.entry(503, "ServiceUnavailable"),
      Map.entry(504, "Timeout"));

  private Statuses() {
  }

  private static JsonObject base(String status) {
    JsonObject s = new JsonObject();
    s.addProperty("kind", "Status");
    s.addProperty("apiVersion", "v1");
    s.add("metadata", new JsonObject());
    s.addProperty("status", status);
    return s;
  }

  static JsonObject failure(int code, String reason, String message, JsonObject details) {
    JsonObject s = base("Failure");
    s.addProperty("message", message);
    if (reason != null && !reason.isEmpty()) {
      s.addProperty("reason", reason);
    }
    if (details != null) {
      s.add("details", details);
    }
    s.addProperty("code", code);
    return s;
  }

  /** {@code details} with omitempty semantics: empty strings are left out, as Go's encoder does. */
  static JsonObject details(String name, String group, String kind) {
    JsonObject d = new JsonObject();
    if (name != null && !name.isEmpty()) {
      d.addProperty("name", name);
    }
    if (group != null && !group.isEmpty()) {
      d.addProperty("group", group);
    }
    if (kind != null && !kind.isEmpty()) {
      d.addProperty("kind", kind);
    }
    return d;
  }

  /**
   * Success reply of create-like subresources (pods/binding, pods/eviction): the REST storage returns
   * {@code &metav1.Status{Status: Success}} and the create handler fills {@code code = 201} (apiserver
   * endpoints/handlers/create.go). This is what kubernetes/kubernetes#80663 is about: the body is not a Binding.
   */
  static JsonObject created() {
    JsonObject s = base("Success");
    s.addProperty("code", 201);
    return s;
  }

  /** DELETE reply of kinds without ReturnDeletedObject (store.go {@code finalizeDelete}); no code is set. */
  static JsonObject deleted(ResourceType type, String name, String uid) {
    JsonObject s = base("Success");
    JsonObject d = details(name, type.group(), type.plural());
    if (uid != null) {
      d.addProperty("uid", uid);
    }
    s.add("details", d);
    return s;
  }

  static ApiError notFound(ResourceType type, String name) {
    return new ApiError(404, failure(404, "NotFound", type.qualifiedResource() + " \"" + name + "\" not found",
        details(name, type.group(), type.plural())));
  }

  static ApiError alreadyExists(ResourceType type, String name) {
    return new ApiError(409, failure(409, "AlreadyExists",
        type.qualifiedResource() + " \"" + name + "\" already exists", details(name, type.group(), type.plural())));
  }

  /** {@code NewConflict(resource, name, err)}; {@code resource} may be a subresource such as {@code pods/binding}. */
  static ApiError conflict(String group, String resource, String name, String cause) {
    String qualified = group.isEmpty() ? resource : resource + "." + group;
    return new ApiError(409, failure(409, "Conflict",
        "Operation cannot be fulfilled on " + qualified + " \"" + name + "\": " + cause,
        details(name, group, resource)));
  }

  static ApiError staleResourceVersion(ResourceType type, String name) {
    return conflict(type.group(), type.plural(), name, OPTIMISTIC_LOCK);
  }

  static ApiError badRequest(String message) {
    return new ApiError(400, failure(400, "BadRequest", message, null));
  }

  /** {@code NewInvalid(GroupKind, name, errs)}: details.kind is the Kind here, with one cause per field error. */
  static ApiError invalid(ResourceType type, String name, String field, String causeReason, String detail) {
    JsonObject d = details(name, type.group(), type.kind());
    JsonArray causes = new JsonArray();
    JsonObject cause = new JsonObject();
    cause.addProperty("reason", causeReason);
    cause.addProperty("message", detail);
    cause.addProperty("field", field);
    causes.add(cause);
    d.add("causes", causes);
    return new ApiError(422, failure(422, "Invalid",
        type.kind() + " \"" + name + "\" is invalid: " + field + ": " + detail, d));
  }

  static ApiError forbidden(ResourceType type, String name, String cause) {
    return new ApiError(403, failure(403, "Forbidden",
        type.qualifiedResource() + " \"" + name + "\" is forbidden: " + cause, details(name, type.group(),
            type.plural())));
  }

  /** Watch-cache / etcd answer for a compacted resourceVersion: 410 with reason Expired. */
  static ApiError expired(String message) {
    return new ApiError(410, failure(410, "Expired", message, null));
  }

  static ApiError methodNotAllowed() {
    return new ApiError(405, failure(405, "MethodNotAllowed",
        "the server does not allow this method on the requested resource", details(null, null, null)));
  }

  /** The reply for a path no installed API serves (apiserver endpoints/handlers/responsewriters NotFound). */
  static ApiError pathNotFound() {
    return new ApiError(404, failure(404, "NotFound", "the server could not find the requested resource",
        details(null, null, null)));
  }

  /** apimachinery runtime/serializer {@code errUnsupportedMediaType}. */
  static ApiError unsupportedMediaType(String accepted) {
    return new ApiError(415, failure(415, "UnsupportedMediaType",
        "the body of the request was in an unknown format - accepted media types include: " + accepted, null));
  }

  static ApiError internal(String cause) {
    JsonObject d = new JsonObject();
    JsonArray causes = new JsonArray();
    JsonObject c = new JsonObject();
    c.addProperty("message", cause);
    causes.add(c);
    d.add("causes", causes);
    return new ApiError(500, failure(500, "InternalError", "Internal error occurred: " + cause, d));
  }

  /**
   * A failure for an injected fault with the reason a real server pairs with {@code code}; 429 carries
   * {@code details.retryAfterSeconds} and a Retry-After header ({@code NewTooManyRequests}), 500 the
   * {@code NewInternalError} shape.
   */
  static ApiError injected(int code, String message, int retryAfterSeconds, String path) {
    if (code == 500) {
      return internal(message);
    }
    if (code == 429) {
      JsonObject d = new JsonObject();
      d.addProperty("retryAfterSeconds", retryAfterSeconds);
      ApiError e = new ApiError(429, failure(429, "TooManyRequests", message, d));
      e.header("Retry-After", Integer.toString(retryAfterSeconds));
      return e;
    }
    if (code == 409) {
      return new ApiError(409, failure(409, "Conflict", "Operation cannot be fulfilled on " + path + ": " + message,
          details(null, null, null)));
    }
    return new ApiError(code, failure(code, REASONS.getOrDefault(code, ""), message, null));
  }
}
