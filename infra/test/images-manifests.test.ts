// What infra/local/podman.mjs makes of the rendered dev overlay: the podman arguments of each pod, from the
// manifests alone (no podman needed; kubectl renders). The rehearsal from the images runs exactly these.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { indexObjects, probeOf, quantity, resolveEnv, runArgs, volumeFiles, type Mount } from "../local/podman.mjs";
import { podsOf, render } from "../local/images.mjs";

const root = path.resolve(import.meta.dirname, "../..");
const missing = spawnSync("kubectl", ["version", "--client"]).error ? "kubectl is not installed; .ci/run installs it" : undefined;
if (missing) console.warn(`infra/test/images-manifests.test.ts skipped: ${missing}`);

describe.skipIf(missing !== undefined)("the dev overlay as podman containers", () => {
  const objects = missing ? undefined! : indexObjects(render(path.join(root, "infra/k8s/overlays/dev")));
  const pods = missing ? [] : podsOf(objects);
  const pod = (name: string) => pods.find((p) => p.name === name)!;
  const podInfo = (name: string) => ({
    name,
    namespace: "bancada",
    ip: "10.88.7.20",
    hostIp: "10.88.7.1",
    network: "net",
    hosts: [["nats", "10.88.7.10"]] as [string, string][],
    labels: { "bancada.rehearsal": "t" },
    cores: 2,
    nodeName: "rehearsal-node",
  });
  const mounts: Record<string, Mount> = {
    tmp: { type: "tmpfs", size: 268435456 },
    data: { type: "bind", source: "/srv/data" },
    config: { type: "bind", source: "/srv/config", readOnly: true },
    run: { type: "tmpfs" },
    "nats-tls-ca": { type: "bind", source: "/srv/nats-tls-ca", readOnly: true },
    tls: { type: "bind", source: "/srv/nats-tls", readOnly: true },
  };
  const argsOf = (name: string) => {
    const spec = pod(name).spec;
    return runArgs(spec.containers[0], spec, { objects, pod: podInfo(name), mounts, image: "img", name: `t-${name}` });
  };
  const flag = (args: string[], name: string) => args.flatMap((arg, i) => (arg === name ? [args[i + 1]] : []));

  it("runs every workload's replicas, the gateway's HPA minimum at least, NATS's three servers", () => {
    const count = (workload: string) => pods.filter((p) => p.workload === workload).length;
    expect(count("nats")).toBe(3);
    expect(count("gateway")).toBeGreaterThanOrEqual(2);
    for (const workload of ["scripts", "boards", "docs"]) expect(count(workload), workload).toBe(2);
    expect(pod("nats-1").serviceName).toBe("nats-headless");
  });

  it("runs a service as its manifest says: uid 10001, read-only root, no capability, no privilege escalation, /tmp a tmpfs, its limits", () => {
    const { args, env } = argsOf("scripts-0");
    expect(flag(args, "--user")).toEqual(["10001:10001"]);
    expect(args).toContain("--read-only");
    expect(args).toContain("--read-only-tmpfs=false");
    expect(flag(args, "--cap-drop")).toEqual(["ALL"]);
    expect(flag(args, "--security-opt")).toEqual(["no-new-privileges"]);
    expect(args).not.toContain("--privileged");
    expect(flag(args, "--mount")).toEqual([
      "type=bind,source=/srv/nats-tls-ca,destination=/etc/bancada/nats-tls,ro=true",
      "type=tmpfs,destination=/tmp,tmpfs-mode=1777,tmpfs-size=268435456",
    ]);
    expect(flag(args, "--memory")).toEqual([String(512 * 1024 * 1024)]);
    expect(flag(args, "--cpus")).toEqual(["1"]);
    // every value comes through podman's environment: nothing secret on its command line
    expect(args.join(" ")).not.toContain(env.NATS_PASSWORD!);
    expect(flag(args, "--env")).toEqual(Object.keys(env));
  });

  it("resolves the environment from the Secrets, the ConfigMap and the pod", () => {
    const { env } = argsOf("scripts-1");
    expect(env.NATS_USER).toBe("scripts");
    expect(env.NATS_PASSWORD).toBe("dev-only-scripts-password");
    expect(env.BANCADA_BUS_VERIFY_KEY).toMatch(/^scripts:/);
    expect(env.DATABASE_URL).toMatch(/^postgres:\/\//);
    expect(env.NATS_URL).toContain("nats-0.nats-headless:4222");
    expect(env.SCRIPTS_PORT).toBe("8788");
    const boxes = pod("boxes-node-0");
    const boxesEnv = resolveEnv(boxes.spec.containers[0], { objects, pod: podInfo("boxes-node-0") });
    expect(boxesEnv.BOXES_ROLE).toBe("node");
    expect(boxesEnv.BOXES_NODE).toBe("rehearsal-node");
    expect(boxesEnv.BOXES_PORTS_HOST).toBe("10.88.7.1");
    expect(boxesEnv.BOXES_PUBLIC_URL).toBe("http://10.88.7.1:8792");
    expect(boxesEnv.BOXES_HOST_MEMORY_MIB).toBe(String(quantity(boxes.spec.containers[0].resources.limits.memory) / 1024 ** 2));
    expect(boxesEnv.BOXES_SECRETS_KEY).toBeTruthy();
  });

  it("runs the boxes node agent as root and privileged with seccomp unconfined, its hostPorts on the host's address in the pod network; the control plane as uid 10001", () => {
    const { args } = argsOf("boxes-node-0");
    expect(flag(args, "--user")).toEqual(["0:0"]);
    expect(args).toContain("--privileged");
    expect(flag(args, "--security-opt")).toEqual(["seccomp=unconfined"]);
    expect(flag(args, "-p")).toContain("10.88.7.1:2222:2222/tcp");
    expect(flag(args, "-p")).toContain("10.88.7.1:8792:8792/tcp");
    expect(flag(args, "--cpus")).toEqual(["2"]);
    const control = argsOf("boxes-1").args;
    expect(flag(control, "--user")).toEqual(["10001:10001"]);
    expect(control).not.toContain("--privileged");
    expect(flag(control, "-p")).toEqual([]);
  });

  it("runs NATS with its command, its config and the users' passwords from the Secret", () => {
    const { args, env } = argsOf("nats-2");
    expect(flag(args, "--entrypoint")).toEqual([JSON.stringify(["nats-server", "--config", "/etc/nats/nats.conf"])]);
    expect(flag(args, "--user")).toEqual(["1000:1000"]);
    expect(env.POD_NAME).toBe("nats-2");
    expect(env.BANCADA_NATS_BOARDS_PASSWORD).toBe("dev-only-boards-password");
    const config = pod("nats-2").spec.volumes.find((v: { name: string }) => v.name === "config");
    const files = volumeFiles(config, objects).map((f: { path: string }) => f.path);
    expect(files).toEqual(expect.arrayContaining(["nats.conf", "auth.conf"]));
    const readiness = probeOf(pod("nats-2").spec.containers[0].readinessProbe, pod("nats-2").spec.containers[0], "10.88.7.12");
    expect(readiness).toMatchObject({ kind: "http", url: "http://10.88.7.12:8222/healthz?js-server-only=true" });
  });

  it("refuses a container whose runAsNonRoot contradicts its user, as the kubelet does", () => {
    const spec = structuredClone(pod("docs-0").spec);
    spec.containers[0].securityContext = { ...spec.containers[0].securityContext, runAsUser: 0 };
    expect(() => runArgs(spec.containers[0], spec, { objects, pod: podInfo("docs-0"), mounts, image: "img", name: "x" })).toThrow(
      /runAsNonRoot/,
    );
  });
});
