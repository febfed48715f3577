package io.basalt.plugins.queueshare;

import io.basalt.model.ResourceNames;
import io.basalt.model.ResourceVector;

/**
 * One queue's accounting in a session, per resource slot (the pod count is left out: it is not shared). The arrays
 * belong to the queue-sharing plugin that made them and are visible to this package only; the share is derived,
 * set only by {@link #updateShare()}.
 */
final class QueueShare {
  final String name;
  final int weight;
  final double[] guarantee;
  /** Capability where set, else unbounded ({@link Double#POSITIVE_INFINITY}). */
  final double[] capability;
  final double[] allocated;
  final double[] request;
  final double[] inqueue;
  final double[] elastic;
  final double[] realCapability;
  final double[] deserved;
  private double share;

  QueueShare(String name, int weight, ResourceVector guarantee, ResourceVector capability, int slots) {
    this.name = name;
    this.weight = weight;
    this.guarantee = toArray(guarantee, slots, 0);
    this.capability = toArray(capability, slots, Double.POSITIVE_INFINITY);
    this.allocated = new double[slots];
    this.request = new double[slots];
    this.inqueue = new double[slots];
    this.elastic = new double[slots];
    this.deserved = new double[slots];
    this.realCapability = new double[slots];
  }

  /** The dominant share of what the queue deserves that it uses; set by {@link #updateShare()}. */
  double share() {
    return share;
  }

  /** {@code v} as doubles; slots it does not set get {@code unset} (null means every slot is unset). */
  static double[] toArray(ResourceVector v, int slots, double unset) {
    double[] r = new double[slots];
    for (int i = 0; i < slots; i++) {
      r[i] = v == null || (v.get(i) == 0 && unset != 0) ? unset : v.get(i);
    }
    r[ResourceNames.PODS] = 0;
    return r;
  }

  static void add(double[] target, ResourceVector r, int sign) {
    for (int i = 0; i < Math.min(target.length, r.size()); i++) {
      if (i != ResourceNames.PODS) {
        target[i] += sign * r.get(i);
      }
    }
  }

  /** True when {@code allocated} is above {@code deserved} on some resource. */
  static boolean exceeds(double[] allocated, double[] deserved) {
    for (int i = 0; i < allocated.length; i++) {
      if (allocated[i] > deserved[i] + 1e-9) {
        return true;
      }
    }
    return false;
  }

  static void subtract(double[] target, ResourceVector r) {
    for (int i = 0; i < Math.min(target.length, r.size()); i++) {
      if (i != ResourceNames.PODS) {
        target[i] -= r.get(i);
      }
    }
  }

  /** {@code max_r allocated_r / deserved_r}: how much of its due the queue already has. */
  void updateShare() {
    double s = 0;
    for (int i = 0; i < allocated.length; i++) {
      if (allocated[i] > 0) {
        s = Math.max(s, deserved[i] <= 0 ? 1.0 : allocated[i] / deserved[i]);
      }
    }
    share = s;
  }

  /** True when {@code allocated + request} stays within {@code limit} on every resource the request names. */
  boolean fits(ResourceVector request, double[] limit) {
    return fits(request, limit, null);
  }

  /** As {@link #fits(ResourceVector, double[])}, ignoring the slots {@code skip} marks (null: none). */
  boolean fits(ResourceVector request, double[] limit, boolean[] skip) {
    for (int i = 0; i < Math.min(request.size(), limit.length); i++) {
      if (skip != null && i < skip.length && skip[i]) {
        continue;
      }
      if (i != ResourceNames.PODS && request.get(i) > 0 && allocated[i] + request.get(i) > limit[i] + 1e-9) {
        return false;
      }
    }
    return true;
  }

  /** The deserved share as a vector, for status and reports. */
  ResourceVector deservedVector() {
    return toVector(deserved);
  }

  ResourceVector allocatedVector() {
    return toVector(allocated);
  }

  private static ResourceVector toVector(double[] v) {
    long[] r = new long[v.length];
    for (int i = 0; i < v.length; i++) {
      r[i] = Double.isInfinite(v[i]) ? 0 : (long) Math.floor(v[i] + 1e-9);
    }
    return ResourceVector.of(r);
  }

  /**
   * What status and {@code simulate} call OVERUSED, the same under proportion and capacity: the queue holds at least
   * its deserved share of some resource it uses. (Proportion's allocate skip is Volcano's stricter {@link #overused}.)
   */
  boolean atShare() {
    for (int i = 0; i < allocated.length; i++) {
      if (i != ResourceNames.PODS && allocated[i] > 0 && allocated[i] + 1e-9 >= deserved[i]) {
        return true;
      }
    }
    return false;
  }

  /** Overused once it holds something and at least its deserved share of every resource. */
  boolean overused() {
    boolean holds = false;
    for (int i = 0; i < allocated.length; i++) {
      if (deserved[i] > allocated[i] + 1e-9) {
        return false;
      }
      holds |= allocated[i] > 0;
    }
    return holds;
  }
}
