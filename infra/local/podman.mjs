// From rendered Kubernetes manifests to podman containers: each pod of a Deployment, StatefulSet or DaemonSet becomes
// containers run with the image, command, args, environment, ports, volumes, resources and security context its
// manifest gives. Pure functions (no podman is called here): infra/local/images.mjs runs what they return.
//
// What Kubernetes does and podman is told instead:
// - env: `value` (with `$(VAR)` references to earlier variables), `secretKeyRef`, `configMapKeyRef`, `fieldRef`
//   (metadata.name/namespace, status.podIP/hostIP, spec.nodeName) and `resourceFieldRef` (limits.cpu/memory with a divisor);
//   `envFrom` ConfigMaps and Secrets (with `prefix`), the explicit `env` winning.
// - volumes: `configMap` and `secret` become files (their `items` and `defaultMode` honoured) mounted read-only;
//   `emptyDir` a tmpfs of its `sizeLimit`; a `persistentVolumeClaim`, a StatefulSet's claim template or a
//   `hostPath` a folder of the host under the rehearsal's folder.
// - security: runAsUser/runAsGroup (pod, then container), readOnlyRootFilesystem (--read-only, without podman's
//   own writable /tmp, /run: only the manifest's volumes are writable), capabilities, allowPrivilegeEscalation,
//   privileged, the seccomp profile. A container whose runAsNonRoot contradicts its user is refused, as the
//   kubelet refuses it.
// - resources: the CPU limit (at most the machine's cores) and the memory limit; hostPorts are published on the
//   host's address in the pod network (status.hostIP).

/** The objects of a `kubectl kustomize` output, by kind and name. */
export function indexObjects(docs) {
  const byKind = new Map();
  for (const doc of docs) {
    if (!doc?.kind) continue;
    if (!byKind.has(doc.kind)) byKind.set(doc.kind, new Map());
    byKind.get(doc.kind).set(doc.metadata.name, doc);
  }
  return {
    get: (kind, name) => byKind.get(kind)?.get(name),
    all: (kind) => [...(byKind.get(kind)?.values() ?? [])],
  };
}

/** A Secret's or a ConfigMap's values as strings. */
export function dataOf(object) {
  const out = {};
  if (object.kind === "Secret") {
    for (const [key, value] of Object.entries(object.data ?? {})) out[key] = Buffer.from(value, "base64").toString("utf8");
    Object.assign(out, object.stringData ?? {});
  } else {
    Object.assign(out, object.data ?? {});
  }
  return out;
}

function lookup(objects, kind, name, key, optional) {
  const object = objects.get(kind, name);
  if (!object) {
    if (optional) return undefined;
    throw new Error(`${kind} ${name} is referenced but not rendered`);
  }
  const data = dataOf(object);
  if (key === undefined) return data;
  if (!(key in data)) {
    if (optional) return undefined;
    throw new Error(`${kind} ${name} has no key ${key}`);
  }
  return data[key];
}

/** CPU as cores (a number), memory as bytes, from a Kubernetes quantity. */
export function quantity(value) {
  const text = String(value);
  const match = /^([0-9.]+)([a-zA-Z]*)$/.exec(text);
  if (!match) throw new Error(`not a quantity: ${text}`);
  const number = Number(match[1]);
  const units = { "": 1, m: 1e-3, k: 1e3, K: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4 };
  if (!(match[2] in units)) throw new Error(`unknown unit in ${text}`);
  return number * units[match[2]];
}

function expand(value, env) {
  return value.replace(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (whole, name) => (name in env ? env[name] : whole));
}

/** The environment of one container of a pod, every reference resolved. */
export function resolveEnv(container, { objects, pod }) {
  const env = {};
  for (const source of container.envFrom ?? []) {
    const prefix = source.prefix ?? "";
    const ref = source.configMapRef ?? source.secretRef;
    const kind = source.configMapRef ? "ConfigMap" : "Secret";
    const data = lookup(objects, kind, ref.name, undefined, ref.optional) ?? {};
    for (const [key, value] of Object.entries(data)) env[prefix + key] = value;
  }
  for (const entry of container.env ?? []) {
    let value;
    if (entry.value !== undefined) value = expand(String(entry.value), env);
    else if (entry.valueFrom?.secretKeyRef) {
      const ref = entry.valueFrom.secretKeyRef;
      value = lookup(objects, "Secret", ref.name, ref.key, ref.optional);
    } else if (entry.valueFrom?.configMapKeyRef) {
      const ref = entry.valueFrom.configMapKeyRef;
      value = lookup(objects, "ConfigMap", ref.name, ref.key, ref.optional);
    } else if (entry.valueFrom?.fieldRef) {
      const field = entry.valueFrom.fieldRef.fieldPath;
      const fields = {
        "metadata.name": pod.name,
        "metadata.namespace": pod.namespace,
        "status.podIP": pod.ip,
        "status.hostIP": pod.hostIp,
        "spec.nodeName": pod.nodeName,
      };
      if (!(field in fields)) throw new Error(`fieldRef ${field} is not supported by the rehearsal`);
      value = fields[field];
    } else if (entry.valueFrom?.resourceFieldRef) {
      const { resource, divisor = "1" } = entry.valueFrom.resourceFieldRef;
      const [bucket, kind] = resource.split(".");
      const amount = container.resources?.[bucket]?.[kind];
      if (amount === undefined) throw new Error(`resourceFieldRef ${resource}: the container sets no ${resource}`);
      value = String(Math.ceil(quantity(amount) / quantity(divisor)));
    } else throw new Error(`env ${entry.name}: unsupported source ${JSON.stringify(entry.valueFrom)}`);
    if (value !== undefined) env[entry.name] = value;
  }
  return env;
}

/** The files of a configMap or secret volume: [{ path, content, mode }]. */
export function volumeFiles(volume, objects) {
  const source = volume.configMap ?? volume.secret;
  const kind = volume.configMap ? "ConfigMap" : "Secret";
  const name = volume.configMap ? source.name : source.secretName;
  const data = lookup(objects, kind, name, undefined, source.optional) ?? {};
  const mode = source.defaultMode ?? 0o644;
  const items = source.items ?? Object.keys(data).map((key) => ({ key, path: key }));
  return items.map((item) => {
    if (!(item.key in data)) throw new Error(`${kind} ${name} has no key ${item.key} (volume ${volume.name})`);
    return { path: item.path, content: data[item.key], mode: item.mode ?? mode };
  });
}

/** The user a container runs as (pod securityContext, then the container's), as podman's --user. */
export function userOf(container, podSpec) {
  const pod = podSpec.securityContext ?? {};
  const own = container.securityContext ?? {};
  const user = own.runAsUser ?? pod.runAsUser;
  const group = own.runAsGroup ?? pod.runAsGroup;
  const nonRoot = own.runAsNonRoot ?? pod.runAsNonRoot;
  if (nonRoot && (user === undefined || user === 0))
    throw new Error(`container ${container.name}: runAsNonRoot with ${user === undefined ? "no runAsUser" : "runAsUser 0"}`);
  if (user === undefined) return undefined;
  return group === undefined ? String(user) : `${user}:${group}`;
}

function portNumber(port, container) {
  if (typeof port === "number") return port;
  const found = (container.ports ?? []).find((p) => p.name === port);
  if (!found) throw new Error(`container ${container.name}: no port named ${port}`);
  return found.containerPort;
}

/** A probe as something the host can poll: { kind: "http", url } or { kind: "tcp", host, port }, with its timing. */
export function probeOf(probe, container, ip) {
  if (!probe) return undefined;
  const timing = {
    periodMs: (probe.periodSeconds ?? 10) * 1000,
    failureThreshold: probe.failureThreshold ?? 3,
    timeoutMs: (probe.timeoutSeconds ?? 1) * 1000,
    initialDelayMs: (probe.initialDelaySeconds ?? 0) * 1000,
  };
  if (probe.httpGet) {
    const scheme = (probe.httpGet.scheme ?? "HTTP").toLowerCase();
    return { kind: "http", url: `${scheme}://${ip}:${portNumber(probe.httpGet.port, container)}${probe.httpGet.path ?? "/"}`, ...timing };
  }
  if (probe.tcpSocket) return { kind: "tcp", host: ip, port: portNumber(probe.tcpSocket.port, container), ...timing };
  if (probe.exec) return { kind: "exec", command: probe.exec.command, ...timing };
  throw new Error(`container ${container.name}: unsupported probe ${JSON.stringify(probe)}`);
}

/**
 * The `podman run` arguments of one container of a pod (without the leading `run`).
 * pod: { name, namespace, ip, hostIp, network, hosts: [[name, ip]], labels, cores }
 * mounts: volume name → { type: "bind", source } | { type: "tmpfs", size } (what images.mjs prepared)
 */
export function runArgs(container, podSpec, { objects, pod, mounts, image, name, env: extraEnv = {} }) {
  const args = ["--name", name, "--hostname", pod.name, "--network", pod.network];
  if (pod.ip) args.push("--ip", pod.ip);
  for (const [key, value] of Object.entries(pod.labels ?? {})) args.push("--label", `${key}=${value}`);
  for (const [host, ip] of pod.hosts ?? []) args.push("--add-host", `${host}:${ip}`);
  const own = container.securityContext ?? {};
  const podSecurity = podSpec.securityContext ?? {};
  const user = userOf(container, podSpec);
  if (user) args.push("--user", user);
  for (const group of podSecurity.fsGroup !== undefined ? [podSecurity.fsGroup] : []) args.push("--group-add", String(group));
  if (own.privileged) args.push("--privileged");
  if (own.readOnlyRootFilesystem) args.push("--read-only", "--read-only-tmpfs=false");
  for (const cap of own.capabilities?.drop ?? []) args.push("--cap-drop", cap);
  for (const cap of own.capabilities?.add ?? []) args.push("--cap-add", cap);
  if (own.allowPrivilegeEscalation === false) args.push("--security-opt", "no-new-privileges");
  const seccomp = (own.seccompProfile ?? podSecurity.seccompProfile)?.type;
  if (seccomp === "Unconfined") args.push("--security-opt", "seccomp=unconfined");
  else if (seccomp && seccomp !== "RuntimeDefault")
    throw new Error(`container ${container.name}: seccomp profile ${seccomp} is not supported`);
  const limits = container.resources?.limits ?? {};
  if (limits.cpu) args.push("--cpus", String(Math.min(quantity(limits.cpu), pod.cores)));
  if (limits.memory) args.push("--memory", String(Math.round(quantity(limits.memory))));
  for (const port of container.ports ?? []) {
    if (port.hostPort) args.push("-p", `${pod.hostIp}:${port.hostPort}:${port.containerPort}/${(port.protocol ?? "TCP").toLowerCase()}`);
  }
  for (const mount of container.volumeMounts ?? []) {
    const prepared = mounts[mount.name];
    if (!prepared) throw new Error(`container ${container.name}: volume ${mount.name} is not defined in the pod`);
    const target = mount.mountPath;
    if (prepared.type === "tmpfs") {
      args.push("--mount", `type=tmpfs,destination=${target},tmpfs-mode=1777${prepared.size ? `,tmpfs-size=${prepared.size}` : ""}`);
    } else {
      const source = mount.subPath ? `${prepared.source}/${mount.subPath}` : prepared.source;
      args.push("--mount", `type=bind,source=${source},destination=${target}${mount.readOnly || prepared.readOnly ? ",ro=true" : ""}`);
    }
  }
  const env = { ...resolveEnv(container, { objects, pod }), ...extraEnv };
  for (const key of Object.keys(env)) args.push("--env", key);
  if (container.command) args.push("--entrypoint", JSON.stringify(container.command));
  args.push(image);
  args.push(...(container.args ?? []));
  // the values go through the environment of podman itself (--env NAME takes it from there): no secret in argv
  return { args, env };
}
