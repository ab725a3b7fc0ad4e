// Reading PTX input: files or standard input, decoded as UTF-8 without ever
// throwing on bad bytes; unreadable files become one-line InputErrors.
import { readFile } from 'node:fs/promises';

/** An input problem the user must fix (missing file, bad option): exit 4. */
export class InputError extends Error {
  override readonly name = 'InputError';
}

/** Decodes file bytes as UTF-8. Invalid sequences become U+FFFD, which the
 *  lexer reports outside comments; nothing here throws. */
export function decodePtx(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: false, ignoreBOM: true }).decode(bytes);
}

/** Reads a PTX file (or standard input for `-`) as text. */
export async function readPtxSource(path: string): Promise<string> {
  try {
    if (path === '-') {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return decodePtx(Buffer.concat(chunks));
    }
    return decodePtx(await readFile(path));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : code === 'EACCES' ? 'permission denied' : String(code ?? err);
    throw new InputError(`cannot read '${path}': ${why}`);
  }
}
