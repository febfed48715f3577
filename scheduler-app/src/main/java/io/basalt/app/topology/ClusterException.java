package io.basalt.app.topology;

/** The node could not be read or patched (no kube config, API error, no connection): the command exits 2. */
final class ClusterException extends Exception {
  private static final long serialVersionUID = 1L;

  ClusterException(String message) {
    super(message);
  }

  ClusterException(String message, Throwable cause) {
    super(message, cause);
  }
}
