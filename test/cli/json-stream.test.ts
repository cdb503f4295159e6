/**
 * The incremental JSON reader behind `skewline chain` (cli/json-stream.ts), checked against
 * JSON.parse on seeded random documents cut into random chunks (down to one byte), and its
 * syntax errors checked to be the same wherever the chunks are cut.
 */
import { describe, expect, it } from 'vitest';
import { JsonStream, JsonSyntaxError, STREAMED, type CoordsSink } from '../../cli/json-stream.js';
import { makeRng, type Rng } from '../support/rng.js';

/** Feeds `text` in chunks cut at random places; returns the top-level values and the streamed items. */
function parse(bytes: Buffer, rng: Rng | null): { tops: unknown[]; items: unknown[] } {
  const tops: unknown[] = [];
  const items: unknown[] = [];
  const s = new JsonStream({ item: (v) => items.push(v), top: (v) => tops.push(v) });
  let at = 0;
  while (at < bytes.length) {
    const n = rng === null ? bytes.length : 1 + Math.floor(rng.next() * (rng.next() < 0.3 ? 3 : 40));
    s.push(bytes.subarray(at, at + n));
    at += n;
  }
  s.end();
  return { tops, items };
}

function errorOf(bytes: Buffer, rng: Rng | null): JsonSyntaxError | null {
  try {
    parse(bytes, rng);
    return null;
  } catch (e) {
    if (e instanceof JsonSyntaxError) return e;
    throw e;
  }
}

const STRINGS = ['', 'a', 'Grüße', '日本', '😀 emoji', 'quote " and \\ slash', 'tab\there', 'line\nbreak', '\u0001'];

function randomValue(rng: Rng, depth: number): unknown {
  const r = rng.next();
  if (depth > 3 || r < 0.35) {
    const k = Math.floor(rng.next() * 6);
    if (k === 0) return STRINGS[Math.floor(rng.next() * STRINGS.length)];
    if (k === 1) return rng.next() < 0.5;
    if (k === 2) return null;
    if (k === 3) return Math.floor(rng.next() * 2000) - 1000;
    if (k === 4) return (rng.next() - 0.5) * 10 ** Math.floor(rng.next() * 40 - 20);
    return -0.5;
  }
  if (r < 0.7) return Array.from({ length: Math.floor(rng.next() * 5) }, () => randomValue(rng, depth + 1));
  const o: Record<string, unknown> = {};
  for (let k = Math.floor(rng.next() * 5); k > 0; k--) o[STRINGS[Math.floor(rng.next() * STRINGS.length)] + k] = randomValue(rng, depth + 1);
  return o;
}

/** JSON text with random whitespace (spaces, tabs, CR LF) between tokens. */
function spaced(v: unknown, rng: Rng): string {
  const ws = (): string => [' ', '', '\t', '\r\n', '\n', ''][Math.floor(rng.next() * 6)];
  if (Array.isArray(v)) return `[${ws()}${v.map((x) => spaced(x, rng)).join(`${ws()},${ws()}`)}${ws()}]`;
  if (v !== null && typeof v === 'object') {
    return `{${ws()}${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}${ws()}:${ws()}${spaced(x, rng)}`).join(`,${ws()}`)}${ws()}}`;
  }
  return JSON.stringify(v);
}

describe('JsonStream', () => {
  it('reads 300 random documents (seed 1501) cut into random chunks exactly as JSON.parse does', () => {
    const rng = makeRng(1501);
    for (let n = 0; n < 300; n++) {
      const v = { wrap: randomValue(rng, 0) };
      const text = spaced(v, rng);
      const got = parse(Buffer.from(text), rng);
      expect(got.tops, `seed 1501 document ${n}: ${text}`).toEqual([JSON.parse(text)]);
    }
  });

  it('hands over the features of a FeatureCollection one by one and keeps none of them', () => {
    const rng = makeRng(1502);
    const features = Array.from({ length: 50 }, (_, k) => ({ type: 'Feature', id: k, properties: randomValue(rng, 2), geometry: { type: 'LineString', coordinates: [[k, 0.5], [k + 1, -1e-300]] } }));
    const text = JSON.stringify({ type: 'FeatureCollection', name: 'x', features, bbox: [0, 1] });
    const got = parse(Buffer.from('\uFEFF' + text), rng);
    expect(got.items).toEqual(JSON.parse(text).features);
    expect(got.tops).toEqual([{ type: 'FeatureCollection', name: 'x', features: [], bbox: [0, 1] }]);
  });

  it('reads a sequence of texts: newline-delimited, RFC 7464 record separators, a byte-order mark cut after one byte', () => {
    const a = { type: 'Feature', geometry: null }, b = [[0, 1], [2, 3]], c = 'x';
    const bytes = Buffer.from('\uFEFF' + JSON.stringify(a) + '\r\n\x1e' + JSON.stringify(b) + '\n\x1e' + JSON.stringify(c) + '\n');
    const s = new JsonStream({ item: () => undefined, top: (v) => tops.push(v) });
    const tops: unknown[] = [];
    s.push(bytes.subarray(0, 1));
    s.push(bytes.subarray(1));
    s.end();
    expect(tops).toEqual([a, [], c]); // a top-level array's elements are items
    expect(parse(Buffer.from(''), null).tops).toEqual([]);
    expect(parse(Buffer.from(' \r\n\t'), null).tops).toEqual([]);
  });

  it('reports line:column and what was expected, the same for every way of cutting the chunks (seed 1503)', () => {
    const cases: [string, number, number, RegExp][] = [
      ['{"a":1 "b":2}', 1, 8, /expected ',' or '}' \(got '"'\)/],
      ['[1,2,]', 1, 6, /expected a value \(got '\]'\)/],
      ['{\n  "a": [1, 2\n}', 3, 1, /expected ',' or '\]' \(got '}'\)/],
      ['{"a":tru}', 1, 6, /expected a value \(got 't'\)/],
      ['{"a":1', 1, 7, /expected ',' or '}' \(got the end of the input\)/],
      ['[1e400]', 1, 2, /a number too large for a double \('1e400'\)/],
      ['[-]', 1, 2, /not a JSON number \('-'\)/],
      ['[.5]', 1, 2, /expected a value or '\]' \(got '\.'\)/],
      ['{"a" 1}', 1, 6, /expected ':' \(got '1'\)/],
      ['{1:2}', 1, 2, /expected a string key or '}' \(got '1'\)/],
      ['["abc', 1, 6, /a string is not closed/],
      ['["\\x"]', 1, 2, /a bad escape/],
      ['\r\n\r\n  ]', 3, 3, /expected a JSON value \(got '\]'\)/],
      ['['.repeat(5000) + ']'.repeat(5000), 1, 1001, /nested deeper than 1000 levels/],
    ];
    const rng = makeRng(1503);
    for (const [text, line, column, what] of cases) {
      for (let cut = 0; cut < 20; cut++) {
        const e = errorOf(Buffer.from(text), cut === 0 ? null : rng);
        expect(e, text).not.toBeNull();
        expect([e!.line, e!.column], `${JSON.stringify(text)} (seed 1503, cut ${cut})`).toEqual([line, column]);
        expect(e!.what).toMatch(what);
      }
      // JSON.parse reads 1e400 as Infinity; a coordinate must be a finite double, so it is an error here.
      if (text !== '[1e400]' && !text.startsWith('[[[')) expect(() => JSON.parse(text)).toThrow();
    }
  });

  it('finds the same error wherever chunks are cut in 200 corrupted random documents (seed 1504), and only where JSON.parse fails', () => {
    const rng = makeRng(1504);
    for (let n = 0; n < 200; n++) {
      const text = spaced({ v: randomValue(rng, 0) }, rng);
      const at = Math.floor(rng.next() * text.length);
      const bad = text.slice(0, at) + '}],:x"'[Math.floor(rng.next() * 6)] + text.slice(at + 1);
      let ok = true;
      try {
        JSON.parse(bad);
      } catch {
        ok = false;
      }
      const whole = errorOf(Buffer.from(bad), null);
      expect(whole === null, `seed 1504 document ${n}: ${bad}`).toBe(ok);
      if (whole === null) continue;
      for (let cut = 0; cut < 3; cut++) {
        const e = errorOf(Buffer.from(bad), rng);
        expect([e?.line, e?.column, e?.what], `seed 1504 document ${n}`).toEqual([whole.line, whole.column, whole.what]);
      }
    }
  });

  it('streams a feature\'s coordinates to a CoordsSink: its events rebuild what JSON.parse reads, arrays deeper than its depth and objects come whole, wherever chunks are cut (seed 1505)', () => {
    const rng = makeRng(1505);
    /** Random nested arrays of numbers, with now and then another value. */
    const nested = (depth: number): unknown => {
      const r = rng.next();
      if (depth > 4 || r < 0.3) return r < 0.03 ? randomValue(rng, 3) : (rng.next() - 0.5) * 10 ** rng.int(-5, 5);
      return Array.from({ length: rng.int(0, 4) }, () => nested(depth + 1));
    };
    for (let n = 0; n < 150; n++) {
      const depth = rng.int(0, 3);
      const features = Array.from({ length: rng.int(1, 4) }, (_, k) => {
        const g = { type: 'LineString', coordinates: Array.from({ length: rng.int(0, 4) }, () => nested(1)) };
        // As a Feature's geometry, or the item itself; a `coordinates` elsewhere (properties) is not streamed.
        return rng.chance(0.5) ? g : { type: 'Feature', id: k, properties: { coordinates: [[1, 2]] }, geometry: g };
      });
      const text = spaced({ type: 'FeatureCollection', features }, rng);
      const got: unknown[] = [];
      const items: unknown[] = [];
      const stack: unknown[][] = [];
      const sink: CoordsSink = {
        depth,
        open(d) {
          expect(d).toBe(stack.length);
          const a: unknown[] = [];
          if (d > 0) stack[d - 1].push(a);
          else got.push(a);
          stack.push(a);
        },
        num: (x) => void stack[stack.length - 1].push(x),
        value: (v) => void stack[stack.length - 1].push(v),
        close(d) {
          expect(d).toBe(stack.length - 1);
          stack.pop();
        },
      };
      const s = new JsonStream({ item: (v) => items.push(v), top: () => undefined, coordinates: () => sink });
      const bytes = Buffer.from(text);
      for (let at = 0; at < bytes.length; ) {
        const k = rng.int(1, 30);
        s.push(bytes.subarray(at, at + k));
        at += k;
      }
      s.end();
      const what = `seed 1505 document ${n} (depth ${depth}): ${text}`;
      const parsed = JSON.parse(text) as { features: { coordinates?: unknown; geometry?: { coordinates: unknown } }[] };
      expect(got, what).toEqual(parsed.features.map((f) => f.geometry?.coordinates ?? f.coordinates));
      expect(stack, what).toEqual([]);
      // The built items hold STREAMED in place of the coordinates, and everything else as read.
      for (const f of parsed.features) {
        if (f.geometry !== undefined) f.geometry.coordinates = STREAMED;
        else f.coordinates = STREAMED;
      }
      expect(items, what).toEqual(parsed.features);
      for (const v of items as { geometry?: { coordinates: unknown }; coordinates?: unknown }[]) expect(v.geometry?.coordinates ?? v.coordinates).toBe(STREAMED);
    }
  });

  it('reports a syntax error inside a streamed coordinates member where the array path does, for chunks of 1 to 10 bytes', () => {
    const sink: CoordsSink = { depth: 2, open: () => undefined, num: () => undefined, value: () => undefined, close: () => undefined };
    const cases = ['{"type":"LineString","coordinates":[[1,2],[3,]]}', '{"type":"LineString","coordinates":[[1,2]\n,[3 4]]}', '{"type":"LineString","coordinates":[[1,2],[3,4]}', '{"type":"LineString","coordinates":[[1,2],[3,1e999]]}', '{"type":"LineString","coordinates":[[[[1,2}]]]}'];
    for (const text of cases) {
      const plain = errorOf(Buffer.from(text), null);
      expect(plain, text).not.toBeNull();
      for (let cut = 0; cut < 10; cut++) {
        let e: JsonSyntaxError | null = null;
        const s = new JsonStream({ item: () => undefined, top: () => undefined, coordinates: () => sink });
        try {
          const bytes = Buffer.from(text);
          for (let at = 0; at < bytes.length; at += cut + 1) s.push(bytes.subarray(at, at + cut + 1));
          s.end();
        } catch (x) {
          e = x as JsonSyntaxError;
        }
        expect([e?.line, e?.column, e?.what], `${text} cut ${cut}`).toEqual([plain!.line, plain!.column, plain!.what]);
      }
    }
  });
});
