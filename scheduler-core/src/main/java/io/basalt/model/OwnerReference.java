package io.basalt.model;

/**
 * The controller an object belongs to, as its {@code metadata.ownerReferences} entry with {@code controller: true}
 * states it. Pods of one owner can form one gang without a PodGroup (see {@link Pod#group()}).
 */
public record OwnerReference(String apiVersion, String kind, String name, String uid) {
  /** {@code Kind name}, how messages name the owner. */
  public String display() {
    return kind + " " + name;
  }
}
