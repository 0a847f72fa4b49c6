export interface TlsFiles {
  caFile: string;
  certFile: string;
  keyFile: string;
}
export interface Certificates extends TlsFiles {
  /** Per client name: its certificate and key (client authentication only). */
  clients: Record<string, { certFile: string; keyFile: string }>;
}
export function renderClientTls(options: TlsFiles & { verifyClients?: boolean; timeoutSeconds?: number }): string;
export function renderRouteTls(options: TlsFiles & { timeoutSeconds?: number }): string;
export function indent(block: string, spaces?: number): string;
export function makeCertificates(dir: string, options?: { hosts?: string[]; clients?: string[]; days?: number }): Certificates;
