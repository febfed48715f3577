package io.basalt.kube.workload;

/**
 * A workload field its controller (or its admission webhook) would reject. Thrown inside this package only: {@link
 * WorkloadExpander} turns it into one error line naming the object and the field, so nothing escapes the reader.
 */
final class Malformed extends RuntimeException {
  private static final long serialVersionUID = 1L;

  Malformed(String field, String problem) {
    super(field + ": " + problem);
  }
}
