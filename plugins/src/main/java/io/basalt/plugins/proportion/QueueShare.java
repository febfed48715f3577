package io.basalt.plugins.proportion;

import io.basalt.model.ResourceNames;
import io.basalt.model.ResourceVector;

/** One queue's accounting in a session, per resource slot (the pod count is left out: it is not shared). */
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
  double[] realCapability;
  double[] deserved;
  double share;

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

  /** Overused once it holds at least its deserved share of every resource. */
  boolean overused() {
    for (int i = 0; i < allocated.length; i++) {
      if (deserved[i] > allocated[i]) {
        return false;
      }
    }
    return true;
  }
}
