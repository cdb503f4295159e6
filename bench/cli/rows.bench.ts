/**
 * The CLI's per-row checks, priced: the JSON depth limit (parseJsonText: one scan of the line
 * before JSON.parse) and the finite-output check (finiteResult before a row is formatted), each
 * against the same step without it, on seeded 3D segment pairs as `skewline closest` reads them;
 * and the share of a row's time that is geometry (the part worker threads could take: Amdahl).
 * Run alone: npx tsx bench/cli/rows.bench.ts [--pairs N] [--runs R]
 */
import { closestPoints, multiChainContacts, segment, type ClosestResult, type MultiChainContacts } from '../../src/index.js';
import { ContactWriter } from '../../cli/chain.js';
import { ReferenceGeojsonWriter } from '../../test/cli/geojson-reference.js';
import { CoordStore } from '../../cli/geojson-stream.js';
import { parseJsonText } from '../../cli/rows.js';
import { makeRng } from '../../test/support/rng.js';
import { gridWalk, randomWalk } from '../../test/support/walks.js';
import { finiteClosest, ndjsonFormatter } from '../../cli/output.js';
import { mulberry32 } from '../../scripts/big-input.js';
import { machine, measure, sink, table } from '../harness.js';

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
}

export function run(opts: { pairs?: number; runs?: number } = {}): void {
  const n = Math.min(opts.pairs ?? 100_000, 100_000);
  const runs = opts.runs ?? 7;
  const rnd = mulberry32(1717);
  const pt = (): number[] => [rnd() * 200 - 100, rnd() * 200 - 100, rnd() * 200 - 100];
  const lines: string[] = [];
  const results: ClosestResult[] = [];
  for (let k = 0; k < n; k++) {
    const a = [pt(), pt()], b = [pt(), pt()];
    lines.push(JSON.stringify({ a, b }));
    results.push(closestPoints(segment(a[0], a[1]), segment(b[0], b[1])));
  }
  const parse = measure(
    [
      { name: 'JSON.parse', run: () => lines.reduce((acc, l) => acc + (JSON.parse(l) as { a: number[][] }).a[0][0], 0) },
      { name: 'parseJsonText (depth limit)', run: () => lines.reduce((acc, l) => acc + (parseJsonText(l) as { a: number[][] }).a[0][0], 0) },
    ],
    runs,
  );
  console.log(table(`CLI: reading ${n.toLocaleString('en')} NDJSON rows of 3D segment pairs`, parse, n, 'JSON.parse'));
  const fmt = ndjsonFormatter();
  const write = measure(
    [
      {
        // the formatter before the finite check: JSON.stringify with the −0 replacer
        name: 'JSON.stringify with the -0 replacer (before)',
        run: () => results.reduce((acc, r) => acc + JSON.stringify({ distance: r.distance, c: r.c, d: r.d, p: r.p, s: r.s, t: r.t, relation: r.relation, unique: r.unique },
          (_k, v: unknown) => (Object.is(v, -0) ? '\uE000-0\uE000' : v)).replaceAll('"\uE000-0\uE000"', '-0').length + 1, 0),
      },
      { name: 'ndjsonFormatter (finite check, -0 kept)', run: () => results.reduce((acc, r) => acc + fmt.format(undefined, 3, r).length, 0) },
      { name: 'finiteClosest alone', run: () => results.reduce((acc, r) => (finiteClosest(r, false), acc + 1), 0) },
    ],
    runs,
  );
  console.log(table(`CLI: writing ${n.toLocaleString('en')} closest results as NDJSON`, write, n, 'JSON.stringify with the -0 replacer (before)'));

  // Amdahl before threads: the share of a row's time that is the geometry (what worker threads
  // computing closestPoints could split); reading and writing stay on the calling thread.
  const parsed = lines.map((l) => JSON.parse(l) as { a: number[][]; b: number[][] });
  const steps = measure(
    [
      { name: 'read (parseJsonText)', run: () => lines.reduce((acc, l) => acc + (parseJsonText(l) as { a: number[][] }).a[0][0], 0) },
      { name: 'closestPoints', run: () => parsed.reduce((acc, r) => acc + closestPoints(segment(r.a[0], r.a[1]), segment(r.b[0], r.b[1])).distance, 0) },
      { name: 'write (ndjsonFormatter)', run: () => results.reduce((acc, r) => acc + fmt.format(undefined, 3, r).length, 0) },
    ],
    runs,
  );
  console.log(table(`CLI closest: the steps of ${n.toLocaleString('en')} NDJSON rows`, steps, n, 'closestPoints'));
  const all = steps.reduce((acc, s) => acc + s.median, 0);
  const geometry = steps[1].median / all;
  console.log(`geometry share ${(geometry * 100).toFixed(0)}%: threads computing closestPoints alone could speed a row up at most ${(1 / (1 - geometry)).toFixed(2)}×`);
}

/**
 * Issue 16 (GeoJSON output of contacts ≥ 1M features/s): `skewline chain`'s ContactWriter writing
 * the contacts of 600 seeded 2D walks as GeoJSON features into a counting sink — as bytes, the way
 * the CLI hands them to its output, and as text chunks — beside the string
 * writer it replaced (test/cli/geojson-reference.ts, the same text), JSON.stringify of the same
 * features (parsed back from the writer's output: the engine's own writer, the same shortest
 * round-trip numbers) as the reference, and String() of the contacts' four numbers alone (x, y,
 * s, t: what formatting them as strings costs). Features per CPU second (this process's CPU time,
 * best of runs: on a loaded machine what one free core gives), interleaved in one process.
 */
export async function geojsonOutput(runs: number): Promise<void> {
  const rng = makeRng(2016);
  const lines = [
    '\n### GeoJSON contact features written, per CPU second (issue 16: ≥ 1M)',
    '| walks | contacts | ContactWriter, bytes (as the CLI) | ContactWriter, text chunks | string writer (before) | JSON.stringify of the same features | String() of x, y, s, t alone |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const grid of [false, true]) {
    const store = new CoordStore();
    store.dim = 2;
    const features = 600;
    for (let f = 0; f < features; f++) {
      store.begin({ feature: f });
      const P = grid ? gridWalk(200, 2, rng) : randomWalk(200, 2, rng);
      const x0 = Math.round(rng.next() * 150), y0 = Math.round(rng.next() * 150);
      for (let k = 0; k < P.length; k++) store.push(P[k] + (k % 2 === 0 ? x0 : y0));
    }
    const r: MultiChainContacts = multiChainContacts(Array.from({ length: store.count }, (_, k) => store.chain(k)), { dim: 2, thickness: 0 });
    const write = async (): Promise<string> => {
      const parts: string[] = [];
      const w = new ContactWriter('geojson', true, 0, (t) => parts.push(t));
      for (let f = 0; f < features; f++) w.feature(f, { id: f, properties: { name: `parcel ${f}` } });
      await w.contacts(r, store, 0, () => Promise.resolve());
      w.end(2);
      return parts.join('');
    };
    const objects = (JSON.parse(await write()) as { features: { geometry: { coordinates: unknown } }[] }).features;
    const nums = new Float64Array(4 * r.count);
    objects.forEach((o, k) => {
      const flat = (o.geometry.coordinates as number[] | number[][]).flat() as number[];
      nums[4 * k] = flat[0];
      nums[4 * k + 1] = flat[1];
      nums[4 * k + 2] = r.s[k];
      nums[4 * k + 3] = r.t[k];
    });
    const best = [Infinity, Infinity, Infinity, Infinity, Infinity];
    const featureA = new Map<number, string>(), featureB = new Map<number, string>();
    for (let f = 0; f < features; f++) {
      featureA.set(f, `,"a_name":${JSON.stringify(`parcel ${f}`)},"a_id":${f}`);
      featureB.set(f, `,"b_name":${JSON.stringify(`parcel ${f}`)},"b_id":${f}`);
    }
    const cpu = (c0: NodeJS.CpuUsage): number => {
      const c = process.cpuUsage(c0);
      return (c.user + c.system) / 1e6;
    };
    for (let run = 0; run < runs; run++) {
      let c0 = process.cpuUsage();
      let bytes = 0;
      // As the CLI runs it: the features as bytes (fresh chunks handed to the sink).
      const w = new ContactWriter('geojson', true, 0, (t) => {
        bytes += t.length;
      }, (b) => {
        bytes += b.length;
      });
      for (let f = 0; f < features; f++) w.feature(f, { id: f, properties: { name: `parcel ${f}` } });
      await w.contacts(r, store, 0, () => Promise.resolve());
      w.end(2);
      best[0] = Math.min(best[0], cpu(c0));
      c0 = process.cpuUsage();
      const wt = new ContactWriter('geojson', true, 0, (t) => {
        bytes += t.length;
      });
      for (let f = 0; f < features; f++) wt.feature(f, { id: f, properties: { name: `parcel ${f}` } });
      await wt.contacts(r, store, 0, () => Promise.resolve());
      wt.end(2);
      best[4] = Math.min(best[4], cpu(c0));
      c0 = process.cpuUsage();
      const old = new ReferenceGeojsonWriter(0, (t) => {
        bytes += t.length;
      }, featureA, featureB);
      await old.contacts(r, store, 0, () => Promise.resolve());
      best[1] = Math.min(best[1], cpu(c0));
      c0 = process.cpuUsage();
      for (const o of objects) bytes += JSON.stringify(o).length;
      best[2] = Math.min(best[2], cpu(c0));
      c0 = process.cpuUsage();
      for (let k = 0; k < nums.length; k++) bytes += String(nums[k]).length;
      best[3] = Math.min(best[3], cpu(c0));
      if (bytes === 42) console.log('');
    }
    const rate = (sec: number): string => Math.round(r.count / sec).toLocaleString('en');
    lines.push(`| ${grid ? 'grid (touches, overlaps)' : 'random (exact crossing points)'} | ${r.count.toLocaleString('en')} | ${rate(best[0])} | ${rate(best[4])} | ${rate(best[1])} | ${rate(best[2])} | ${rate(best[3])} |`);
  }
  console.log(lines.join('\n'));
}

if (process.argv[1]?.endsWith('rows.bench.ts') && process.argv.includes('--geojson')) {
  console.log(`skewline GeoJSON output — ${machine()}`);
  await geojsonOutput(arg('--runs', 5));
} else if (process.argv[1]?.endsWith('rows.bench.ts')) {
  console.log(`skewline CLI row benchmarks — ${machine()}`);
  run({ pairs: arg('--pairs', 100_000), runs: arg('--runs', 7) });
  console.log(`(sink ${sink > 0 ? '+' : '-'})`);
}
