package io.basalt.actions;

import io.basalt.api.JobInfo;
import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.api.TaskStatus;
import io.basalt.fabric.Domain;
import io.basalt.fabric.Fabric;
import io.basalt.model.NetworkTopology;
import io.basalt.model.ResourceVector;
import io.basalt.session.Session;
import io.basalt.session.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Places a job that asks for a network domain (Volcano's {@code networkTopology}, MetaX's {@code gpu-group-size})
 * whole inside one, so its collective traffic stays on the fastest links and wide domains stay free for the next big
 * job.
 *
 * <p>Lowest tier first: the candidate domains of a tier are those with room for the job's pending pods (summed free
 * resources, counting what is being released) that also hold its already placed pods; the best ranked (plugins'
 * {@link io.basalt.framework.DomainScorer}s, which prefer the fullest domain, then the name) is tried first, inside
 * a statement that is discarded when the gang does not fit there. Only when no domain of a tier holds the job does
 * it go one tier up; hard mode stops at the highest tier allowed, soft mode ends on the whole cluster.
 *
 * <p>MetaX groups: with {@code gpu-group-size} G and g GPUs per pod, ranks (task order, master first) form groups of
 * G/g pods; each group lies inside one tier-1 domain and the job's groups prefer one tier-2 domain.
 */
final class DomainPlacer {
  private final JobPlacer placer;

  DomainPlacer(JobPlacer placer) {
    this.placer = placer;
  }

  /** Whether {@code job} is placed here: a plugin turned topology placement on, the cluster has domains, it asks. */
  static boolean applies(Session session, JobInfo job) {
    return job.networkTopology() != null && !job.isImplicit() && session.callbacks().topologyAware()
        && !session.fabric().isEmpty();
  }

  JobPlacer.Outcome place(Session session, JobInfo job, List<TaskInfo> tasks) {
    if (tasks.isEmpty()) {
      return JobPlacer.Outcome.NOTHING_TO_DO;
    }
    Fabric fabric = session.fabric();
    NetworkTopology ask = job.networkTopology();
    int[] tiers = fabric.tiers();
    int widest = widestTier(ask, fabric);
    if (ask.gpuGroupSize() != null) {
      int perPod = gpusPerPod(tasks.get(0));
      if (perPod == 0 || ask.gpuGroupSize() % perPod != 0) {
        job.setFitError(NetworkTopology.GPU_GROUP_SIZE_ANNOTATION + " " + ask.gpuGroupSize() + " is not a multiple "
            + "of the " + perPod + " GPUs each pod asks for: groups cannot be formed");
        return JobPlacer.Outcome.DISCARDED;
      }
      int podsPerGroup = ask.gpuGroupSize() / perPod;
      if (job.tasks().size() > podsPerGroup && tiers.length > 0) {
        return placeGroups(session, job, podsPerGroup);
      }
      widest = Math.min(widest, tiers.length == 0 ? 1 : tiers[0]);
    }
    // First a domain that takes every pending pod; failing that, one where the gang at least becomes ready (a
    // running job with room for some of its pods only where it already runs).
    for (boolean whole : new boolean[] {true, false}) {
      for (int tier : tiers) {
        if (tier > widest) {
          break;
        }
        for (String domain : candidates(session, job, whole ? tasks : List.of(), tier, null)) {
          JobPlacer.Outcome o = tryIn(session, job, tasks, domain, whole);
          if (o != JobPlacer.Outcome.DISCARDED) {
            return o;
          }
        }
      }
    }
    if (ask.mode() == NetworkTopology.Mode.SOFT) {
      return placer.place(session, job, tasks, false);
    }
    job.setFitError(noRoom(session, tasks, widest, "pods"));
    return JobPlacer.Outcome.DISCARDED;
  }

  /**
   * The gang in one domain: committed when ready, held when pipelined there, else discarded; with {@code whole}
   * only when every pending pod found a place there.
   */
  private JobPlacer.Outcome tryIn(Session session, JobInfo job, List<TaskInfo> tasks, String domain, boolean whole) {
    Statement stmt = session.newStatement();
    placer.fill(session, job, tasks, stmt, scope(session, domain), false);
    if (whole && !pendingOf(tasks).isEmpty()) {
      stmt.discard();
      return JobPlacer.Outcome.DISCARDED;
    }
    JobPlacer.Outcome o = placer.settle(session, job, stmt);
    if (o != JobPlacer.Outcome.DISCARDED) {
      job.setDomain(domain);
    }
    return o;
  }

  /** MetaX groups, each inside one tier-1 domain; all of them in one tier-2 domain when one has room. */
  private JobPlacer.Outcome placeGroups(Session session, JobInfo job, int podsPerGroup) {
    Fabric fabric = session.fabric();
    int[] tiers = fabric.tiers();
    int groupTier = tiers[0];
    List<TaskInfo> ranks = new ArrayList<>(job.tasks());
    ranks.sort(session.callbacks().taskOrder());
    List<List<TaskInfo>> groups = new ArrayList<>();
    for (int i = 0; i < ranks.size(); i += podsPerGroup) {
      groups.add(ranks.subList(i, Math.min(ranks.size(), i + podsPerGroup)));
    }
    List<String> outer = new ArrayList<>();
    if (tiers.length > 1) {
      List<TaskInfo> pending = pendingOf(ranks);
      outer.addAll(candidates(session, job, pending, tiers[1], null));
    }
    outer.add(null); // last: groups in any tier-1 domains
    for (String within : outer) {
      Statement stmt = session.newStatement();
      List<String> used = new ArrayList<>();
      boolean all = true;
      for (List<TaskInfo> group : groups) {
        List<TaskInfo> pending = pendingOf(group);
        if (pending.isEmpty()) {
          continue;
        }
        String placedIn = null;
        for (String d : candidates(session, job, pending, groupTier, within, group)) {
          Statement inner = session.newStatement();
          placer.fill(session, job, pending, inner, scope(session, d), false);
          if (pendingOf(pending).isEmpty()) {
            stmt.absorb(inner);
            placedIn = d;
            break;
          }
          inner.discard();
        }
        if (placedIn == null) {
          all = false;
          break;
        }
        used.add(placedIn);
      }
      if (all && session.callbacks().jobReady(job)) {
        stmt.commit();
        job.setDomain(within != null ? within : String.join(",", used));
        return JobPlacer.Outcome.COMMITTED;
      }
      stmt.discard();
    }
    job.setFitError(noRoom(session, groups.get(0), groupTier, "pods per group of " + job.networkTopology()
        .gpuGroupSize() + " GPUs"));
    return JobPlacer.Outcome.DISCARDED;
  }

  private List<String> candidates(Session session, JobInfo job, List<TaskInfo> tasks, int tier, String within) {
    return candidates(session, job, tasks, tier, within, job.tasks());
  }

  /**
   * Domains of {@code tier} (inside {@code within} when not null) that hold every placed pod of {@code members} and
   * have room for {@code tasks}, best first.
   */
  private List<String> candidates(Session session, JobInfo job, List<TaskInfo> tasks, int tier, String within,
      List<TaskInfo> members) {
    Fabric fabric = session.fabric();
    String pinned = null;
    for (TaskInfo t : members) {
      if (t.status() != TaskStatus.PENDING && t.nodeName() != null && t.status() != TaskStatus.SUCCEEDED
          && t.status() != TaskStatus.FAILED) {
        String d = fabric.domainOf(t.nodeName(), tier);
        if (d == null || pinned != null && !pinned.equals(d)) {
          return List.of(); // its pods already span more than one domain of this tier
        }
        pinned = d;
      }
    }
    List<String> names = pinned != null ? List.of(pinned) : fabric.domains(tier);
    ResourceVector need = ResourceVector.ZERO;
    for (TaskInfo t : tasks) {
      need = need.plus(t.request());
    }
    boolean[] skip = session.callbacks().deviceManagedResources();
    Map<String, Double> score = new HashMap<>();
    List<String> out = new ArrayList<>();
    for (String d : names) {
      if (within != null && !inside(fabric, d, within)) {
        continue;
      }
      if (hasRoom(session, fabric.readyNodes(d), need, skip)) {
        out.add(d);
        score.put(d, session.callbacks().scoreDomain(job, d));
      }
    }
    out.sort(Comparator.<String>comparingDouble(d -> -score.get(d)).thenComparing(Comparator.naturalOrder()));
    return out;
  }

  private static boolean inside(Fabric fabric, String domain, String ancestor) {
    for (String d = domain; d != null; d = fabric.parent(d)) {
      if (d.equals(ancestor)) {
        return true;
      }
    }
    return false;
  }

  /** Summed free resources (idle plus releasing) of the nodes cover {@code need}: necessary, cheap, not sufficient. */
  private static boolean hasRoom(Session session, List<String> nodes, ResourceVector need, boolean[] skip) {
    long[] free = new long[need.size()];
    for (String n : nodes) {
      NodeInfo node = session.node(n);
      if (node == null) {
        continue;
      }
      for (int r = 0; r < free.length; r++) {
        if (need.get(r) > 0) {
          free[r] += Math.max(0, node.futureIdle(r));
        }
      }
    }
    for (int r = 0; r < free.length; r++) {
      if (need.get(r) > free[r] && (skip == null || r >= skip.length || !skip[r])) {
        return false;
      }
    }
    return true;
  }

  private static NodeSearch.Scope scope(Session session, String domain) {
    List<NodeInfo> nodes = new ArrayList<>();
    for (String n : session.fabric().readyNodes(domain)) {
      NodeInfo node = session.node(n);
      if (node != null) {
        nodes.add(node);
      }
    }
    return new NodeSearch.Scope(domain, nodes);
  }

  private static List<TaskInfo> pendingOf(List<TaskInfo> tasks) {
    List<TaskInfo> out = new ArrayList<>();
    for (TaskInfo t : tasks) {
      if (t.status() == TaskStatus.PENDING) {
        out.add(t);
      }
    }
    return out;
  }

  /**
   * Where preempt and reclaim may make room for a job that asks for a domain: per tier, lowest first, the domains that
   * hold its placed pods (every domain of the tier when none is placed). Hard mode stops at its highest tier; soft
   * mode, and a MetaX job of several groups (whose groups only prefer one switchbox), end with a null entry: anywhere.
   */
  static List<List<String>> evictionDomains(Session session, JobInfo job, TaskInfo first) {
    Fabric fabric = session.fabric();
    NetworkTopology ask = job.networkTopology();
    int widest = widestTier(ask, fabric);
    boolean anywhere = ask.mode() == NetworkTopology.Mode.SOFT;
    if (ask.gpuGroupSize() != null) {
      int perPod = gpusPerPod(first);
      if (perPod == 0 || ask.gpuGroupSize() % perPod != 0) {
        return List.of(); // no groups can be formed: allocate says why
      }
      boolean oneGroup = job.tasks().size() <= ask.gpuGroupSize() / perPod;
      widest = oneGroup ? Math.min(widest, 1) : Integer.MAX_VALUE;
      anywhere = !oneGroup;
    }
    List<List<String>> out = new ArrayList<>();
    for (int tier : fabric.tiers()) {
      if (tier > widest) {
        break;
      }
      String pinned = null;
      boolean spans = false;
      for (TaskInfo t : job.tasks()) {
        if (t.status() != TaskStatus.PENDING && t.nodeName() != null && t.status() != TaskStatus.SUCCEEDED
            && t.status() != TaskStatus.FAILED) {
          String d = fabric.domainOf(t.nodeName(), tier);
          spans |= d == null || pinned != null && !pinned.equals(d);
          pinned = d;
        }
      }
      if (!spans) {
        out.add(pinned != null ? List.of(pinned) : fabric.domains(tier));
      }
    }
    if (anywhere) {
      out.add(java.util.Collections.singletonList(null));
    }
    return out;
  }

  /** The widest tier the job may span: hard mode's limit (tier 1 when none is given); every tier in soft mode. */
  private static int widestTier(NetworkTopology ask, Fabric fabric) {
    if (ask.mode() == NetworkTopology.Mode.SOFT) {
      return Integer.MAX_VALUE;
    }
    if (ask.highestTierAllowed() != null) {
      return ask.highestTierAllowed();
    }
    if (ask.highestTierName() != null) {
      return fabric.tierOf(ask.highestTierName()).orElse(1);
    }
    return 1;
  }

  /** GPUs one pod asks for: the largest GPU-like resource of its request (nvidia.com/gpu, metax-tech.com/gpu). */
  private static int gpusPerPod(TaskInfo task) {
    long best = 0;
    for (Map.Entry<String, Long> e : task.request().toMap().entrySet()) {
      if (e.getKey().endsWith("/gpu")) {
        best = Math.max(best, e.getValue());
      }
    }
    return (int) best;
  }

  /** {@code needs 8 pods x {metax-tech.com/gpu: 8} inside one dragonfly; largest free: sb1-df2 with 6}. */
  private static String noRoom(Session session, List<TaskInfo> tasks, int tier, String what) {
    Fabric fabric = session.fabric();
    int useTier = tier;
    for (int t : fabric.tiers()) {
      if (t <= tier) {
        useTier = t;
      }
    }
    List<String> domains = fabric.domains(useTier);
    String tierName = domains.isEmpty() ? null : fabric.domain(domains.get(0)).tierName();
    String label = tierName != null ? tierName : "tier-" + useTier + " domain";
    TaskInfo sample = tasks.get(0);
    boolean[] skip = session.callbacks().deviceManagedResources();
    String largest = null;
    int most = -1;
    for (String d : domains) {
      int fit = 0;
      for (String n : fabric.readyNodes(d)) {
        NodeInfo node = session.node(n);
        if (node != null && node.firstShortOfFuture(sample.request(), skip) < 0) {
          fit++;
        }
      }
      if (fit > most) {
        most = fit;
        largest = d;
      }
    }
    Domain widestAllowed = largest == null ? null : fabric.domain(largest);
    return "needs " + tasks.size() + " " + what + " x " + JobPlacer.describe(sample.request()) + " inside one "
        + label + "; largest free: " + (widestAllowed == null ? "none" : largest + " with " + most
        + " node(s) free for one pod");
  }
}
