package io.basalt.model;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class InlineDiskTest {
  @Test
  void aGcePdOrIscsiTargetIsSharedOnlyWhenBothMountItReadOnly() {
    for (String kind : List.of("gce", "iscsi")) {
      InlineDisk rw = new InlineDisk(kind, "d", null, false);
      InlineDisk ro = new InlineDisk(kind, "d", null, true);
      assertTrue(rw.conflictsWith(rw), kind);
      assertTrue(rw.conflictsWith(ro), kind);
      assertFalse(ro.conflictsWith(ro), kind);
      assertFalse(rw.conflictsWith(new InlineDisk(kind, "other", null, false)), kind);
    }
  }

  @Test
  void anEbsVolumeIsNeverShared() {
    assertTrue(new InlineDisk("aws", "vol", null, true).conflictsWith(new InlineDisk("aws", "vol", null, true)));
    assertFalse(new InlineDisk("aws", "vol", null, false).conflictsWith(new InlineDisk("gce", "vol", null, false)));
  }

  @Test
  void anRbdImageConflictsOnlyThroughOverlappingMonitors() {
    InlineDisk ab = new InlineDisk("rbd", "pool/img", List.of("a", "b"), false);
    assertTrue(ab.conflictsWith(new InlineDisk("rbd", "pool/img", List.of("b", "c"), false)));
    assertFalse(ab.conflictsWith(new InlineDisk("rbd", "pool/img", List.of("c", "d"), false)));
    assertFalse(new InlineDisk("rbd", "pool/img", List.of("a"), true)
        .conflictsWith(new InlineDisk("rbd", "pool/img", List.of("a"), true)));
  }
}
