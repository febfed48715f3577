package io.basalt.api;

/**
 * A job's (PodGroup's) lifecycle as Volcano names it: Pending until admitted, Inqueue once admitted (resources may be
 * asked for), Running once its gang is placed, Completed when its pods finished. {@link #wireName()} is the string in
 * {@code status.phase}.
 */
public enum PodGroupPhase {
  PENDING("Pending"),
  INQUEUE("Inqueue"),
  RUNNING("Running"),
  UNKNOWN("Unknown"),
  COMPLETED("Completed");

  /** {@code values()} copies its array per call; {@link #of} is asked per job per cycle. */
  private static final PodGroupPhase[] ALL = values();

  private final String wireName;

  PodGroupPhase(String wireName) {
    this.wireName = wireName;
  }

  public String wireName() {
    return wireName;
  }

  /**
   * The phase {@code status.phase} names; an empty one is Pending (a PodGroup no controller has touched yet), and
   * one this build does not know is Unknown, which the scheduler treats like an admitted job, as Volcano does.
   */
  public static PodGroupPhase of(String wireName) {
    if (wireName == null || wireName.isBlank()) {
      return PENDING;
    }
    for (PodGroupPhase p : ALL) {
      if (p.wireName.equals(wireName)) {
        return p;
      }
    }
    return UNKNOWN;
  }

  @Override
  public String toString() {
    return wireName;
  }
}
