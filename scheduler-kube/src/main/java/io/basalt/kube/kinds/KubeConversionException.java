package io.basalt.kube.kinds;

/**
 * A Kubernetes object the engine cannot take: a missing name, a bad or negative quantity, a missing required field.
 * The message names the object and the field, e.g.
 * {@code Pod team-a/p1: spec.containers[0].resources.requests.cpu: negative quantity '-1'}.
 */
public final class KubeConversionException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String kind;
  private final String object;
  private final String field;

  public KubeConversionException(String kind, String object, String field, String problem) {
    this(kind, object, field, problem, null);
  }

  public KubeConversionException(String kind, String object, String field, String problem, Throwable cause) {
    super(kind + " " + object + ": " + (field == null ? "" : field + ": ") + problem, cause);
    this.kind = kind;
    this.object = object;
    this.field = field;
  }

  /** The object's kind, e.g. {@code Pod}. */
  public String kind() {
    return kind;
  }

  /** {@code namespace/name} for namespaced kinds, {@code name} otherwise. */
  public String object() {
    return object;
  }

  /** The offending field's path, e.g. {@code spec.containers[0].resources.requests.cpu}; null for the whole object. */
  public String field() {
    return field;
  }
}
