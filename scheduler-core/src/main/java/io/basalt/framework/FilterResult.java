package io.basalt.framework;

/** A filter's verdict for one task on one node; the reason reads like kube-scheduler's ("Insufficient cpu"). */
public record FilterResult(String reason) {
  public static final FilterResult OK = new FilterResult(null);

  public static FilterResult unfit(String reason) {
    return new FilterResult(reason);
  }

  public boolean ok() {
    return reason == null;
  }
}
