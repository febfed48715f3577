package io.basalt.actions;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.fabric.Fabric;
import io.basalt.model.ResourceVector;
import io.basalt.session.Session;
import java.util.List;

/**
 * How much room a network domain has for a job's pods, counted the same way for the placer's cheap pre-check, the
 * fit error of a job no domain holds, and {@code --explain}'s free counts, so the three never disagree.
 */
final class DomainRoom {
  private DomainRoom() {}

  /**
   * The first resource whose free amount (idle plus releasing) summed over {@code domain}'s ready nodes falls short of
   * {@code need}, or -1 when none does: necessary for the gang to fit, cheap ({@link DomainFree}'s counters), not
   * sufficient.
   */
  static int shortOf(Session session, String domain, ResourceVector need, boolean[] skip) {
    return DomainFree.of(session).shortOf(domain, need, skip);
  }

  /** Free amount (idle plus releasing) of resource {@code r} summed over {@code domain}'s ready nodes. */
  static long free(Session session, String domain, int r) {
    return DomainFree.of(session).free(domain, r);
  }

  /** Ready nodes of {@code domain} with room (idle plus releasing) for one pod asking for {@code request}. */
  static int nodesFreeFor(Session session, String domain, ResourceVector request, boolean[] skip) {
    int fit = 0;
    for (String n : session.fabric().readyNodes(domain)) {
      NodeInfo node = session.node(n);
      if (node != null && node.firstShortOfFuture(request, skip) < 0) {
        fit++;
      }
    }
    return fit;
  }

  /** What a domain of {@code tier} is called: its tier name ({@code dragonfly}), else {@code tier-1 domain}. */
  static String label(Fabric fabric, int tier) {
    List<String> domains = fabric.domains(tier);
    String tierName = domains.isEmpty() ? null : fabric.domain(domains.get(0)).tierName();
    return tierName != null ? tierName : "tier-" + tier + " domain";
  }

  /** {@code needs 8 pods x {metax-tech.com/gpu: 8} inside one dragonfly; largest free: sb1-df2 with 6}. */
  static String noRoom(Session session, List<TaskInfo> tasks, int tier, String what) {
    Fabric fabric = session.fabric();
    int useTier = tier;
    for (int t : fabric.tiers()) {
      if (t <= tier) {
        useTier = t;
      }
    }
    TaskInfo sample = tasks.get(0);
    boolean[] skip = session.callbacks().deviceManagedResources();
    String largest = null;
    int most = -1;
    for (String d : fabric.domains(useTier)) {
      int fit = nodesFreeFor(session, d, sample.request(), skip);
      if (fit > most) {
        most = fit;
        largest = d;
      }
    }
    return "needs " + tasks.size() + " " + what + " x " + JobPlacer.describe(sample.request()) + " inside one "
        + label(fabric, useTier) + "; largest free: " + (largest == null ? "none" : largest + " with " + most
        + " node(s) free for one pod");
  }
}
