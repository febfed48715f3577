package io.basalt.kube.live;

import io.basalt.config.ConfigException;
import io.basalt.scheduler.SchedulerProfile;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The config in force for a watched source (a ConfigMap, a file): each new content is compiled once; a content that
 * fails to build for any reason is logged, reported once and leaves the last good config in force. When the source
 * holds no good config at the start, the built-in default runs instead (if the caller gave one) until a good edit
 * comes, so a bad config in a rollout does not put the scheduler into a crash loop.
 *
 * <p>Contents are told apart by a key (the text itself, or a hash); the same key is never compiled twice in a row.
 */
public final class LastGoodConfig {
  private static final System.Logger LOG = System.getLogger(LastGoodConfig.class.getName());

  /** Compiles one content of the source. */
  @FunctionalInterface
  public interface Build {
    SchedulerProfile build() throws ConfigException;
  }

  private final String source;
  /** Told each rejection once, with a one-line message saying what stays in force (for a Warning event). */
  private final Consumer<String> rejected;
  private SchedulerProfile current;
  private String currentKey;
  private String currentVersion;
  private boolean fallback;
  private String rejectedKey;
  private String rejectedError;

  /**
   * Builds the source's first content.
   *
   * @param source names the source in logs and in {@link #state()}, e.g. {@code ConfigMap kube-system/basalt}
   * @param fallback what runs while the first content is bad; null makes a bad first content a
   *     {@link ConfigException} (every problem listed) instead
   * @throws ConfigException when the first content cannot be built and there is no fallback
   */
  public LastGoodConfig(String source, String key, String version, Build first, SchedulerProfile fallback,
      Consumer<String> rejected) throws ConfigException {
    this.source = source;
    this.rejected = rejected;
    List<String> problems;
    Throwable bug = null;
    try {
      current = first.build();
      currentKey = key;
      currentVersion = version;
      return;
    } catch (ConfigException e) {
      problems = e.problems();
    } catch (Throwable t) {
      rethrowFatal(t);
      problems = List.of(bugMessage(t));
      bug = t;
    }
    if (fallback == null) {
      throw new ConfigException(problems);
    }
    current = fallback;
    this.fallback = true;
    String message = new ConfigException(problems).getMessage();
    LOG.log(System.Logger.Level.ERROR, source + " cannot be used at start; running with the BUILT-IN DEFAULT config "
        + "(Volcano's default tiers) until a valid edit arrives:\n" + message, bug);
    rejectedKey = key;
    rejectedError = oneLine(message);
    rejected.accept("cannot be used, the built-in default config runs until a valid edit: " + rejectedError);
  }

  /** The config in force once the source holds the content {@code key} (compiled by {@code build} if new). */
  public synchronized SchedulerProfile offer(String key, String version, Build build) {
    if (Objects.equals(key, currentKey)) {
      rejectedKey = null; // back to the config in force: a later bad edit is reported again
      rejectedError = null;
      return current;
    }
    if (Objects.equals(key, rejectedKey)) {
      return current;
    }
    try {
      current = build.build();
      currentKey = key;
      currentVersion = version;
      fallback = false;
      rejectedKey = null;
      rejectedError = null;
      LOG.log(System.Logger.Level.INFO, source + " reloaded" + (version == null ? "" : " (" + version + ")"));
    } catch (ConfigException e) {
      reject(key, e.problems(), null);
    } catch (Throwable t) {
      // a bug in building a config (a plugin's factory throwing anything) must not stop scheduling
      rethrowFatal(t);
      reject(key, List.of(bugMessage(t)), t);
    }
    return current;
  }

  /** The config in force, without looking at the source. */
  public synchronized SchedulerProfile current() {
    return current;
  }

  public synchronized ConfigState state() {
    return new ConfigState(source, fallback ? null : currentVersion, fallback, rejectedError);
  }

  private void reject(String key, List<String> problems, Throwable bug) {
    rejectedKey = key;
    String message = new ConfigException(problems).getMessage();
    rejectedError = oneLine(message);
    String kept = fallback ? "the built-in default config" : "the last good config";
    LOG.log(System.Logger.Level.ERROR, source + " edit rejected, keeping " + kept + ":\n" + message, bug);
    rejected.accept("edit rejected, " + kept + " stays in force: " + rejectedError);
  }

  /** Out of memory and the like end the process as anywhere else; a stack overflow is one bad config's doing. */
  private static void rethrowFatal(Throwable t) {
    if (t instanceof VirtualMachineError fatal && !(t instanceof StackOverflowError)) {
      throw fatal;
    }
  }

  private static String bugMessage(Throwable t) {
    return "cannot be built: " + t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
  }

  private static String oneLine(String message) {
    return message.replace("\n", "; ");
  }
}
