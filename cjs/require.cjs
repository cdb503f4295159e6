// skewline is an ES module. This file answers require('skewline') on runtimes that cannot load
// ES modules through require() (Node.js before 20.19 and 22.12); newer ones never reach it, as
// the "module-sync" export condition comes first.
throw new Error(
  "skewline is an ES module and this Node.js cannot require() ES modules. " +
    "Use `import { closestPoints } from 'skewline'`, or from CommonJS `const skewline = await import('skewline')`, " +
    'or upgrade to Node.js 20.19+ / 22.12+, where require(\'skewline\') works.',
);
