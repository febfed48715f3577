package io.basalt.kube.live;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Every full re-read of a kind after its first LIST, by cause. A relist of 100,000 pods is a LIST of about 900 MB:
 * one should be rare and have a reason an operator can read, so each is counted (for
 * {@code basalt_informer_relists_total}) and logged as a WARN with that reason.
 */
final class Relists {
  /** The server's history no longer reached back to the watch's resourceVersion (410 Gone / Expired). */
  static final String EXPIRED = "expired";

  private static final System.Logger LOG = System.getLogger(InformerSource.class.getName());

  private final Map<List<String>, LongAdder> counts = new ConcurrentHashMap<>();

  void relisted(String kind, String cause, int objects) {
    counts.computeIfAbsent(List.of(kind, cause), k -> new LongAdder()).increment();
    LOG.log(Level.WARNING, "Relisted " + kind + " (" + objects + " objects): " + cause);
  }

  List<InformerSource.Relist> all() {
    List<InformerSource.Relist> out = new ArrayList<>();
    counts.forEach((k, n) -> out.add(new InformerSource.Relist(k.get(0), k.get(1), n.sum())));
    out.sort((a, b) -> (a.kind() + a.cause()).compareTo(b.kind() + b.cause()));
    return out;
  }
}
