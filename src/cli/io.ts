// Where commands write. Tests pass their own to capture output.
export interface CliIO {
  out(text: string): void;
  err(text: string): void;
  /** Writing to the real terminal streams (colour and progress may apply). */
  readonly isProcess?: boolean;
}

export const processIO: CliIO = {
  isProcess: true,
  out: (text) => { process.stdout.write(text.endsWith('\n') ? text : `${text}\n`); },
  err: (text) => { process.stderr.write(text.endsWith('\n') ? text : `${text}\n`); },
};

/** Exit codes shared by every command (analyze adds 1-3, run adds 5-6). */
export const EXIT_OK = 0;
export const EXIT_INPUT = 4;
