package io.basalt.dra;

import io.basalt.model.Pod;
import io.basalt.model.PodResourceClaim;
import java.util.ArrayList;
import java.util.List;

/**
 * The ledger's reasons name the asking pod's claims ({@code claim ns/name: ...}). Pods whose claims are their own and
 * ask alike get the same verdicts, so the search may keep one "0/N nodes" diagnosis for them all: it keeps each reason
 * with the claim's place in the pod instead of its name ({@link #generic}) and names each pod's own claims when it
 * reports ({@link #specific}).
 */
public final class ClaimReasons {
  /** Brackets a claim's place in a generic reason; no claim name holds it. */
  private static final char MARK = '\u0000';

  private ClaimReasons() {}

  /** {@code reason} (as {@code pod}'s check said it) with each of the pod's claims named by its place. */
  public static String generic(Pod pod, String reason) {
    List<PodResourceClaim> refs = pod.constraints().resourceClaims();
    for (int i = 0; i < refs.size(); i++) {
      String name = refs.get(i).claimName();
      if (name != null) {
        reason = reason.replace(named(pod, name), placed(i));
      }
    }
    return reason;
  }

  /** A {@link #generic} reason naming {@code pod}'s own claims. */
  public static String specific(Pod pod, String reason) {
    if (reason.indexOf(MARK) < 0) {
      return reason;
    }
    List<PodResourceClaim> refs = pod.constraints().resourceClaims();
    for (int i = 0; i < refs.size(); i++) {
      String name = refs.get(i).claimName();
      if (name != null) {
        reason = reason.replace(placed(i), named(pod, name));
      }
    }
    return reason;
  }

  /** The pod's claim entries without the names of the claims made for it: what pods of one kind share. */
  public static List<PodResourceClaim> unnamed(List<PodResourceClaim> refs) {
    List<PodResourceClaim> out = new ArrayList<>(refs.size());
    for (PodResourceClaim r : refs) {
      out.add(r.templateName() == null ? r : new PodResourceClaim(r.name(), null, r.templateName()));
    }
    return out;
  }

  private static String named(Pod pod, String claim) {
    return "claim " + pod.namespace() + "/" + claim + ":";
  }

  private static String placed(int index) {
    return "claim " + MARK + index + MARK + ":";
  }
}
