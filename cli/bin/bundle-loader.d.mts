export interface BundleManifest {
  id: string;
  builtAt: number;
  root?: string;
  files: Record<string, number>;
}
export declare const bundleName: string;
export declare const manifestName: string;
export declare const importHook: string;
export declare function bundleBanner(id: string): string;
export declare function freshBundle(distDir: string): BundleManifest | undefined;
export declare function runBundle(distDir: string, manifest: BundleManifest): boolean;
