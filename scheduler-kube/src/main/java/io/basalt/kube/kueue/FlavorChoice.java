package io.basalt.kube.kueue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Kueue's flavor assignment, shared by the simulator's admission ({@link KueueAdmission}) and live mode's
 * ({@link KueueLive}): per resource group, the first flavor in order whose quota holds the whole request
 * ({@code TryNextFlavor} prefers a later flavor that fits without borrowing) and whose nodes the pods may use.
 */
final class FlavorChoice {
  private FlavorChoice() {}

  /** A flavor per resource group (null for a group the workload asks nothing of), or why none fits. */
  record Assignment(List<KueueRecord.FlavorQuotas> flavors, String reason) {}

  /**
   * @param request the whole workload's request by resource (the pod slot left out)
   * @param misfit why the workload's pods cannot use a flavor's nodes (by flavor name), or null when they can
   */
  static Assignment assign(Quotas quotas, KueueRecord.ClusterQueue cq, Map<String, Long> request,
      Function<String, String> misfit) {
    Set<String> covered = new HashSet<>();
    cq.resourceGroups().forEach(g -> covered.addAll(g.coveredResources()));
    for (String r : request.keySet()) {
      if (!covered.contains(r)) {
        return new Assignment(null, "resource " + r + " is not covered by " + cq.display());
      }
    }
    List<KueueRecord.FlavorQuotas> chosen = new ArrayList<>();
    for (KueueRecord.ResourceGroup g : cq.resourceGroups()) {
      Map<String, Long> part = new LinkedHashMap<>();
      request.forEach((r, v) -> {
        if (g.coveredResources().contains(r)) {
          part.put(r, v);
        }
      });
      if (part.isEmpty()) {
        chosen.add(null);
        continue;
      }
      KueueRecord.FlavorQuotas nominal = null;
      KueueRecord.FlavorQuotas borrowing = null;
      List<String> why = new ArrayList<>();
      for (KueueRecord.FlavorQuotas f : g.flavors()) {
        String off = misfit.apply(f.flavor());
        Quotas.Verdict v = off != null ? new Quotas.Verdict(Quotas.Fit.NO, off) : quotas.fits(cq, f, part);
        if (v.fit() == Quotas.Fit.NO) {
          why.add(f.flavor() + ": " + v.reason());
        } else if (v.fit() == Quotas.Fit.NOMINAL && nominal == null) {
          nominal = f;
        } else if (v.fit() == Quotas.Fit.BORROWING && borrowing == null) {
          borrowing = f;
        }
        boolean done = cq.tryNextFlavorBeforeBorrowing() ? nominal != null : nominal != null || borrowing != null;
        if (done) {
          break;
        }
      }
      KueueRecord.FlavorQuotas pick = nominal != null ? nominal : borrowing;
      if (pick == null) {
        return new Assignment(null, "no flavor of " + cq.display() + " fits " + String.join(", ", part.keySet())
            + ": " + String.join("; ", why));
      }
      chosen.add(pick);
    }
    return new Assignment(chosen, null);
  }

  /** Charges {@code request} to {@code cq} at the flavors chosen per resource group. */
  static void charge(Quotas quotas, KueueRecord.ClusterQueue cq, Map<String, Long> request,
      List<KueueRecord.FlavorQuotas> chosen) {
    for (int i = 0; i < cq.resourceGroups().size() && i < chosen.size(); i++) {
      KueueRecord.FlavorQuotas f = chosen.get(i);
      if (f != null) {
        for (String r : cq.resourceGroups().get(i).coveredResources()) {
          if (request.containsKey(r)) {
            quotas.charge(cq.name(), f.flavor(), r, request.get(r));
          }
        }
      }
    }
  }
}
