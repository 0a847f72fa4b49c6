// Renders every overlay with `kubectl kustomize` and checks each object: against the Kubernetes OpenAPI schemas
// (kubernetes-models' validators: types, required fields, enums, formats; unknown fields are not caught), the
// CloudNativePG Cluster and the cert-manager Certificate structurally (no CRD schema ships in a package), and the
// rules of infra/README.md.
import { spawnSync } from "node:child_process";
import { createHmac } from "node:crypto";
import { readdirSync } from "node:fs";
import path from "node:path";
import { parseAllDocuments } from "yaml";
import { describe, expect, it } from "vitest";
import { indent, renderClientTls, renderRouteTls } from "../nats/tls.mjs";

const root = path.resolve(import.meta.dirname, "../..");
/** Where the nats pods mount the Secret bancada-nats-tls (infra/k8s/base/nats/nats.yaml). */
const k8sNatsTls = { caFile: "/etc/nats-tls/ca.crt", certFile: "/etc/nats-tls/tls.crt", keyFile: "/etc/nats-tls/tls.key" };
const overlaysDir = path.join(root, "infra/k8s/overlays");
const overlays = readdirSync(overlaysDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** Why the render tests cannot run here, or undefined when kubectl (with its kustomize) is installed. */
function kubectlMissing(): string | undefined {
  const probe = spawnSync("kubectl", ["version", "--client"], { encoding: "utf8" });
  if (probe.error) return `kubectl is not installed (${probe.error.message}); .ci/run installs it`;
  if (probe.status !== 0) return `kubectl version --client failed: ${probe.stderr.trim()}`;
  // the overlays use kustomize 4+ fields (labels, patches with targets); an older kubectl cannot render them
  const kustomize = /Kustomize Version: v(\d+)/.exec(probe.stdout)?.[1];
  return kustomize && Number(kustomize) < 4 ? `kubectl's kustomize is v${kustomize}; the overlays need v4 or later` : undefined;
}
const missing = kubectlMissing();
if (missing) console.warn(`infra/test/k8s.test.ts skipped: ${missing}`);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Manifest = Record<string, any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Container = Record<string, any>;

function render(overlay: string): Manifest[] {
  const result = spawnSync("kubectl", ["kustomize", path.join(overlaysDir, overlay)], { encoding: "utf8", maxBuffer: 64 << 20 });
  if (result.status !== 0) throw new Error(`kubectl kustomize ${overlay} failed:\n${result.stderr}`);
  const objects = parseAllDocuments(result.stdout)
    .map((document) => document.toJS() as Manifest)
    .filter(Boolean);
  // kustomize folds long base64 values over lines; the API server's decoder skips the line breaks, so does this
  for (const object of objects)
    if (object.kind === "Secret" && object.data)
      for (const key of Object.keys(object.data)) object.data[key] = String(object.data[key]).replace(/\s+/g, "");
  return objects;
}

/** The kubernetes-models class of an object (`apps/v1` + `Deployment` → kubernetes-models/apps/v1/Deployment). */
async function modelOf(apiVersion: string, kind: string): Promise<(new (data: Manifest) => { validate(): void }) | undefined> {
  const specifier = `kubernetes-models/${apiVersion}/${kind}`;
  const module = (await import(/* @vite-ignore */ specifier).catch(() => undefined)) as Record<string, unknown> | undefined;
  return module?.[kind] as (new (data: Manifest) => { validate(): void }) | undefined;
}

/** What the CNPG operator would refuse outright: the fields this repository sets, with their types. */
function checkCnpgCluster(cluster: Manifest): string[] {
  const problems: string[] = [];
  const spec = cluster.spec ?? {};
  if (!cluster.metadata?.name) problems.push("metadata.name missing");
  if (!Number.isInteger(spec.instances) || spec.instances < 1) problems.push("spec.instances must be an integer ≥ 1");
  if (typeof spec.storage?.size !== "string" || !/^\d+(Ki|Mi|Gi|Ti)$/.test(spec.storage.size))
    problems.push("spec.storage.size must be a quantity");
  if (spec.imageName !== undefined && typeof spec.imageName !== "string") problems.push("spec.imageName must be a string");
  const initdb = spec.bootstrap?.initdb;
  if (!initdb || typeof initdb.database !== "string" || typeof initdb.owner !== "string")
    problems.push("spec.bootstrap.initdb needs database and owner");
  if (initdb?.postInitApplicationSQL && !initdb.postInitApplicationSQL.every((line: unknown) => typeof line === "string"))
    problems.push("postInitApplicationSQL must be strings");
  const known = [
    "instances",
    "imageName",
    "primaryUpdateStrategy",
    "storage",
    "resources",
    "bootstrap",
    "postgresql",
    "monitoring",
    "backup",
    "affinity",
  ];
  for (const field of Object.keys(spec)) if (!known.includes(field)) problems.push(`spec.${field} is not a field this test knows`);
  return problems;
}

/** What cert-manager would refuse in a Certificate (cert-manager.io/v1): the fields this repository sets, with their types. */
function checkCertificate(certificate: Manifest): string[] {
  const problems: string[] = [];
  const spec = certificate.spec ?? {};
  const known = [
    "secretName",
    "issuerRef",
    "commonName",
    "duration",
    "renewBefore",
    "privateKey",
    "usages",
    "dnsNames",
    "ipAddresses",
    "isCA",
  ];
  for (const field of Object.keys(spec)) if (!known.includes(field)) problems.push(`spec.${field} is not a field this test knows`);
  if (!certificate.metadata?.name) problems.push("metadata.name missing");
  if (typeof spec.secretName !== "string" || !/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(spec.secretName))
    problems.push("spec.secretName must be a Secret name");
  const issuer = spec.issuerRef ?? {};
  if (typeof issuer.name !== "string" || !issuer.name) problems.push("spec.issuerRef.name is required");
  if (issuer.kind !== undefined && !["Issuer", "ClusterIssuer"].includes(issuer.kind))
    problems.push("spec.issuerRef.kind must be Issuer or ClusterIssuer");
  if (issuer.group !== undefined && typeof issuer.group !== "string") problems.push("spec.issuerRef.group must be a string");
  for (const field of ["duration", "renewBefore"])
    if (spec[field] !== undefined && !/^(\d+h)?(\d+m)?(\d+s)?$/.test(String(spec[field])))
      problems.push(`spec.${field} must be a Go duration`);
  const key = spec.privateKey ?? {};
  if (key.algorithm !== undefined && !["RSA", "ECDSA", "Ed25519"].includes(key.algorithm))
    problems.push("spec.privateKey.algorithm is unknown");
  if (key.rotationPolicy !== undefined && !["Never", "Always"].includes(key.rotationPolicy))
    problems.push("spec.privateKey.rotationPolicy is unknown");
  if (key.size !== undefined && !Number.isInteger(key.size)) problems.push("spec.privateKey.size must be an integer");
  const usages = [
    "signing",
    "digital signature",
    "content commitment",
    "key encipherment",
    "key agreement",
    "data encipherment",
    "cert sign",
    "crl sign",
    "encipher only",
    "decipher only",
    "any",
    "server auth",
    "client auth",
    "code signing",
    "email protection",
    "s/mime",
    "ipsec end system",
    "ipsec tunnel",
    "ipsec user",
    "timestamping",
    "ocsp signing",
    "microsoft sgc",
    "netscape sgc",
  ];
  for (const usage of spec.usages ?? []) if (!usages.includes(usage)) problems.push(`spec.usages: unknown ${usage}`);
  if (!Array.isArray(spec.dnsNames) || spec.dnsNames.length === 0 || !spec.dnsNames.every((name: unknown) => typeof name === "string"))
    problems.push("spec.dnsNames must be a list of names");
  return problems;
}

const workloadKinds = new Set(["Deployment", "StatefulSet", "DaemonSet", "Job", "CronJob"]);
const workloads = (objects: Manifest[]) => objects.filter((object) => workloadKinds.has(object.kind));
const named = (objects: Manifest[], kind: string, name: string) =>
  objects.find((object) => object.kind === kind && object.metadata?.name === name);
const containersOf = (workload: Manifest): Container[] => [
  ...(workload.spec.template.spec.initContainers ?? []),
  ...workload.spec.template.spec.containers,
];

describe.skipIf(missing !== undefined)("infra/k8s overlays (kubectl kustomize)", () => {
  it("has a dev and a prod overlay", () => {
    expect(overlays).toEqual(expect.arrayContaining(["dev", "prod"]));
  });

  describe.each(overlays)("overlay %s", (overlay) => {
    const objects = missing ? [] : render(overlay);

    it("renders objects that all pass their Kubernetes schema (CNPG Cluster structurally)", async () => {
      expect(objects.length).toBeGreaterThan(20);
      const failures: string[] = [];
      for (const object of objects) {
        const id = `${object.kind}/${object.metadata?.name}`;
        if (object.apiVersion === "postgresql.cnpg.io/v1" && object.kind === "Cluster") {
          failures.push(...checkCnpgCluster(object).map((problem) => `${id}: ${problem}`));
          continue;
        }
        if (object.apiVersion === "cert-manager.io/v1" && object.kind === "Certificate") {
          failures.push(...checkCertificate(object).map((problem) => `${id}: ${problem}`));
          continue;
        }
        const Model = await modelOf(object.apiVersion, object.kind);
        if (!Model) {
          failures.push(`${id}: no schema for ${object.apiVersion}`);
          continue;
        }
        try {
          new Model(object).validate();
        } catch (error) {
          failures.push(`${id}: ${(error as Error).message}`);
        }
      }
      expect(failures).toEqual([]);
    });

    it("names a namespace for every namespaced object, the same one", () => {
      const namespaces = new Set(objects.filter((object) => object.kind !== "Namespace").map((object) => object.metadata.namespace));
      expect([...namespaces]).toEqual(["bancada"]);
    });

    it("gives every container resource requests and limits", () => {
      for (const workload of workloads(objects))
        for (const container of containersOf(workload)) {
          const where = `${workload.metadata.name}/${container.name}`;
          expect(container.resources?.requests?.cpu, where).toBeDefined();
          expect(container.resources?.requests?.memory, where).toBeDefined();
          expect(container.resources?.limits?.memory, where).toBeDefined();
        }
    });

    it("runs every pod but the boxes node agent as non-root, with no privilege escalation and a read-only root", () => {
      for (const workload of workloads(objects)) {
        if (workload.metadata.name === "boxes-node") continue;
        const pod = workload.spec.template.spec;
        expect(pod.securityContext?.runAsNonRoot, workload.metadata.name).toBe(true);
        expect(pod.securityContext?.runAsUser, workload.metadata.name).toBeGreaterThan(0);
        expect(pod.automountServiceAccountToken, workload.metadata.name).toBe(false);
        for (const container of containersOf(workload)) {
          const where = `${workload.metadata.name}/${container.name}`;
          expect(container.securityContext?.privileged ?? false, where).toBe(false);
          expect(container.securityContext?.allowPrivilegeEscalation, where).toBe(false);
          expect(container.securityContext?.readOnlyRootFilesystem, where).toBe(true);
          expect(container.securityContext?.capabilities?.drop, where).toEqual(["ALL"]);
        }
      }
    });

    it("makes the boxes node agent, and only it, privileged: a DaemonSet keeping its boxes on the machine; the control plane an ordinary non-root Deployment with 2 replicas", () => {
      const privileged = workloads(objects).filter((workload) =>
        containersOf(workload).some((container) => container.securityContext?.privileged === true),
      );
      expect(privileged.map((workload) => `${workload.kind}/${workload.metadata.name}`)).toEqual(["DaemonSet/boxes-node"]);
      const node = privileged[0]!;
      const data = node.spec.template.spec.volumes.find((volume: Manifest) => volume.name === "data");
      expect(data.hostPath).toEqual({ path: "/var/lib/bancada/boxes", type: "DirectoryOrCreate" });
      expect(node.spec.template.spec.hostPID ?? false).toBe(false);
      expect(node.spec.template.spec.hostNetwork ?? false).toBe(false);
      const role = (workload: Manifest) =>
        workload.spec.template.spec.containers[0].env.find((variable: Manifest) => variable.name === "BOXES_ROLE")?.value;
      expect(role(node)).toBe("node");
      const control = named(objects, "Deployment", "boxes")!;
      expect(role(control)).toBe("control");
      expect(control.spec.replicas).toBe(2);
      expect(control.spec.template.spec.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 10001 });
      expect(control.spec.template.spec.containers[0].securityContext).toMatchObject({
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ["ALL"] },
      });
      expect(control.spec.template.spec.containers[0].ports.some((port: Manifest) => port.hostPort)).toBe(false);
    });

    it("names each node agent's node after its Kubernetes node, and opens SSH, its transfer URLs and every port of BOXES_PORT_RANGE as hostPorts", () => {
      const boxes = named(objects, "DaemonSet", "boxes-node")!;
      const container = boxes.spec.template.spec.containers[0];
      const env = (name: string) => container.env.find((variable: Manifest) => variable.name === name);
      expect(env("BOXES_NODE")?.valueFrom).toEqual({ fieldRef: { fieldPath: "spec.nodeName" } });
      expect(env("BOXES_PORTS_HOST")?.valueFrom).toEqual({ fieldRef: { fieldPath: "status.hostIP" } });
      expect(env("BOXES_PUBLIC_URL")?.value).toBe("http://$(BOXES_PORTS_HOST):8792");
      const [first, last] = String(env("BOXES_PORT_RANGE")?.value).split("-").map(Number) as [number, number];
      const ports = container.ports as Manifest[];
      const ssh = ports.find((port) => port.name === "ssh")!;
      expect(ssh).toEqual({
        name: "ssh",
        containerPort: Number(env("BOXES_SSH_PORT")?.value),
        hostPort: Number(env("BOXES_SSH_PORT")?.value),
      });
      expect(ports.find((port) => port.name === "http")).toEqual({ name: "http", containerPort: 8792, hostPort: 8792 });
      const published = ports.filter((port) => port.name.startsWith("box-"));
      expect(published.map((port) => [port.containerPort, port.hostPort])).toEqual(
        Array.from({ length: last - first + 1 }, (_, index) => [first + index, first + index]),
      );
      const open = named(objects, "NetworkPolicy", "boxes-ssh-and-ports")!;
      expect(open.spec.podSelector.matchLabels).toEqual({ "app.kubernetes.io/name": "boxes-node" });
      expect(open.spec.ingress[0].ports).toEqual([
        { protocol: "TCP", port: ssh.containerPort },
        { protocol: "TCP", port: 8792 },
        { protocol: "TCP", port: first, endPort: last },
      ]);
    });

    it("scales the gateway to two or more replicas, with a disruption budget and its probes on /readyz and /healthz", () => {
      const hpa = named(objects, "HorizontalPodAutoscaler", "gateway");
      expect(hpa?.spec.scaleTargetRef).toMatchObject({ kind: "Deployment", name: "gateway" });
      expect(hpa?.spec.minReplicas).toBeGreaterThanOrEqual(2);
      const pdb = named(objects, "PodDisruptionBudget", "gateway");
      expect(pdb?.spec.selector.matchLabels).toEqual({ "app.kubernetes.io/name": "gateway" });
      const gateway = named(objects, "Deployment", "gateway")!.spec.template.spec.containers[0];
      expect(gateway.readinessProbe.httpGet.path).toBe("/readyz");
      expect(gateway.livenessProbe.httpGet.path).toBe("/healthz");
      for (const workload of workloads(objects).filter((object) => object.metadata.name !== "nats"))
        for (const container of workload.spec.template.spec.containers) {
          expect(container.readinessProbe?.httpGet?.path, workload.metadata.name).toMatch(/^\/(readyz|healthz)$/);
          expect(container.livenessProbe?.httpGet?.path, workload.metadata.name).toBe("/healthz");
        }
    });

    it("runs one workload per component, each starting the image of its own name", () => {
      const images = Object.fromEntries(
        workloads(objects).map((workload) => [workload.metadata.name, workload.spec.template.spec.containers[0].image as string]),
      );
      for (const component of ["gateway", "scripts", "boards", "docs", "drafts", "boxes"])
        expect(images[component], component).toMatch(new RegExp(`(^|/)bancada/${component}(:|@|$)`));
      expect(images.nats).toMatch(/^nats:2\./);
    });

    it("migrates each component in an init container of its own image before it serves, with the database the component uses", () => {
      for (const component of ["gateway", "scripts", "boards", "docs", "drafts", "boxes"]) {
        const pod = workloads(objects).find((workload) => workload.metadata.name === component)!.spec.template.spec;
        const migrate = (pod.initContainers ?? []).find((container: Container) => container.name === "migrate");
        expect(migrate?.command, component).toEqual(["node", "cli/bin/bancada.mjs", "migrate", "--only", component]);
        expect(migrate.image).toBe(pod.containers[0].image);
        const database = (variables: Manifest[]) => variables.find((variable) => variable.name === "DATABASE_URL")?.valueFrom;
        expect(database(migrate.env), component).toEqual(database(pod.containers[0].env));
        expect(migrate.securityContext?.privileged ?? false).toBe(false);
      }
    });

    it("runs NATS as a three-node JetStream cluster that includes auth.conf and reads its passwords from a Secret", () => {
      const nats = named(objects, "StatefulSet", "nats")!;
      expect(nats.spec.replicas).toBe(3);
      expect(named(objects, "Service", nats.spec.serviceName)?.spec.clusterIP).toBe("None");
      expect(nats.spec.volumeClaimTemplates[0].metadata.name).toBe("data");
      const config = objects.find((object) => object.kind === "ConfigMap" && object.metadata.name.startsWith("nats-config"))!;
      expect(config.data["nats.conf"]).toMatch(/^include \.\/auth\.conf$/m);
      expect(config.data["nats.conf"]).toMatch(/jetstream \{[^}]*store_dir: \/data/);
      for (const pod of [0, 1, 2]) expect(config.data["nats.conf"]).toContain(`nats://nats-${pod}.nats-headless:6222`);
      expect(config.data["auth.conf"]).toMatch(/authorization\s*\{/);
      const passwords = [...(config.data["auth.conf"] as string).matchAll(/password:\s*\$(\w+)/g)].map((match) => match[1]);
      expect(passwords.length).toBeGreaterThan(0);
      const container = nats.spec.template.spec.containers[0];
      const secret = container.envFrom.find((source: Manifest) => source.secretRef)?.secretRef.name;
      expect(secret).toMatch(/^bancada-nats-users/);
      const generated = named(objects, "Secret", secret);
      // where the overlay makes the Secret, it holds every password auth.conf reads
      if (generated) for (const name of passwords) expect(Object.keys(generated.data ?? {}), name).toContain(name);
    });

    it("runs NATS with TLS on clients and routes from the Secret bancada-nats-tls, and gives every component tls:// URLs and the CA only", () => {
      const nats = named(objects, "StatefulSet", "nats")!;
      const pod = nats.spec.template.spec;
      const tlsVolume = pod.volumes.find((volume: Manifest) => volume.secret?.secretName === "bancada-nats-tls");
      expect(tlsVolume).toBeDefined();
      expect(pod.containers[0].volumeMounts.find((mount: Manifest) => mount.name === tlsVolume.name)?.mountPath).toBe("/etc/nats-tls");
      const conf = objects.find((object) => object.kind === "ConfigMap" && object.metadata.name.startsWith("nats-config"))!.data[
        "nats.conf"
      ] as string;
      expect(conf).toContain(renderClientTls(k8sNatsTls));
      expect(conf).toContain(indent(renderRouteTls(k8sNatsTls)));
      const config = named(objects, "ConfigMap", "bancada-config")!.data as Record<string, string>;
      const servers = config.NATS_URL!.split(",");
      expect(servers.every((server) => server.startsWith("tls://"))).toBe(true);
      for (const workload of workloads(objects).filter((object) => object.metadata.name !== "nats"))
        for (const container of containersOf(workload)) {
          const where = `${workload.metadata.name}/${container.name}`;
          const mount = (container.volumeMounts ?? []).find((item: Manifest) => config.NATS_TLS_CA!.startsWith(`${item.mountPath}/`));
          expect(mount, where).toBeDefined();
          const volume = workload.spec.template.spec.volumes.find((item: Manifest) => item.name === mount.name);
          // the CA only: the servers' key stays with the servers
          expect(volume.secret, where).toEqual({ secretName: "bancada-nats-tls", items: [{ key: "ca.crt", path: "ca.crt" }] });
        }
      const certificate = named(objects, "Certificate", "nats");
      if (overlay === "prod") {
        expect(certificate?.spec.secretName).toBe("bancada-nats-tls");
        expect(certificate?.spec.usages).toEqual(expect.arrayContaining(["server auth", "client auth"]));
        // every name a route or a component dials
        const dialled = [
          ...servers.map((server) => new URL(server).hostname),
          ...[...conf.matchAll(/nats:\/\/([^:]+):6222/g)].map((match) => match[1]!),
        ];
        for (const name of dialled) expect(certificate?.spec.dnsNames, name).toContain(name);
      } else expect(certificate).toBeUndefined();
    });

    it("gives the bus master secret to the gateway only, and every service its own bus key and no other", () => {
      for (const workload of workloads(objects).filter((object) => object.metadata.name !== "nats")) {
        const env: Manifest[] = workload.spec.template.spec.containers[0].env ?? [];
        const names = env.map((variable) => variable.name);
        if (workload.metadata.name === "gateway") {
          expect(names).toEqual(expect.arrayContaining(["BANCADA_BUS_SIGNING_KEY", "BANCADA_KEY_PEPPER", "DATABASE_URL"]));
          expect(names).not.toContain("BANCADA_BUS_VERIFY_KEY");
        } else {
          expect(names, workload.metadata.name).toEqual(expect.arrayContaining(["BANCADA_BUS_VERIFY_KEY", "DATABASE_URL"]));
          expect(names, workload.metadata.name).not.toContain("BANCADA_BUS_SIGNING_KEY");
          expect(names, workload.metadata.name).not.toContain("BANCADA_KEY_PEPPER");
          const busKey = env.find((variable) => variable.name === "BANCADA_BUS_VERIFY_KEY")!;
          // dev's generated Secrets carry a hash suffix
          expect(busKey.valueFrom.secretKeyRef.name, workload.metadata.name).toMatch(/^bancada-bus-keys(-[a-z0-9]{10})?$/);
          // the node agent is a part of boxes: it holds the boxes key, from which its node's agent key derives
          const service = workload.metadata.name === "boxes-node" ? "boxes" : workload.metadata.name;
          expect(busKey.valueFrom.secretKeyRef.key, workload.metadata.name).toBe(service);
        }
        for (const variable of env.filter((item) => /KEY|PEPPER|PASSWORD|DATABASE_URL|TOKEN/.test(item.name)))
          expect(variable.valueFrom?.secretKeyRef?.name, `${workload.metadata.name} ${variable.name}`).toBeDefined();
      }
    });

    it("denies all traffic by default and lets components reach NATS", () => {
      const deny = named(objects, "NetworkPolicy", "default-deny");
      expect(deny?.spec).toEqual({ podSelector: {}, policyTypes: ["Ingress", "Egress"] });
      expect(named(objects, "NetworkPolicy", "gateway-from-ingress")).toBeDefined();
      expect(named(objects, "NetworkPolicy", "components-to-nats")).toBeDefined();
      expect(named(objects, "NetworkPolicy", "components-to-postgres")).toBeDefined();
      expect(named(objects, "NetworkPolicy", "nats")?.spec.egress[0].ports).toEqual([{ protocol: "TCP", port: 6222 }]);
    });

    it("has one public backend, the gateway, which reaches each service's REST port at the URL the config names", () => {
      const ingress = named(objects, "Ingress", "bancada")!;
      const paths = ingress.spec.rules[0].http.paths.map((route: Manifest) => `${route.path}→${route.backend.service.name}`);
      expect(paths).toEqual(["/→gateway"]);
      const config = named(objects, "ConfigMap", "bancada-config")!.data as Record<string, string>;
      expect(config.BANCADA_PUBLIC_URL).toBe(`https://${ingress.spec.rules[0].host}`);
      for (const service of ["scripts", "boards", "docs", "drafts", "boxes"]) {
        const url = new URL(config[`${service.toUpperCase()}_INTERNAL_URL`]!);
        const target = named(objects, "Service", url.hostname);
        expect(
          target?.spec.ports.map((port: Manifest) => port.port),
          service,
        ).toContain(Number(url.port));
      }
      // only the gateway reaches the services' ports, and it may
      const fromGateway = named(objects, "NetworkPolicy", "rest-from-gateway")!;
      expect(fromGateway.spec.ingress[0].from).toEqual([{ podSelector: { matchLabels: { "app.kubernetes.io/name": "gateway" } } }]);
      expect(named(objects, "NetworkPolicy", "rest-from-ingress")).toBeUndefined();
      expect(named(objects, "NetworkPolicy", "gateway-to-services")?.spec.egress[0].ports).toEqual(fromGateway.spec.ingress[0].ports);
    });
  });

  it("prod renders no Secret and no literal secret value, and takes PostgreSQL from a CloudNativePG Cluster", () => {
    const objects = render("prod");
    expect(objects.filter((object) => object.kind === "Secret")).toEqual([]);
    for (const workload of workloads(objects))
      for (const container of containersOf(workload))
        for (const variable of container.env ?? [])
          expect(String(variable.value ?? ""), `${workload.metadata.name} ${variable.name}`).not.toMatch(
            /postgres(ql)?:\/\/[^@\s]*:[^@\s]*@|PRIVATE KEY|^MC4C/,
          );
    const cluster = objects.find((object) => object.kind === "Cluster");
    expect(cluster?.apiVersion).toBe("postgresql.cnpg.io/v1");
    const urls = workloads(objects)
      .filter((workload) => workload.metadata.name !== "nats")
      .map((workload) => workload.spec.template.spec.containers[0].env.find((variable: Manifest) => variable.name === "DATABASE_URL"));
    for (const url of urls) expect(url.valueFrom.secretKeyRef).toEqual({ name: `${cluster!.metadata.name}-app`, key: "uri" });
  });

  it("dev generates its Secrets from values that say they are for development", () => {
    const secrets = render("dev").filter((object) => object.kind === "Secret");
    expect(secrets.map((secret) => secret.metadata.name.replace(/-[a-z0-9]{10}$/, "")).sort()).toEqual([
      "bancada-boxes",
      "bancada-bus-keys",
      "bancada-database",
      "bancada-gateway",
      "bancada-nats-users",
    ]);
    const decoded = (secret: Manifest) =>
      Object.entries(secret.data as Record<string, string>).map(([key, value]) => [key, Buffer.from(value, "base64").toString()] as const);
    const busKeys = secrets.find((secret) => secret.metadata.name.startsWith("bancada-bus-keys"))!;
    for (const secret of secrets)
      for (const [key, text] of decoded(secret)) {
        // the secrets key and the bus master are themselves base64: their 32 bytes say it
        if (key === "BOXES_SECRETS_KEY" || key === "BANCADA_BUS_SIGNING_KEY")
          expect(Buffer.from(text, "base64").toString(), key).toMatch(/dev-only/);
        else if (secret !== busKeys) expect(text, key).toMatch(/dev-only/);
      }
    // every service's key is the one the dev master derives (docs/gateway.md#trust: HMAC-SHA256(master, "bancada bus key v1\0" + service))
    const gatewaySecret = secrets.find((secret) => secret.metadata.name.startsWith("bancada-gateway"))!;
    const master = Buffer.from(Object.fromEntries(decoded(gatewaySecret)).BANCADA_BUS_SIGNING_KEY!, "base64");
    const services = workloads(render("dev"))
      .map((workload) => workload.metadata.name as string)
      // the boxes node agent holds the boxes key (its agent key derives from it)
      .filter((name) => name !== "gateway" && name !== "nats" && name !== "boxes-node");
    expect(
      decoded(busKeys)
        .map(([key]) => key)
        .sort(),
    ).toEqual([...services].sort());
    for (const [service, line] of decoded(busKeys)) {
      const derived = createHmac("sha256", master).update(`bancada bus key v1\0${service}`).digest("base64");
      expect(line, service).toBe(`${service}:${derived}`);
    }
  });
});
