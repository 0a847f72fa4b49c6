/** Where the SSH endpoint listens (ssh/ssh-server.ts); port null: no SSH on this service. */
export interface SshSettings {
  port: number | null;
  host: string;
  /** Why the endpoint is not listening when it was asked for (the listen or host-key error, in one line). */
  failure?: string;
  /** Closes the endpoint this service started (at its stop). */
  close?: () => Promise<void>;
}
