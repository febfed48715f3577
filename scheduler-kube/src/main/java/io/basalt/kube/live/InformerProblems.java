package io.basalt.kube.live;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Objects the informers had to skip, keyed by kind and object. Each is logged once when it first fails (or fails
 * differently), not at every resync or update, and forgotten once it converts or is deleted, so a later failure of the
 * same object is logged again.
 */
final class InformerProblems {
  private static final System.Logger LOG = System.getLogger(InformerSource.class.getName());

  private final Map<String, String> skipped = new ConcurrentHashMap<>();
  private final Map<String, String> notes = new ConcurrentHashMap<>();

  /** Records that {@code kind key} was skipped; logs when this is news. */
  void skipped(String kind, String key, String message, Throwable cause) {
    String previous = skipped.put(kind + " " + key, message);
    if (!message.equals(previous)) {
      if (cause == null) {
        LOG.log(Level.WARNING, "Skipping {0}", message);
      } else {
        LOG.log(Level.ERROR, "Skipping " + message, cause);
      }
    }
  }

  void cleared(String kind, String key) {
    skipped.remove(kind + " " + key);
  }

  /** A source-wide condition (a kind that is not served), logged once. */
  void note(String what, String message) {
    if (notes.putIfAbsent(what, message) == null) {
      LOG.log(Level.WARNING, message);
    }
  }

  List<String> all() {
    List<String> out = new ArrayList<>(notes.values());
    skipped.values().stream().sorted().forEach(out::add);
    return out;
  }
}
