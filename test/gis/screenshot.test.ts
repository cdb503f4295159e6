/**
 * The picture in docs/gis.md: world-atlas countries-50m drawn in Chromium with every kink that
 * `kinks` finds in each country marked by its kind, saved as docs/gis/countries-50m.png. The
 * test checks that the page drew what it was given: the outlines, and markers of each kind's
 * colour at the places kinks reported.
 */
import { mkdirSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';
import { expect, it } from 'vitest';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { kinks } from '../../src/index.js';
import { CHROMIUM, REPO, describeBrowser } from '../explorer/browser.js';

const COLORS: Record<string, [number, number, number]> = {
  crossing: [220, 30, 30],
  'vertex-touch': [30, 90, 230],
  't-junction': [240, 150, 0],
  overlap: [150, 40, 190],
};

describeBrowser('docs/gis.md screenshot (issue 17)', () => {
  it('issue 17: countries-50m with its kinks marked, drawn in Chromium and saved as docs/gis/countries-50m.png', async () => {
    const require = createRequire(import.meta.url);
    const topo = JSON.parse(readFileSync(require.resolve('world-atlas/countries-50m.json'), 'utf8')) as Topology;
    const fc = feature(topo, topo.objects.countries as GeometryCollection);
    const rings: number[][][] = [];
    const marks: { x: number; y: number; kind: string; name: string }[] = [];
    for (const f of fc.features) {
      const g = f.geometry;
      if (g === null) continue;
      const polys = g.type === 'MultiPolygon' ? g.coordinates : g.type === 'Polygon' ? [g.coordinates] : [];
      for (const poly of polys) for (const ring of poly) rings.push(ring as number[][]);
      for (const k of kinks(f).features) marks.push({ x: k.geometry.coordinates[0], y: k.geometry.coordinates[1], kind: k.properties.kind, name: String((f.properties as { name?: string } | null)?.name ?? '') });
    }
    expect(marks.length).toBeGreaterThan(0);
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox'] });
    try {
      const page = await browser.newPage({ viewport: { width: 1440, height: 800 } });
      await page.setContent('<!doctype html><body style="margin:0;background:#fff"><canvas id="c" width="1440" height="800"></canvas></body>');
      const seen = await page.evaluate(({ rings, marks, colors }) => {
        const cv = document.getElementById('c') as HTMLCanvasElement;
        const ctx = cv.getContext('2d')!;
        const W = 1440, H = 720, top = 40;
        const px = (lon: number): number => ((lon + 180) / 360) * W;
        const py = (lat: number): number => top + ((90 - lat) / 180) * H;
        ctx.fillStyle = '#eef3f7';
        ctx.fillRect(0, top, W, H);
        ctx.fillStyle = '#fdfdf8';
        ctx.strokeStyle = '#8a8a8a';
        ctx.lineWidth = 0.6;
        for (const ring of rings) {
          ctx.beginPath();
          ring.forEach(([x, y], k) => (k === 0 ? ctx.moveTo(px(x), py(y)) : ctx.lineTo(px(x), py(y))));
          ctx.closePath();
          ctx.fill();
          ctx.stroke();
        }
        // Markers: a ring of the kind's colour around each kink, drawn last, the rarest kinds on top.
        const counts: Record<string, number> = {};
        for (const m of marks) counts[m.kind] = (counts[m.kind] ?? 0) + 1;
        marks.sort((a, b) => counts[b.kind] - counts[a.kind]);
        for (const m of marks) {
          const [r, g, b] = colors[m.kind];
          ctx.strokeStyle = `rgb(${r},${g},${b})`;
          ctx.lineWidth = 2.5;
          ctx.beginPath();
          ctx.arc(px(m.x), py(m.y), 6, 0, 2 * Math.PI);
          ctx.stroke();
        }
        // Title and legend.
        ctx.fillStyle = '#222';
        ctx.font = '16px sans-serif';
        ctx.fillText(`world-atlas countries-50m: ${marks.length} kink points found by skewline kinks (one call per country)`, 10, 24);
        let x = 900;
        for (const kind of Object.keys(colors)) {
          const [r, g, b] = colors[kind];
          ctx.strokeStyle = `rgb(${r},${g},${b})`;
          ctx.lineWidth = 2.5;
          ctx.beginPath();
          ctx.arc(x, 19, 6, 0, 2 * Math.PI);
          ctx.stroke();
          ctx.fillStyle = '#222';
          ctx.font = '13px sans-serif';
          ctx.fillText(`${kind} (${counts[kind] ?? 0})`, x + 10, 24);
          x += 135;
        }
        ctx.font = '12px sans-serif';
        ctx.fillText('Longitude and latitude taken as planar x and y, as turf does: rings that cross the antimeridian (Russia, Fiji) wrap across the map and cross', 10, 780);
        ctx.fillText('themselves in the plane; Antarctica\'s ring runs along latitude −89.999° and back (overlaps); the Netherlands, Canada and Brunei touch themselves at a vertex.', 10, 795);
        // What was drawn: for each kind present, its colour on the circle of at least one of its markers.
        const data = ctx.getImageData(0, 0, cv.width, cv.height).data;
        const found: Record<string, boolean> = {};
        for (const m of marks) {
          const [r, g, b] = colors[m.kind];
          let hit = false;
          for (let a = 0; a < 16 && !hit; a++) {
            const X = Math.round(px(m.x) + 6 * Math.cos((a * Math.PI) / 8)), Y = Math.round(py(m.y) + 6 * Math.sin((a * Math.PI) / 8));
            const o = 4 * (Y * cv.width + X);
            hit = Math.abs(data[o] - r) < 40 && Math.abs(data[o + 1] - g) < 40 && Math.abs(data[o + 2] - b) < 40;
          }
          found[m.kind] = (found[m.kind] ?? false) || hit;
        }
        let outline = 0;
        for (let o = 0; o < data.length; o += 4) if (data[o] < 200 && data[o] === data[o + 1] && data[o + 1] === data[o + 2]) outline++;
        return { found, outline };
      }, { rings, marks, colors: COLORS });
      for (const kind of new Set(marks.map((m) => m.kind))) expect(seen.found[kind], `${kind} markers drawn`).toBe(true);
      expect(seen.outline).toBeGreaterThan(50_000); // grey outline pixels of the countries
      mkdirSync(`${REPO}/docs/gis`, { recursive: true });
      await page.screenshot({ path: `${REPO}/docs/gis/countries-50m.png` });
    } finally {
      await browser.close();
    }
  }, 120_000);
});
