package io.basalt.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.kube.fake.FakeApiServer;
import io.basalt.kube.fake.Resources;
import io.basalt.testing.Await;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * No relist in a long watch: {@code basalt run} against a fake server that sends watch BOOKMARKs on a timer (as a real
 * one does about every minute) while writes Basalt does not watch (ConfigMaps) move the resourceVersion past what the
 * server keeps in history. A watch that resumes (after the client's timeout, or a clean close by the server) from a
 * resourceVersion only its own events advanced would get 410 Gone and relist; bookmarks keep it fresh. Counted by
 * {@code basalt_informer_relists_total}, which must stay absent.
 *
 * <p>The short variants run with every build (bookmarks every 500 ms, a burst of writes and every watch closed every
 * few seconds; and the same without bookmarks, to show the setup catches a relist). The 30-minute soak is run by hand,
 * cheap in CPU:
 * {@code nice -n 19 mvn -B -q -pl scheduler-app -am test -Dtest=BookmarkSoakTest -Dbasalt.soak=true
 * -Dsurefire.failIfNoSpecifiedTests=false} ({@code -Dbasalt.soak.minutes}, default 30).
 */
class BookmarkSoakTest {
  @Test
  @Timeout(60)
  void noRelistWhileBookmarksKeepEveryWatchFresh(@TempDir Path dir) throws Exception {
    Soak s = soak(dir, Duration.ofSeconds(6), Duration.ofMillis(500), Duration.ofMillis(2500), 60,
        Duration.ofMillis(100));
    assertTrue(s.watches() > s.kinds() * 3 / 2, "watches were resumed: " + s);
    assertEquals(0, s.relists(), "relists: " + s.metrics());
  }

  @Test
  @Timeout(60)
  void withoutBookmarksTheSameWatchesRelist(@TempDir Path dir) throws Exception {
    Soak s = soak(dir, Duration.ofSeconds(3), null, Duration.ofMillis(1500), 60, Duration.ofMillis(100));
    assertTrue(s.relists() > 0, "the setup would not catch a relist: " + s);
  }

  /** A real server's rhythm: a bookmark a minute, a write a second, watches ended only by the client's timeout. */
  @Test
  @EnabledIfSystemProperty(named = "basalt.soak", matches = "true")
  void noRelistInAThirtyMinuteWatchWithABookmarkEveryMinute(@TempDir Path dir) throws Exception {
    long minutes = Long.getLong("basalt.soak.minutes", 30);
    // About two writes a second (and Basalt's own): a history of 1,000 reaches back 7-8 minutes, less than the 5-10
    // minutes after which the client ends each watch, so a watch kept fresh by nothing but its events would expire.
    Soak s = soak(dir, Duration.ofMinutes(minutes), Duration.ofMinutes(1), null, 1000, Duration.ofSeconds(1));
    System.out.printf("bookmark soak: %d min, %s%n", minutes, s);
    assertTrue(s.watches() > s.kinds(), "no watch was resumed in " + minutes + " min: " + s);
    assertEquals(0, s.relists(), "relists: " + s.metrics());
  }

  /** What a soak saw: relists summed over kinds and causes, watch requests, the kinds watched at the start. */
  record Soak(long relists, int watches, int kinds, int pods, String metrics) {
    @Override
    public String toString() {
      return "relists " + relists + ", watch requests " + watches + " (" + kinds + " at the start), pods bound "
          + pods;
    }
  }

  /**
   * Runs Basalt for {@code length} against a server keeping {@code history} writes, writing a ConfigMap every
   * {@code writeEvery} (and deleting an old one), a pod to bind every 20 writes, sending bookmarks every
   * {@code bookmarkEvery} (null: never)
   * and every {@code closeEvery} (null: never) writing a whole history at once, then ending every watch cleanly.
   */
  private static Soak soak(Path dir, Duration length, Duration bookmarkEvery, Duration closeEvery, int history,
      Duration writeEvery) throws Exception {
    FakeApiServer.Builder b = FakeApiServer.builder().historyLimit(history);
    if (bookmarkEvery != null) {
      b.bookmarkEvery(bookmarkEvery);
    }
    try (FakeApiServer server = b.start()) {
      server.seed(LiveRun.node("n1", 8));
      try (LiveRun run = LiveRun.start(server, dir)) {
        int kinds = watches(server);
        long end = System.nanoTime() + length.toNanos();
        long nextClose = closeEvery == null ? Long.MAX_VALUE : System.nanoTime() + closeEvery.toNanos();
        int writes = 0;
        int pods = 0;
        while (System.nanoTime() < end) {
          server.seed("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"cm-" + writes
              + "\",\"namespace\":\"other\"},\"data\":{\"k\":\"v\"}}");
          server.delete(Resources.CONFIGMAPS, "other", "cm-" + (writes - 50)); // the store stays small
          if (++writes % 20 == 0) {
            server.delete(Resources.PODS, "ml", "p-" + (pods - 1));
            server.seed(LiveRun.pod("p-" + pods++, "basalt-scheduler", 1, null));
          }
          if (System.nanoTime() >= nextClose) {
            // A burst of a whole history's writes, then time for a bookmark or two: only a watch a bookmark moved
            // past the burst can resume.
            for (int i = 0; i < history; i++) {
              server.seed("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"burst-" + i
                  + "\",\"namespace\":\"other\"}}");
              server.delete(Resources.CONFIGMAPS, "other", "burst-" + i);
            }
            Thread.sleep(bookmarkEvery == null ? 1000 : 2 * bookmarkEvery.toMillis());
            server.closeWatches();
            nextClose += closeEvery.toNanos();
          }
          Thread.sleep(writeEvery.toMillis());
        }
        if (pods > 0) {
          String last = "p-" + (pods - 1);
          Await.until("the last pod bound", Duration.ofSeconds(20), () -> LiveRun.nodeOf(server, last) != null);
        }
        Thread.sleep(3000); // a watch refused with 410 relists after the reflector's pause
        String metrics = run.metrics();
        long relists = 0;
        for (String line : metrics.split("\n")) {
          if (line.startsWith("basalt_informer_relists_total{")) {
            relists += (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
          }
        }
        return new Soak(relists, watches(server), kinds, pods, metrics);
      }
    }
  }

  private static int watches(FakeApiServer server) {
    return (int) server.requests().stream().filter(r -> r.isWatch()).count();
  }
}
