package io.basalt.kube.fake;

import com.google.gson.JsonObject;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * One REST resource the fake API server serves: where it lives ({@code /api/v1} or {@code /apis/GROUP/VERSION}), its
 * plural, kind and scope, and the few behaviours that differ between kinds on a real server (status subresource,
 * metadata.generation, what DELETE answers, strategic-merge support and list merge keys, extra selectable fields,
 * create-time defaulting). Adding a kind is one {@code register(...)} line in {@link Resources}.
 */
public final class ResourceType {
  private final String group;
  private final String version;
  private final String plural;
  private final String kind;
  private final boolean namespaced;
  private final boolean custom;
  private boolean statusSubresource;
  private boolean generation;
  private boolean returnsDeletedObject;
  private Map<String, String> mergeKeys = Map.of();
  private Set<String> fields = Set.of();
  private BiConsumer<JsonObject, ObjectStore> defaulter = (obj, store) -> { };

  private ResourceType(String group, String version, String plural, String kind, boolean namespaced, boolean custom) {
    this.group = group;
    this.version = version;
    this.plural = plural;
    this.kind = kind;
    this.namespaced = namespaced;
    this.custom = custom;
  }

  /** A built-in kind; {@code group} is "" for the core group ({@code /api/v1}). */
  static ResourceType builtin(String group, String version, String plural, String kind, boolean namespaced) {
    return new ResourceType(group, version, plural, kind, namespaced, false);
  }

  /** A CustomResourceDefinition-backed kind: no strategic merge patch, Status on DELETE, items keep kind in lists. */
  static ResourceType custom(String group, String version, String plural, String kind, boolean namespaced) {
    return new ResourceType(group, version, plural, kind, namespaced, true).generation();
  }

  ResourceType statusSubresource() {
    this.statusSubresource = true;
    return this;
  }

  ResourceType generation() {
    this.generation = true;
    return this;
  }

  ResourceType returnsDeletedObject() {
    this.returnsDeletedObject = true;
    return this;
  }

  /** Strategic-merge list keys by dotted path without indices, e.g. {@code status.conditions -> type}. */
  ResourceType mergeKeys(Map<String, String> keys) {
    this.mergeKeys = keys;
    return this;
  }

  /** Field-selector labels beyond metadata.name and metadata.namespace. */
  ResourceType fields(Set<String> extra) {
    this.fields = extra;
    return this;
  }

  ResourceType defaulter(BiConsumer<JsonObject, ObjectStore> defaulter) {
    this.defaulter = defaulter;
    return this;
  }

  public String group() {
    return group;
  }

  public String version() {
    return version;
  }

  public String plural() {
    return plural;
  }

  public String kind() {
    return kind;
  }

  public String listKind() {
    return kind + "List";
  }

  public boolean namespaced() {
    return namespaced;
  }

  public boolean custom() {
    return custom;
  }

  /** "v1" for the core group, "GROUP/VERSION" otherwise. */
  public String apiVersion() {
    return group.isEmpty() ? version : group + "/" + version;
  }

  /** The group-qualified resource used in error messages, e.g. {@code pods} or {@code leases.coordination.k8s.io}. */
  public String qualifiedResource() {
    return group.isEmpty() ? plural : plural + "." + group;
  }

  /** {@code /api/v1} or {@code /apis/GROUP/VERSION}. */
  public String prefix() {
    return group.isEmpty() ? "/api/" + version : "/apis/" + group + "/" + version;
  }

  /** The collection path, in {@code namespace} if the kind is namespaced and a namespace is given. */
  public String collectionPath(String namespace) {
    return namespaced && namespace != null && !namespace.isEmpty()
        ? prefix() + "/namespaces/" + namespace + "/" + plural
        : prefix() + "/" + plural;
  }

  boolean hasStatusSubresource() {
    return statusSubresource;
  }

  boolean hasGeneration() {
    return generation;
  }

  boolean isReturnsDeletedObject() {
    return returnsDeletedObject;
  }

  boolean supportsStrategicMerge() {
    return !custom;
  }

  Map<String, String> mergeKeyMap() {
    return mergeKeys;
  }

  /** The kind's own selectable fields (metadata.name and metadata.namespace are every kind's). */
  Set<String> selectableFields() {
    return fields;
  }

  boolean selectableField(String field) {
    return field.equals("metadata.name") || field.equals("metadata.namespace") || fields.contains(field);
  }

  void applyDefaults(JsonObject obj, ObjectStore store) {
    defaulter.accept(obj, store);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ResourceType other && group.equals(other.group) && version.equals(other.version)
        && plural.equals(other.plural);
  }

  @Override
  public int hashCode() {
    return Objects.hash(group, version, plural);
  }

  @Override
  public String toString() {
    return qualifiedResource() + "/" + version;
  }
}
