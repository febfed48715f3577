package io.basalt.kube.kinds;

import com.google.gson.annotations.SerializedName;
import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.openapi.models.V1ListMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The list type client-java's generic API and informers need next to each {@link CustomObject}: the fields every
 * {@code ...List} shares, with Gson reading {@code items} as the resource class a subclass binds {@code T} to.
 *
 * @param <T> the resource class of the items
 */
public abstract class CustomObjectList<T extends CustomObject<T, ?, ?>> implements KubernetesListObject {
  @SerializedName("apiVersion")
  private String apiVersion;

  @SerializedName("kind")
  private String kind;

  @SerializedName("metadata")
  private V1ListMeta metadata;

  @SerializedName("items")
  private List<T> items = new ArrayList<>();

  @Override
  public String getApiVersion() {
    return apiVersion;
  }

  public void setApiVersion(String apiVersion) {
    this.apiVersion = apiVersion;
  }

  @Override
  public String getKind() {
    return kind;
  }

  public void setKind(String kind) {
    this.kind = kind;
  }

  @Override
  public V1ListMeta getMetadata() {
    return metadata;
  }

  public void setMetadata(V1ListMeta metadata) {
    this.metadata = metadata;
  }

  @Override
  public List<T> getItems() {
    return items;
  }

  public void setItems(List<T> items) {
    this.items = items;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CustomObjectList<?> other && other.getClass() == getClass()
        && Objects.equals(apiVersion, other.apiVersion) && Objects.equals(kind, other.kind)
        && Objects.equals(metadata, other.metadata) && Objects.equals(items, other.items);
  }

  @Override
  public int hashCode() {
    return Objects.hash(apiVersion, kind, metadata, items);
  }
}
