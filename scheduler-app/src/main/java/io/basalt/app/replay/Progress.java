package io.basalt.app.replay;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * How far a long replay has got: a bar redrawn in place on a terminal, a line every {@code every} seconds otherwise
 * (logs and CI keep it readable), or nothing.
 */
interface Progress {
  void update(long done, long total);

  void done();

  Progress NONE = new Progress() {
    @Override
    public void update(long done, long total) {}

    @Override
    public void done() {}
  };

  /** A bar when {@code terminal}, else periodic lines; both on {@code out}, labelled {@code what}. */
  static Progress to(PrintWriter out, boolean terminal, String what, double everySeconds) {
    return new Progress() {
      private long last = System.nanoTime();
      private long lastDone = -1;
      private long lastTotal;

      @Override
      public void update(long done, long total) {
        long now = System.nanoTime();
        lastDone = done;
        lastTotal = total;
        if (terminal ? now - last < 100_000_000L : now - last < everySeconds * 1e9) {
          return;
        }
        last = now;
        print(done, total);
      }

      private void print(long done, long total) {
        int pct = total == 0 ? 100 : (int) (100 * done / total);
        if (terminal) {
          int filled = pct * 30 / 100;
          out.printf(Locale.ROOT, "\r%s [%s%s] %3d%% %d/%d", what, "#".repeat(filled), " ".repeat(30 - filled),
              pct, done, total);
        } else {
          out.printf(Locale.ROOT, "%s: %d/%d (%d%%)%n", what, done, total, pct);
        }
        out.flush();
      }

      @Override
      public void done() {
        if (lastDone >= 0) {
          print(lastDone, lastTotal);
        }
        if (terminal) {
          out.println();
        }
        out.flush();
      }
    };
  }
}
