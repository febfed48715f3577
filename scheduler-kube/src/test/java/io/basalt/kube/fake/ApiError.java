package io.basalt.kube.fake;

import com.google.gson.JsonObject;
import java.util.LinkedHashMap;
import java.util.Map;

/** A failed request: the HTTP code and the Status body a real API server would send (see {@link Statuses}). */
final class ApiError extends RuntimeException {
  private final int code;
  private final transient JsonObject status;
  private final Map<String, String> headers = new LinkedHashMap<>();

  ApiError(int code, JsonObject status) {
    super(status.has("message") ? status.get("message").getAsString() : "HTTP " + code, null, false, false);
    this.code = code;
    this.status = status;
  }

  int code() {
    return code;
  }

  JsonObject status() {
    return status;
  }

  ApiError header(String name, String value) {
    headers.put(name, value);
    return this;
  }

  Map<String, String> headers() {
    return headers;
  }
}
