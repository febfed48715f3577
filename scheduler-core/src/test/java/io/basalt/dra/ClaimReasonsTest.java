package io.basalt.dra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.basalt.model.Pod;
import io.basalt.model.PodResourceClaim;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A reason kept for a kind of pod names each pod's own claims, whichever pod it was worked out for. */
class ClaimReasonsTest {
  @Test
  void aReasonWorkedOutForOnePodNamesAnothersClaims() {
    Pod first = pod("train-0", "train-0-gpu-abcde", "train-0-nic-fghij");
    Pod second = pod("train-1", "train-1-gpu-klmno", "train-1-nic-pqrst");
    String said = "cannot allocate all claims (claim ml/train-0-nic-fghij: request nic: needs 1 devices, 0 of 2 "
        + "matching are free)";
    String kept = ClaimReasons.generic(first, said);
    assertNotEquals(said, kept, "the claim's name is not kept");
    assertEquals(kept, ClaimReasons.generic(second, ClaimReasons.specific(second, kept)), "both pods keep one text");
    assertEquals("cannot allocate all claims (claim ml/train-1-nic-pqrst: request nic: needs 1 devices, 0 of 2 "
        + "matching are free)", ClaimReasons.specific(second, kept));
    assertEquals(said, ClaimReasons.specific(first, kept));
    assertEquals("Insufficient cpu", ClaimReasons.specific(second, ClaimReasons.generic(first, "Insufficient cpu")));
  }

  @Test
  void unnamedDropsOnlyTheNamesOfClaimsMadeFromTemplates() {
    List<PodResourceClaim> refs = List.of(new PodResourceClaim("gpu", "p-gpu-abcde", "gpu-template"),
        new PodResourceClaim("shared", "shared-claim", null));
    assertEquals(List.of(new PodResourceClaim("gpu", null, "gpu-template"), refs.get(1)),
        ClaimReasons.unnamed(refs));
  }

  private static Pod pod(String name, String gpuClaim, String nicClaim) {
    Pod p = io.basalt.testing.TestPods.pod("ml/" + name).build();
    return p.withConstraints(p.constraints().withResourceClaims(List.of(new PodResourceClaim("gpu", gpuClaim, "gpu"),
        new PodResourceClaim("nic", nicClaim, "nic"))));
  }
}
