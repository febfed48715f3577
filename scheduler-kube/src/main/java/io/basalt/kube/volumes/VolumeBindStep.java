package io.basalt.kube.volumes;

import io.basalt.kube.prebind.ApiObjects;
import io.basalt.kube.prebind.ApiReply;
import io.basalt.kube.prebind.PreBindStep;
import io.basalt.model.ClusterVolumes;
import io.basalt.model.Node;
import io.basalt.model.PersistentVolume;
import io.basalt.model.Pod;
import io.basalt.model.PodVolume;
import io.basalt.model.VolumeClaim;
import io.basalt.session.SessionResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * kube-scheduler's VolumeBinding Reserve / PreBind / Unreserve for a pod's unbound {@code WaitForFirstConsumer}
 * claims on the node it was placed on: a matching available PV is bound to its claim ({@code spec.claimRef}, which
 * the PV controller completes), otherwise the claim is annotated {@code volume.kubernetes.io/selected-node} for its
 * provisioner. The PV chosen is the one the filter counted on (smallest fitting, ties by name, skipping PVs reserved
 * for other claims), read from the same storage objects. Live, it then waits (bounded) until every claim is bound
 * before the pod's binding is posted; unreserve clears the claimRefs and annotations it wrote.
 *
 * <p>The members of one gang in one bind call ({@link #batch}) reserve together ({@link GangReserve}): the first
 * member's bind reserves every member's claims, checking every object before writing any, and waits until all are
 * bound; the others wait for that outcome. If any member's claims cannot be reserved or are not bound in time,
 * what was written for the gang is undone and no member is bound, so the gang starts whole or not at all.
 */
public final class VolumeBindStep implements PreBindStep {
  /** What the step reads of the cluster: the cache's storage objects and nodes. */
  public interface View {
    ClusterVolumes volumes();

    Node node(String name);
  }

  /** How the step waits between looks at the claims (live: sleeps; tests: nothing). */
  @FunctionalInterface
  public interface Pause {
    void pause(Duration d) throws InterruptedException;
  }

  /** What preBind wrote for one claim: the PV reserved for it, or (volume null) the node selected for provisioning. */
  public record Write(VolumeClaim claim, String volume, String node) {}

  private final View view;
  private final Duration waitForBound;
  private final Duration poll;
  private final Pause pause;
  /** Per pod uid, what preBind wrote and unreserve must undo. */
  private final Map<String, List<Write>> written = new ConcurrentHashMap<>();
  /** PV name to the claim key this step reserved it for, until the cache shows its claimRef or it is unreserved. */
  private final Map<String, String> reserved = new ConcurrentHashMap<>();
  /** Per pod uid, the gang reservation it takes part in, until its bind asks for it. */
  private final Map<String, GangReserve> gangOf = new ConcurrentHashMap<>();
  /**
   * Per gang key, the members of its last reservation that failed, while its members come back in part (the cycle
   * places again only the members whose failed binds are over): a part is refused, so the gang reserves whole.
   */
  private final Map<String, Failed> failedGangs = new ConcurrentHashMap<>();
  /** How many bind calls a failed gang's part is refused before the gang is forgotten (a member deleted meanwhile). */
  static final int PART_REFUSALS = 50;

  /** A gang whose reservation failed: its members then, and how many parts were refused since. */
  private record Failed(Set<String> members, int refused) {}

  /**
   * @param waitForBound how long preBind waits for the claims to be bound before failing; zero writes and returns
   *     (the simulator, whose PV controller and provisioner act once the bind is done)
   */
  public VolumeBindStep(View view, Duration waitForBound, Duration poll, Pause pause) {
    this.view = view;
    this.waitForBound = waitForBound;
    this.poll = poll;
    this.pause = pause;
  }

  /**
   * Live mode's step over {@code cache}: waits up to {@link #LIVE_WAIT} for the PV controller or the provisioner to
   * bind the claims, looking every {@link #LIVE_POLL}.
   */
  public static VolumeBindStep live(io.basalt.cache.ClusterCache cache) {
    return new VolumeBindStep(new View() {
      @Override
      public ClusterVolumes volumes() {
        return cache.volumes().value();
      }

      @Override
      public Node node(String name) {
        return cache.node(name);
      }
    }, LIVE_WAIT, LIVE_POLL, d -> Thread.sleep(d.toMillis()));
  }

  /** How long live binds wait for claims to be bound (kube-scheduler waits up to its bindTimeoutSeconds). */
  public static final Duration LIVE_WAIT = Duration.ofSeconds(60);
  public static final Duration LIVE_POLL = Duration.ofMillis(500);

  /** A step that does not wait for the claims to be bound. */
  public VolumeBindStep(View view) {
    this(view, Duration.ZERO, Duration.ZERO, d -> { });
  }

  /**
   * Groups the gangs of one bind call: every member of a gang of which at least two members have claims to write
   * (with one, reserving it alone is the same) takes part in one {@link GangReserve}, members without claims too, so
   * that none binds before the gang's claims are reserved. A gang the binder sends only in part (a member's earlier
   * bind still in flight) is refused whole: its members are bound in a later cycle, together.
   */
  @Override
  public void batch(List<SessionResult.Binding> bindings, Set<String> sent) {
    Map<String, List<SessionResult.Binding>> gangs = new java.util.LinkedHashMap<>();
    for (SessionResult.Binding b : bindings) {
      if (b.pod().groupName() != null) {
        gangs.computeIfAbsent(b.pod().namespace() + "/" + b.pod().groupName(), k -> new ArrayList<>()).add(b);
      }
    }
    gangs.forEach((key, members) -> {
      int writing = 0;
      List<SessionResult.Binding> sending = new ArrayList<>();
      Set<String> uids = new HashSet<>();
      for (SessionResult.Binding m : members) {
        writing += needsWrites(m.pod()) ? 1 : 0;
        if (sent.contains(m.pod().uid())) {
          sending.add(m);
          uids.add(m.pod().uid());
        }
      }
      Failed failed = failedGangs.get(key);
      boolean partOfFailed = failed != null && !uids.containsAll(failed.members());
      if (partOfFailed && failed.refused() + 1 >= PART_REFUSALS) {
        failedGangs.remove(key);
        partOfFailed = false;
      } else if (partOfFailed) {
        failedGangs.put(key, new Failed(failed.members(), failed.refused() + 1));
      }
      if ((writing >= 2 || partOfFailed) && !sending.isEmpty()) {
        GangReserve g = new GangReserve(this, sending, sending.size() < members.size() || partOfFailed);
        sending.forEach(m -> gangOf.put(m.pod().uid(), g));
      }
    });
  }

  /** Remembers that {@code gang}'s reservation of {@code members} failed: until they come back whole, none binds. */
  void failed(String gang, Set<String> members) {
    failedGangs.put(gang, new Failed(Set.copyOf(members), 0));
  }

  /** Forgets a failed reservation of {@code gang}: it reserved whole. */
  void reservedWhole(String gang) {
    failedGangs.remove(gang);
  }

  @Override
  public boolean writesBefore(SessionResult.Binding binding, Map<String, String> annotations) {
    return gangOf.containsKey(binding.pod().uid()) || needsWrites(binding.pod());
  }

  private boolean needsWrites(Pod pod) {
    if (!pod.constraints().hasVolumes()) {
      return false;
    }
    ClusterVolumes vols = view.volumes();
    for (PodVolume v : pod.constraints().volumes()) {
      VolumeClaim c = v.isClaim() ? vols.claim(pod.namespace(), v.claimName()) : null;
      if (c != null && !c.isBound() && vols.delaysBinding(c)) {
        return true;
      }
    }
    return false;
  }

  /** The writes binding {@code pod}'s unbound claims on {@code node} takes, largest request first. */
  public List<Write> plan(Pod pod, String nodeName) {
    ClusterVolumes vols = view.volumes();
    Node node = view.node(nodeName);
    reserved.keySet().removeIf(pv -> {
      PersistentVolume now = vols.volume(pv);
      return now != null && now.claimName() != null; // the cache shows the claimRef now
    });
    List<VolumeClaim> delayed = new ArrayList<>();
    for (PodVolume v : pod.constraints().volumes()) {
      VolumeClaim c = v.isClaim() ? vols.claim(pod.namespace(), v.claimName()) : null;
      if (c != null && !c.isBound() && vols.delaysBinding(c) && !nodeName.equals(c.selectedNode())) {
        delayed.add(c);
      }
    }
    delayed.sort(Comparator.comparingLong(VolumeClaim::request).reversed().thenComparing(VolumeClaim::name));
    List<Write> plan = new ArrayList<>();
    Set<String> mine = new HashSet<>();
    for (VolumeClaim c : delayed) {
      PersistentVolume pv = node == null ? null : vols.bestMatch(c, node, name -> mine.contains(name)
          || (reserved.containsKey(name) && !reserved.get(name).equals(c.key())));
      if (pv != null) {
        mine.add(pv.name());
      }
      plan.add(new Write(c, pv == null ? null : pv.name(), nodeName));
    }
    return plan;
  }

  @Override
  public Result preBind(SessionResult.Binding binding, ApiObjects api) {
    GangReserve gang = gangOf.remove(binding.pod().uid());
    if (gang != null) {
      return gang.outcomeFor(api);
    }
    Pod pod = binding.pod();
    List<Write> done = new ArrayList<>();
    for (Write w : plan(pod, binding.node())) {
      ApiReply r = w.volume() != null ? reserve(api, w) : select(api, w);
      if (!r.ok()) {
        undo(done, api);
        return new Result(State.FAILED, "persistentvolumeclaim " + w.claim().key() + ": " + r.body(), r);
      }
      done.add(w);
      if (w.volume() != null) {
        reserved.put(w.volume(), w.claim().key());
      }
    }
    written.put(pod.uid(), done);
    if (!waitForBound.isZero() && !done.isEmpty() && !bound(done, api)) {
      undo(written.remove(pod.uid()), api);
      return new Result(State.FAILED, "claims of " + pod.key() + " not bound within " + waitForBound,
          new ApiReply(504, "timed out waiting for the claims to be bound"));
    }
    return Result.DONE;
  }

  /** Marks {@code w}'s PV reserved (planning a gang: the next member's plan must not choose it). */
  void markReserved(Write w) {
    if (w.volume() != null) {
      reserved.put(w.volume(), w.claim().key());
    }
  }

  /** Forgets {@code w}'s PV as reserved. */
  void unmarkReserved(Write w) {
    if (w.volume() != null) {
      reserved.remove(w.volume(), w.claim().key());
    }
  }

  /** Writes {@code w}: the PV's claimRef, or the claim's selected node. */
  ApiReply write(ApiObjects api, Write w) {
    return w.volume() != null ? reserve(api, w) : select(api, w);
  }

  /** Checks, without writing, that {@code w} can be written: its object exists and its PV is not another's. */
  static ApiReply check(ApiObjects api, Write w) {
    if (w.volume() != null) {
      ApiObjects.Read<PersistentVolume> pv = api.readVolume(w.volume());
      if (!pv.reply().ok()) {
        return pv.reply();
      }
      return pv.value().claimName() != null && !pv.value().reservedFor(w.claim())
          ? new ApiReply(409, "persistentvolume " + w.volume() + " is bound to another claim") : pv.reply();
    }
    ApiObjects.Read<VolumeClaim> c = api.readClaim(w.claim().namespace(), w.claim().name());
    return c.reply();
  }

  /** Records what was written for a gang member, for its report and its own unreserve. */
  void recordWritten(String uid, List<Write> done) {
    written.put(uid, done);
  }

  /** Undoes what was written for a gang's members, forgetting it; false when any undo failed. */
  boolean undoAll(List<Write> done, ApiObjects api) {
    return undo(done, api);
  }

  /** Whether every claim of {@code done} is bound, waiting as live binds do (immediately true when not waiting). */
  boolean boundInTime(List<Write> done, ApiObjects api) {
    return waitForBound.isZero() || done.isEmpty() || bound(done, api);
  }

  Duration waitForBound() {
    return waitForBound;
  }

  /** What preBind wrote for the pod of {@code uid} and has not undone (the simulator's report). */
  public List<Write> written(String uid) {
    return written.getOrDefault(uid, List.of());
  }

  /** Forgets what was written for a pod that is bound: nothing of it will be undone. */
  public void settled(String uid) {
    written.remove(uid);
  }

  @Override
  public boolean unreserve(SessionResult.Binding binding, ApiObjects api) {
    List<Write> done = written.remove(binding.pod().uid());
    return done == null || undo(done, api);
  }

  private static ApiReply reserve(ApiObjects api, Write w) {
    ApiObjects.Read<PersistentVolume> pv = api.readVolume(w.volume());
    if (!pv.reply().ok()) {
      return pv.reply();
    }
    if (pv.value().claimName() != null && !pv.value().reservedFor(w.claim())) {
      return new ApiReply(409, "persistentvolume " + w.volume() + " is bound to another claim");
    }
    return api.reserveVolume(w.volume(), w.claim(), pv.resourceVersion());
  }

  private static ApiReply select(ApiObjects api, Write w) {
    ApiObjects.Read<VolumeClaim> c = api.readClaim(w.claim().namespace(), w.claim().name());
    if (!c.reply().ok()) {
      return c.reply();
    }
    return api.selectNode(w.claim().namespace(), w.claim().name(), w.node(), c.resourceVersion());
  }

  /** Whether every claim written for is bound, looking until {@link #waitForBound} has passed. */
  private boolean bound(List<Write> done, ApiObjects api) {
    long polls = Math.max(1, poll.isZero() ? 1 : waitForBound.toMillis() / Math.max(1, poll.toMillis()));
    for (long i = 0; i < polls; i++) {
      boolean all = true;
      for (Write w : done) {
        ApiObjects.Read<VolumeClaim> c = api.readClaim(w.claim().namespace(), w.claim().name());
        all &= c.value() != null && c.value().isBound();
      }
      if (all) {
        return true;
      }
      try {
        pause.pause(poll);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return false;
  }

  /** Undoes the writes, last first; false when any undo failed. */
  private boolean undo(List<Write> done, ApiObjects api) {
    boolean ok = true;
    for (int i = done.size() - 1; i >= 0; i--) {
      Write w = done.get(i);
      if (w.volume() != null) {
        reserved.remove(w.volume());
        ApiObjects.Read<PersistentVolume> pv = api.readVolume(w.volume());
        if (pv.value() != null && pv.value().reservedFor(w.claim())) {
          ok &= api.reserveVolume(w.volume(), null, pv.resourceVersion()).ok();
        }
      } else {
        ApiObjects.Read<VolumeClaim> c = api.readClaim(w.claim().namespace(), w.claim().name());
        if (c.value() != null && w.node().equals(c.value().selectedNode())) {
          ok &= api.selectNode(w.claim().namespace(), w.claim().name(), null, c.resourceVersion()).ok();
        }
      }
    }
    return ok;
  }
}
