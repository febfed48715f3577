package io.basalt.kube.fake;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** The open watches; the store publishes every write here (under its lock) and tests end them from here. */
final class WatchHub {
  private final Set<Watcher> watchers = ConcurrentHashMap.newKeySet();

  void add(Watcher w) {
    watchers.add(w);
  }

  void remove(Watcher w) {
    watchers.remove(w);
  }

  void publish(StoreEvent e) {
    for (Watcher w : watchers) {
      w.accept(e);
    }
  }

  void bookmark(long resourceVersion) {
    for (Watcher w : watchers) {
      w.bookmark(resourceVersion);
    }
  }

  /** Ends every open watch; they leave the set at once so a count afterwards sees only new watches. */
  int terminateAll(boolean abrupt) {
    List<Watcher> all = List.copyOf(watchers);
    all.forEach(watchers::remove);
    all.forEach(w -> w.terminate(abrupt));
    return all.size();
  }

  int size() {
    return watchers.size();
  }

  int size(ResourceType type) {
    return (int) watchers.stream().filter(w -> w.type().equals(type)).count();
  }
}
