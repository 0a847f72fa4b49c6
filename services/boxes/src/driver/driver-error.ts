/** Conditions a driver reports that the domain turns into the right error code (not bugs). */
export type DriverErrorKind = "gone" | "cwd_missing" | "start_failed";

export class DriverError extends Error {
  override readonly name = "DriverError";
  readonly kind: DriverErrorKind;

  constructor(kind: DriverErrorKind, message: string) {
    super(message);
    this.kind = kind;
  }
}
