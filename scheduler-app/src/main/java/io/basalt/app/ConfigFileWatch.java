package io.basalt.app;

import io.basalt.config.ConfLoader;
import io.basalt.config.ConfigException;
import io.basalt.framework.PluginRegistry;
import io.basalt.kube.live.ConfigState;
import io.basalt.kube.live.LastGoodConfig;
import io.basalt.scheduler.SchedulerProfile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * {@code basalt run --config FILE}: the file is re-read at most every {@link #POLL} when a cycle or a probe asks, so
 * an edit (a ConfigMap mounted as a volume, which the kubelet swaps in place) takes effect without a restart. A
 * content that cannot be built leaves the last good config in force, or at the start the built-in default
 * ({@link LastGoodConfig}). Contents are told apart by their SHA-256, which {@code /readyz} shows. No thread of its
 * own: a standby's readiness probe reads it too, so both replicas report the same state.
 */
final class ConfigFileWatch implements Supplier<SchedulerProfile> {
  static final long POLL = 2_000_000_000L;
  /** Larger files are not read: a scheduler config is far smaller (its parser takes at most 256 KiB of text). */
  private static final long MAX_BYTES = 1 << 20;

  private final Path file;
  private final PluginRegistry plugins;
  private final LongSupplier nanos;
  private final LastGoodConfig config;
  private long lastPoll;

  ConfigFileWatch(Path file, PluginRegistry plugins, SchedulerProfile fallback, LongSupplier nanos)
      throws ConfigException {
    this.file = file;
    this.plugins = plugins;
    this.nanos = nanos;
    Content first = read();
    List<String> warnings = new ArrayList<>();
    this.config = new LastGoodConfig(file.toString(), first.key(), first.version(), () -> build(first, warnings),
        fallback, m -> { });
    warnings.forEach(w -> System.err.println("warning: " + w));
    this.lastPoll = nanos.getAsLong();
  }

  @Override
  public synchronized SchedulerProfile get() {
    long now = nanos.getAsLong();
    if (now - lastPoll < POLL) {
      return config.current();
    }
    lastPoll = now;
    Content content = read();
    return config.offer(content.key(), content.version(), () -> build(content, new ArrayList<>()));
  }

  ConfigState state() {
    get();
    return config.state();
  }

  /** The file's bytes and their hash, or why it cannot be read (then the reason is the key). */
  private record Content(String key, byte[] bytes, String error) {
    String version() {
      return error == null ? key : null;
    }
  }

  private Content read() {
    try {
      long size = Files.size(file);
      if (size > MAX_BYTES) {
        return new Content("too large: " + size, null, size + " bytes, more than a scheduler config may have");
      }
      byte[] bytes = Files.readAllBytes(file);
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(bytes);
      return new Content("sha256 " + HexFormat.of().formatHex(digest, 0, 8), bytes, null);
    } catch (IOException e) {
      return new Content("unreadable: " + e, null, "cannot read: " + e.getMessage());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }

  /** Compiles exactly the bytes that were hashed, so the hash shown is the content in force. */
  private SchedulerProfile build(Content content, List<String> warnings) throws ConfigException {
    if (content.error() != null) {
      throw new ConfigException(file + ": " + content.error());
    }
    String text;
    try {
      text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(content.bytes())).toString();
    } catch (CharacterCodingException e) {
      throw new ConfigException(file + ": not UTF-8 text");
    }
    return ConfigOption.compile(ConfLoader.parse(text, file.toString()), file.toString(), plugins, warnings);
  }
}
