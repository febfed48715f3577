package io.basalt.plugins.queueshare;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** The weighted water-filling that gives each queue its deserved share of the cluster. */
final class Deserved {
  private Deserved() {}

  static void compute(double[] total, Collection<QueueShare> queues) {
    int slots = total.length;
    double[] totalGuarantee = new double[slots];
    for (QueueShare q : queues) {
      for (int i = 0; i < slots; i++) {
        totalGuarantee[i] += q.guarantee[i];
      }
    }
    for (QueueShare q : queues) {
      for (int i = 0; i < slots; i++) {
        double real = Math.max(total[i] - totalGuarantee[i], 0) + q.guarantee[i];
        q.realCapability[i] = Math.min(q.capability[i], real);
      }
    }
    double[] remaining = total.clone();
    List<QueueShare> open = new ArrayList<>(queues);
    while (!open.isEmpty()) {
      double totalWeight = 0;
      for (QueueShare q : open) {
        totalWeight += q.weight;
      }
      double[] before = remaining.clone();
      double[] handedOut = new double[slots];
      List<QueueShare> stillOpen = new ArrayList<>();
      for (QueueShare q : open) {
        double[] old = q.deserved.clone();
        boolean satisfied = true;
        for (int i = 0; i < slots; i++) {
          double d = old[i] + before[i] * q.weight / totalWeight;
          d = Math.min(d, q.realCapability[i]);
          d = Math.min(d, q.request[i]);
          d = Math.max(d, q.guarantee[i]);
          q.deserved[i] = d;
          handedOut[i] += d - old[i];
          if (q.request[i] > d) {
            satisfied = false;
          }
        }
        if (!satisfied && !java.util.Arrays.equals(old, q.deserved)) {
          stillOpen.add(q);
        }
      }
      boolean exhausted = true;
      for (int i = 0; i < slots; i++) {
        remaining[i] = before[i] - handedOut[i];
        if (remaining[i] > 1e-9) {
          exhausted = false;
        }
      }
      open = stillOpen;
      if (exhausted || java.util.Arrays.equals(before, remaining)) {
        break;
      }
    }
  }
}
