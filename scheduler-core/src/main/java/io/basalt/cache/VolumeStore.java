package io.basalt.cache;

import io.basalt.model.ClusterVolumes;
import io.basalt.model.CsiNode;
import io.basalt.model.PersistentVolume;
import io.basalt.model.StorageCapacity;
import io.basalt.model.StorageClass;
import io.basalt.model.VolumeAttachment;
import io.basalt.model.VolumeClaim;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The cache's storage objects, kept by key as informers (or the simulator's provisioner) change them; snapshots share
 * one {@link ClusterVolumes} value until something changes. Thread-safe: informers and the cycle use it at once.
 */
public final class VolumeStore {
  private final Map<String, VolumeClaim> claims = new LinkedHashMap<>();
  private final Map<String, PersistentVolume> volumes = new LinkedHashMap<>();
  private final Map<String, StorageClass> classes = new LinkedHashMap<>();
  private final Map<String, CsiNode> csiNodes = new LinkedHashMap<>();
  private final Map<String, StorageCapacity> capacities = new LinkedHashMap<>();
  private final Map<String, VolumeAttachment> attachments = new LinkedHashMap<>();
  private ClusterVolumes value = ClusterVolumes.EMPTY;
  private boolean changed;

  VolumeStore() {}

  public synchronized void putClaim(VolumeClaim c) {
    claims.put(c.key(), c);
    changed = true;
  }

  public synchronized void removeClaim(String key) {
    changed |= claims.remove(key) != null;
  }

  public synchronized void putVolume(PersistentVolume pv) {
    volumes.put(pv.name(), pv);
    changed = true;
  }

  public synchronized void removeVolume(String name) {
    changed |= volumes.remove(name) != null;
  }

  public synchronized void putClass(StorageClass c) {
    classes.put(c.name(), c);
    changed = true;
  }

  public synchronized void removeClass(String name) {
    changed |= classes.remove(name) != null;
  }

  public synchronized void putCsiNode(CsiNode n) {
    csiNodes.put(n.nodeName(), n);
    changed = true;
  }

  public synchronized void removeCsiNode(String name) {
    changed |= csiNodes.remove(name) != null;
  }

  public synchronized void putCapacity(StorageCapacity c) {
    capacities.put(c.key(), c);
    changed = true;
  }

  public synchronized void removeCapacity(String key) {
    changed |= capacities.remove(key) != null;
  }

  public synchronized void putAttachment(VolumeAttachment a) {
    attachments.put(a.name(), a);
    changed = true;
  }

  public synchronized void removeAttachment(String name) {
    changed |= attachments.remove(name) != null;
  }

  /** What the store holds now, as one immutable value. */
  public synchronized ClusterVolumes value() {
    if (changed) {
      value = ClusterVolumes.of(new ArrayList<>(claims.values()), new ArrayList<>(volumes.values()),
          new ArrayList<>(classes.values()), new ArrayList<>(csiNodes.values()), new ArrayList<>(capacities.values()),
          new ArrayList<>(attachments.values()));
      changed = false;
    }
    return value;
  }
}
