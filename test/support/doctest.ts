/**
 * A small doc-test runner: the README and docs/ claim outputs, and this checks every claim.
 *
 * Conventions (documented in docs/CONTRIBUTING-docs.md and at the top of the README's examples):
 * - In a ```ts or ```js block, a line `EXPR; // → VALUE` claims that EXPR evaluates to VALUE; a
 *   line `// → VALUE` of its own makes the claim for the code line just above it.
 *   The block runs as one module (imports from 'skewline' and 'skewline/parallel' resolve to the
 *   source tree), top to bottom, and each claim is compared with the value EXPR yields there.
 * - VALUE is a JavaScript-like literal: numbers (`0.4636476089986…` means "prints starting with
 *   these digits"), strings, true/false/null/undefined, NaN, ±Infinity, arrays and objects. A `…`
 *   entry in an object means "and other keys", in an array "and more elements". Typed arrays
 *   compare as arrays. Anything after the value must be a remark: ` — text`, ` (text)` or `// text`.
 * - A ```console block holds commands after `$ ` and their exact output below them; `skewline`
 *   runs this checkout's CLI.
 * Lines that look like an unchecked claim (`// [`, `// {`, `// true`, a number) are reported, so a
 * claim cannot silently escape checking.
 */

/** A parsed expected value. */
export type Expected =
  | { t: 'num'; v: number; prefix: string | null }
  | { t: 'str'; v: string }
  | { t: 'lit'; v: boolean | null | undefined }
  | { t: 'arr'; items: Expected[]; more: boolean }
  | { t: 'obj'; entries: [string, Expected][]; more: boolean };

/** One claim found in a block. */
export interface Claim {
  /** 1-based line in the markdown file. */
  line: number;
  /** The expression text. */
  expr: string;
  /** The expected value's text. */
  text: string;
}

/** A fenced block of a markdown file. */
export interface Block {
  lang: string;
  /** 1-based line of the first line of code (after the fence). */
  start: number;
  lines: string[];
}

/** The fenced blocks of a markdown text. */
export function fencedBlocks(md: string): Block[] {
  const lines = md.split('\n');
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^```(\w*)\s*$/.exec(lines[i]);
    if (!m) continue;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !/^```\s*$/.test(lines[j])) body.push(lines[j++]);
    out.push({ lang: m[1], start: i + 2, lines: body });
    i = j;
  }
  return out;
}

const CLAIM = /^(\s*)(.*?);?\s*\/\/ → (.*)$/;

/** Splits a code line into a claim, or null. */
export function claimOf(line: string, lineNo: number): Claim | null {
  const m = CLAIM.exec(line);
  if (!m) return null;
  return { line: lineNo, expr: m[2].replace(/;\s*$/, ''), text: m[3] };
}

/** True for a comment that reads like an output claim but has no arrow (so would go unchecked). */
export function looksLikeUncheckedClaim(line: string): boolean {
  if (line.includes('// →')) return false;
  const m = /\/\/\s*(.*)$/.exec(line);
  if (!m) return false;
  return /^(\[|\{|true\b|false\b|-?\d|null\b|'|")/.test(m[1]);
}

/** Parses an expected value; returns it and the remark after it. Throws on malformed text. */
export function parseExpected(text: string): { value: Expected; rest: string } {
  let i = 0;
  const ws = (): void => {
    while (i < text.length && /\s/.test(text[i])) i++;
  };
  const ellipsis = (): boolean => {
    ws();
    if (text.startsWith('…', i)) {
      i += 1;
      return true;
    }
    if (text.startsWith('...', i)) {
      i += 3;
      return true;
    }
    return false;
  };
  const value = (): Expected => {
    ws();
    const c = text[i];
    if (c === '[') {
      i++;
      const items: Expected[] = [];
      let more = false;
      for (;;) {
        ws();
        if (text[i] === ']') {
          i++;
          break;
        }
        if (ellipsis()) more = true;
        else items.push(value());
        ws();
        if (text[i] === ',') i++;
        else if (text[i] !== ']') throw new Error(`expected ',' or ']' at ${i} in ${text}`);
      }
      return { t: 'arr', items, more };
    }
    if (c === '{') {
      i++;
      const entries: [string, Expected][] = [];
      let more = false;
      for (;;) {
        ws();
        if (text[i] === '}') {
          i++;
          break;
        }
        if (ellipsis()) more = true;
        else {
          const km = /^(?:([A-Za-z_$][\w$]*)|'([^']*)'|"([^"]*)")\s*:/.exec(text.slice(i));
          if (!km) throw new Error(`expected a key at ${i} in ${text}`);
          i += km[0].length;
          entries.push([km[1] ?? km[2] ?? km[3], value()]);
        }
        ws();
        if (text[i] === ',') i++;
        else if (text[i] !== '}') throw new Error(`expected ',' or '}' at ${i} in ${text}`);
      }
      return { t: 'obj', entries, more };
    }
    if (c === "'" || c === '"') {
      const end = text.indexOf(c, i + 1);
      if (end < 0) throw new Error(`unterminated string in ${text}`);
      const v = text.slice(i + 1, end);
      i = end + 1;
      return { t: 'str', v };
    }
    const rest = text.slice(i);
    const lit = /^(true|false|null|undefined)\b/.exec(rest);
    if (lit) {
      i += lit[0].length;
      return { t: 'lit', v: lit[1] === 'true' ? true : lit[1] === 'false' ? false : lit[1] === 'null' ? null : undefined };
    }
    const num = /^(-?(?:Infinity|NaN|\d[\d_]*(?:\.\d*)?(?:e[+-]?\d+)?|\.\d+(?:e[+-]?\d+)?|0x[\da-f]+))(…)?/i.exec(rest);
    if (num) {
      i += num[0].length;
      const s = num[1].replace(/_/g, '');
      return { t: 'num', v: Number(s), prefix: num[2] ? s : null };
    }
    throw new Error(`cannot read a value at ${i} in ${text}`);
  };
  const v = value();
  const rest = text.slice(i).trim();
  if (rest !== '' && !/^(—|\(|\/\/)/.test(rest)) throw new Error(`unexpected text after the value: "${rest}" in ${text}`);
  return { value: v, rest };
}

function isArrayish(x: unknown): x is ArrayLike<unknown> {
  return Array.isArray(x) || (ArrayBuffer.isView(x) && !(x instanceof DataView));
}

/** Compares a value with an expectation; returns null when it matches, else where it differs. */
export function mismatch(actual: unknown, e: Expected, path = ''): string | null {
  switch (e.t) {
    case 'num': {
      if (typeof actual !== 'number') return `${path || 'value'}: expected a number, got ${show(actual)}`;
      if (e.prefix !== null) return String(actual).startsWith(e.prefix) ? null : `${path || 'value'}: expected ${e.prefix}…, got ${actual}`;
      if (Number.isNaN(e.v)) return Number.isNaN(actual) ? null : `${path || 'value'}: expected NaN, got ${actual}`;
      return actual === e.v ? null : `${path || 'value'}: expected ${e.v}, got ${actual}`;
    }
    case 'str':
      return actual === e.v ? null : `${path || 'value'}: expected '${e.v}', got ${show(actual)}`;
    case 'lit':
      return actual === e.v ? null : `${path || 'value'}: expected ${String(e.v)}, got ${show(actual)}`;
    case 'arr': {
      if (!isArrayish(actual)) return `${path || 'value'}: expected an array, got ${show(actual)}`;
      if (e.more ? actual.length < e.items.length : actual.length !== e.items.length) {
        return `${path || 'value'}: expected ${e.more ? 'at least ' : ''}${e.items.length} elements, got ${actual.length}`;
      }
      for (let k = 0; k < e.items.length; k++) {
        const m = mismatch(actual[k], e.items[k], `${path}[${k}]`);
        if (m) return m;
      }
      return null;
    }
    case 'obj': {
      if (typeof actual !== 'object' || actual === null) return `${path || 'value'}: expected an object, got ${show(actual)}`;
      const o = actual as Record<string, unknown>;
      for (const [k, v] of e.entries) {
        const m = mismatch(o[k], v, `${path}.${k}`);
        if (m) return m;
      }
      if (!e.more) {
        const extra = Object.keys(o).filter((k) => o[k] !== undefined && !e.entries.some(([q]) => q === k));
        if (extra.length > 0) return `${path || 'value'}: unexpected keys ${extra.join(', ')} (write … to allow them)`;
      }
      return null;
    }
  }
}

function show(x: unknown): string {
  try {
    return JSON.stringify(x, (_k, v: unknown) => (ArrayBuffer.isView(v) ? Array.from(v as unknown as ArrayLike<number>) : v)) ?? String(x);
  } catch {
    return String(x);
  }
}

/**
 * Turns a block into a module that records each claim's actual value in `globalThis.__doc`
 * (an array indexed like `claims`). Imports of 'skewline' are pointed at `entry`.
 */
export function instrument(block: Block, entry: { main: string; parallel: string }): { code: string; claims: Claim[] } {
  const claims: Claim[] = [];
  const out: string[] = [];
  let last = -1; // index in `out` of the last code line: a claim on a line of its own refers to it
  block.lines.forEach((line, k) => {
    let l = line
      .replace(/from 'skewline\/parallel'/, `from '${entry.parallel}'`)
      .replace(/from 'skewline'/, `from '${entry.main}'`);
    const alone = /^\s*\/\/ → (.*)$/.exec(l);
    const c = alone ? (last >= 0 ? claimOf(`${out[last]} // → ${alone[1]}`, block.start + k) : null) : claimOf(l, block.start + k);
    if (c) {
      const at = alone ? last : out.length;
      const indent = /^\s*/.exec(alone ? out[last] : l)?.[0] ?? '';
      const code = `${indent}globalThis.__doc[${claims.length}] = await (async () => (${c.expr}))();`;
      claims.push(c);
      if (alone) {
        out[at] = code;
        out.push('');
        return;
      }
      l = code;
    }
    if (l.trim() !== '' && !/^\s*\/\//.test(l)) last = out.length;
    out.push(l);
  });
  return { code: out.join('\n'), claims };
}
