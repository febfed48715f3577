package io.basalt.cache;

import io.basalt.dra.ClaimBinding;
import io.basalt.dra.ClaimTemplate;
import io.basalt.dra.DeviceClass;
import io.basalt.dra.DraState;
import io.basalt.dra.ResourceClaim;
import io.basalt.dra.ResourceSlice;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The cache's DRA objects, by key in arrival order, and the {@link DraState} snapshots share until one changes. A claim
 * a binding allocates is assumed allocated (and reserved for the pod) until the API says so itself, and put back as it
 * was when the bind fails. Guarded by the cache's lock.
 */
final class DraObjects {
  private final Map<String, DeviceClass> classes = new LinkedHashMap<>();
  private final Map<String, ResourceSlice> slices = new LinkedHashMap<>();
  private final Map<String, ResourceClaim> claims = new LinkedHashMap<>();
  private final Map<String, ClaimTemplate> templates = new LinkedHashMap<>();
  /** Pod uid to the claims as they were before its binding was assumed. */
  private final Map<String, List<ResourceClaim>> assumed = new HashMap<>();
  private DraState state = DraState.EMPTY;
  private boolean stale;

  void put(DeviceClass c) {
    classes.put(c.name(), c);
    stale = true;
  }

  void removeDeviceClass(String name) {
    stale |= classes.remove(name) != null;
  }

  void put(ResourceSlice s) {
    slices.put(s.name(), s);
    stale = true;
  }

  void removeSlice(String name) {
    stale |= slices.remove(name) != null;
  }

  void put(ResourceClaim c) {
    claims.put(c.key(), c);
    stale = true;
  }

  void removeClaim(String key) {
    stale |= claims.remove(key) != null;
  }

  void put(ClaimTemplate t) {
    templates.put(t.key(), t);
    stale = true;
  }

  void removeTemplate(String key) {
    stale |= templates.remove(key) != null;
  }

  ResourceClaim claim(String key) {
    return claims.get(key);
  }

  /** {@code podUid}'s binding allocated or reserved {@code bound}: the cache holds them so from now. */
  void assume(String podUid, List<ClaimBinding> bound) {
    if (bound.isEmpty()) {
      return;
    }
    List<ResourceClaim> before = new ArrayList<>();
    for (ClaimBinding b : bound) {
      ResourceClaim c = claims.get(b.key());
      if (c == null) {
        continue;
      }
      before.add(c);
      List<String> reserved = new ArrayList<>(c.reservedFor());
      if (!reserved.contains(podUid)) {
        reserved.add(podUid);
      }
      claims.put(c.key(), c.withAllocation(b.allocated() ? b.allocation() : c.allocation(), reserved));
    }
    assumed.put(podUid, before);
    stale = true;
  }

  /** {@code podUid}'s binding failed: its claims as they were, unless the API changed them since. */
  void forget(String podUid) {
    List<ResourceClaim> before = assumed.remove(podUid);
    if (before != null) {
      before.forEach(c -> claims.put(c.key(), c));
      stale = true;
    }
  }

  /** {@code podUid} is bound: nothing to put back any more. */
  void settled(String podUid) {
    assumed.remove(podUid);
  }

  DraState state() {
    if (stale) {
      state = new DraState(classes.values(), slices.values(), claims.values(), templates.values());
      stale = false;
    }
    return state;
  }
}
