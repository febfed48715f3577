package io.basalt.scheduler;

/**
 * What a {@link Binder} reports back for each binding and eviction the cycle handed it, possibly later and from
 * another thread. The cycle assumed each of them in the cache before the binder saw it; these reports are the one
 * path by which those assumptions are settled, so no binder does cache bookkeeping of its own.
 */
public interface BindOutcomes {
  /** The API accepted the binding of pod {@code uid} (or it was already bound to the node chosen). */
  void bound(String uid);

  /**
   * The binding of pod {@code uid} was not carried out (refused, lost to another scheduler, or never sent): the pod is
   * pending again; with {@code hold}, its node stays nominated for it, so the next cycle keeps that room for it.
   */
  void notBound(String uid, boolean hold);

  /** The eviction of pod {@code uid} went through (or the pod was gone already). */
  void evicted(String uid);

  /** The eviction of pod {@code uid} was refused for good: the pod runs on. */
  void notEvicted(String uid);

  /** Settles nothing: for binders whose outcomes nobody awaits. */
  BindOutcomes NONE = new BindOutcomes() {
    @Override
    public void bound(String uid) {}

    @Override
    public void notBound(String uid, boolean hold) {}

    @Override
    public void evicted(String uid) {}

    @Override
    public void notEvicted(String uid) {}
  };
}
