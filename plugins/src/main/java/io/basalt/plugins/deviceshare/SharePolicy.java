package io.basalt.plugins.deviceshare;

import io.basalt.config.Arguments;
import java.util.Locale;

/** Which shareable GPU a share pod gets: the fullest ({@code binpack}, keeping whole GPUs free) or the emptiest. */
enum SharePolicy {
  BINPACK,
  SPREAD;

  static final String KEY = "deviceshare.policy";

  static SharePolicy from(Arguments args) {
    String v = args.getString(KEY, "binpack");
    switch (v.trim().toLowerCase(Locale.ROOT)) {
      case "binpack":
        return BINPACK;
      case "spread":
        return SPREAD;
      default:
        args.problem(KEY, "must be binpack or spread, got '" + v + "'");
        return BINPACK;
    }
  }
}
