package io.basalt.kube.fake;

import com.google.gson.JsonElement;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One request as the fake API server received it, for contract tests that assert on exactly what a client sent.
 *
 * @param method      HTTP method
 * @param path        decoded path, e.g. {@code /api/v1/namespaces/ml/pods/p1/binding}
 * @param query       raw query string, or "" when there is none
 * @param contentType the Content-Type header, or "" when absent
 * @param body        the request body as UTF-8 text, "" when empty
 * @param headers     request headers by lower-case name (first value), e.g. {@code user-agent}, {@code accept}
 * @param receivedAt  arrival time
 */
public record RecordedRequest(String method, String path, String query, String contentType, String body,
    Map<String, String> headers, Instant receivedAt) {

  /** A header by name, case-insensitive; null when absent. */
  public String header(String name) {
    return headers.get(name.toLowerCase(Locale.ROOT));
  }

  /** Query parameters, decoded; the first value wins when a name repeats. */
  public Map<String, String> queryParams() {
    return parseQuery(query);
  }

  public String queryParam(String name) {
    return queryParams().get(name);
  }

  /** True for {@code ?watch=true} (or {@code watch=1}) requests. */
  public boolean isWatch() {
    String w = queryParam("watch");
    return "true".equals(w) || "1".equals(w);
  }

  /** The body parsed as JSON; a 400-style exception if it is not JSON. */
  public JsonElement json() {
    return Json.parse(body);
  }

  static Map<String, String> parseQuery(String query) {
    Map<String, String> out = new LinkedHashMap<>();
    if (query == null || query.isEmpty()) {
      return out;
    }
    for (String pair : query.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
      String v = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      out.putIfAbsent(k, v);
    }
    return out;
  }

  @Override
  public String toString() {
    return method + " " + path + (query.isEmpty() ? "" : "?" + query)
        + (contentType.isEmpty() ? "" : " [" + contentType + "]") + (body.isEmpty() ? "" : " " + body);
  }
}
