package io.basalt.kube.live;

/**
 * Which scheduler config is in force and whether its source's latest content was accepted: what {@code /readyz}
 * says and {@code basalt_config_valid} counts, so an operator sees a rejected edit without reading logs.
 *
 * @param source where the config comes from: {@code ConfigMap kube-system/basalt}, a file, {@code built-in default}
 * @param version which content of the source is in force ({@code resourceVersion 123}, {@code sha256 ...}); null
 *     for the built-in default and while falling back
 * @param fallback the built-in default runs because the source has held no good config since the start
 * @param error why the source's latest content was rejected, on one line; null when that content is in force
 */
public record ConfigState(String source, String version, boolean fallback, String error) {
  /** The built-in default, asked for (no config given): valid. */
  public static ConfigState builtIn() {
    return new ConfigState("built-in default", null, false, null);
  }

  /** The source's latest content is the config in force. */
  public boolean valid() {
    return error == null;
  }

  /** One line: {@code ConfigMap ns/name (resourceVersion 7)}, or {@code FALLBACK built-in default: <error>}. */
  public String describe() {
    if (fallback) {
      return "FALLBACK built-in default: " + error;
    }
    String inForce = version == null ? source : source + " (" + version + ")";
    return error == null ? inForce : inForce + "; latest edit rejected, last good config kept: " + error;
  }
}
