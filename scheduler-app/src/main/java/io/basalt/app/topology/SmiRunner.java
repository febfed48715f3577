package io.basalt.app.topology;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs one smi command and returns its stdout. Both streams are drained on their own threads (no temp files: the
 * DaemonSet's root filesystem may be read-only) and the command is killed after a timeout, since nvidia-smi can hang
 * on a wedged GPU and the agent must go on.
 */
final class SmiRunner {
  private final Duration timeout;

  SmiRunner(Duration timeout) {
    this.timeout = timeout;
  }

  /** How a command is named in messages: its arguments joined by spaces. */
  static String display(List<String> command) {
    return String.join(" ", command);
  }

  String run(List<String> command) throws SmiException {
    String shown = display(command);
    Process p;
    try {
      p = new ProcessBuilder(command).start();
      p.getOutputStream().close();
    } catch (IOException e) {
      throw new SmiException("cannot run `" + shown + "`: " + e.getMessage(), e);
    }
    Drain out = new Drain(p.getInputStream());
    Drain err = new Drain(p.getErrorStream());
    try {
      if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly();
        throw new SmiException("`" + shown + "` did not finish within " + timeout.toSeconds() + "s; killed it");
      }
      out.join(timeout.toMillis());
      err.join(timeout.toMillis());
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new SmiException("interrupted while running `" + shown + "`", e);
    }
    if (p.exitValue() != 0) {
      String why = err.text().isBlank() ? out.text() : err.text();
      throw new SmiException("`" + shown + "` exited with " + p.exitValue()
          + (why.isBlank() ? "" : ": " + abbreviate(why.strip())));
    }
    return out.text();
  }

  private static String abbreviate(String s) {
    String one = s.replaceAll("\\s*\\R\\s*", " | ");
    return one.length() <= 400 ? one : one.substring(0, 400) + "...";
  }

  /** Reads a stream to its end in the background. */
  private static final class Drain extends Thread {
    private final InputStream in;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    Drain(InputStream in) {
      super("smi-output");
      this.in = in;
      setDaemon(true);
      start();
    }

    @Override
    public void run() {
      try (in) {
        in.transferTo(bytes);
      } catch (IOException e) {
        // the process died or was killed; whatever was read stays
      }
    }

    String text() {
      return bytes.toString(StandardCharsets.UTF_8);
    }
  }
}
