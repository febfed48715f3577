package io.basalt.kube.kinds;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.CallGenerator;
import java.io.IOException;

/**
 * One Kubernetes kind Basalt reads, for both sources: the simulator reads its manifest documents, live mode watches
 * it with an informer, and both hand its objects to {@link #put} for engine {@link Records}. Adding a kind is a
 * subclass and one line in the registry ({@code io.basalt.kube.Kinds}); neither source names kinds itself.
 *
 * <p>The defaults suit a custom resource read from manifests and watched through client-java's generic API when its
 * CRD is served. A built-in kind gives its typed list/watch call; a workload kind {@linkplain #expand expands} in
 * manifests into what its controllers would create; a kind read by only one source says so ({@link #inManifests},
 * {@link #watch}).
 *
 * @param <T> the client-java class of its objects
 */
public abstract class KindAdapter<T extends KubernetesObject> {
  /** Whether and when live mode watches the kind. */
  public enum Watch {
    /** Always: the scheduler cannot run without it (pods, nodes). */
    ALWAYS,
    /** A built-in kind Basalt can do without: skipped (logged once) when listing it answers 403 or 404. */
    IF_LISTABLE,
    /** A custom resource: skipped (logged once) when listing it answers 404, its CRD not installed. */
    IF_SERVED,
    /** Not watched: read from manifests only. */
    NEVER
  }

  private final String group;
  private final String version;
  private final String kind;
  private final String plural;
  private final boolean namespaced;
  private final Class<T> type;
  private final Class<? extends KubernetesListObject> listType;

  /**
   * @param group the API group, "" for the core group
   * @param plural the resource, as informers list it and logs name it
   */
  protected KindAdapter(String group, String version, String kind, String plural, boolean namespaced, Class<T> type,
      Class<? extends KubernetesListObject> listType) {
    this.group = group;
    this.version = version;
    this.kind = kind;
    this.plural = plural;
    this.namespaced = namespaced;
    this.type = type;
    this.listType = listType;
  }

  public final String group() {
    return group;
  }

  public final String version() {
    return version;
  }

  public final String kind() {
    return kind;
  }

  public final String plural() {
    return plural;
  }

  public final boolean namespaced() {
    return namespaced;
  }

  public final Class<T> type() {
    return type;
  }

  public final Class<? extends KubernetesListObject> listType() {
    return listType;
  }

  /** {@code v1} for the core group, {@code group/version} otherwise. */
  public final String apiVersion() {
    return group.isEmpty() ? version : group + "/" + version;
  }

  // ------------------------------------------------------------------------------------------------- both sources

  /**
   * Hands what {@code object} means to the engine to {@code out}; throws {@link KubeConversionException} naming the
   * field for input the API server would have rejected (the source then reports and skips the object).
   */
  public abstract void put(T object, Records out);

  /** {@code object}, listed under the informer's {@code key}, was deleted (live mode only). */
  public abstract void remove(T object, String key, Records.Removals out);

  // ---------------------------------------------------------------------------------------------------- manifests

  /** Whether the simulator reads documents of this kind; false leaves them in the manifests' skipped list. */
  public boolean inManifests() {
    return true;
  }

  /** Whether a manifest document of {@code apiVersion} and {@code kind} is this kind's. */
  public boolean readsDocument(String apiVersion, String kind) {
    return inManifests() && apiVersion().equals(apiVersion) && this.kind.equals(kind);
  }

  /** The object a manifest document states; Gson (with the manifests' quantity rules) unless the kind needs less. */
  public T fromDocument(JsonObject document, Gson gson) {
    return gson.fromJson(document, type);
  }

  /**
   * client-java's strict check of a document (unknown or missing fields), as a warning; nothing for kinds without
   * one (custom resources).
   */
  public void check(JsonObject document) throws IOException {}

  /**
   * For a workload kind: the documents its controllers would create, which the simulator reads in its place; null
   * for every other kind, whose documents are objects read through {@link #put}.
   */
  public Expansion expand(JsonObject document) {
    return null;
  }

  // ----------------------------------------------------------------------------------------------------- informer

  public Watch watch() {
    return Watch.IF_SERVED;
  }

  /** Who installs the CRD, for the message when it is missing (e.g. {@code Volcano}); null for built-in kinds. */
  public String project() {
    return null;
  }

  /** The informer's name in logs and messages; the plural unless two kinds share one. */
  public String informerName() {
    return plural;
  }

  /** A built-in kind's typed list/watch call; null for a custom resource, watched through the generic API. */
  public CallGenerator listWatch(ApiClient client) {
    return null;
  }

  /**
   * True for a workload kind whose pods' gang waits until the workload itself is seen (so a Job's pods do not start
   * alone because the Job arrived after them); only kinds live mode finds served are waited for.
   */
  public boolean awaitedOwner() {
    return false;
  }

  /**
   * True when the kind's records are the network fabric, which may come from elsewhere ({@code --topology}): live
   * mode then does not watch it.
   */
  public boolean fabric() {
    return false;
  }

  @Override
  public String toString() {
    return kind + " " + apiVersion();
  }
}
