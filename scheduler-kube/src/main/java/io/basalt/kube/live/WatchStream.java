package io.basalt.kube.live;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1Status;
import io.kubernetes.client.util.Watch;
import io.kubernetes.client.util.Watchable;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.function.Consumer;
import okhttp3.Response;
import okio.BufferedSource;

/**
 * One watch's events, read a line at a time (each event is one JSON document on its own line). Lenient where
 * client-java's reader is strict: a BOOKMARK's object is not validated as a full object, an object that does not
 * decode is skipped (and reported) rather than ending the watch, and a connection that breaks ends the watch as a
 * clean end does, so the reflector resumes from the last resourceVersion instead of reading everything again. An
 * ERROR event (410 Expired when the server's history no longer reaches back) is handed to the reflector, which then
 * lists again; its cause is reported first.
 */
final class WatchStream<T> implements Watchable<T> {
  /** An event's object to the watched type; null to skip the event. */
  interface Decoder<T> {
    T decode(String eventType, JsonObject object);
  }

  private static final System.Logger LOG = System.getLogger(InformerSource.class.getName());

  private final String name;
  private final Response response;
  private final BufferedSource source;
  private final Decoder<T> decoder;
  private final Consumer<String> relistCause;
  private Watch.Response<T> next;
  private volatile boolean done;

  WatchStream(String name, Response response, Decoder<T> decoder, Consumer<String> relistCause) {
    this.name = name;
    this.response = response;
    this.source = response == null ? null : response.body().source();
    this.decoder = decoder;
    this.relistCause = relistCause;
    this.done = response == null;
  }

  /** A watch that has already ended: the reflector then watches again from where it was. */
  static <T> WatchStream<T> ended() {
    return new WatchStream<>("", null, null, c -> { });
  }

  @Override
  public boolean hasNext() {
    while (next == null && !done) {
      String line;
      try {
        line = source.readUtf8Line();
      } catch (IOException | IllegalStateException e) {
        if (!done) {
          LOG.log(Level.DEBUG, "Watch of {0} broke ({1}); resuming from the last resourceVersion", name, e);
        }
        close();
        return false;
      }
      if (line == null) {
        close();
        return false;
      }
      if (!line.isBlank()) {
        next = event(line);
      }
    }
    return next != null;
  }

  private Watch.Response<T> event(String line) {
    JsonObject event;
    try {
      JsonElement parsed = JsonParser.parseString(line);
      event = parsed.getAsJsonObject();
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "Watch of {0}: skipping an event that is not JSON: {1}", name, e.getMessage());
      return null;
    }
    String type = event.has("type") && event.get("type").isJsonPrimitive() ? event.get("type").getAsString() : "";
    JsonObject object = event.has("object") && event.get("object").isJsonObject()
        ? event.getAsJsonObject("object") : new JsonObject();
    if ("ERROR".equals(type)) {
      V1Status status;
      try {
        status = JSON.getGson().fromJson(object, V1Status.class);
      } catch (RuntimeException e) {
        status = new V1Status().message(object.toString());
      }
      Integer code = status.getCode();
      relistCause.accept(code != null && code == 410 ? Relists.EXPIRED
          : "watch error (HTTP " + code + " " + status.getReason() + ")");
      return new Watch.Response<>(type, status);
    }
    T decoded = decoder.decode(type, object);
    return decoded == null ? null : new Watch.Response<>(type, decoded);
  }

  @Override
  public Watch.Response<T> next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    Watch.Response<T> r = next;
    next = null;
    return r;
  }

  @Override
  public Iterator<Watch.Response<T>> iterator() {
    return this;
  }

  @Override
  public void close() {
    done = true;
    if (response != null) {
      response.close();
    }
  }
}
