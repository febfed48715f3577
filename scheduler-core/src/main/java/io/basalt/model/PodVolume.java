package io.basalt.model;

/**
 * A pod volume that constrains placement: one backed by a PersistentVolumeClaim
 * ({@code spec.volumes[].persistentVolumeClaim.claimName}, or a generic ephemeral volume, whose claim the
 * ephemeral-volume controller names {@code <pod>-<volume>}), or an in-line disk two pods may not share on a node.
 * Other volume kinds (emptyDir, configMap, ...) do not constrain placement and are not kept.
 *
 * @param name the volume's name in the pod spec
 * @param claimName the claim, in the pod's namespace; null for an in-line disk
 * @param ephemeral true for a generic ephemeral volume
 * @param disk the in-line disk; null for a claim
 */
public record PodVolume(String name, String claimName, boolean ephemeral, InlineDisk disk) {
  /** A claim-backed volume. */
  public PodVolume(String name, String claimName, boolean ephemeral) {
    this(name, claimName, ephemeral, null);
  }

  /** An in-line disk. */
  public static PodVolume inline(String name, InlineDisk disk) {
    return new PodVolume(name, null, false, disk);
  }

  /** Whether a claim backs this volume (else it is an in-line disk). */
  public boolean isClaim() {
    return claimName != null;
  }

  /** The claim the ephemeral-volume controller creates for {@code volume} of {@code pod}. */
  public static String ephemeralClaimName(String pod, String volume) {
    return pod + "-" + volume;
  }
}
