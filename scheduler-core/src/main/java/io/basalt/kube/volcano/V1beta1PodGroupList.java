package io.basalt.kube.volcano;

import com.google.gson.annotations.SerializedName;
import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.openapi.models.V1ListMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** {@code PodGroupList}, the list type client-java's generic API and informers need for {@link V1beta1PodGroup}. */
public final class V1beta1PodGroupList implements KubernetesListObject {
  public static final String KIND = "PodGroupList";

  @SerializedName("apiVersion")
  private String apiVersion;

  @SerializedName("kind")
  private String kind;

  @SerializedName("metadata")
  private V1ListMeta metadata;

  @SerializedName("items")
  private List<V1beta1PodGroup> items = new ArrayList<>();

  @Override
  public String getApiVersion() {
    return apiVersion;
  }

  public void setApiVersion(String apiVersion) {
    this.apiVersion = apiVersion;
  }

  public V1beta1PodGroupList apiVersion(String apiVersion) {
    this.apiVersion = apiVersion;
    return this;
  }

  @Override
  public String getKind() {
    return kind;
  }

  public void setKind(String kind) {
    this.kind = kind;
  }

  public V1beta1PodGroupList kind(String kind) {
    this.kind = kind;
    return this;
  }

  @Override
  public V1ListMeta getMetadata() {
    return metadata;
  }

  public void setMetadata(V1ListMeta metadata) {
    this.metadata = metadata;
  }

  public V1beta1PodGroupList metadata(V1ListMeta metadata) {
    this.metadata = metadata;
    return this;
  }

  @Override
  public List<V1beta1PodGroup> getItems() {
    return items;
  }

  public void setItems(List<V1beta1PodGroup> items) {
    this.items = items;
  }

  public V1beta1PodGroupList items(List<V1beta1PodGroup> items) {
    this.items = items;
    return this;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof V1beta1PodGroupList other && Objects.equals(apiVersion, other.apiVersion)
        && Objects.equals(kind, other.kind) && Objects.equals(metadata, other.metadata)
        && Objects.equals(items, other.items);
  }

  @Override
  public int hashCode() {
    return Objects.hash(apiVersion, kind, metadata, items);
  }
}
