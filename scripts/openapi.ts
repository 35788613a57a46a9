/** Writes docs/openapi.json from the operation list (npm run openapi). */
import { writeFileSync } from 'node:fs';
import { buildOpenApi } from '../src/http/openapi.ts';
import { OPERATIONS } from '../src/operations/index.ts';

const target = new URL('../docs/openapi.json', import.meta.url);
writeFileSync(target, `${JSON.stringify(buildOpenApi(OPERATIONS), null, 2)}\n`);
console.log(`wrote ${target.pathname} (${OPERATIONS.length} operations)`);
