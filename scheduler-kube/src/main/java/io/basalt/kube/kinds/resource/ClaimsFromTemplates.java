package io.basalt.kube.kinds.resource;

import io.basalt.dra.ClaimTemplate;
import io.basalt.dra.ResourceClaim;
import io.basalt.model.Pod;
import io.basalt.model.PodResourceClaim;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The simulator's stand-in for kube-controller-manager's resource-claim controller: for each pod entry naming a
 * template and no claim yet, a claim of the template's spec named {@code <pod>-<entry>-<suffix>} as upstream names
 * them (its five-character suffix derived from the pod's uid here, so a run is repeatable), and the pod told its
 * name as {@code status.resourceClaimStatuses} would. A template that does not exist makes no claim: the pod then
 * waits, as it would in a cluster.
 */
public final class ClaimsFromTemplates {
  /** The characters Kubernetes' generateName suffixes use. */
  private static final String ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

  /** The pods, those that needed claims told them, and the claims made. */
  public record Result(List<Pod> pods, List<ResourceClaim> made) {}

  private ClaimsFromTemplates() {}

  public static Result make(List<Pod> pods, DraRecords dra) {
    if (dra.templates().isEmpty()) {
      return new Result(pods, List.of());
    }
    Set<String> taken = new HashSet<>();
    dra.claims().forEach(c -> taken.add(c.key()));
    List<Pod> out = new ArrayList<>(pods.size());
    List<ResourceClaim> made = new ArrayList<>();
    for (Pod p : pods) {
      List<PodResourceClaim> refs = p.constraints().resourceClaims();
      boolean changed = false;
      List<PodResourceClaim> told = new ArrayList<>(refs.size());
      for (PodResourceClaim r : refs) {
        ClaimTemplate t = r.claimName() == null && r.templateName() != null ? template(dra, p.namespace(),
            r.templateName()) : null;
        if (t == null) {
          told.add(r);
          continue;
        }
        String name = name(p, r, taken);
        taken.add(p.namespace() + "/" + name);
        made.add(new ResourceClaim(p.namespace(), name, p.uid() + "/" + r.name(), t.spec(), null, List.of()));
        told.add(r.withClaim(name));
        changed = true;
      }
      out.add(changed ? p.withConstraints(p.constraints().withResourceClaims(told)) : p);
    }
    return new Result(out, made);
  }

  private static ClaimTemplate template(DraRecords dra, String namespace, String name) {
    for (ClaimTemplate t : dra.templates()) {
      if (t.namespace().equals(namespace) && t.name().equals(name)) {
        return t;
      }
    }
    return null;
  }

  /** {@code <pod>-<entry>-<suffix>}, the suffix from the pod's uid and the entry, unique among the claims. */
  static String name(Pod pod, PodResourceClaim entry, Set<String> taken) {
    long h = (pod.uid() + "/" + entry.name()).hashCode() & 0xffffffffL;
    for (int attempt = 0; ; attempt++) {
      StringBuilder suffix = new StringBuilder(5);
      long x = h + attempt * 7919L;
      for (int i = 0; i < 5; i++) {
        suffix.append(ALPHABET.charAt((int) (x % ALPHABET.length())));
        x /= ALPHABET.length();
      }
      String name = pod.name() + "-" + entry.name() + "-" + suffix;
      if (!taken.contains(pod.namespace() + "/" + name)) {
        return name;
      }
    }
  }
}
