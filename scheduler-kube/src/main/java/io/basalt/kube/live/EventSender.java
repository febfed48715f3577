package io.basalt.kube.live;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Sends events in the background, best effort, as client-go's broadcaster does: a few senders, a bounded queue, and
 * what does not fit when a burst outruns the API server (thousands of pods bound in a few seconds) is dropped and
 * counted rather than held in memory or allowed to slow the caller.
 */
final class EventSender implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(EventSender.class.getName());
  /** Events waiting for the API server beyond this are dropped. */
  static final int QUEUE = 1000;
  /** Events in flight at once: each is one round trip. */
  static final int SENDERS = 16;

  private final CoreV1Api api;
  private final AtomicLong dropped = new AtomicLong();
  private volatile long lastDropLog;
  private final ThreadPoolExecutor pool;

  EventSender(ApiClient client, int senders) {
    this.api = new CoreV1Api(client);
    this.pool = new ThreadPoolExecutor(senders, senders, 30, TimeUnit.SECONDS, new ArrayBlockingQueue<>(QUEUE),
        r -> {
          Thread t = new Thread(r, "basalt-events");
          t.setDaemon(true);
          return t;
        }, (task, executor) -> {
          if (!executor.isShutdown()) {
            drop();
          }
        });
  }

  /**
   * Queues an event of {@code type} (Normal or Warning) on {@code kind namespace/name}; never blocks. The last fifth
   * of the queue is kept for Warnings: in a burst of {@code Scheduled} events, a {@code FailedScheduling} still goes
   * out.
   */
  void send(String kind, String namespace, String name, String uid, String type, String reason, String message) {
    if (!"Warning".equals(type) && pool.getQueue().size() >= QUEUE - QUEUE / 5) {
      drop();
      return;
    }
    pool.execute(() -> EventRecorder.record(api, kind, namespace, name, uid, type, reason, message));
  }

  long dropped() {
    return dropped.get();
  }

  private void drop() {
    long n = dropped.incrementAndGet();
    long now = System.nanoTime();
    if (n == 1 || now - lastDropLog > TimeUnit.MINUTES.toNanos(1)) {
      lastDropLog = now;
      LOG.log(System.Logger.Level.WARNING, n + " event(s) dropped so far: more than " + QUEUE
          + " waiting for the API server");
    }
  }

  /** Gives queued events {@code seconds} to go out, then drops the rest. */
  void close(int seconds) throws InterruptedException {
    pool.shutdown();
    if (!pool.awaitTermination(seconds, TimeUnit.SECONDS)) {
      LOG.log(System.Logger.Level.INFO, pool.shutdownNow().size() + " event(s) not sent at shutdown");
    }
    if (dropped.get() > 0) {
      LOG.log(System.Logger.Level.INFO, dropped.get() + " event(s) dropped in all (queue full)");
    }
  }

  @Override
  public void close() throws InterruptedException {
    close(5);
  }
}
