package io.basalt.app.topology;

/**
 * The GPU topology could not be read: the smi command failed, or (as {@link SmiOutputException}) its output made no
 * sense. Either way nothing is written to the node, and the command exits 1.
 */
class SmiException extends Exception {
  private static final long serialVersionUID = 1L;

  SmiException(String message) {
    super(message);
  }

  SmiException(String message, Throwable cause) {
    super(message, cause);
  }
}
