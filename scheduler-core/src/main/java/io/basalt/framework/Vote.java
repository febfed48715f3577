package io.basalt.framework;

/**
 * A plugin's answer to "may this job be enqueued / stay pipelined?". Across tiers a reject wins, the first tier
 * holding a permit decides, and when every plugin abstains the answer falls through to yes.
 */
public record Vote(Kind kind, String reason) {
  public enum Kind { PERMIT, ABSTAIN, REJECT }

  public static final Vote PERMIT = new Vote(Kind.PERMIT, null);
  public static final Vote ABSTAIN = new Vote(Kind.ABSTAIN, null);

  public static Vote reject(String reason) {
    return new Vote(Kind.REJECT, reason);
  }

  public boolean isReject() {
    return kind == Kind.REJECT;
  }
}
