// PTX numeric literals: integers in hex, octal, binary and decimal with an
// optional U suffix; floats as 0f/0d bit patterns or decimal.

export interface IntLiteral {
  readonly text: string;
  readonly value: bigint;
  readonly unsigned: boolean;
}

export interface FloatLiteral {
  readonly text: string;
  readonly value: number;
  readonly form: 'f32-bits' | 'f64-bits' | 'decimal';
}

export function parseIntLiteral(text: string): IntLiteral {
  const unsigned = text.endsWith('U');
  const body = unsigned ? text.slice(0, -1) : text;
  let value: bigint;
  const c = body.charCodeAt(1);
  try {
    if (body.length < 10 && body.charCodeAt(0) !== 48) value = BigInt(Number(body));
    else if (c === 120 || c === 88 || c === 98 || c === 66) value = BigInt(body); // 0x 0X 0b 0B
    else if (body.length > 1 && body.startsWith('0')) value = BigInt(`0o${body.slice(1)}`);
    else value = BigInt(body);
  } catch {
    value = 0n; // e.g. octal with 8/9 digits; F0xx checks judge the literal.
  }
  return { text, value, unsigned };
}

export function parseFloatLiteral(text: string): FloatLiteral {
  const c = text[1];
  if (text.length > 2 && text[0] === '0' && (c === 'f' || c === 'F')) {
    const bits = Number.parseInt(text.slice(2, 10), 16) >>> 0;
    const view = new DataView(new ArrayBuffer(4));
    view.setUint32(0, bits);
    return { text, value: view.getFloat32(0), form: 'f32-bits' };
  }
  if (text.length > 2 && text[0] === '0' && (c === 'd' || c === 'D')) {
    const hex = text.slice(2, 18).padStart(16, '0');
    const view = new DataView(new ArrayBuffer(8));
    view.setUint32(0, Number.parseInt(hex.slice(0, 8), 16) >>> 0);
    view.setUint32(4, Number.parseInt(hex.slice(8, 16), 16) >>> 0);
    return { text, value: view.getFloat64(0), form: 'f64-bits' };
  }
  return { text, value: Number(text), form: 'decimal' };
}
