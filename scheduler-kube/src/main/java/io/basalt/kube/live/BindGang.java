package io.basalt.kube.live;

import io.basalt.model.Pod;
import java.util.ArrayList;
import java.util.List;

/**
 * The members of one gang in one bind call, so a partial outcome is logged once per gang: bound members stay bound
 * (Kubernetes cannot unbind) and the failed ones are pending again for the next cycle.
 */
final class BindGang {
  private static final System.Logger LOG = System.getLogger(KubeBinder.class.getName());
  /** For pods without a group: counts nothing, logs nothing. */
  static final BindGang NONE = new BindGang(null, 0);

  private final String key;
  private int remaining;
  private int bound;
  private final List<String> failed = new ArrayList<>();

  BindGang(String key, int members) {
    this.key = key;
    this.remaining = members;
  }

  /** One member finished: {@code reason} null when it bound. */
  synchronized void done(Pod pod, String reason) {
    if (key == null) {
      return;
    }
    if (reason == null) {
      bound++;
    } else {
      failed.add(pod.name());
    }
    if (--remaining == 0 && !failed.isEmpty()) {
      LOG.log(System.Logger.Level.WARNING, "gang " + key + ": " + bound + " member(s) bound and stay bound, "
          + failed.size() + " back to pending for the next cycle: " + failed);
    }
  }
}
