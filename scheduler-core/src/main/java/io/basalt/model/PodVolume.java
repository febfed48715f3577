package io.basalt.model;

/**
 * A pod volume backed by a PersistentVolumeClaim: {@code spec.volumes[].persistentVolumeClaim.claimName}, or a generic
 * ephemeral volume, whose claim the ephemeral-volume controller names {@code <pod>-<volume>}. Other volume kinds
 * (emptyDir, configMap, in-line disks) do not constrain placement here and are not kept.
 *
 * @param name the volume's name in the pod spec
 * @param claimName the claim, in the pod's namespace
 * @param ephemeral true for a generic ephemeral volume
 */
public record PodVolume(String name, String claimName, boolean ephemeral) {
  /** The claim the ephemeral-volume controller creates for {@code volume} of {@code pod}. */
  public static String ephemeralClaimName(String pod, String volume) {
    return pod + "-" + volume;
  }
}
