package io.basalt.kube.live;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.stream.JsonReader;
import io.basalt.kube.kinds.KindAdapter;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ListerWatcher;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.Pair;
import io.kubernetes.client.openapi.models.V1ListMeta;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.CallGenerator;
import io.kubernetes.client.util.CallGeneratorParams;
import io.kubernetes.client.util.Watchable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.Reader;
import java.lang.System.Logger.Level;
import java.net.HttpURLConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import okhttp3.Call;
import okhttp3.HttpUrl;
import okhttp3.Response;

/**
 * One kind's list and watch calls for its informer, made and read here rather than by client-java's generated code,
 * for three reasons. A LIST is asked for in pages ({@code limit}/{@code continue}) and each page is read as a stream,
 * one object at a time, through {@link LeanObjects} (what the scheduler never reads is dropped before the object is
 * built), so no LIST is ever held whole as JSON. A watch reads its events leniently ({@link WatchStream}): a BOOKMARK
 * only moves the resourceVersion on, whatever its object's zero values, where client-java's validation rejects a real
 * server's pod bookmark and breaks the watch. And every full re-read is counted with its cause ({@link Relists}).
 *
 * <p>client-java's reflector drives it: it lists once, then watches from the list's resourceVersion, watches again
 * when a watch ends cleanly, and lists again after a watch fails. So a dropped connection ends a watch cleanly here
 * (the next watch resumes from the last resourceVersion seen; a server whose history is gone answers 410 and only
 * then is everything read again), and a 429 (the server's storage initialising, or its priority and fairness
 * limits) waits the Retry-After it names and asks again.
 */
final class ListWatch<T extends KubernetesObject> implements ListerWatcher<T, Listing<T>> {
  /** Objects per LIST page, as client-go's pager asks. */
  static final int DEFAULT_PAGE_SIZE = 500;
  /** The longest Retry-After honoured; a server asking for more is asked again sooner. */
  private static final Duration MAX_RETRY_AFTER = Duration.ofSeconds(30);

  private static final System.Logger LOG = System.getLogger(InformerSource.class.getName());

  private final ApiClient client;
  private final String name;
  private final String kind;
  private final boolean namespaced;
  private final Class<T> type;
  private final String path;
  private final Map<String, String> selectors;
  private final int pageSize;
  private final LeanObjects lean;
  private final Relists relists;
  private final InformerProblems problems;
  /** Why the next list is needed, if something said so since the last list that succeeded. */
  private volatile String relistCause;
  private volatile boolean listed;

  private ListWatch(ApiClient client, KindAdapter<T> adapter, String path, Map<String, String> selectors,
      int pageSize, LeanObjects lean, Relists relists, InformerProblems problems) {
    this.client = client;
    this.name = adapter.informerName();
    this.kind = adapter.kind();
    this.namespaced = adapter.namespaced();
    this.type = adapter.type();
    this.path = path;
    this.selectors = selectors;
    this.pageSize = pageSize;
    this.lean = lean;
    this.relists = relists;
    this.problems = problems;
  }

  /**
   * The list/watch of {@code kind}: its path and selectors are those of the adapter's typed call (e.g. pods'
   * non-terminal field selector), else the collection of its group, version and plural across all namespaces.
   */
  static <T extends KubernetesObject> ListWatch<T> of(ApiClient client, KindAdapter<T> kind, int pageSize,
      LeanObjects lean, Relists relists, InformerProblems problems) {
    String path;
    Map<String, String> selectors = new HashMap<>();
    CallGenerator typed = kind.listWatch(client);
    if (typed != null) {
      try {
        HttpUrl url = typed.generate(new CallGeneratorParams(false, null, null)).request().url();
        HttpUrl base = HttpUrl.get(client.getBasePath());
        path = url.encodedPath().substring(base.encodedPath().replaceAll("/$", "").length());
        for (String s : List.of("fieldSelector", "labelSelector")) {
          if (url.queryParameter(s) != null) {
            selectors.put(s, url.queryParameter(s));
          }
        }
      } catch (ApiException e) {
        throw new IllegalStateException("cannot build the list call of " + kind, e);
      }
    } else {
      path = (kind.group().isEmpty() ? "/api/" : "/apis/" + kind.group() + "/") + kind.version() + "/"
          + kind.plural();
    }
    return new ListWatch<>(client, kind, path, Map.copyOf(selectors), pageSize, lean, relists, problems);
  }

  @Override
  public Listing<T> list(CallGeneratorParams params) throws ApiException {
    try {
      Listing<T> all = listPages(params.resourceVersion);
      String cause = relistCause;
      if (listed) {
        relists.relisted(name, cause == null ? "unknown" : cause, all.getItems().size());
      }
      listed = true;
      relistCause = null;
      return all;
    } catch (ApiException e) {
      if (listed && relistCause == null) {
        relistCause = e.getCode() == HttpURLConnection.HTTP_GONE ? Relists.EXPIRED : "list failed (HTTP "
            + e.getCode() + ")";
      }
      throw e;
    }
  }

  private Listing<T> listPages(String resourceVersion) throws ApiException {
    List<T> items = new ArrayList<>();
    String continueToken = null;
    V1ListMeta last = null;
    boolean restarted = false;
    while (true) {
      Map<String, String> query = new HashMap<>(selectors);
      if (pageSize > 0) {
        query.put("limit", Integer.toString(pageSize));
      }
      if (continueToken != null) {
        query.put("continue", continueToken);
      } else if (resourceVersion != null) {
        query.put("resourceVersion", resourceVersion);
      }
      try {
        last = page(query, items);
      } catch (ApiException e) {
        if (e.getCode() != HttpURLConnection.HTTP_GONE || continueToken == null || restarted) {
          throw e;
        }
        // The continue token outlived the server's history: start over with a fresh consistent list, once.
        LOG.log(Level.WARNING, "Listing " + name + ": continue token expired after " + items.size()
            + " objects; listing again from the start");
        items.clear();
        restarted = true;
        resourceVersion = "";
        continueToken = null;
        continue;
      }
      continueToken = last.getContinue() == null || last.getContinue().isEmpty() ? null : last.getContinue();
      if (continueToken == null) {
        break;
      }
    }
    return new Listing<>(new V1ListMeta().resourceVersion(last.getResourceVersion()), items);
  }

  /**
   * One page, read as a stream: its items into {@code into}, its list metadata returned. Each item is built straight
   * from the wire, lean ({@link LeanObjects#reader}); a page holding an object that does not read that way is asked
   * for again and read one JSON tree per item, so that object alone is skipped and named, as a watch event would be.
   */
  private V1ListMeta page(Map<String, String> query, List<T> into) throws ApiException {
    boolean streamed = true;
    while (true) {
      int mark = into.size();
      try (Response response = execute(query)) {
        if (response.code() == 429) {
          waitRetryAfter(response);
          continue;
        }
        if (!response.isSuccessful()) {
          throw failure(response);
        }
        if (streamed) {
          Gson reader = lean.reader(type);
          return readItems(response.body().charStream(), in -> reader.<T>fromJson(in, type), into);
        }
        return readList(response.body().charStream(), this::decode, into);
      } catch (InterruptedIOException e) {
        Thread.currentThread().interrupt();
        throw new ApiException(e);
      } catch (RuntimeException e) {
        if (!streamed) {
          throw new ApiException("listing " + name + " failed: " + e, e, 0, null);
        }
        LOG.log(Level.DEBUG, "Listing {0}: a page did not read as a stream ({1}); reading it again object by object",
            name, e);
        into.subList(mark, into.size()).clear();
        streamed = false;
      } catch (IOException e) {
        throw new ApiException("listing " + name + " failed: " + e, e, 0, null);
      }
    }
  }

  /** Reads one item of a list; may return null to leave it out. */
  @FunctionalInterface
  interface ItemReader<T> {
    T read(JsonReader in) throws IOException;
  }

  /**
   * Reads a {@code KindList} from {@code reader} one item at a time: each item's JSON tree is handed to
   * {@code decode} and dropped, so only the decoded objects stay. Returns the list's metadata.
   */
  static <T> V1ListMeta readList(Reader reader, Function<JsonObject, T> decode, List<T> into) throws IOException {
    return readItems(reader, in -> decode.apply(JsonParser.parseReader(in).getAsJsonObject()), into);
  }

  /** Reads a {@code KindList} from {@code reader}, each item by {@code item}. Returns the list's metadata. */
  static <T> V1ListMeta readItems(Reader reader, ItemReader<T> item, List<T> into) throws IOException {
    V1ListMeta meta = new V1ListMeta();
    try (JsonReader in = new JsonReader(reader)) {
      in.beginObject();
      while (in.hasNext()) {
        switch (in.nextName()) {
          case "metadata" -> meta = JSON.getGson().fromJson(in, V1ListMeta.class);
          case "items" -> {
            in.beginArray();
            while (in.hasNext()) {
              T read = item.read(in);
              if (read != null) {
                into.add(read);
              }
            }
            in.endArray();
          }
          default -> in.skipValue();
        }
      }
      in.endObject();
    }
    return meta;
  }

  /**
   * {@code object} made lean and built as a {@code type}; throws when it does not read as one. Built by Gson's plain
   * field binding ({@link #OBJECTS}): client-java's own adapters validate every nested object by re-reading it as a
   * tree first, which makes a pod cost several passes over its JSON; an object that this does not read is given to
   * them, for their message.
   */
  static <T> T decode(JsonObject object, Class<T> type, LeanObjects lean) {
    lean.strip(type, object);
    try {
      return OBJECTS.fromJson(object, type);
    } catch (RuntimeException e) {
      return JSON.getGson().fromJson(object, type);
    }
  }

  /** Field binding shared by every informer: {@link ObjectBinding#OBJECTS}. */
  static final Gson OBJECTS = ObjectBinding.OBJECTS;


  @Override
  public Watchable<T> watch(CallGeneratorParams params) throws ApiException {
    Map<String, String> query = new HashMap<>(selectors);
    query.put("watch", "true");
    query.put("allowWatchBookmarks", "true");
    if (params.resourceVersion != null) {
      query.put("resourceVersion", params.resourceVersion);
    }
    if (params.timeoutSeconds != null) {
      query.put("timeoutSeconds", params.timeoutSeconds.toString());
    }
    Response response;
    try {
      response = execute(query);
    } catch (IOException e) {
      if (!(e instanceof java.net.ConnectException)) { // the reflector retries a refused connection's watch itself
        relistCause = "watch failed (" + e.getClass().getSimpleName() + ")";
      }
      throw new ApiException(e);
    }
    if (response.code() == 429) {
      try (response) {
        waitRetryAfter(response);
      }
      return WatchStream.ended(); // the reflector watches again from the same resourceVersion
    }
    if (!response.isSuccessful()) {
      try (response) {
        ApiException e = failure(response);
        relistCause = e.getCode() == HttpURLConnection.HTTP_GONE ? Relists.EXPIRED
            : "watch refused (HTTP " + e.getCode() + ")";
        throw e;
      }
    }
    return new WatchStream<>(name, response, this::decodeEvent, cause -> relistCause = cause);
  }

  private Response execute(Map<String, String> query) throws IOException, ApiException {
    List<Pair> params = new ArrayList<>();
    query.forEach((k, v) -> params.add(new Pair(k, v)));
    Map<String, String> headers = new HashMap<>();
    headers.put("Accept", "application/json");
    Call call = client.buildCall(client.getBasePath(), path, "GET", params, new ArrayList<>(), null, headers,
        new HashMap<>(), new HashMap<>(), new String[] {"BearerToken"}, null);
    return call.execute();
  }

  /** A watch event's object: a bookmark keeps only what says where the watch is; others go through the decoder. */
  private T decodeEvent(String eventType, JsonObject object) {
    if ("BOOKMARK".equals(eventType)) {
      return bookmark(object);
    }
    return decode(object);
  }

  /**
   * An empty object of the watched type carrying the bookmark's metadata: built, not decoded, since a bookmark's
   * object lacks what the type requires (a PriorityClass's value) or holds zero values it rejects (a pod's null
   * containers).
   */
  private T bookmark(JsonObject object) {
    try {
      T bare = type.getDeclaredConstructor().newInstance();
      V1ObjectMeta meta = object.get("metadata") instanceof JsonObject m
          ? JSON.getGson().fromJson(m, V1ObjectMeta.class) : new V1ObjectMeta();
      type.getMethod("setMetadata", V1ObjectMeta.class).invoke(bare, meta);
      return bare;
    } catch (ReflectiveOperationException | RuntimeException e) {
      LOG.log(Level.DEBUG, "Watch of {0}: unreadable bookmark skipped: {1}", name, e);
      return null;
    }
  }

  /** The object, lean; null (and the problem noted) when it does not read as its type. */
  private T decode(JsonObject object) {
    try {
      return decode(object, type, lean);
    } catch (RuntimeException e) {
      String key = LeanObjects.key(object, namespaced);
      problems.skipped(kind, key, kind + " " + key + " does not decode: " + e.getMessage(), null);
      return null;
    }
  }

  private void waitRetryAfter(Response response) throws ApiException {
    long seconds = 1;
    String header = response.header("Retry-After");
    if (header != null) {
      try {
        seconds = Math.max(1, Long.parseLong(header.trim()));
      } catch (NumberFormatException e) {
        seconds = 1;
      }
    }
    Duration wait = Duration.ofSeconds(seconds).compareTo(MAX_RETRY_AFTER) > 0 ? MAX_RETRY_AFTER
        : Duration.ofSeconds(seconds);
    LOG.log(Level.INFO, "{0}: the API server asks to retry in {1} s (429)", name, wait.toSeconds());
    try {
      Thread.sleep(wait.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ApiException(e);
    }
  }

  private static ApiException failure(Response response) {
    String body;
    try {
      body = response.body() == null ? "" : response.body().string();
    } catch (IOException e) {
      body = "";
    }
    return new ApiException(response.message(), response.code(), response.headers().toMultimap(), body);
  }
}
