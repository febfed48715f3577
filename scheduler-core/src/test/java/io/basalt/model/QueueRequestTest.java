package io.basalt.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Equal queue requests share one object, and so one string per queue name, whichever pod's strings they came in. */
class QueueRequestTest {
  @Test
  void equalRequestsAreOneSharedObject() {
    QueueRequest a = QueueRequest.of(Map.of(), Map.of(QueueRequest.VOLCANO_ANNOTATION, new String("team-7"))).shared();
    QueueRequest b = QueueRequest.of(Map.of(), Map.of(QueueRequest.VOLCANO_ANNOTATION, new String("team-7"))).shared();
    assertSame(a, b);
    assertSame(a.volcano(), b.volcano());
    assertEquals("team-7", b.resolve(q -> false, "default"));
    QueueRequest kueue = new QueueRequest(null, new String("local")).shared();
    assertSame(kueue, new QueueRequest(null, new String("local")).shared());
    assertEquals(new QueueRequest(null, "local"), kueue);
    assertSame(QueueRequest.NONE.shared(), new QueueRequest("", null).shared());
  }
}
