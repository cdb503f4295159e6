/**
 * The bouncing-ball tables in two 2D physics engines, set up as their users would: matter-js
 * (walls as static rectangles — the table's outline thick and outside, free walls thin — a
 * frictionless circle with restitution 1, no air friction, no gravity) and planck.js (Box2D's
 * port: walls as edge fixtures on a static body, the ball a bullet circle with restitution 1 and
 * no friction or damping). Both step by 1/60 s. matter-js works in pixels, so its world is the
 * table scaled by 100.
 */
import Matter from 'matter-js';
import * as planck from 'planck';
import type { Table } from '../../test/support/tables.js';

/** A running simulation of one ball. */
export interface Sim {
  step(): void;
  /** The ball's centre in table units. */
  position(): [number, number];
  /** The ball's speed in table units per second. */
  speed(): number;
}

const DT = 1 / 60;
const S = 100; // matter-js pixels per table unit

function signedArea(pts: [number, number][]): number {
  let a = 0;
  for (let i = 0; i < pts.length; i++) {
    const [x0, y0] = pts[i];
    const [x1, y1] = pts[(i + 1) % pts.length];
    a += x0 * y1 - x1 * y0;
  }
  return a / 2;
}

/** matter-js: the outline's walls are 0.2 thick, placed outside the table; other walls 0.01 thick. */
export function matterSim(t: Table, pos: [number, number], vel: [number, number]): Sim {
  const engine = Matter.Engine.create();
  engine.gravity.x = 0;
  engine.gravity.y = 0;
  const ccw = signedArea(t.outline) > 0;
  const onOutline = (w: Table['walls'][number]) =>
    t.outline.some((p, i) => {
      const q = t.outline[(i + 1) % t.outline.length];
      return p[0] === w[0][0] && p[1] === w[0][1] && q[0] === w[1][0] && q[1] === w[1][1];
    });
  const bodies: Matter.Body[] = [];
  for (const w of t.walls) {
    const [[x0, y0], [x1, y1]] = w;
    const len = Math.hypot(x1 - x0, y1 - y0);
    const outer = onOutline(w);
    const th = outer ? 0.2 : 0.01;
    let cx = (x0 + x1) / 2;
    let cy = (y0 + y1) / 2;
    if (outer && len > 0) {
      // outward normal of a counter-clockwise outline: (ey, −ex)
      const s = ccw ? 1 : -1;
      cx += (s * (y1 - y0) / len) * (th / 2);
      cy += (s * -(x1 - x0) / len) * (th / 2);
    }
    bodies.push(
      Matter.Bodies.rectangle(cx * S, cy * S, Math.max(len, th) * S, th * S, {
        isStatic: true,
        angle: Math.atan2(y1 - y0, x1 - x0),
        restitution: 1,
        friction: 0,
        frictionStatic: 0,
      }),
    );
  }
  const ball = Matter.Bodies.circle(pos[0] * S, pos[1] * S, t.radius * S, {
    restitution: 1,
    friction: 0,
    frictionAir: 0,
    frictionStatic: 0,
    inertia: Infinity,
  });
  Matter.Composite.add(engine.world, [...bodies, ball]);
  // matter-js velocities are in pixels per 1/60 s step
  Matter.Body.setVelocity(ball, { x: vel[0] * S * DT, y: vel[1] * S * DT });
  return {
    step: () => Matter.Engine.update(engine, 1000 * DT),
    position: () => [ball.position.x / S, ball.position.y / S],
    speed: () => Math.hypot(ball.velocity.x, ball.velocity.y) / (S * DT),
  };
}

/** planck.js: edges (a zero-length wall as a circle of radius 0), a bullet ball. */
export function planckSim(t: Table, pos: [number, number], vel: [number, number]): Sim {
  const world = new planck.World({ gravity: planck.Vec2(0, 0) });
  const ground = world.createBody();
  for (const [[x0, y0], [x1, y1]] of t.walls) {
    const shape = x0 === x1 && y0 === y1 ? new planck.Circle(planck.Vec2(x0, y0), 0) : new planck.Edge(planck.Vec2(x0, y0), planck.Vec2(x1, y1));
    ground.createFixture(shape, { restitution: 1, friction: 0 });
  }
  const ball = world.createBody({ type: 'dynamic', position: planck.Vec2(pos[0], pos[1]), bullet: true, fixedRotation: true, linearDamping: 0 });
  ball.createFixture(new planck.Circle(t.radius), { density: 1, restitution: 1, friction: 0 });
  ball.setLinearVelocity(planck.Vec2(vel[0], vel[1]));
  return {
    step: () => world.step(DT, 8, 3),
    position: () => {
      const p = ball.getPosition();
      return [p.x, p.y];
    },
    speed: () => {
      const v = ball.getLinearVelocity();
      return Math.hypot(v.x, v.y);
    },
  };
}
