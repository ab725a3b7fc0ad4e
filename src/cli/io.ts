// Where commands write. Tests pass their own to capture output.
export interface CliIO {
  out(text: string): void;
  err(text: string): void;
  /** Writing to the real terminal streams (colour may apply). */
  readonly isProcess?: boolean;
  /** Progress of a long run; absent when nobody watches (standard error not a terminal). */
  readonly progress?: (done: number, total: number, file: string) => void;
}

function terminalProgress(done: number, total: number, file: string): void {
  const name = file.length > 60 ? `…${file.slice(-59)}` : file;
  process.stderr.write(`\r\x1b[K[${done}/${total}] ${name}`);
  if (done === total) process.stderr.write('\r\x1b[K');
}

export const processIO: CliIO = {
  isProcess: true,
  ...(process.stderr.isTTY === true ? { progress: terminalProgress } : {}),
  out: (text) => { process.stdout.write(text.endsWith('\n') ? text : `${text}\n`); },
  err: (text) => { process.stderr.write(text.endsWith('\n') ? text : `${text}\n`); },
};

/** Exit codes shared by every command (analyze adds 1-3, run adds 5-6). */
export const EXIT_OK = 0;
export const EXIT_INPUT = 4;
