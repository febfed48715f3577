package io.basalt.kube.kinds.resource;

import io.basalt.dra.ClaimTemplate;
import io.basalt.dra.DeviceClass;
import io.basalt.dra.ResourceClaim;
import io.basalt.dra.ResourceSlice;
import java.util.List;

/** The DRA objects of a set of manifests, in document order. */
public record DraRecords(List<DeviceClass> classes, List<ResourceSlice> slices, List<ResourceClaim> claims,
    List<ClaimTemplate> templates) {
  public static final DraRecords NONE = new DraRecords(List.of(), List.of(), List.of(), List.of());

  public DraRecords {
    classes = List.copyOf(classes);
    slices = List.copyOf(slices);
    claims = List.copyOf(claims);
    templates = List.copyOf(templates);
  }

  public boolean isEmpty() {
    return classes.isEmpty() && slices.isEmpty() && claims.isEmpty() && templates.isEmpty();
  }

  /** The same objects with {@code made} claims added after the others. */
  public DraRecords withClaims(List<ResourceClaim> made) {
    if (made.isEmpty()) {
      return this;
    }
    List<ResourceClaim> all = new java.util.ArrayList<>(claims);
    all.addAll(made);
    return new DraRecords(classes, slices, all, templates);
  }
}
