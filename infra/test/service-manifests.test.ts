// Every registered service (@bancada/service-registry) has its place in the Kubernetes manifests, and a check that
// fails names what is missing; a service with no needs of its own is exactly the template (infra/k8s/services.mjs).
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { registeredServices } from "@bancada/service-registry";
import { addService, k8sDir, missingPieces, readSharedFiles, serviceManifest } from "../k8s/services.mjs";

const manifestOf = (name: string) => path.join(k8sDir, "base", `${name}.yaml`);

describe("the services' Kubernetes manifests", () => {
  it("give every registered service its manifest, resources entry, Service URL, images, bus key and NATS password", () => {
    const files = readSharedFiles();
    const missing = registeredServices().flatMap((service) => missingPieces(files, service, existsSync(manifestOf(service.name))));
    expect(missing).toEqual([]);
  });

  it("are the template's for the services with no needs of their own (scripts, boards)", () => {
    for (const name of ["scripts", "boards"]) {
      const service = registeredServices().find((entry) => entry.name === name)!;
      expect(serviceManifest(service), name).toBe(readFileSync(manifestOf(name), "utf8"));
    }
  });

  it("name each missing piece of a new service, and have none once its lines are added (twice changes nothing)", () => {
    const notes = { name: "notes", port: 8793 };
    const files = readSharedFiles();
    expect(missingPieces(files, notes, false)).toEqual([
      "notes: infra/k8s/base/notes.yaml does not exist",
      'notes: infra/k8s/base/kustomization.yaml lacks its manifest among the resources: "- notes.yaml"',
      'notes: infra/k8s/base/config.yaml lacks its Service URL: "NOTES_INTERNAL_URL: http://notes:8793"',
      'notes: infra/k8s/overlays/dev/kustomization.yaml lacks its image: "- { name: bancada/notes, newName: registry.example.com/bancada/notes, newTag: dev }"',
      'notes: infra/k8s/overlays/prod/kustomization.yaml lacks its image: "- { name: bancada/notes, newName: registry.example.com/bancada/notes, newTag: 0.1.0 }"',
      expect.stringMatching(
        /^notes: infra\/k8s\/overlays\/dev\/kustomization.yaml lacks its bus key derived from the dev master: "- notes=notes:[A-Za-z0-9+/]{43}="$/,
      ),
      'notes: infra/k8s/overlays/dev/kustomization.yaml lacks its NATS password: "- BANCADA_NATS_NOTES_PASSWORD=dev-only-notes-password"',
    ]);
    const added = addService(files, notes);
    expect(missingPieces(added, notes, true)).toEqual([]);
    expect(addService(added, notes)).toEqual(added);
    // the new lines come after the existing services', in the registry's order
    expect(added.kustomization.indexOf("- notes.yaml")).toBeGreaterThan(added.kustomization.indexOf("- boxes.yaml"));
    expect(added.kustomization.indexOf("- notes.yaml")).toBeLessThan(added.kustomization.indexOf("- ingress.yaml"));
    for (const service of registeredServices()) expect(missingPieces(added, service, true), service.name).toEqual([]);
  });
});
