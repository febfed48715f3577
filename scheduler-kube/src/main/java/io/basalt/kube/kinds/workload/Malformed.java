package io.basalt.kube.kinds.workload;

/**
 * A workload field its controller (or its admission webhook) would reject. Thrown inside this package only: {@link
 * WorkloadExpander} turns it into one error line naming the object and the field, so nothing escapes the reader.
 */
final class Malformed extends RuntimeException {
  private static final long serialVersionUID = 1L;
  /** A problem quotes the bad value; a value can be a whole nested document, so the line is cut here. */
  static final int MAX_PROBLEM = 200;

  Malformed(String field, String problem) {
    super(field + ": " + clip(problem));
  }

  private static String clip(String problem) {
    String line = problem.replace('\n', ' ').replace('\r', ' ');
    return line.length() <= MAX_PROBLEM ? line : line.substring(0, MAX_PROBLEM) + "...";
  }
}
