package io.basalt.app;

import java.io.IOException;
import okhttp3.Interceptor;
import okhttp3.MediaType;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * The bind fence at the wire: every write the scheduler's API client sends (bindings, evictions, HAMi's node lock,
 * pod and PodGroup status, PodGroups, Kueue's Job patches) is checked against the {@link LeaseFence} just before it
 * goes out, not only once per batch as {@link FencedBinder} does. A pause between that check and a batch's calls
 * (a batch of 64 binds takes a while, a status pass longer) is thus covered up to the moment each request is sent.
 * A refused write never reaches the API server: it is answered here {@code 412 Precondition Failed}, which no caller
 * retries, and the pod stays pending for the leader. Reads, and events (informational, and a standby's own
 * {@code InvalidConfig} event among them), pass. The Lease itself is written through another client.
 *
 * <p>What is left: a pause after this check and before the request's bytes leave, microseconds wide; only the API
 * server could close it (it has no fencing tokens for Leases).
 */
final class FencedWrites implements Interceptor {
  private static final System.Logger LOG = System.getLogger(FencedWrites.class.getName());
  static final int REFUSED = 412;

  private final LeaseFence fence;

  FencedWrites(LeaseFence fence) {
    this.fence = fence;
  }

  @Override
  public Response intercept(Chain chain) throws IOException {
    Request request = chain.request();
    if (!writes(request) || fence.holds()) {
      return chain.proceed(request);
    }
    String message = "not sent: this replica does not hold the leader Lease by a recent renewal ("
        + request.method() + " " + request.url().encodedPath() + ")";
    LOG.log(System.Logger.Level.WARNING, message);
    String body = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
        + "\"message\":\"" + message.replace("\"", "'") + "\",\"reason\":\"Fenced\",\"code\":" + REFUSED + "}";
    return new Response.Builder().request(request).protocol(Protocol.HTTP_1_1).code(REFUSED)
        .message("Precondition Failed").body(ResponseBody.create(body, MediaType.get("application/json")))
        .build();
  }

  /** A request that changes the cluster, other than an event. */
  static boolean writes(Request request) {
    String method = request.method();
    if (method.equals("GET") || method.equals("HEAD") || method.equals("OPTIONS")) {
      return false;
    }
    String path = request.url().encodedPath();
    return !path.contains("/events");
  }
}
