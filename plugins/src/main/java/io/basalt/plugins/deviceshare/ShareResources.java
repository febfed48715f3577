package io.basalt.plugins.deviceshare;

import io.basalt.api.TaskInfo;
import io.basalt.config.Arguments;
import io.basalt.gpu.GpuResources;
import io.basalt.gpu.ShareSize;
import io.basalt.model.ResourceVector;
import java.util.List;

/**
 * The resource names a share is asked for with, from the plugin's arguments: MetaX sGPU ({@code sgpu} count,
 * {@code vcore} percent, {@code vmemory} GiB) and HAMi on NVIDIA ({@code gpu} count, {@code gpucores} percent,
 * {@code gpumem} MiB or {@code gpumem-percentage}). Kept in one place so the request a pod makes is read the same way everywhere.
 */
record ShareResources(String gpu, String sgpu, String vcore, String vmemoryGiB, String gpucores, String gpumemMiB,
    String gpumemPercent) {
  static final String GPU = "deviceshare.gpu";
  static final String SGPU = "deviceshare.sgpu";
  static final String VCORE = "deviceshare.vcore";
  static final String VMEMORY = "deviceshare.vmemory";
  static final String GPUCORES = "deviceshare.gpucores";
  static final String GPUMEM = "deviceshare.gpumem";
  static final String GPUMEM_PERCENT = "deviceshare.gpumem-percentage";

  static ShareResources from(Arguments args) {
    return new ShareResources(name(args, GPU, GpuResources.DEFAULT.get(0)), name(args, SGPU, GpuResources.METAX_SGPU),
        name(args, VCORE, GpuResources.METAX_VCORE), name(args, VMEMORY, GpuResources.METAX_VMEMORY_GIB),
        name(args, GPUCORES, GpuResources.NVIDIA_CORES), name(args, GPUMEM, GpuResources.NVIDIA_MEMORY_MIB),
        name(args, GPUMEM_PERCENT, GpuResources.NVIDIA_MEMORY_PERCENT));
  }

  private static String name(Arguments args, String key, String defaultName) {
    String v = args.getString(key, defaultName).trim();
    if (v.isEmpty()) {
      args.problem(key, "must name a resource, got ''");
      return defaultName;
    }
    return v;
  }

  /** Accounted per device by the plugin, so the engine's node-level fit must not ask nodes for them. */
  List<String> perDevice() {
    return List.of(vcore, vmemoryGiB, gpucores, gpumemMiB, gpumemPercent);
  }

  /**
   * The share {@code task} asks for, or null when it asks for none (no share resource requested). Sized as its device
   * plugin counts it ({@link ShareSize}): a MetaX share without {@code vcore} takes the whole compute, and memory
   * left out (0 here) is the whole memory of the device it gets.
   */
  ShareRequest requestOf(TaskInfo task) {
    ResourceVector r = task.request();
    long count = r.get(sgpu);
    long vc = r.get(vcore);
    long vm = r.get(vmemoryGiB);
    long gc = r.get(gpucores);
    long gm = r.get(gpumemMiB);
    long gp = r.get(gpumemPercent);
    boolean metax = count > 0 || vc > 0 || vm > 0;
    boolean hami = gc > 0 || gm > 0 || gp > 0;
    if (!metax && !hami) {
      return null;
    }
    String problem = null;
    String countName = metax ? sgpu : gpu;
    long cores = ShareSize.cores(metax, metax ? vc : gc);
    long memory = metax ? (vm > Long.MAX_VALUE / 1024 ? Long.MAX_VALUE : vm * 1024) : ShareSize.asked(gm, gp);
    if (metax && hami) {
      problem = "GPU share pod mixes MetaX (" + sgpu + ", " + vcore + ", " + vmemoryGiB + ") and NVIDIA ("
          + gpucores + ", " + gpumemMiB + ") share resources";
    } else if (metax && count > 1) {
      problem = "GPU share pod requests " + count + " " + sgpu + "; a share is of one GPU, so it must be 1";
    } else if (hami && r.get(gpu) > 1) {
      problem = "GPU share pod requests " + r.get(gpu) + " " + gpu + " with " + gpucores + "/" + gpumemMiB
          + "; a share is of one GPU, so it must be 1";
    } else if (cores > 100) {
      problem = "GPU share pod requests " + cores + "% compute (" + (metax ? vcore : gpucores)
          + "); one GPU has 100";
    }
    return new ShareRequest(countName, domain(countName), (int) Math.min(cores, 101), memory, problem);
  }

  /** "metax-tech.com" of "metax-tech.com/sgpu": where the pod's use-/nouse- annotations live. */
  private static String domain(String resource) {
    int slash = resource.indexOf('/');
    return slash < 0 ? resource : resource.substring(0, slash);
  }
}
