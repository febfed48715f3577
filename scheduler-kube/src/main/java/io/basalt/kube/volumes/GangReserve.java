package io.basalt.kube.volumes;

import io.basalt.kube.prebind.ApiObjects;
import io.basalt.kube.prebind.ApiReply;
import io.basalt.kube.prebind.PreBindStep;
import io.basalt.session.SessionResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One gang's volume reservation in one bind call (live mode binds members on several workers at once): the first
 * member whose bind gets here tries every member's binding (a dry run: a member the API would refuse fails the gang
 * before anything is written, as a bound claim cannot be undone), plans every member's writes, checks every object
 * they touch, then writes them all and waits until every claim is bound; the members arriving meanwhile wait for
 * that outcome and share it. Any failure
 * undoes what was written for the gang and fails every member (with a code no retry repeats), so no member is bound
 * with its gang's claims half reserved. Checking everything first means a missing or taken object fails the gang
 * before any claim is annotated, so no provisioner starts on it. A gang sent in part (a member's earlier bind still
 * in flight, or only some members of a failed reservation placed again) reserves nothing.
 */
final class GangReserve {
  private static final System.Logger LOG = System.getLogger(VolumeBindStep.class.getName());

  private final VolumeBindStep step;
  private final List<SessionResult.Binding> members;
  /** Whether the binder held some members back: the gang is then not reserved at all. */
  private final boolean partial;
  /** The shared outcome, once the first member worked it out. */
  private PreBindStep.Result outcome;

  GangReserve(VolumeBindStep step, List<SessionResult.Binding> members, boolean partial) {
    this.step = step;
    this.members = List.copyOf(members);
    this.partial = partial;
  }

  /** The gang's outcome, working it out if no member has yet (the others wait for it here). */
  synchronized PreBindStep.Result outcomeFor(ApiObjects api) {
    if (outcome == null) {
      outcome = reserveAll(api);
    }
    return outcome;
  }

  private PreBindStep.Result reserveAll(ApiObjects api) {
    String gang = members.get(0).pod().namespace() + "/" + members.get(0).pod().groupName();
    if (partial) {
      return failed(gang, "sent in part (members' earlier binds still in flight)", new ApiReply(409, "gang in part"));
    }
    for (SessionResult.Binding m : members) {
      ApiReply r = api.tryBind(m.pod(), m.node()); // a member that cannot be bound fails the gang before any write
      if (!r.ok() && !dryRunRefused(r)) {
        return failed(gang, "member " + m.pod().key() + " cannot be bound to " + m.node() + ": " + r.body(), r);
      }
    }
    Map<String, List<VolumeBindStep.Write>> plans = new LinkedHashMap<>();
    List<VolumeBindStep.Write> all = new ArrayList<>();
    for (SessionResult.Binding m : members) {
      List<VolumeBindStep.Write> plan = step.plan(m.pod(), m.node());
      plan.forEach(step::markReserved); // the next member's plan must not choose these PVs
      plans.put(m.pod().uid(), plan);
      all.addAll(plan);
    }
    for (VolumeBindStep.Write w : all) {
      ApiReply r = VolumeBindStep.check(api, w);
      if (!r.ok()) {
        all.forEach(step::unmarkReserved);
        return failed(gang, "persistentvolumeclaim " + w.claim().key() + ": " + r.body(), r);
      }
    }
    List<VolumeBindStep.Write> done = new ArrayList<>();
    for (VolumeBindStep.Write w : all) {
      ApiReply r = step.write(api, w);
      if (!r.ok()) {
        undo(done, all, api);
        return failed(gang, "persistentvolumeclaim " + w.claim().key() + ": " + r.body(), r);
      }
      done.add(w);
    }
    if (!step.boundInTime(done, api)) {
      undo(done, all, api);
      return failed(gang, "claims not bound within " + step.waitForBound(),
          new ApiReply(504, "timed out waiting for the claims to be bound"));
    }
    plans.forEach(step::recordWritten);
    step.reservedWhole(gang);
    return PreBindStep.Result.DONE;
  }

  /**
   * Whether the API refused only the dry run itself: an admission webhook with side effects answers 400 "does not
   * support dry run" (kube-apiserver's words) to a dry-run request it would let through for real, so the reservation
   * goes ahead as it would without the dry run.
   */
  static boolean dryRunRefused(ApiReply r) {
    return r.code() == 400 && r.body() != null && r.body().toLowerCase(java.util.Locale.ROOT).contains("dry run");
  }

  private void undo(List<VolumeBindStep.Write> done, List<VolumeBindStep.Write> all, ApiObjects api) {
    if (!step.undoAll(done, api)) {
      LOG.log(System.Logger.Level.WARNING, "gang " + members.get(0).pod().groupName()
          + ": could not undo every claim reservation");
    }
    all.forEach(step::unmarkReserved);
  }

  /**
   * Every member fails; 409 so that no member's retry reserves alone what the gang could not. A reservation that was
   * tried and failed is remembered, so the members placed again in part (while others' failed binds finish) do not
   * reserve without them.
   */
  private PreBindStep.Result failed(String gang, String why, ApiReply r) {
    if (!partial) {
      java.util.Set<String> uids = new java.util.HashSet<>();
      members.forEach(m -> uids.add(m.pod().uid()));
      step.failed(gang, uids);
    }
    LOG.log(System.Logger.Level.WARNING, "gang " + gang + ": claims of its " + members.size()
        + " member(s) not reserved, none is bound: " + why);
    return new PreBindStep.Result(PreBindStep.State.FAILED, "gang " + gang + ": " + why,
        new ApiReply(409, r.body()));
  }
}
