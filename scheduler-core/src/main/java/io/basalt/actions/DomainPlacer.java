package io.basalt.actions;

import io.basalt.api.JobInfo;
import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.api.TaskStatus;
import io.basalt.fabric.Fabric;
import io.basalt.model.NetworkTopology;
import io.basalt.model.ResourceVector;
import io.basalt.search.NodeSearch;
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
 *
 * <p>With {@code --explain} a {@link DomainTrace} hears every domain considered and why it won or lost; room counts
 * come from {@link DomainRoom}, shared with the fit error.
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
    DomainTrace trace = DomainTrace.start(session, tasks.get(0));
    if (ask.gpuGroupSize() != null) {
      int perPod = gpusPerPod(tasks.get(0));
      if (perPod == 0 || ask.gpuGroupSize() % perPod != 0) {
        job.setFitError(NetworkTopology.GPU_GROUP_SIZE_ANNOTATION + " " + ask.gpuGroupSize() + " is not a multiple "
            + "of the " + perPod + " GPUs each pod asks for: groups cannot be formed");
        return JobPlacer.Outcome.DISCARDED;
      }
      int podsPerGroup = ask.gpuGroupSize() / perPod;
      if (job.tasks().size() > podsPerGroup && tiers.length > 0) {
        return placeGroups(session, job, podsPerGroup, trace);
      }
      widest = Math.min(widest, tiers.length == 0 ? 1 : tiers[0]);
    }
    // First a domain that takes every pending pod; failing that, one where the gang at least becomes ready (a
    // running job with room for some of its pods only where it already runs).
    for (boolean whole : new boolean[] {true, false}) {
      if (!whole) {
        trace.secondPass();
      }
      for (int tier : tiers) {
        if (tier > widest) {
          break;
        }
        List<String> ranked = candidates(session, job, whole ? tasks : List.of(), tier, null, job.tasks(), trace);
        for (int i = 0; i < ranked.size(); i++) {
          JobPlacer.Outcome o = tryIn(session, job, tasks, ranked.get(i), tier, whole, trace);
          if (o != JobPlacer.Outcome.DISCARDED) {
            trace.rankedBelow(tier, ranked, i);
            trace.emit(job);
            return o;
          }
        }
      }
    }
    if (ask.mode() == NetworkTopology.Mode.SOFT) {
      JobPlacer.Outcome o = placer.place(session, job, tasks, false);
      trace.cluster(o);
      trace.emit(job);
      return o;
    }
    job.setFitError(DomainRoom.noRoom(session, tasks, widest, "pods"));
    trace.emit(job);
    return JobPlacer.Outcome.DISCARDED;
  }

  /**
   * The gang in one domain: committed when ready, held when pipelined there, else discarded; with {@code whole}
   * only when every pending pod found a place there.
   */
  private JobPlacer.Outcome tryIn(Session session, JobInfo job, List<TaskInfo> tasks, String domain, int tier,
      boolean whole, DomainTrace trace) {
    Statement stmt = session.newStatement();
    placer.fill(session, job, tasks, stmt, scope(session, domain), false);
    int left = whole || trace.on() ? pendingOf(tasks).size() : 0;
    if (whole && left > 0) {
      trace.result(domain, tier, tasks.size() - left, tasks.size(), JobPlacer.Outcome.DISCARDED);
      stmt.discard();
      return JobPlacer.Outcome.DISCARDED;
    }
    JobPlacer.Outcome o = placer.settle(session, job, stmt);
    trace.result(domain, tier, tasks.size() - left, tasks.size(), o);
    if (o != JobPlacer.Outcome.DISCARDED) {
      job.setDomain(domain);
    }
    return o;
  }

  /** MetaX groups, each inside one tier-1 domain; all of them in one tier-2 domain when one has room. */
  private JobPlacer.Outcome placeGroups(Session session, JobInfo job, int podsPerGroup, DomainTrace trace) {
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
    int outerTier = tiers.length > 1 ? tiers[1] : 0;
    if (tiers.length > 1) {
      List<TaskInfo> pending = pendingOf(ranks);
      outer.addAll(candidates(session, job, pending, outerTier, null, job.tasks(), trace));
    }
    List<String> ranked = List.copyOf(outer);
    outer.add(null); // last: groups in any tier-1 domains
    for (int o = 0; o < outer.size(); o++) {
      String within = outer.get(o);
      Statement stmt = session.newStatement();
      List<String> used = new ArrayList<>();
      int failed = 0;
      for (int g = 0; g < groups.size() && failed == 0; g++) {
        List<TaskInfo> pending = pendingOf(groups.get(g));
        if (pending.isEmpty()) {
          continue;
        }
        trace.group(g + 1);
        String placedIn = null;
        List<String> inside = candidates(session, job, pending, groupTier, within, groups.get(g), trace);
        for (int i = 0; i < inside.size() && placedIn == null; i++) {
          String d = inside.get(i);
          Statement inner = session.newStatement();
          placer.fill(session, job, pending, inner, scope(session, d), false);
          int left = pendingOf(pending).size();
          if (left == 0) {
            stmt.absorb(inner);
            placedIn = d;
            trace.result(d, groupTier, pending.size(), pending.size(), JobPlacer.Outcome.COMMITTED);
            trace.rankedBelow(groupTier, inside, i);
          } else {
            trace.result(d, groupTier, pending.size() - left, pending.size(), JobPlacer.Outcome.DISCARDED);
            inner.discard();
          }
        }
        if (placedIn == null) {
          failed = g + 1;
        } else {
          used.add(placedIn);
        }
      }
      trace.group(0);
      if (failed == 0 && session.callbacks().jobReady(job)) {
        stmt.commit();
        job.setDomain(within != null ? within : String.join(",", used));
        if (within != null) {
          trace.result(within, outerTier, 1, 1, JobPlacer.Outcome.COMMITTED);
          trace.rankedBelow(outerTier, ranked, o);
        }
        trace.emit(job);
        return JobPlacer.Outcome.COMMITTED;
      }
      stmt.discard();
      trace.groupsFailed(within, outerTier, failed == 0 ? "every group fit but the gang was not ready"
          : "group " + failed + " found no " + DomainRoom.label(fabric, groupTier) + " with room");
    }
    job.setFitError(DomainRoom.noRoom(session, groups.get(0), groupTier, "pods per group of " + job.networkTopology()
        .gpuGroupSize() + " GPUs"));
    trace.emit(job);
    return JobPlacer.Outcome.DISCARDED;
  }

  /**
   * Domains of {@code tier} (inside {@code within} when not null) that hold every placed pod of {@code members} and
   * have room for {@code tasks}, best first; {@code trace} hears why each other domain of the tier is not one.
   */
  private List<String> candidates(Session session, JobInfo job, List<TaskInfo> tasks, int tier, String within,
      List<TaskInfo> members, DomainTrace trace) {
    Fabric fabric = session.fabric();
    String pinned = null;
    for (TaskInfo t : members) {
      if (t.status() != TaskStatus.PENDING && t.nodeName() != null && t.status() != TaskStatus.SUCCEEDED
          && t.status() != TaskStatus.FAILED) {
        String d = fabric.domainOf(t.nodeName(), tier);
        if (d == null || pinned != null && !pinned.equals(d)) {
          trace.spans(tier, within);
          return List.of(); // its pods already span more than one domain of this tier
        }
        pinned = d;
      }
    }
    if (pinned != null) {
      trace.elsewhere(tier, within, pinned);
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
      int shortOf = DomainRoom.shortOf(session, d, need, skip);
      if (shortOf < 0) {
        out.add(d);
        score.put(d, session.callbacks().scoreDomain(job, d));
      } else {
        trace.tooSmall(d, tier, tasks.size(), need, shortOf);
      }
    }
    out.sort(Comparator.<String>comparingDouble(d -> -score.get(d)).thenComparing(Comparator.naturalOrder()));
    trace.candidates(tier, out, score);
    return out;
  }

  static boolean inside(Fabric fabric, String domain, String ancestor) {
    for (String d = domain; d != null; d = fabric.parent(d)) {
      if (d.equals(ancestor)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The search scope of {@code domain}: its ready nodes of the session, listed once per session (a gang tries a few
   * domains, its groups each a few more, and the fabric and the session's nodes stay as they are until it closes).
   */
  private static NodeSearch.Scope scope(Session session, String domain) {
    return session.scratch(Scopes.class, Scopes::new).byDomain.computeIfAbsent(domain, d -> {
      List<NodeInfo> nodes = new ArrayList<>();
      for (String n : session.fabric().readyNodes(d)) {
        NodeInfo node = session.node(n);
        if (node != null) {
          nodes.add(node);
        }
      }
      return new NodeSearch.Scope(d, List.copyOf(nodes));
    });
  }

  /** The session's domain scopes, by domain. */
  private static final class Scopes {
    final Map<String, NodeSearch.Scope> byDomain = new HashMap<>();
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
}
