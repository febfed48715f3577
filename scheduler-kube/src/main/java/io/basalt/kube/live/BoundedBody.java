package io.basalt.kube.live;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/** A response body read as UTF-8 text of at most a given size; a larger one fails as soon as it passes the bound. */
final class BoundedBody implements HttpResponse.BodySubscriber<String> {
  private final int max;
  private final CompletableFuture<String> result = new CompletableFuture<>();
  private final java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
  private Flow.Subscription subscription;

  private BoundedBody(int max) {
    this.max = max;
  }

  static BoundedBody of(int max) {
    return new BoundedBody(max);
  }

  @Override
  public CompletionStage<String> getBody() {
    return result;
  }

  @Override
  public void onSubscribe(Flow.Subscription s) {
    subscription = s;
    s.request(Long.MAX_VALUE);
  }

  @Override
  public void onNext(List<ByteBuffer> items) {
    if (result.isDone()) {
      return;
    }
    for (ByteBuffer b : items) {
      if (bytes.size() + (long) b.remaining() > max) {
        subscription.cancel();
        result.completeExceptionally(new IOException("body larger than " + (max >> 20) + " MiB"));
        return;
      }
      byte[] chunk = new byte[b.remaining()];
      b.get(chunk);
      bytes.write(chunk, 0, chunk.length);
    }
  }

  @Override
  public void onError(Throwable t) {
    result.completeExceptionally(t);
  }

  @Override
  public void onComplete() {
    result.complete(bytes.toString(StandardCharsets.UTF_8));
  }
}
