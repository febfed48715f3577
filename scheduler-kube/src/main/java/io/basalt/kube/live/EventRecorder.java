package io.basalt.kube.live;

import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1EventSource;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/** Records core/v1 Events from basalt-scheduler, best effort: a failure is logged, never thrown. */
final class EventRecorder {
  private static final System.Logger LOG = System.getLogger(EventRecorder.class.getName());
  static final String COMPONENT = "basalt-scheduler";

  private EventRecorder() {}

  /** An event of {@code type} (Normal or Warning) on the object {@code kind namespace/name}. */
  static void record(CoreV1Api api, String kind, String namespace, String name, String uid, String type,
      String reason, String message) {
    OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC).withNano(0);
    CoreV1Event event = new CoreV1Event()
        .metadata(new V1ObjectMeta().name(name + "." + Long.toHexString(System.nanoTime())).namespace(namespace))
        .involvedObject(new V1ObjectReference().apiVersion("v1").kind(kind).name(name).namespace(namespace).uid(uid))
        .reason(reason).type(type).count(1)
        .message(message.length() > 1000 ? message.substring(0, 1000) + "..." : message)
        .firstTimestamp(now).lastTimestamp(now)
        .source(new V1EventSource().component(COMPONENT)).reportingComponent(COMPONENT);
    try {
      api.createNamespacedEvent(namespace, event).execute();
    } catch (ApiException e) {
      LOG.log(System.Logger.Level.WARNING, kind + " " + namespace + "/" + name + ": event " + reason
          + " not recorded: HTTP " + e.getCode());
    }
  }
}
