package io.basalt.kube.provisioning;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.io.IOException;

/**
 * Creates a {@link NewRequest}'s PodTemplate, then its ProvisioningRequest, through the API. One that already exists
 * (409, as after a restart that forgot it was made) counts as made: its name says which attempt it is.
 */
public final class RequestCalls {
  private final DynamicKubernetesApi templates;
  private final DynamicKubernetesApi requests;

  private RequestCalls(ApiClient client) {
    this.templates = new DynamicKubernetesApi("", "v1", "podtemplates", client);
    this.requests = new DynamicKubernetesApi("autoscaling.x-k8s.io", "v1beta1", "provisioningrequests", client);
  }

  public static RequestCalls live(ApiClient client) {
    return new RequestCalls(client);
  }

  public void create(NewRequest r) throws IOException {
    created(templates.create(new DynamicKubernetesObject(r.podTemplateObject())), "PodTemplate "
        + r.namespace() + "/" + r.podTemplateName());
    created(requests.create(new DynamicKubernetesObject(r.requestObject())), "ProvisioningRequest " + r.key());
  }

  private static void created(KubernetesApiResponse<DynamicKubernetesObject> reply, String what)
      throws IOException {
    int code = reply.getHttpStatusCode();
    if (code / 100 != 2 && code != 409) {
      throw new IOException(what + ": HTTP " + code
          + (reply.getStatus() == null ? "" : ", " + reply.getStatus().getMessage()));
    }
  }
}
