package io.basalt.kube.kinds;

import com.google.gson.annotations.SerializedName;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.Objects;

/**
 * The fields every custom resource Basalt reads shares (apiVersion, kind, metadata, spec, status): Volcano's, the
 * coscheduling PodGroup, the workload kinds. Each resource class declares only its constants and its own spec and
 * status types. Gson (client-java's {@code JSON} and
 * {@code KubeJson}'s) reads {@code spec} and {@code status} as the types a subclass binds {@code S} and {@code T} to;
 * {@code O} is the subclass itself, for the fluent setters.
 *
 * @param <O> the concrete resource class
 * @param <S> its {@code spec} type
 * @param <T> its {@code status} type
 */
public abstract class CustomObject<O extends CustomObject<O, S, T>, S, T> implements KubernetesObject {
  @SerializedName("apiVersion")
  private String apiVersion;

  @SerializedName("kind")
  private String kind;

  @SerializedName("metadata")
  private V1ObjectMeta metadata;

  @SerializedName("spec")
  private S spec;

  @SerializedName("status")
  private T status;

  @Override
  public String getApiVersion() {
    return apiVersion;
  }

  public void setApiVersion(String apiVersion) {
    this.apiVersion = apiVersion;
  }

  public O apiVersion(String apiVersion) {
    this.apiVersion = apiVersion;
    return self();
  }

  @Override
  public String getKind() {
    return kind;
  }

  public void setKind(String kind) {
    this.kind = kind;
  }

  public O kind(String kind) {
    this.kind = kind;
    return self();
  }

  @Override
  public V1ObjectMeta getMetadata() {
    return metadata;
  }

  public void setMetadata(V1ObjectMeta metadata) {
    this.metadata = metadata;
  }

  public O metadata(V1ObjectMeta metadata) {
    this.metadata = metadata;
    return self();
  }

  public S getSpec() {
    return spec;
  }

  public void setSpec(S spec) {
    this.spec = spec;
  }

  public O spec(S spec) {
    this.spec = spec;
    return self();
  }

  public T getStatus() {
    return status;
  }

  public void setStatus(T status) {
    this.status = status;
  }

  public O status(T status) {
    this.status = status;
    return self();
  }

  @SuppressWarnings("unchecked")
  private O self() {
    return (O) this;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CustomObject<?, ?, ?> other && other.getClass() == getClass()
        && Objects.equals(apiVersion, other.apiVersion) && Objects.equals(kind, other.kind)
        && Objects.equals(metadata, other.metadata) && Objects.equals(spec, other.spec)
        && Objects.equals(status, other.status);
  }

  @Override
  public int hashCode() {
    return Objects.hash(apiVersion, kind, metadata, spec, status);
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + "{metadata=" + metadata + ", spec=" + spec + ", status=" + status + "}";
  }
}
