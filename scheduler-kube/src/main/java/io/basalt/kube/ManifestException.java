package io.basalt.kube;

/**
 * A manifest that cannot be read at all: malformed YAML (or JSON), a duplicate mapping key, an unreadable file. The
 * message names the source and the document number (1-based, counting {@code ---} separators), e.g.
 * {@code cluster.yaml doc 3 (line 17, column 5): malformed YAML: mapping values are not allowed here}.
 */
public final class ManifestException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String source;
  private final int document;

  public ManifestException(String source, int document, String message, Throwable cause) {
    super(source + (document > 0 ? " doc " + document : "") + ": " + message, cause);
    this.source = source;
    this.document = document;
  }

  /** File name, or the name given for a string source. */
  public String source() {
    return source;
  }

  /** 1-based document number within the source; 0 when the problem is with the source as a whole. */
  public int document() {
    return document;
  }
}
