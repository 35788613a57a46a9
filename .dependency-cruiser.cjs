/**
 * The layers of src/ (docs/architecture.md), bottom first. A module may import its own layer
 * and those below it, never one above, and no import cycle is allowed, type-only imports
 * included. Run by `npm run lint` (scripts/check-layers.ts).
 */
const LAYERS = [
  {
    name: 'base',
    comment: 'configuration and what it is written in: errors, languages, the contract schemas, secrets',
    path: '^src/(config\\.ts|secrets/|errors/|i18n/|contract/|admin/tokens\\.ts|tracing/settings\\.ts)',
  },
  {
    name: 'infrastructure',
    comment: 'the backend client, stores, metrics, tracing, HTTP helpers, and the checks an operation passes',
    path: '^(mappers/|src/(store|metrics|upstream|pagination|tracing|http|killswitch|audit|confirm|auth|limits)/)',
  },
  { name: 'services', comment: 'the replica’s collaborators, built from configuration', path: '^src/services\\.ts$' },
  { name: 'operations', comment: 'what the API does, surface-neutral', path: '^src/operations/' },
  {
    name: 'surfaces',
    comment: 'REST, MCP, the admin server and the Fastify plugins',
    path: '^src/(surfaces|plugins)/|^src/admin/app\\.ts$',
  },
  { name: 'process', comment: 'the composition root and the process', path: '^src/(app|server)\\.ts$' },
];

const upward = LAYERS.slice(0, -1).map((layer, i) => ({
  name: `no-upward-from-${layer.name}`,
  comment: `${layer.name} (${layer.comment}) may not import a layer above it`,
  severity: 'error',
  from: { path: layer.path },
  to: { path: LAYERS.slice(i + 1).map((above) => above.path), pathNot: LAYERS.slice(0, i + 1).map((l) => l.path) },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  LAYERS,
  forbidden: [
    {
      name: 'no-circular',
      comment: 'an import cycle, type-only imports included',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'every-module-in-a-layer',
      comment: 'a module of src/ that no layer names: add it to one in .dependency-cruiser.cjs',
      severity: 'error',
      from: { path: '^src/', pathNot: LAYERS.map((l) => l.path) },
      to: {},
    },
    ...upward,
  ],
  options: {
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|reports|dist|coverage)/' },
  },
};
